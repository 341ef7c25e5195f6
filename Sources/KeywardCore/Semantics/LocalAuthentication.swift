import SwiftSyntax

/// An `LAPolicy` case (raw values from `LAPublicDefines.h`).
public struct LAPolicyCase: Sendable, Hashable {
  public var name: String
  public var rawValue: UInt64

  public static let all: [LAPolicyCase] = [
    .init(name: "deviceOwnerAuthenticationWithBiometrics", rawValue: 1),
    .init(name: "deviceOwnerAuthentication", rawValue: 2),
    .init(name: "deviceOwnerAuthenticationWithWatch", rawValue: 3),
    .init(name: "deviceOwnerAuthenticationWithCompanion", rawValue: 3),
    .init(name: "deviceOwnerAuthenticationWithBiometricsOrWatch", rawValue: 4),
    .init(name: "deviceOwnerAuthenticationWithBiometricsOrCompanion", rawValue: 4),
    .init(name: "deviceOwnerAuthenticationWithWristDetection", rawValue: 5),
  ]

  public static func named(_ name: String) -> LAPolicyCase? { all.first { $0.name == name } }

  /// Biometrics alone, or biometrics as one of the accepted means.
  public var involvesBiometrics: Bool { rawValue == 1 || rawValue == 4 }
  /// Whether the device passcode alone satisfies the policy.
  public var acceptsPasscode: Bool { rawValue == 2 }
}

/// One `evaluatePolicy` call: its context, its policy, and how its result is delivered.
public struct PolicyEvaluation {
  public var call: FunctionCallExprSyntax
  /// `context` in `context.evaluatePolicy(...)`.
  public var receiver: ExprSyntax?
  public var policyExpression: ExprSyntax?
  /// The policies the argument may be (several through a ternary or constants).
  public var policies: [LAPolicyCase]
  /// The reply closure, trailing or as `reply:`; nil for the `async` form.
  public var reply: ClosureExprSyntax?
  /// Whether this is the body of an overload (`extension LAContext { func evaluatePolicy(_:
  /// localizedReason:) -> Promise<Void> }` evaluating `self`): each call of the overload is an
  /// evaluation in its own right, judged there with the context and policy its caller gives.
  public var isOverloadBody = false
  /// Whether the evaluation sits in a function or type named for a permission
  /// (`ensurePermission()`, `extension AppPermission`): the first evaluation is what makes the
  /// system ask for the Face ID permission, and a request for it guards nothing.
  public var requestsPermission = false
  /// Whether every reason the prompt may show asks to confirm turning biometric unlock or an
  /// app lock on or off (`"Enable Face ID"`, `"Authenticate to disable App Lock"`), or its
  /// success writes such a setting (`isAppLockEnabled = …`, `LockSettingWrites`): the check
  /// then guards a setting inside an app the user already has open, not a secret or an action.
  public var confirmsLockSetting = false
  /// Whether every reason the prompt may show asks to confirm deleting something and to see or
  /// open nothing (`"Authenticate to delete your key pair"`, `"Leave the team?"`): the check
  /// guards the owner's own data against loss, not a secret against disclosure.
  public var confirmsDeletion = false

  /// Whether the reply names neither `success` nor `error` (`{ _, _ in ... }`): its body runs
  /// whatever the outcome, so the result guards nothing.
  public var replyIgnoresResult: Bool {
    guard let reply else { return false }
    return SyntaxFacts.closureParameterNames(reply).allSatisfy { $0 == "_" }
  }

  /// Whether the reply's result decides only what is logged (`if success { print("Authenticated")
  /// }`, `SuccessOnlyLogs`): nothing else depends on it, unless the log line stands for code
  /// still to be written, as in tutorials (strict reports it).
  public var successOnlyLogs = false

  /// From `evaluatePolicy` to the closing parenthesis: the part of the call to report.
  public var reportRange: (start: Int, end: Int) {
    let callee = call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName
    let start = (callee.map(Syntax.init) ?? Syntax(call)).positionAfterSkippingLeadingTrivia.utf8Offset
    let end = (call.rightParen.map(Syntax.init) ?? Syntax(call)).endPositionBeforeTrailingTrivia.utf8Offset
    return (start, end)
  }
}

