import KeywardCore

/// Shared shape of the rules about `keyward:` comments: the engine reports them while applying
/// suppressions, so their checkers do nothing.
public protocol SuppressionRule: Rule {}

extension SuppressionRule {
  public static func prefilterTokens(options: RuleOptions) -> [String] { [SuppressionDirective.marker] }
  public static func check(_ context: RuleContext) {}

  static func makeMetadata(
    id: String, title: String, description: String, rationale: String, example: String, fixed: String
  )
    -> RuleMetadata
  {
    RuleMetadata(
      id: id, title: title, severity: .low, confidence: .high, resource: "Suppressions", language: "Swift, Objective-C",
      tags: ["CWE:1164", "suppressions"], profile: .essential, description: description, rationale: rationale,
      vulnerableExample: example,
      remediation: "Keep each suppression next to the finding it excuses, name the rule, and say why.",
      fixedExample: fixed,
      references: [Reference("Keyward README: suppressing findings")])
  }
}

/// A suppression that matches no finding.
public struct UnusedSuppression: SuppressionRule {
  public static let metadata = makeMetadata(
    id: "keyward.unused_suppression", title: "Suppression that suppresses nothing",
    description: """
      A `keyward:ignore`, `keyward:ignore-next` or `keyward:disable` comment whose rule matches no \
      finding where it applies (rules not run by this scan are not judged).
      """,
    rationale: """
      A stale suppression sits ready to hide the next real finding on that line, silently.
      """,
    example:
      "// keyward:ignore swift.weak_biometric_acl -- legacy\nlet flags: SecAccessControlCreateFlags = .biometryCurrentSet",
    fixed: "let flags: SecAccessControlCreateFlags = .biometryCurrentSet")

  public static let examples = RuleExamples(
    flagged: [
      RuleExample(
        "let x = SecAccessControlCreateWithFlags(nil, p, .biometryCurrentSet, nil) ↓// keyward:ignore swift.weak_biometric_acl -- old",
        skipCommentWrapping: true),
      RuleExample(
        "↓// keyward:ignore-next swift.weak_keychain_accessibility -- widget\nlet q = [kSecAttrAccessible: kSecAttrAccessibleWhenUnlocked]",
        skipCommentWrapping: true),
    ],
    clean: [
      "let x = SecAccessControlCreateWithFlags(nil, p, .biometryAny, nil) // keyward:ignore swift.weak_biometric_acl -- tracked in SEC-12",
      "// keyward:ignore-next swift.weak_keychain_accessibility -- widget\nlet q = [kSecAttrAccessible: kSecAttrAccessibleAlways]",
      """
      // keyward:disable swift.weak_keychain_accessibility -- fixtures for the migration tests
      let a = [kSecAttrAccessible: kSecAttrAccessibleAlways]
      // keyward:enable swift.weak_keychain_accessibility
      """,
      #"let help = "// keyward:ignore swift.weak_biometric_acl""#,
    ])
}

/// A suppression naming a rule that does not exist.
public struct UnknownSuppressedRule: SuppressionRule {
  public static let metadata = makeMetadata(
    id: "keyward.unknown_rule", title: "Suppression of an unknown rule",
    description: "A `keyward:` comment that names a rule id Keyward does not have (usually a typo), or none at all.",
    rationale: "It suppresses nothing, while its author believes the finding is handled.",
    example: "// keyward:ignore swift.weak_biometrics_acl -- legacy",
    fixed: "// keyward:ignore swift.weak_biometric_acl -- legacy")

  public static let examples = RuleExamples(
    flagged: [
      RuleExample("↓// keyward:ignore swift.weak_biometrics_acl -- legacy\nlet x = 1", skipCommentWrapping: true),
      RuleExample("↓// keyward:disable\nlet x = 1", skipCommentWrapping: true),
    ],
    clean: [
      "let x = SecAccessControlCreateWithFlags(nil, p, .biometryAny, nil) // keyward:ignore swift.weak_biometric_acl -- SEC-12",
      "let x = SecAccessControlCreateWithFlags(nil, p, .biometryAny, nil) // keyward:ignore all -- generated code",
    ])
}

/// A suppression without a reason, where the configuration requires one.
public struct MissingSuppressionReason: SuppressionRule {
  public static let metadata = makeMetadata(
    id: "keyward.missing_suppression_reason", title: "Suppression without a reason",
    description: """
      With `requireReason: true` (in `.keyward.yml`, under this rule), a `keyward:` comment must \
      say why after `--`; one that does not suppresses nothing and is reported.
      """,
    rationale: "Reviewers and auditors need to know why a security finding was accepted.",
    example:
      "let a = SecAccessControlCreateWithFlags(nil, p, .biometryAny, nil) // keyward:ignore swift.weak_biometric_acl",
    fixed:
      "let a = SecAccessControlCreateWithFlags(nil, p, .biometryAny, nil) // keyward:ignore swift.weak_biometric_acl -- SEC-12"
  )

  public static let options = [
    OptionSpec(
      key: "requireReason", summary: "Require `-- reason` on every suppression.", defaultValue: .bool(false))
  ]

  public static let examples = RuleExamples(
    flagged: [
      RuleExample(
        "let a = SecAccessControlCreateWithFlags(nil, p, .biometryAny, nil) ↓// keyward:ignore swift.weak_biometric_acl",
        options: ["requireReason": .bool(true)], skipCommentWrapping: true)
    ],
    clean: [
      "let a = SecAccessControlCreateWithFlags(nil, p, .biometryAny, nil) // keyward:ignore swift.weak_biometric_acl",
      "let a = SecAccessControlCreateWithFlags(nil, p, .biometryAny, nil) // keyward:ignore swift.weak_biometric_acl -- SEC-12",
    ])
}
