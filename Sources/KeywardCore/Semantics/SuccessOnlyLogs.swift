import SwiftSyntax

/// A reply whose `success` decides nothing but a message: every use of it is the one condition
/// of an `if` whose body only logs (`if success { print("Authenticated") }`) or shows an alert
/// whose texts are written in the source (`showAlert(title: "Success", message: "…")`). What
/// runs on success then runs on failure too, less the message, so the result guards nothing.
enum SuccessOnlyLogs {
  static func holds(for reply: ClosureExprSyntax) -> Bool {
    guard let success = SyntaxFacts.closureParameterNames(reply).first, success != "_" else { return false }
    let finder = UseFinder(name: success)
    finder.walk(reply.statements)
    return !finder.uses.isEmpty && finder.uses.allSatisfy(decidesOnlyALogLine)
  }

  /// Whether `use` is the whole condition of an `if` whose body holds only logging calls.
  private static func decidesOnlyALogLine(_ use: DeclReferenceExprSyntax) -> Bool {
    guard let element = use.parent?.as(ConditionElementSyntax.self),
      let conditions = element.parent?.as(ConditionElementListSyntax.self), conditions.count == 1,
      let ifExpression = conditions.parent?.as(IfExprSyntax.self)
    else { return false }
    let statements = ifExpression.body.statements
    return !statements.isEmpty
      && statements.allSatisfy { item in
        item.item.as(ExprSyntax.self)?.as(FunctionCallExprSyntax.self).map { isLogging($0) || isFixedAlert($0) }
          ?? false
      }
  }

  /// A call of an alert or toast helper (`showAlert(title: "Success", message: "…", on: self)`)
  /// given only texts written in the source and `self`: it tells the user something fixed and
  /// hands nothing on.
  static func isFixedAlert(_ call: FunctionCallExprSyntax) -> Bool {
    guard let name = SyntaxFacts.calledName(call)?.lowercased(), name.contains("alert") || name.contains("toast"),
      call.trailingClosure == nil, !call.arguments.isEmpty
    else { return false }
    return call.arguments.allSatisfy {
      SyntaxFacts.stringLiteralValue($0.expression) != nil || SyntaxFacts.isSelf($0.expression)
    }
  }

  /// `print`, `debugPrint`, `NSLog`, `os_log`, `dump`, or a level method of a logger
  /// (`logger.info(…)`, `Log.debug(…)`: a receiver whose name holds "log").
  static func isLogging(_ call: FunctionCallExprSyntax) -> Bool {
    if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) {
      return loggingFunctions.contains(reference.baseName.text)
    }
    guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base,
      levels.contains(member.declName.baseName.text)
    else { return false }
    return SyntaxFacts.text(base).lowercased().contains("log")
  }

  private static let loggingFunctions: Set<String> = ["print", "debugPrint", "NSLog", "os_log", "dump"]
  private static let levels: Set<String> = [
    "log", "trace", "debug", "verbose", "info", "notice", "warning", "warn", "error", "fault", "critical",
  ]

  /// The references to the parameter in the closure's body, not inside closures that declare
  /// their own parameter of that name.
  private final class UseFinder: SyntaxVisitor {
    let name: String
    var uses: [DeclReferenceExprSyntax] = []

    init(name: String) {
      self.name = name
      super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
      if node.baseName.text == name { uses.append(node) }
      return .skipChildren
    }

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
      SyntaxFacts.closureParameterNames(node).contains(name) ? .skipChildren : .visitChildren
    }
  }
}
