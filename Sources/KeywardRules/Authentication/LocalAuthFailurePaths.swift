import Foundation
import KeywardCore
import SwiftSyntax

/// A region of code that runs only when local authentication did not succeed.
struct FailurePath {
  var region: Syntax
  var situation: String
  /// For a path that is a value (the default of `(try? await evaluatePolicy(…)) ?? true`):
  /// that value, which grants access when it reports success.
  var value: ExprSyntax? = nil
  /// What runs when the same check succeeds (the other branch, the code after a `guard`, the
  /// `do` body), for judging this path by comparison (`SuccessComparison`); empty when unknown.
  var success: [Syntax] = []
  /// Whether the path is the reply's `success` being false: its `error` is then always set, so
  /// code inside it that runs only without an error never runs.
  var successIsFalse = false

  /// Who takes this path: a passcode-policy check fails only on a device without one.
  var who: String {
    situation == FailurePathFinder.noPasscode
      ? "on a device without a passcode, anyone holding it"
      : "whoever cancels the prompt or makes biometrics unavailable"
  }
}

/// Finds failure paths: the reply's `success` false or `error` set, `canEvaluatePolicy` false,
/// the `catch` of an awaited evaluation, and cases for unavailable biometrics.
final class FailurePathFinder {
  let model: SemanticModel
  private(set) var paths: [FailurePath] = []
  /// Regions of reply closures that run only when the reply's `error` is nil (the `else` of
  /// `if let error`): on a `success`-false path they never run.
  private(set) var errorFreeRegions: [Syntax] = []
  /// Reply closures by identity, with their `success` and `error` parameter names.
  private var replies: [SyntaxIdentifier: (success: String?, error: String?)] = [:]
  static let noPasscode = "when the device has no passcode"
  static let errorReported = "when the reply reports an error"
  static func successFalse(_ name: String) -> String { "when `\(name)` is false" }

  /// Whether `node` lies in code of `path` that never runs: without an error on a path where
  /// `success` is false (LocalAuthentication always reports why an evaluation failed).
  func neverRuns(_ node: Syntax, on path: FailurePath) -> Bool {
    path.successIsFalse
      && errorFreeRegions.contains { region in
        region.position >= path.region.position && region.endPosition <= path.region.endPosition
          && node.position >= region.position && node.endPosition <= region.endPosition
      }
  }
  static let unavailableCases: Set<String> = [
    "biometryNotAvailable", "biometryNotEnrolled", "passcodeNotSet", "userFallback",
  ]

  init(model: SemanticModel) {
    self.model = model
    for evaluation in model.policyEvaluations {
      if let reply = evaluation.reply {
        let names = SyntaxFacts.closureParameterNames(reply)
        replies[reply.id] = (names.first, names.count > 1 ? names[1] : nil)
        if evaluation.replyIgnoresResult {
          paths.append(
            FailurePath(
              region: Syntax(reply.statements),
              situation: "whatever the outcome (the reply ignores `success` and `error`)"))
        }
      } else if let fallback = Self.defaultWhenThrowing(evaluation.call) {
        paths.append(
          FailurePath(
            region: Syntax(fallback), situation: "when `evaluatePolicy` fails (the default after `try?`)",
            value: fallback))
      } else if let doStatement = Self.enclosingDo(of: Syntax(evaluation.call)) {
        for clause in doStatement.catchClauses {
          paths.append(
            FailurePath(
              region: Syntax(clause.body), situation: "in the `catch` of `evaluatePolicy`",
              success: [Syntax(doStatement.body)]))
        }
      }
    }
    for branch in model.index.branches {
      if let node = branch.as(IfExprSyntax.self) {
        classify(node.conditions, whenTrue: Syntax(node.body), whenFalse: node.elseBody.map(Syntax.init), at: branch)
      } else if let node = branch.as(GuardStmtSyntax.self) {
        classify(node.conditions, whenTrue: nil, whenFalse: Syntax(node.body), at: branch)
      } else if let node = branch.as(SwitchCaseSyntax.self) {
        classifyCase(node)
      }
    }
  }

  private func classifyCase(_ node: SwitchCaseSyntax) {
    guard case .case(let label) = node.label else { return }
    let names = label.caseItems.compactMap { item -> String? in
      guard let pattern = item.pattern.as(ExpressionPatternSyntax.self),
        let member = pattern.expression.as(MemberAccessExprSyntax.self)
      else { return nil }
      return member.declName.baseName.text
    }
    guard let name = names.first(where: Self.unavailableCases.contains) else { return }
    // A case that only names the missing passcode is the device without one.
    let situation = names.allSatisfy { $0 == "passcodeNotSet" } ? Self.noPasscode : "on `.\(name)`"
    paths.append(FailurePath(region: Syntax(node.statements), situation: situation))
  }

