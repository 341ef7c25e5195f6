import SwiftSyntax

/// What an `evaluatePolicy` prompt asks the user to confirm, read from the words of its
/// `localizedReason`: the literal, or the key of a localized string (`NSLocalizedString("key",
/// comment:)`, `String(localized:)`, `"EraseAllData".localized`), whose words say the same.
extension SemanticModel {
  /// The words of one prompt (lowercased, camel case split, interpolations included) and its
  /// pairs of neighbouring words (`"turn off"`).
  struct PromptWords {
    let words: [String]
    let pairs: Set<String>

    init(_ literal: StringLiteralExprSyntax) {
      // Words of the literal's source, interpolations included (`"Enable \(biometryName)"`).
      words = SensitiveNames.nameWords(literal.description)
      pairs = Set(zip(words, words.dropFirst()).map { $0 + " " + $1 })
    }
  }

  /// The words of every prompt `reason` may show; nil when one of them is not written in the
  /// source (or `reason` resolves to nothing), so that no judgement rests on part of them.
  func promptWords(of reason: ExprSyntax) -> [PromptWords]? {
    let values = resolver.values(of: reason)
    guard !values.isEmpty else { return nil }
    var prompts: [PromptWords] = []
    for value in values {
      guard let literal = Self.promptLiteral(value.expression) else { return nil }
      prompts.append(PromptWords(literal))
    }
    return prompts
  }

  /// Whether a prompt names a change of a lock setting: a verb that turns something on or off,
  /// and biometrics or a lock as its object.
  static func confirmsLockSetting(_ prompt: PromptWords) -> Bool {
    let changes =
      prompt.words.contains(where: settingVerbs.contains) || !prompt.pairs.isDisjoint(with: settingPhrases)
    let namesLock =
      prompt.words.contains { $0.hasPrefix("biometr") || lockWords.contains($0) }
      || !prompt.pairs.isDisjoint(with: lockPhrases)
    return changes && namesLock
  }

  /// Whether a prompt asks to delete, erase or leave something, and not to see, open or take
  /// anything out: losing one's own data, not disclosing it.
  static func confirmsDeletion(_ prompt: PromptWords) -> Bool {
    prompt.words.contains(where: deletingWords.contains) && !prompt.words.contains(where: revealingWords.contains)
      && prompt.pairs.isDisjoint(with: revealingPhrases)
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