extension SemanticModel {
  /// `evaluatePolicy(_:localizedReason:reply:)` and its `async` form. `canEvaluatePolicy` is a
  /// preflight check and is not an evaluation.
  func findPolicyEvaluations() -> [PolicyEvaluation] {
    index.calls(named: "evaluatePolicy").compactMap { call in
      guard let reason = SyntaxFacts.argument(call, labeled: "localizedReason") else { return nil }
      let receiver = SyntaxFacts.receiver(of: call)
      // A call of the type's own `evaluatePolicy` is judged where that one calls the context's.
      guard !callsOwnMethod(call, receiver: receiver) else { return nil }
      let policy = SyntaxFacts.argument(call, at: 0)
      let reply =
        call.trailingClosure ?? SyntaxFacts.argument(call, labeled: "reply").flatMap { $0.as(ClosureExprSyntax.self) }
      let prompts = promptWords(of: reason)
      return PolicyEvaluation(
        call: call, receiver: receiver, policyExpression: policy,
        policies: policy.map(policies(of:)) ?? [], reply: reply,
        isOverloadBody: Self.isOverloadOfEvaluatePolicy(evaluating: receiver, in: Syntax(call)),
        requestsPermission: Self.isInDeclarationNamedForPermission(Syntax(call)),
        confirmsLockSetting: prompts?.allSatisfy(Self.confirmsLockSetting) == true
          || writesLockSetting(after: call, reply: reply),
        confirmsDeletion: prompts?.allSatisfy(Self.confirmsDeletion) == true,
        successOnlyLogs: reply.map(SuccessOnlyLogs.holds(for:)) ?? false)
    }
  }

  /// Whether `evaluatePolicy(...)` or `self.evaluatePolicy(...)` calls a method of that name the
  /// enclosing type declares itself (an app's wrapper, in any of the file's blocks of that type),
  /// rather than `LAContext`'s.
  func callsOwnMethod(_ call: FunctionCallExprSyntax, receiver: ExprSyntax?) -> Bool {
    guard receiver.map(SyntaxFacts.isSelf) ?? true, let block = SyntaxFacts.enclosingMemberBlock(of: call),
      let type = SyntaxFacts.typeName(declaring: block), type != Binding.contextTypeName
    else { return false }
    return (index.memberBlocksByType[type] ?? [block]).contains { block in
      block.members.contains { $0.decl.as(FunctionDeclSyntax.self)?.name.text == "evaluatePolicy" }
    }
  }

  /// Whether a biometric evaluation hands a failure over to one that accepts the device passcode:
  /// its reply runs a passcode-accepting `evaluatePolicy`, directly or by calling the function or
  /// closure constant of the file that holds one. Whoever knows the passcode then gets in anyway.
  public func fallsBackToPasscode(_ evaluation: PolicyEvaluation) -> Bool {
    guard let reply = evaluation.reply else { return false }
    let replyRange = reply.position..<reply.endPosition
    for check in policyEvaluations
    where check.call.id != evaluation.call.id && check.policies.contains(where: \.acceptsPasscode) {
      if replyRange.contains(check.call.position) { return true }
      guard let name = Self.nameOfCallable(holding: Syntax(check.call)) else { continue }
      if index.calls(named: name).contains(where: { replyRange.contains($0.position) }) { return true }
    }
    return false
  }

  /// What the file's calls pass for the policy of an evaluation that evaluates its function's
  /// parameter: `evaluate(policy: .deviceOwnerAuthenticationWithBiometrics, …)` for
  /// `func evaluate(policy: LAPolicy, …) { context.evaluatePolicy(policy, …) }`.
  public func policyArguments(of evaluation: PolicyEvaluation) -> [ExprSyntax] {
    guard let policy = evaluation.policyExpression, let parameter = resolver.binding(denotedBy: policy),
      parameter.kind == .parameter
    else { return [] }
    return resolver.arguments(passedTo: parameter)
  }

  /// The name of the innermost function, or constant or variable holding a closure, around `node`.
  private static func nameOfCallable(holding node: Syntax) -> String? {
    var current = node.parent
    while let ancestor = current {
      if let function = ancestor.as(FunctionDeclSyntax.self) { return function.name.text }
      if ancestor.is(ClosureExprSyntax.self), let binding = ancestor.parent?.parent?.as(PatternBindingSyntax.self),
        let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
      {
        return name
      }
      current = ancestor.parent
    }
    return nil
  }

  /// Whether a function or type enclosing `node` has "permission" among its name's words.
  private static func isInDeclarationNamedForPermission(_ node: Syntax) -> Bool {
    SyntaxFacts.enclosingDeclarationNames(of: node).contains { declaration in
      SensitiveNames.nameWords(declaration.name).contains { $0 == "permission" || $0 == "permissions" }
    }
  }

