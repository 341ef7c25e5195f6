import SwiftSyntax

extension SemanticModel {
  /// Whether the access control `creation` makes protects only Secure Enclave keys: it is handed
  /// to CryptoKit (`SecureEnclave.P256.Signing.PrivateKey(accessControl:)`) or put in a
  /// key-generation dictionary naming `kSecAttrTokenIDSecureEnclave`, directly or through the
  /// local it is kept in. Such a key never leaves the device, whatever accessibility class the
  /// access control names.
  public func protectsOnlyEnclaveKeys(_ creation: FunctionCallExprSyntax) -> Bool {
    if Self.reachesEnclaveKey(Syntax(creation)) { return true }
    guard let binding = holdingBinding(of: creation),
      let scope = binding.node.ancestorOrSelf(mapping: { $0.id == binding.scope ? $0 : nil })
    else { return false }
    var uses = 0
    for token in scope.tokens(viewMode: .sourceAccurate) where token.tokenKind == .identifier(binding.name) {
      guard let reference = token.parent?.as(DeclReferenceExprSyntax.self),
        resolver.binding(denotedBy: ExprSyntax(reference))?.id == binding.id
      else { continue }
      guard Self.reachesEnclaveKey(Syntax(reference)) else { return false }
      uses += 1
    }
    return uses > 0
  }

  /// The local whose initializer is `creation`, unwrapped or not (`let access = Create(...)!`,
  /// `guard let access = Create(...)`).
  private func holdingBinding(of creation: FunctionCallExprSyntax) -> Binding? {
    var node = Syntax(creation)
    while let parent = node.parent,
      parent.is(ForceUnwrapExprSyntax.self) || parent.is(OptionalChainingExprSyntax.self)
        || parent.is(TryExprSyntax.self)
    {
      node = parent
    }
    guard let initializer = node.parent?.as(InitializerClauseSyntax.self) else { return nil }
    if let pattern = initializer.parent?.as(PatternBindingSyntax.self) {
      return index.binding(declaredBy: pattern)
    }
    guard let condition = initializer.parent?.as(OptionalBindingConditionSyntax.self),
      let name = condition.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
    else { return nil }
    return (index.bindingsByName[name] ?? []).first { $0.node.id == condition.id || $0.node.id == condition.pattern.id }
  }

  /// Whether the value at `node` is an enclave key's access control: the `accessControl:`
  /// argument of a `SecureEnclave` key, or a value in a dictionary literal that (with the ones
  /// around it) names `kSecAttrTokenIDSecureEnclave`.
  private static func reachesEnclaveKey(_ node: Syntax) -> Bool {
    var current = node
    while let parent = current.parent, parent.is(ForceUnwrapExprSyntax.self) || parent.is(AsExprSyntax.self) {
      current = parent
    }
    if let argument = current.parent?.as(LabeledExprSyntax.self), argument.label?.text == "accessControl",
      let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self)
    {
      return SyntaxFacts.text(call.calledExpression).hasPrefix("SecureEnclave.")
    }
    var outermost: DictionaryExprSyntax?
    var ancestor = current.parent
    while let node = ancestor, !node.is(CodeBlockItemSyntax.self) {
      if let dictionary = node.as(DictionaryExprSyntax.self) { outermost = dictionary }
      ancestor = node.parent
    }
    guard let outermost else { return false }
    return outermost.tokens(viewMode: .sourceAccurate).contains { $0.text == "kSecAttrTokenIDSecureEnclave" }
  }
}
