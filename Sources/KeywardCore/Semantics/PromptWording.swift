import SwiftSyntax

/// What an `evaluatePolicy` prompt asks the user to confirm, read from the words of its
/// `localizedReason`: the literal, or the key of a localized string (`NSLocalizedString("key",
/// comment:)`, `String(localized:)`, `"EraseAllData".localized`), whose words say the same.
extension SemanticModel {
  /// Whether every value `reason` may have names a change of a lock setting: a verb that turns
  /// something on or off, and biometrics or a lock as its object.
  func confirmsLockSetting(reason: ExprSyntax?) -> Bool {
    everyPrompt(of: reason) { words in
      let pairs = Set(zip(words, words.dropFirst()).map { $0 + " " + $1 })
      let changes = words.contains(where: Self.settingVerbs.contains) || !pairs.isDisjoint(with: Self.settingPhrases)
      let namesLock =
        words.contains { $0.hasPrefix("biometr") || Self.lockWords.contains($0) }
        || !pairs.isDisjoint(with: Self.lockPhrases)
      return changes && namesLock
    }
  }

  /// Whether every value `reason` may have asks to delete, erase or leave something, and none
  /// asks to see, open or take anything out: losing one's own data, not disclosing it.
  func confirmsDeletion(reason: ExprSyntax?) -> Bool {
    everyPrompt(of: reason) { words in
      let pairs = Set(zip(words, words.dropFirst()).map { $0 + " " + $1 })
      return words.contains(where: Self.deletingWords.contains)
        && !words.contains(where: Self.revealingWords.contains) && pairs.isDisjoint(with: Self.revealingPhrases)
    }
  }

  /// Whether `reason` resolves to prompts whose text is known, each of whose words (lowercased,
  /// camel case split) satisfies `test`.
  private func everyPrompt(of reason: ExprSyntax?, _ test: ([String]) -> Bool) -> Bool {
    guard let reason else { return false }
    let values = resolver.values(of: reason)
    return !values.isEmpty
      && values.allSatisfy { value in
        guard let literal = Self.promptLiteral(value.expression) else { return false }
        // Words of the literal's source, interpolations included (`"Enable \(biometryName)"`).
        return test(SensitiveNames.nameWords(literal.description))
      }
  }

  /// The string literal a prompt is written with: itself, or the key it is localized from.
  private static func promptLiteral(_ expression: ExprSyntax) -> StringLiteralExprSyntax? {
    let value = SequenceShape.unwrap(expression)
    if let literal = value.as(StringLiteralExprSyntax.self) { return literal }
    // `"EraseAllData".localized`, `"EraseAllData".localize()`.
    let member =
      value.as(MemberAccessExprSyntax.self)
      ?? value.as(FunctionCallExprSyntax.self)?.calledExpression.as(MemberAccessExprSyntax.self)
    if let member, member.declName.baseName.text.lowercased().hasPrefix("locali"),
      let literal = member.base.map(SequenceShape.unwrap)?.as(StringLiteralExprSyntax.self)
    {
      return literal
    }
    // `NSLocalizedString("key", comment: "")`, `String(localized: "key")`.
    guard let call = value.as(FunctionCallExprSyntax.self),
      let name = SyntaxFacts.calledName(call), name == "NSLocalizedString" || name == "String",
      let first = call.arguments.first, name == "String" ? first.label?.text == "localized" : first.label == nil
    else { return nil }
    return SequenceShape.unwrap(first.expression).as(StringLiteralExprSyntax.self)
  }

  private static let settingVerbs: Set<String> = ["enable", "disable", "activate", "deactivate"]
  private static let settingPhrases: Set<String> = ["turn on", "turn off", "switch on", "switch off"]
  private static let lockWords: Set<String> = ["faceid", "touchid", "lock", "applock"]
  private static let lockPhrases: Set<String> = ["face id", "touch id", "optic id"]

  private static let deletingWords: Set<String> = [
    "delete", "deleting", "deletion", "erase", "erasing", "wipe", "wiping", "remove", "removing", "destroy",
    "leave", "leaving", "unpair", "unpairing",
  ]
  /// Words that ask for access as well (`"Authenticate to view or delete passwords"`).
  private static let revealingWords: Set<String> = [
    "view", "show", "reveal", "see", "access", "open", "unlock", "export", "copy", "read", "display", "login",
    "signin", "send", "pay", "sign", "approve",
  ]
  private static let revealingPhrases: Set<String> = ["log in", "sign in"]
}
