import SwiftSyntax

/// The chains a wrapper store is configured and used through:
/// `let keychain = Keychain(service: "app").synchronizable(true)` then
/// `keychain.accessibility(.afterFirstUnlock).set(key, key: name)` or `keychain.get(name)`.
extension SemanticModel {
  /// Whether the store a setting is made on is only used to look items up or remove them, so the
  /// setting selects items and stores none: the chain holding it ends in a lookup
  /// (`….synchronizable(true).get(key)`), or it is a local's initial value and every use of that
  /// local is such a chain (`keychain.get(key)`, `keychain.remove(key)`).
  public func onlyLooksUp(_ value: WrapperValue) -> Bool {
    guard let call = value.call else { return false }
    let chain = Self.outermostChainCall(from: call)
    if chain.id != call.id { return Self.looksItemsUp(chain) }
    guard let uses = chainsThroughLocal(holding: chain), !uses.isEmpty else { return false }
    return uses.allSatisfy { $0.map(Self.looksItemsUp) == true }
  }

  /// The calls a setting's store is used through: the end of its own chain, and when the chain
  /// is a local's initial value, the end of each chain on that local
  /// (`keychain.accessibility(...).set(privateKey, key: account)`).
  public func callsThroughStore(of value: WrapperValue) -> [FunctionCallExprSyntax] {
    guard let call = value.call else { return [] }
    let chain = Self.outermostChainCall(from: call)
    return [chain] + (chain.id == call.id ? (chainsThroughLocal(holding: chain) ?? []).compactMap { $0 } : [])
  }

  /// For a local whose initial value is `chain`, the last call of each chain made on it; nil in
  /// the list for a use that is not a call on it (passed on, returned). Nil when `chain` is not a
  /// local's initial value.
  private func chainsThroughLocal(holding chain: FunctionCallExprSyntax) -> [FunctionCallExprSyntax?]? {
    guard let binding = holdingLocal(of: chain), let references = resolver.references(to: binding)?.references
    else { return nil }
    return references.map { reference in
      guard let member = reference.parent?.as(MemberAccessExprSyntax.self), member.base?.id == reference.id,
        let used = member.parent?.as(FunctionCallExprSyntax.self)
      else { return nil }
      return Self.outermostChainCall(from: used)
    }
  }

  /// The chain a store used by `call` was made with, when its base is a local: for
  /// `keychain.accessibility(...)`, the initial value of `keychain`.
  func initialChain(ofStoreUsedBy call: FunctionCallExprSyntax) -> ExprSyntax? {
    var base = call.calledExpression.as(MemberAccessExprSyntax.self)?.base
    while let inner = base?.as(FunctionCallExprSyntax.self) {
      base = inner.calledExpression.as(MemberAccessExprSyntax.self)?.base
    }
    guard let reference = base?.as(DeclReferenceExprSyntax.self),
      let binding = resolver.binding(denotedBy: ExprSyntax(reference)),
      binding.kind == .constant || binding.kind == .variable
    else { return nil }
    return binding.initializer
  }

  /// The local whose initial value is `chain` (`let keychain = Keychain(...).synchronizable(true)`).
  private func holdingLocal(of chain: FunctionCallExprSyntax) -> Binding? {
    guard chain.parent?.is(InitializerClauseSyntax.self) == true,
      let binding = resolver.binding(initializedWith: chain),
      binding.kind == .constant || binding.kind == .variable, SyntaxFacts.memberBlock(declaring: binding.node) == nil
    else { return nil }
    return binding
  }

  /// The last call of the member chain `call` is part of: `a.b(1).c(2)` from `b(1)` is `c(2)`.
  static func outermostChainCall(from call: FunctionCallExprSyntax) -> FunctionCallExprSyntax {
    var current = call
    while let member = current.parent?.as(MemberAccessExprSyntax.self), member.base?.id == current.id,
      let next = member.parent?.as(FunctionCallExprSyntax.self), next.calledExpression.id == member.id
    {
      current = next
    }
    return current
  }
}
