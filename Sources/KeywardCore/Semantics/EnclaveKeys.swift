import SwiftSyntax

extension SemanticModel {
  /// Whether the access control `creation` makes protects only Secure Enclave keys: it is handed
  /// to CryptoKit (`SecureEnclave.P256.Signing.PrivateKey(accessControl:)`) or put in a
  /// key-generation dictionary naming `kSecAttrTokenIDSecureEnclave`, directly or through the
  /// local it is kept in. Such a key never leaves the device, whatever accessibility class the
  /// access control names.
  public func protectsOnlyEnclaveKeys(_ creation: FunctionCallExprSyntax) -> Bool {
    resolver.everyUse(of: creation, satisfies: Self.reachesEnclaveKey)
  }

  /// Whether the value at `node` is an enclave key's access control: the `accessControl:`
  /// argument of a `SecureEnclave` key, or a value in a dictionary literal that (with the ones
  /// around it) names `kSecAttrTokenIDSecureEnclave`.
  private static func reachesEnclaveKey(_ node: Syntax) -> Bool {
    var current = node
    while let parent = current.parent, parent.is(ForceUnwrapExprSyntax.self) || parent.is(AsExprSyntax.self) {
      current = parent
    }
    if let (call, argument) = SyntaxFacts.callTaking(current), argument.label?.text == "accessControl" {
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
