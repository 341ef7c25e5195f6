import Foundation
import SwiftSyntax

/// Recognises names and strings that suggest a secret: `authToken`, `"user_password"`.
public enum SensitiveNames {
  public static let defaultPatterns = [
    "password", "passwd", "passcode", "secret", "token", "credential", "apikey", "api_key", "privatekey",
    "private_key", "sessionid", "session_id", "pincode", "pin_code", "bearer", "cookie",
  ]

  /// The option rules that judge names take, with the default patterns.
  public static let option = OptionSpec(
    key: "sensitiveNamePatterns", summary: "Case-insensitive fragments of names that suggest a secret.",
    defaultValue: .strings(defaultPatterns))

  /// Whether `text`, lowercased with `-` and spaces read as `_`, contains a pattern.
  public static func matches(_ text: String, patterns: [String]) -> Bool {
    let folded = text.lowercased().replacingOccurrences(of: "-", with: "_").replacingOccurrences(of: " ", with: "_")
    let joined = folded.replacingOccurrences(of: "_", with: "")
    return patterns.contains { pattern in
      let lowered = pattern.lowercased()
      return folded.contains(lowered) || joined.contains(lowered)
    }
  }

  /// The names and strings an expression is made of that could reveal what it holds: string
  /// literals it resolves to, and the names it is read from.
  public static func words(in expression: ExprSyntax, model: SemanticModel) -> [String] {
    var words: [String] = []
    for value in model.resolver.values(of: expression) {
      if let text = SyntaxFacts.stringLiteralValue(value.expression) { words.append(text) }
    }
    for token in expression.tokens(viewMode: .sourceAccurate) where token.tokenKind.isIdentifierLike {
      words.append(token.text)
    }
    return words
  }
}

extension TokenKind {
  var isIdentifierLike: Bool {
    if case .identifier = self { return true }
    return false
  }
}
