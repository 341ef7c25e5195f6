import SwiftSyntax

/// How an evaluated `LAContext` goes back to the code that called the function evaluating it:
/// the function returns it, or hands it to a closure it was given (`completion(.success(context))`)
/// or to a continuation (`resume(returning: context)`). A function that gives its caller the
/// context, and not only the result, does so for the caller to use it: whether the
/// authentication is bound to a keychain item is decided there.
public struct ContextWayBack: Equatable, Sendable {
  /// The function whose callers receive the context (`requestAccess(localizedReason:)`); nil
  /// at the top of a file.
  public var function: String?
  /// The closure parameter or continuation call it goes through; nil when it is returned.
  public var through: String?

  /// Where it goes, to follow "the context is": "returned to the code that calls
  /// `unlock()`", "handed back to the code that calls `unlock(then:)` (through `then`)".
  public var destination: String {
    let caller = function.map { "the code that calls `\($0)`" } ?? "the calling code"
    guard let through else { return "returned to \(caller)" }
    return "handed back to \(caller) (through `\(through)`)"
  }

  /// `.success(value)`, `Result.success(value)`, `.some(value)`, `Optional.some(value)`: the
  /// standard library's cases that carry one value on to wherever they go.
  static func isCarryingCase(_ call: FunctionCallExprSyntax) -> Bool {
    guard call.arguments.count == 1, call.arguments.first?.label == nil,
      let member = call.calledExpression.as(MemberAccessExprSyntax.self),
      let type = carryingCases[member.declName.baseName.text]
    else { return false }
    return member.base == nil || member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == type
  }

  /// Each carrying case, with the type that declares it.
  private static let carryingCases = ["success": "Result", "some": "Optional"]

  /// The value `expression` carries: the argument of a carrying case, else itself.
  static func carriedValue(_ expression: ExprSyntax) -> ExprSyntax {
    guard let call = expression.as(FunctionCallExprSyntax.self), isCarryingCase(call) else { return expression }
    return call.arguments.first!.expression
  }

  /// `continuation.resume(returning: value)`: a continuation's result, which its `await`er gets.
  static func isResumption(_ call: FunctionCallExprSyntax) -> Bool {
    call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "resume"
      && SyntaxFacts.argumentLabels(call) == ["returning"]
  }
}

extension SemanticModel {
  /// How the context held by `contexts` (or an alias of it) goes back to the caller of the
  /// function around it, the first such use in source order; nil when it does not.
  func contextWayBack(from contexts: [Binding]) -> ContextWayBack? {
    var ways: [(position: AbsolutePosition, way: ContextWayBack)] = []
    for binding in contextHandOffs.withAliases(contexts)
    where binding.kind == .constant || binding.kind == .variable || binding.kind == .parameter {
      guard let scope = Self.scopeNode(of: binding) else { continue }
      let references = ReferenceCollector(name: binding.name)
      references.walk(scope)
      for reference in references.found where resolver.binding(denotedBy: ExprSyntax(reference))?.id == binding.id {
        if let way = wayBack(carrying: Syntax(reference)) { ways.append((reference.position, way)) }
      }
    }
    return ways.min { $0.position < $1.position }?.way
  }

  private func wayBack(carrying reference: Syntax) -> ContextWayBack? {
    var carrier = reference
    if let wrapper = SyntaxFacts.callTaking(carrier)?.call, ContextWayBack.isCarryingCase(wrapper) {
      carrier = Syntax(wrapper)
    }
    let through: String?
    if carrier.parent?.is(ReturnStmtSyntax.self) == true, Self.returnsFromFunction(carrier) {
      through = nil
    } else if let call = SyntaxFacts.callTaking(carrier)?.call,
      let callee = call.calledExpression.as(DeclReferenceExprSyntax.self),
      resolver.binding(denotedBy: ExprSyntax(callee))?.kind == .parameter
    {
      through = callee.baseName.text
    } else if let call = SyntaxFacts.callTaking(carrier)?.call, ContextWayBack.isResumption(call) {
      through = "resume(returning:)"
    } else {
      return nil
    }
    let function = SyntaxFacts.functionDeclaration(holding: carrier).map { declaration in
      CallShape.signature(
        name: declaration.name.text,
        labels: declaration.signature.parameterClause.parameters.map { $0.firstName.text })
    }
    return ContextWayBack(function: function, through: through)
  }

  /// Whether a `return` at `node` leaves a function, not a closure inside it.
  private static func returnsFromFunction(_ node: Syntax) -> Bool {
    var current = node.parent
    while let ancestor = current {
      if ancestor.is(ClosureExprSyntax.self) { return false }
      if ancestor.is(FunctionDeclSyntax.self) { return true }
      current = ancestor.parent
    }
    return false
  }
}
