import SwiftSyntax

/// Secret names in serialized data: data made from a value kept in a local holds what that
/// value holds.
extension SensitiveNames {
  /// The names `source` carries when it serializes a value kept in a local
  /// (`JSONSerialization.data(withJSONObject: tokens)`): that value's names and keys, one step
  /// further. A dictionary's entries are judged one by one: a `token_type` beside a
  /// `refresh_token` does not make the refresh token any less secret.
  static func serializedWords(of source: ExprSyntax, model: SemanticModel) -> [String] {
    guard let serialized = serializedValue(of: source), serialized.is(DeclReferenceExprSyntax.self) else { return [] }
    let dictionaries = model.resolver.values(of: serialized).compactMap {
      SequenceShape.unwrapCasts($0.expression).as(DictionaryExprSyntax.self)
    }
    guard !dictionaries.isEmpty else { return ownWords(in: serialized, model: model, asKey: false, depth: 1) }
    var words: [String] = []
    for case .elements(let elements) in dictionaries.map(\.content) {
      for element in elements {
        let entry = element.tokens(viewMode: .sourceAccurate).compactMap { token -> String? in
          switch token.tokenKind {
          case .identifier(let text), .stringSegment(let text): text
          default: nil
          }
        }
        let describesOther = entry.contains { word in
          nameWords(word).contains { notSecretWords.contains($0) || notCredentialTokenWords.contains($0) }
        }
        if !describesOther { words += entry }
      }
    }
    return words
  }

  /// The value a serializer call turns into data: the first argument of
  /// `JSONSerialization.data(withJSONObject:)`, `PropertyListSerialization.data(fromPropertyList:)`,
  /// `NSKeyedArchiver.archivedData(withRootObject:)` and an encoder's `encode(_:)`.
  private static func serializedValue(of expression: ExprSyntax) -> ExprSyntax? {
    guard let call = SequenceShape.unwrap(expression).as(FunctionCallExprSyntax.self),
      let name = SyntaxFacts.calledName(call), let first = call.arguments.first
    else { return nil }
    let label = first.label?.text
    switch (name, label) {
    case ("data", "withJSONObject"), ("data", "fromPropertyList"), ("archivedData", "withRootObject"),
      ("encode", nil):
      return first.expression
    default:
      return nil
    }
  }
}
