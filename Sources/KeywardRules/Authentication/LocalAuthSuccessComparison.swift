import KeywardCore
import SwiftSyntax

/// Judges a failure path by what the success path of the same check does: the failure path
/// grants when it does what success does. It calls the same continuation (`proceed()` on both
/// branches), answers `true` where success answers the evaluation's result, or returns stored
/// data (a cached credential from `UserDefaults`) where success returns the protected data.
struct SuccessComparison {
  let model: SemanticModel
  /// Every failure path of the file: what runs on one is not what success does.
  let failureRegions: [Syntax]

  /// Calls whose sameness on both paths says nothing about access: logging, user interface
  /// upkeep, dispatching (the work dispatched is compared instead), releasing a semaphore or a
  /// dispatch group.
  static let neutralWords = [
    "log", "print", "track", "analytic", "report", "record", "dismiss", "hide", "reload", "layout", "animat",
    "invalidate", "async", "sync", "haptic", "feedback", "stop", "remove", "reset", "clear", "cancel", "fail",
    "error", "alert", "deny", "update", "refresh", "set", "notify", "post", "signal", "leave",
  ]

  /// What `path` grants, judged against its success path.
  func grants(on path: FailurePath) -> [Syntax] {
    guard !path.success.isEmpty else { return [] }
    let failure = Collected(path.region)
    let success = path.success.map(Collected.init)
    let successCalls = success.flatMap(\.calls).filter { !isOnFailurePath(Syntax($0)) }
    let successReturns = success.flatMap(\.returns).filter { !isOnFailurePath(Syntax($0)) }
    var found: [Syntax] = []
    for call in failure.calls where isContinuation(call) {
      let key = Self.key(of: call)
      if successCalls.contains(where: { Self.key(of: $0) == key }) { found.append(Syntax(call)) }
    }
    for returned in failure.returns {
      let text = SyntaxFacts.text(returned)
      if text == "true", successReturns.contains(where: returnsEvaluationResult) {
        found.append(Syntax(returned))
      } else if readsStoredCopy(returned), successReturns.contains(where: Self.isData) {
        found.append(Syntax(returned))
      }
    }
    return found
  }

  private func isOnFailurePath(_ node: Syntax) -> Bool {
    failureRegions.contains { $0.range.contains(node.position) && $0.range.contains(node.endPosition) }
  }

  /// A call made as a statement of its own (an action, not a value used), that is not upkeep,
  /// reports no failure and hands no closure on.
  private func isContinuation(_ call: FunctionCallExprSyntax) -> Bool {
    var statement = Syntax(call)
    while let parent = statement.parent, parent.is(TryExprSyntax.self) || parent.is(AwaitExprSyntax.self) {
      statement = parent
    }
    guard statement.parent?.is(CodeBlockItemSyntax.self) == true, let name = SyntaxFacts.calledName(call)?.lowercased(),
      call.trailingClosure == nil,
      !call.arguments.contains(where: { $0.expression.is(ClosureExprSyntax.self) }),
      !call.arguments.contains(where: { ReportedOutcome.of($0.expression) == .failure }),
      !Self.neutralWords.contains(where: name.contains), !GrantFinder.authenticatingCalls.contains(name)
    else { return false }
    // A type's initializer (`Error(…)`) or a type's method (`DispatchQueue.main…`) continues nothing.
    guard SyntaxFacts.calledName(call)?.first?.isLowercase == true else { return false }
    return SyntaxFacts.receiver(of: call).map { SyntaxFacts.text($0).first?.isUppercase != true } ?? true
  }

  private static func key(of call: FunctionCallExprSyntax) -> String {
    "\(SyntaxFacts.text(call.calledExpression))(\(call.arguments.map { SyntaxFacts.text($0) }.joined(separator: ",")))"
  }

  /// `return try await context.evaluatePolicy(…)`, `return ok` where `ok` holds it, or a default
  /// after `try?`.
  private func returnsEvaluationResult(_ returned: ExprSyntax) -> Bool {
    var value = SequenceShape.unwrap(returned)
    if let binding = model.resolver.binding(denotedBy: value), let initializer = binding.initializer {
      value = SequenceShape.unwrap(initializer)
    }
    guard !value.is(PrefixOperatorExprSyntax.self) else { return false }
    return value.tokens(viewMode: .sourceAccurate).contains { $0.text == "evaluatePolicy" }
  }

  /// A value read from a store kept beside the protected one: `UserDefaults`, a `forKey:` lookup,
  /// or a cached copy.
  private func readsStoredCopy(_ returned: ExprSyntax) -> Bool {
    guard !Self.isAnswer(returned) else { return false }
    return returned.tokens(viewMode: .sourceAccurate).contains { token in
      let text = token.text
      return text == "UserDefaults" || (text == "forKey" && token.nextToken(viewMode: .sourceAccurate)?.text == ":")
        || text.lowercased().hasPrefix("cached")
    }
  }

  /// A returned value that is data rather than an answer or nothing.
  private static func isData(_ returned: ExprSyntax) -> Bool { !isAnswer(returned) }

  private static func isAnswer(_ returned: ExprSyntax) -> Bool {
    let text = SyntaxFacts.text(returned)
    return ["true", "false", "nil", "()"].contains(text) || GrantFinder.isComparison(returned)
      || ReportedOutcome.of(returned) != nil
  }

  /// Calls and returned values of a region, not entering nested functions.
  private struct Collected {
    var calls: [FunctionCallExprSyntax]
    var returns: [ExprSyntax]

    init(_ region: Syntax) {
      let collector = GrantFinder.Collector(viewMode: .sourceAccurate)
      collector.walk(region)
      calls = collector.calls
      returns = collector.returns
    }
  }
}