  /// Whether `call` evaluates `self` (or an implicit receiver) inside a method named
  /// `evaluatePolicy` of an extension of `LAContext`.
  private static func isOverloadOfEvaluatePolicy(evaluating receiver: ExprSyntax?, in call: Syntax) -> Bool {
    if let receiver, !SyntaxFacts.isSelf(receiver) { return false }
    guard let function = SyntaxFacts.functionDeclaration(holding: call),
      function.name.text == "evaluatePolicy",
      let block = SyntaxFacts.memberBlock(holding: Syntax(function)),
      block.parent?.is(ExtensionDeclSyntax.self) == true,
      SyntaxFacts.typeName(declaring: block) == Binding.contextTypeName
    else { return false }
    return true
  }

  /// The `LAPolicy` cases an expression may denote: `.deviceOwnerAuthentication`,
  /// `LAPolicy.deviceOwnerAuthentication`, `LAPolicy(rawValue: 2)`, through constants.
  public func policies(of expression: ExprSyntax) -> [LAPolicyCase] {
    var result: [LAPolicyCase] = []
    for value in resolver.values(of: expression) {
      let leaf = value.expression
      if let member = leaf.as(MemberAccessExprSyntax.self),
        member.base == nil || member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "LAPolicy",
        let policy = LAPolicyCase.named(member.declName.baseName.text)
      {
        result.append(policy)
      } else if let call = leaf.as(FunctionCallExprSyntax.self),
        let raw = SyntaxFacts.argument(call, labeled: "rawValue")
      {
        for rawValue in resolver.values(of: raw).compactMap({ SyntaxFacts.integerLiteralValue($0.expression) }) {
          result += LAPolicyCase.all.filter { $0.rawValue == rawValue }.prefix(1)
        }
      }
    }
    return result
  }

  /// How an evaluation is tied to the keychain: `.keychainBound` when its context reaches a
  /// keychain query as `kSecUseAuthenticationContext` and the file's items are protected, or
  /// reaches a keychain wrapper that the file gives an access control, or a Secure Enclave key
  /// (CryptoKit's `authenticationContext:`). Worked out once per evaluation for every rule that
  /// asks.
  public func binding(of evaluation: PolicyEvaluation) -> EvaluationBinding {
    evaluationBindings[evaluation.call.id] ?? classify(evaluation)
  }

  func classify(_ evaluation: PolicyEvaluation) -> EvaluationBinding {
    guard let receiver = evaluation.receiver else { return .eventBound }
    let contexts = bindingsNamed(by: receiver)
    let binding = classify(contexts: contexts)
    guard binding == .eventBound || binding.handOff != nil else { return binding }
    return bindingGivenByEveryCaller(contexts) ?? binding
  }

  /// For `contexts` that are parameters, how the contexts every call in this file passes are
  /// tied to the keychain, when they all reach it alike (directly or through further such
  /// parameters): a prompt on the context a protected read just failed with (to clear a
  /// biometry lockout before retrying it) unlocks that read, whose access control decides.
  private func bindingGivenByEveryCaller(_ contexts: [Binding], depth: Int = 0) -> EvaluationBinding? {
    guard depth < 4, !contexts.isEmpty, contexts.allSatisfy({ $0.kind == .parameter }) else { return nil }
    var common: EvaluationBinding?
    for argument in contexts.flatMap({ resolver.arguments(passedTo: $0) }) {
      let passed = bindingsNamed(by: argument)
      var binding = classify(contexts: passed)
      if binding == .eventBound || binding.handOff != nil {
        guard let given = bindingGivenByEveryCaller(passed, depth: depth + 1) else { return nil }
        binding = given
      }
      guard common == nil || common == binding else { return nil }
      common = binding
    }
    return common
  }

  /// Where the context held by `contexts` (an evaluation's receiver and its aliases, or a
  /// context parameter) goes: the one classification behind evaluations and the facts files
  /// export about their context parameters (`contextParameterUses`).
  func classify(contexts: [Binding]) -> EvaluationBinding {
    // A Secure Enclave key's access control lives in the key itself, wherever its blob is kept.
    if enclaveKeyContextFlow.reaches(contexts) { return .keychainBound }
    if contextFlow.reaches(contexts) {
      return storesItemsWithoutAccessControl ? .contextToUnprotectedItems(wrapper: nil) : .keychainBound
    }
    if wrapperContextFlow.reaches(contexts) {
      guard !givesWrapperAnAccessControl else { return .keychainBound }
      let library = activeWrappers.first { !$0.authenticationContext.isEmpty }?.library
      return .contextToUnprotectedItems(wrapper: library)
    }
    if let handOff = contextHandOff(from: contexts) { return .handedOff(to: handOff) }
    return contextWayBack(from: contexts).map { .givenBack($0) } ?? .eventBound
  }
}

