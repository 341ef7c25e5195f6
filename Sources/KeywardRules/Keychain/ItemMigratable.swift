import KeywardCore
import SwiftSyntax

/// Flags secrets stored with an accessibility class that lets them leave the device.
public struct ItemMigratable: Rule {
  public static let metadata = RuleMetadata(
    id: "swift.keychain_item_migratable",
    title: "Keychain secret can migrate to other devices",
    severity: .low, confidence: .medium, resource: "Information leak",
    tags: ["CWE:922", "MASWE:0006", "MASVS-STORAGE-1"],
    profile: .strict,
    description: """
      Accessibility classes without `ThisDeviceOnly` (`kSecAttrAccessibleWhenUnlocked`, \
      `kSecAttrAccessibleAfterFirstUnlock`) let the item travel in encrypted backups and restore \
      onto another device. Keyward reports them on queries that store data and on the protection \
      class of access controls. The deprecated `Always` classes are left to \
      `swift.weak_keychain_accessibility`.
      """,
    rationale: """
      Tokens, keys and device identifiers restored onto another device let that device act as \
      this one. Hardening guides ask for secrets to be bound to the device that created them.
      """,
    vulnerableExample: """
      let query: [String: Any] = [kSecValueData as String: token,
                                  kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock]
      """,
    remediation: "Use the `ThisDeviceOnly` variant of the same class.",
    fixedExample: """
      let query: [String: Any] = [kSecValueData as String: token,
                                  kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly]
      """,
    references: [
      Reference(
        "CWE-922: Insecure Storage of Sensitive Information", url: "https://cwe.mitre.org/data/definitions/922.html"),
      Reference(
        "Apple: Restricting keychain item accessibility",
        url: "https://developer.apple.com/documentation/security/restricting-keychain-item-accessibility"),
    ])

  public static let examples = RuleExamples(
    flagged: [
      "let query: [String: Any] = [kSecValueData as String: token, kSecAttrAccessible as String: ↓kSecAttrAccessibleAfterFirstUnlock]",
      "let access = SecAccessControlCreateWithFlags(nil, ↓kSecAttrAccessibleWhenUnlocked, .biometryCurrentSet, nil)",
    ],
    clean: [
      "let query: [String: Any] = [kSecValueData as String: token, kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly]",
      "let lookup: [String: Any] = [kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked, kSecReturnData as String: true]",
      "let query: [String: Any] = [kSecValueData as String: token, kSecAttrAccessible as String: kSecAttrAccessibleAlways]",
    ])

  public static func prefilterTokens(options: RuleOptions) -> [String] { ["kSecAttrAccessible"] }

  public static func check(_ context: RuleContext) {
    let model = context.model
    var values: [ExprSyntax] = []
    values += model.storedKeychainWrites(forKey: "kSecAttrAccessible").map(\.value)
    values += model.accessControlCreations.compactMap { SyntaxFacts.argument($0, at: 1) }
    for value in values.flatMap({ model.resolver.values(of: $0) }) {
      guard let (accessibility, isRaw) = AccessibilityClass.denoted(by: value.expression),
        !accessibility.isThisDeviceOnly, !accessibility.isDeprecated
      else { continue }
      let fixed = accessibility.name + "ThisDeviceOnly"
      let fix =
        isRaw
        ? nil
        : Fix(
          description: "Use `\(fixed)`", safe: false, edits: [context.replacement(of: value.expression, with: fixed)])
      context.report(
        value.expression,
        message:
          "`\(accessibility.name)` lets this secret travel in backups and restore onto another device, which can then act as this one. Use `\(fixed)`.",
        confidence: value.isConditional ? .low : nil, fix: fix)
    }
  }
}