  private enum Meaning { case success, failure }

  private func classify(
    _ conditions: ConditionElementListSyntax, whenTrue: Syntax?, whenFalse: Syntax?, at node: Syntax
  ) {
    let reply = enclosingReply(of: node)
    for element in conditions {
      let meaning: (Meaning, String)?
      switch element.condition {
      case .expression(let expression): meaning = self.meaning(of: expression, reply: reply)
      case .optionalBinding(let binding):
        let bound =
          binding.initializer.map { SyntaxFacts.text(SequenceShape.unwrap($0.value)) }
          ?? SyntaxFacts.text(binding.pattern)
        meaning = bound == reply?.error ? (.failure, Self.errorReported) : nil
      default: meaning = nil
      }
      guard let (kind, situation) = meaning else { continue }
      if situation == Self.errorReported, let errorFree = kind == .success ? whenTrue : whenFalse {
        errorFreeRegions.append(errorFree)
      }
      guard let region = kind == .success ? whenFalse : whenTrue else { continue }
      let success = (kind == .success ? whenTrue : whenFalse).map { [$0] } ?? Self.statements(after: node)
      var path = FailurePath(region: region, situation: situation, success: success)
      path.successIsFalse = reply?.success.map { situation == Self.successFalse($0) } ?? false
      paths.append(path)
    }
  }

  /// Whether a condition being true means authentication succeeded or failed.
  private func meaning(of expression: ExprSyntax, reply: (success: String?, error: String?)?) -> (Meaning, String)? {
    if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!" {
      guard let (kind, situation) = meaning(of: prefix.expression, reply: reply) else { return nil }
      return (kind == .success ? .failure : .success, situation)
    }
    let unwrapped = SequenceShape.unwrap(expression)
    if let sequence = unwrapped.as(SequenceExprSyntax.self) {
      let elements = Array(sequence.elements)
      guard elements.count == 3, let op = SequenceShape.operatorText(elements[1]),
        op == "==" || op == "!="
      else { return nil }
      let right = SyntaxFacts.text(elements[2])
      if let error = reply?.error, SyntaxFacts.text(elements[0]) == error, right == "nil" {
        return (op == "!=" ? .failure : .success, Self.errorReported)
      }
      // `x == true` and `x != false` keep the meaning of `x`; `x == false` and `x != true` flip it.
      guard right == "true" || right == "false", let (kind, situation) = meaning(of: elements[0], reply: reply) else {
        return nil
      }
      let flips = (op == "!=") != (right == "false")
      return (flips ? (kind == .success ? .failure : .success) : kind, situation)
    }
    let text = SyntaxFacts.text(unwrapped)
    if let reply, text == reply.success { return (.success, Self.successFalse(text)) }
    if let reply, text == reply.error { return (.failure, Self.errorReported) }
    if let call = unwrapped.as(FunctionCallExprSyntax.self) {
      switch SyntaxFacts.calledName(call) {
      case "canEvaluatePolicy":
        // `.deviceOwnerAuthentication` (raw 2) fails only when the device has no passcode; the
        // watch and companion policies fail without their device.
        let policies = SyntaxFacts.argument(call, at: 0).map(model.policies(of:)) ?? []
        let passcodeOnly = !policies.isEmpty && policies.allSatisfy { $0.rawValue == 2 }
        return (.success, passcodeOnly ? Self.noPasscode : "when biometrics cannot be evaluated")
      case "evaluatePolicy": return (.success, "when `evaluatePolicy` returns false")
      default: return nil
      }
    }
    // `if ok` where `let ok = try await context.evaluatePolicy(...)`.
    if let binding = model.resolver.binding(denotedBy: unwrapped), let initializer = binding.initializer,
      let call = SequenceShape.unwrap(initializer).as(FunctionCallExprSyntax.self),
      SyntaxFacts.calledName(call) == "evaluatePolicy"
    {
      return (.success, "when `evaluatePolicy` returns false")
    }
    return nil
  }

  /// The statements after a `guard` in its block: what runs when its conditions hold.
  private static func statements(after node: Syntax) -> [Syntax] {
    guard node.is(GuardStmtSyntax.self), let item = node.parent?.as(CodeBlockItemSyntax.self),
      let list = item.parent?.as(CodeBlockItemListSyntax.self),
      let position = list.firstIndex(where: { $0.id == item.id })
    else { return [] }
    return list[list.index(after: position)...].map(Syntax.init)
  }

  private func enclosingReply(of node: Syntax) -> (success: String?, error: String?)? {
    var current = node.parent
    while let candidate = current {
      if let reply = replies[candidate.id] { return reply }
      if candidate.is(FunctionDeclSyntax.self) { return nil }
      current = candidate.parent
    }
    return nil
  }

  /// `false` in `(try? await context.evaluatePolicy(…)) ?? false`: the value taken when the
  /// evaluation throws, that is when authentication failed.
  static func defaultWhenThrowing(_ call: FunctionCallExprSyntax) -> ExprSyntax? {
    var node = Syntax(call)
    var isOptional = false
    while let parent = node.parent {
      if let attempt = parent.as(TryExprSyntax.self) {
        isOptional = attempt.questionOrExclamationMark?.tokenKind == .postfixQuestionMark
      } else if !(parent.is(AwaitExprSyntax.self) || parent.is(LabeledExprSyntax.self)
        || parent.is(LabeledExprListSyntax.self) || parent.as(TupleExprSyntax.self)?.elements.count == 1)
      {
        break
      }
      node = parent
    }
    guard isOptional, let list = node.parent?.as(ExprListSyntax.self),
      let position = list.firstIndex(where: { $0.id == node.id })
    else { return nil }
    let rest = list[list.index(after: position)...]
    guard let operation = rest.first?.as(BinaryOperatorExprSyntax.self), operation.operator.text == "??",
      let fallback = rest.dropFirst().first
    else { return nil }
    return fallback
  }

  static func enclosingDo(of node: Syntax) -> DoStmtSyntax? {
    var current = node.parent
    while let candidate = current {
      if let doStatement = candidate.as(DoStmtSyntax.self) { return doStatement }
      if candidate.is(FunctionDeclSyntax.self) || candidate.is(ClosureExprSyntax.self) { return nil }
      current = candidate.parent
    }
    return nil
  }
}