public enum EvaluationBinding: Equatable {
  /// Nothing but the boolean result depends on the evaluation.
  case eventBound
  /// The context reaches a keychain query, or the named keychain wrapper, but the file stores
  /// items without access control.
  case contextToUnprotectedItems(wrapper: String?)
  /// Not seen to reach the keychain in this file, but the context is handed to a function that
  /// another file declares, where it may.
  case handedOff(to: ContextHandOffSite)
  /// Returned, or handed to a closure the function was given: its callers decide.
  case givenBack(ContextWayBack)
  case keychainBound

  /// Where the context was handed, for `.handedOff`.
  public var handOff: ContextHandOffSite? {
    if case .handedOff(let site) = self { return site }
    return nil
  }

  /// How the context goes back to the caller, for `.givenBack`.
  public var wayBack: ContextWayBack? {
    if case .givenBack(let way) = self { return way }
    return nil
  }
}

extension SemanticModel {
  /// Whether `expression` names a context the code creates locally (`let context = LAContext()`)
  /// and then only configures (`context.x = y`): nothing evaluates it, passes it on, puts it in a
  /// query, captures, stores or returns it, so its settings affect no prompt.
  public func isUnusedLocalContext(_ expression: ExprSyntax) -> Bool {
    guard let binding = resolver.binding(denotedBy: SequenceShape.unwrap(expression)),
      binding.kind == .constant || binding.kind == .variable,
      let initializer = binding.initializer,
      let creation = SequenceShape.unwrap(initializer).as(FunctionCallExprSyntax.self),
      SyntaxFacts.calledName(creation) == Binding.contextTypeName,
      let scope = Self.scopeNode(of: binding), SyntaxFacts.isOrderedScope(scope)
    else { return false }
    let references = ReferenceCollector(name: binding.name)
    references.walk(scope)
    if references.captured { return false }
    for reference in references.found where resolver.binding(denotedBy: ExprSyntax(reference))?.id == binding.id {
      guard Self.isConfigured(reference) else { return false }
    }
    return true
  }

  static func scopeNode(of binding: Binding) -> Syntax? {
    var current = binding.node.parent
    while let candidate = current {
      if candidate.id == binding.scope { return candidate }
      current = candidate.parent
    }
    return nil
  }

  /// `reference.property = value`: configuring the object, not using it.
  private static func isConfigured(_ reference: DeclReferenceExprSyntax) -> Bool {
    guard let member = reference.parent?.as(MemberAccessExprSyntax.self),
      member.base?.id == ExprSyntax(reference).id,
      let list = member.parent?.as(ExprListSyntax.self), list.first?.id == ExprSyntax(member).id,
      list.count >= 3
    else { return false }
    return list.dropFirst().first?.is(AssignmentExprSyntax.self) == true
  }

  final class ReferenceCollector: SyntaxVisitor {
    let name: String
    var found: [DeclReferenceExprSyntax] = []
    /// Whether a closure captures the name as `[context]`, which the closure's body then uses.
    var captured = false

    init(name: String) {
      self.name = name
      super.init(viewMode: .sourceAccurate)
    }

    override func visitPost(_ node: DeclReferenceExprSyntax) {
      if node.baseName.text == name { found.append(node) }
    }

    override func visitPost(_ node: ClosureCaptureSyntax) {
      if node.initializer == nil && node.name.text == name { captured = true }
    }
  }
}

extension SemanticModel {
  /// Whether an expression denotes an `LAContext`: true for `LAContext()` and for names declared
  /// as one or initialised with one (through aliases and the sides of `??` / `?:`), false when
  /// every name it denotes is declared with another type, nil when that is unknown.
  public func denotesContext(_ expression: ExprSyntax) -> Bool? {
    let value = SequenceShape.unwrapCasts(expression)
    if let call = value.as(FunctionCallExprSyntax.self) {
      return SyntaxFacts.calledName(call) == Binding.contextTypeName ? true : nil
    }
    let bindings = bindingsNamed(by: value)
    guard !bindings.isEmpty else { return nil }
    if bindings.contains(where: { binding in
      binding.isDeclaredContext
        || binding.initializer.flatMap { SequenceShape.unwrap($0).as(FunctionCallExprSyntax.self) }
          .flatMap(SyntaxFacts.calledName) == Binding.contextTypeName
    }) {
      return true
    }
    return bindings.allSatisfy { $0.type != nil } ? false : nil
  }
}