/// Finds what grants access in a region, and whether a region authenticates again.
extension PolicyEvaluation {
  /// Whether the evaluation only confirms a choice the owner makes inside the open app: turning
  /// biometric unlock or an app lock on or off (`confirmsLockSetting`), or deleting their own
  /// data (`confirmsDeletion`). Its prompt says so and its reply grants no access (a prompt
  /// reading "Enable App Lock" shown by the lock screen itself still unlocks the app).
  func onlyConfirmsOwnersChoice(in model: SemanticModel) -> Bool {
    guard confirmsLockSetting || confirmsDeletion else { return false }
    guard let reply else { return true }
    return GrantFinder(model: model).grants(in: Syntax(reply.statements)).isEmpty
  }
}

struct GrantFinder {
  let model: SemanticModel
  static let completionNames = [
    "completion", "handler", "callback", "reply", "done", "finish", "onresult", "oncomplete", "promise",
  ]
  static let grantingCalls = [
    "unlock", "grant", "allowaccess", "login", "signin", "proceed", "showsecret", "showvault", "showcontent",
    "showhome",
    "openvault", "didauthenticate", "onsuccess", "reveal",
  ]
  static let readingCalls = ["read", "load", "fetch", "retrieve", "decrypt", "fallback", "secret", "token", "password"]
  static let grantedStates = [
    "authenticated", "authorized", "unlocked", "loggedin", "signedin", "granted", "accessallowed", "verified",
  ]
  static let authenticatingCalls: Set<String> = ["evaluatePolicy", "evaluateAccessControl"]

  /// Whether the region calls for authentication itself, directly or through a function of the file.
  func authenticates(_ region: Syntax) -> Bool {
    callNames(in: region).contains { authenticatesWhenCalled($0, depth: 0) }
  }

  func grants(in region: Syntax) -> [Syntax] {
    let collector = Collector(viewMode: .sourceAccurate)
    collector.walk(region)
    var found: [Syntax] = []
    for call in collector.calls {
      guard let name = SyntaxFacts.calledName(call)?.lowercased() else { continue }
      // `completion(true)`, `completion(.success(token))`; not `.success(Result(success: false))`.
      let passesTrue = call.arguments.contains { ReportedOutcome.of($0.expression) == .success }
      if passesTrue && Self.completionNames.contains(where: name.contains) {
        found.append(Syntax(call))
      } else if Self.grantingCalls.contains(where: name.hasPrefix), !name.contains("fail"),
        !authenticatesWhenCalled(SyntaxFacts.calledName(call)!, depth: 0)
      {
        found.append(Syntax(call))
      }
    }
    for (target, value) in collector.assignments where SyntaxFacts.text(value) == "true" {
      let name = target.lowercased()
      if Self.grantedStates.contains(where: name.contains), !name.contains("unauth"), !name.contains("not") {
        found.append(value.parent?.parent.map { Syntax($0) } ?? Syntax(value))
      }
    }
    for returned in collector.returns {
      let text = SyntaxFacts.text(returned)
      let calls = callNames(in: Syntax(returned))
      let readsData = calls.contains { name in Self.readingCalls.contains(where: name.lowercased().contains) }
      // `return loadSaved() != nil` answers yes or no like `return true`: whether that grants
      // depends on the function's name, as it does for `true`.
      let answersBoolean = text == "true" || Self.isComparison(returned)
      if answersBoolean && Self.answersNegatively(returned) { continue }
      if text == "true" || (readsData && !calls.contains { authenticatesWhenCalled($0, depth: 0) }) {
        found.append(Syntax(returned))
      }
    }
    return found
  }

  /// Words in a function's name that make `true` the refusing answer: `biometryChanged()`,
  /// `isLockedOut`, `requiresLogin()`.
  static let negativeWords = [
    "change", "invalid", "lockout", "lockedout", "islocked", "denied", "deny", "block", "fail", "require", "need",
    "expired", "revoked", "reject", "unavailable", "disabled", "missing", "compromised", "tamper",
  ]

  /// Whether an expression is a comparison or a logical operation, whose value is a boolean
  /// rather than the data it looks at: `saved != nil`, `!tokens.isEmpty`, `a == b && c`.
  static func isComparison(_ expression: ExprSyntax) -> Bool {
    let value = SequenceShape.unwrap(expression)
    if let prefix = value.as(PrefixOperatorExprSyntax.self) { return prefix.operator.text == "!" }
    guard let sequence = value.as(SequenceExprSyntax.self) else { return false }
    let booleanOperators: Set<String> = ["==", "!=", "===", "!==", "&&", "||", "<", ">", "<=", ">="]
    return sequence.elements.contains { element in
      SequenceShape.operatorText(element).map(booleanOperators.contains) ?? false
    }
  }

  /// Whether `returned` is the result of a function or property whose name says `true` refuses
  /// access; the result of a closure has no name and counts as granting.
  static func answersNegatively(_ returned: ExprSyntax) -> Bool {
    var current = returned.parent
    while let node = current {
      let name: String
      if let function = node.as(FunctionDeclSyntax.self) {
        name = function.name.text
      } else if let binding = node.as(PatternBindingSyntax.self) {
        name = SyntaxFacts.text(binding.pattern)
      } else if node.is(ClosureExprSyntax.self) {
        return false
      } else {
        current = node.parent
        continue
      }
      let lowered = name.lowercased()
      return negativeWords.contains(where: lowered.contains) && !lowered.contains("unblock")
    }
    return false
  }

  /// Whether calling the file's function or closure `name` evaluates a policy (looking two
  /// calls deep): `let passcodeCheck = { context.evaluatePolicy(…) }` authenticates when called.
  func authenticatesWhenCalled(_ name: String, depth: Int) -> Bool {
    if Self.authenticatingCalls.contains(name) { return true }
    guard depth < 2 else { return false }
    for binding in model.index.bindingsByName[name] ?? [] {
      let body: Syntax?
      switch binding.kind {
      // The function's statements: the collector does not enter declarations of functions.
      case .function: body = binding.body
      case .constant, .variable: body = binding.initializer?.as(ClosureExprSyntax.self).map(Syntax.init)
      case .parameter, .computed: body = nil
      }
      guard let body else { continue }
      if callNames(in: body).contains(where: { authenticatesWhenCalled($0, depth: depth + 1) }) { return true }
    }
    return false
  }

  func callNames(in node: Syntax) -> [String] {
    let collector = Collector(viewMode: .sourceAccurate)
    collector.walk(node)
    return collector.calls.compactMap(SyntaxFacts.calledName)
  }

  /// Calls, `x = value` assignments and returned values in a region, not entering nested functions.
  final class Collector: SyntaxVisitor {
    var calls: [FunctionCallExprSyntax] = []
    var assignments: [(target: String, value: ExprSyntax)] = []
    var returns: [ExprSyntax] = []

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    override func visitPost(_ node: FunctionCallExprSyntax) { calls.append(node) }

    override func visitPost(_ node: ReturnStmtSyntax) {
      if let expression = node.expression { returns.append(expression) }
    }

    override func visitPost(_ node: SequenceExprSyntax) {
      let elements = Array(node.elements)
      guard elements.count == 3, elements[1].is(AssignmentExprSyntax.self) else { return }
      let target = elements[0].as(MemberAccessExprSyntax.self)?.declName.baseName.text ?? SyntaxFacts.text(elements[0])
      assignments.append((target, elements[2]))
    }
  }
}
