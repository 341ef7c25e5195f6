import KeywardCore
import SwiftSyntax

/// Flags queries whose attributes contradict each other, so the item is not stored as intended.
public struct ConflictingAttributes: Rule {
  public static let metadata = RuleMetadata(
    id: "swift.keychain_conflicting_attributes",
    title: "Conflicting keychain attributes",
    severity: .low, confidence: .medium, resource: "Information leak",
    tags: ["CWE:710", "MASVS-STORAGE-1"],
    profile: .standard,
    description: """
      Keychain queries that do not do what they say: `kSecAttrAccessible` together with \
      `kSecAttrAccessControl` (the OWASP chapter calls them mutually exclusive; the access \
      control already carries the accessibility, and an add can fail with `errSecParam`), \
      `kSecAttrSynchronizable` true with a `...ThisDeviceOnly` class, which synchronisable items \
      may not use, and an attribute given a constant that is not one of its values but another \
      attribute's (`kSecUseAuthenticationUI: kSecUseAuthenticationContext`).
      """,
    rationale: """
      A query the keychain rejects leaves the secret unstored, usually unnoticed; a query that \
      mixes intents hides which protection the item really gets.
      """,
    vulnerableExample: """
      let query: [String: Any] = [
          kSecValueData as String: data,
          kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
          kSecAttrAccessControl as String: access
      ]
      """,
    remediation: """
      Give the accessibility once, as the protection argument of `SecAccessControlCreateWithFlags`, \
      and drop `kSecAttrAccessible`. Do not synchronise items that must stay on this device.
      """,
    fixedExample: """
      let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .biometryCurrentSet, nil)!
      let query: [String: Any] = [kSecValueData as String: data, kSecAttrAccessControl as String: access]
      """,
    references: [
      Reference(
        "Apple: kSecAttrAccessControl", url: "https://developer.apple.com/documentation/security/ksecattraccesscontrol"),
      Reference(
        "Apple: kSecAttrSynchronizable",
        url: "https://developer.apple.com/documentation/security/ksecattrsynchronizable"),
      Reference("OWASP MASTG: Testing Local Authentication (Security.framework sample)"),
    ])

  public static let examples = RuleExamples(
    flagged: [
      // The helper's access control and the caller's class end up in one add.
      """
      func baseQuery() -> [String: Any] {
          var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword]
          query[kSecAttrAccessControl as String] = SecAccessControlCreateWithFlags(
              nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .biometryCurrentSet, nil)
          return query
      }
      func save(_ secret: Data) {
          var item = baseQuery()
          item[↓kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlock
          item[kSecValueData as String] = secret
          SecItemAdd(item as CFDictionary, nil)
      }
      """,
      """
      let query: [String: Any] = [
          kSecValueData as String: data,
          ↓kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
          kSecAttrAccessControl as String: access
      ]
      """,
      """
      var query: [String: Any] = [kSecAttrAccessControl as String: access]
      query[↓kSecAttrAccessible as String] = kSecAttrAccessibleWhenUnlocked
      """,
      """
      let query: [String: Any] = [kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
                                  kSecAttrSynchronizable as String: ↓true]
      """,
      """
      let query: [String: Any] = [kSecUseAuthenticationContext as String: context,
                                  kSecUseAuthenticationUI as String: ↓kSecUseAuthenticationContext]
      """,
      "query[kSecAttrAccessible] = ↓kSecAttrAccessControl",
      """
      var query: [String: Any] = [kSecAttrAccessControl as String: access]
      query.removeValue(forKey: kSecAttrAccessible as String)
      query[↓kSecAttrAccessible as String] = kSecAttrAccessibleWhenUnlocked
      """,
      // The access control is added on one path only; the class stays on every path.
      """
      func save(_ data: Data, access: SecAccessControl?) {
          var query: [String: Any] = [kSecValueData as String: data,
                                      ↓kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked]
          if let access { query[kSecAttrAccessControl as String] = access }
          SecItemAdd(query as CFDictionary, nil)
      }
      """,
    ],
    clean: [
      // The helper synchronizes only when asked; the caller's device-only class is on the other side.
      """
      func query(sharing: Bool) -> [String: Any] {
          var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "user"]
          if sharing { query[kSecAttrSynchronizable as String] = true }
          return query
      }
      func store(_ user: Data, sharing: Bool) {
          var item = query(sharing: sharing)
          item[kSecAttrAccessible as String] = sharing ? kSecAttrAccessibleAfterFirstUnlock : kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
          item[kSecValueData as String] = user
          SecItemAdd(item as CFDictionary, nil)
      }
      """,
      // The case that sets the class returns before the access control is added after the switch.
      """
      func protect(_ item: inout [CFString: Any], storage: Storage) {
          var flags = SecAccessControlCreateFlags()
          switch storage {
          case .protected: flags.insert(.biometryCurrentSet)
          case .synchronized:
              item[kSecAttrAccessible] = kSecAttrAccessibleAfterFirstUnlock
              return
          }
          item[kSecAttrAccessControl] = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, nil)
      }
      """,
      "let query: [String: Any] = [kSecValueData as String: data, kSecAttrAccessControl as String: access]",
      // Set in the two branches of one choice: never together.
      """
      func save(_ data: Data, access: SecAccessControl?) {
          var query: [String: Any] = [kSecValueData as String: data]
          if let access {
              query[kSecAttrAccessControl as String] = access
          } else {
              query[kSecAttrAccessible as String] = kSecAttrAccessibleWhenUnlockedThisDeviceOnly
          }
          SecItemAdd(query as CFDictionary, nil)
      }
      """,
      """
      func attributes(for level: Level, access: SecAccessControl) -> [String: Any] {
          var query: [String: Any] = [kSecAttrSynchronizable as String: true]
          switch level {
          case .protected:
              query[kSecAttrAccessControl as String] = access
          case .background:
              query[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlock
          }
          return query
      }
      """,
      // A search stores nothing.
      """
      func find(access: SecAccessControl) {
          let query: [String: Any] = [kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked,
                                      kSecAttrAccessControl as String: access]
          SecItemCopyMatching(query as CFDictionary, nil)
      }
      """,
      "let query: [String: Any] = [kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock, kSecAttrSynchronizable as String: true]",
      """
      let a: [String: Any] = [kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked]
      let b: [String: Any] = [kSecAttrAccessControl as String: access]
      """,
      """
      var query: [String: Any] = [kSecValueData as String: data, kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked]
      if protect {
          query.removeValue(forKey: kSecAttrAccessible as String)
          query[kSecAttrAccessControl as String] = access
      }
      """,
      """
      var query: [String: Any] = [kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked]
      query[kSecAttrAccessible as String] = nil
      query[kSecAttrAccessControl as String] = access
      """,
      """
      let ui = kSecUseAuthenticationUISkip
      let query: [CFString: Any] = [kSecClass: kSecClassGenericPassword, kSecUseAuthenticationUI: ui,
                                    kSecMatchLimit: kSecMatchLimitOne, kSecAttrAccessible: kSecAttrAccessibleWhenUnlocked]
      """,
    ])

  public static func prefilterTokens(options: RuleOptions) -> [String] {
    ["kSecAttrAccessControl", "kSecAttrSynchronizable", "kSecUseAuthenticationUI", "kSecAttrAccessible", "kSecClass"]
  }

  /// Attributes whose values are constants named after them (`kSecClass` → `kSecClassKey`), and
  /// what to do instead of writing a constant that is not one of them.
  static let valueFamilies: [String: String] = [
    "kSecAttrAccessible":
      "Use one of the `kSecAttrAccessible…` classes, such as `kSecAttrAccessibleWhenUnlockedThisDeviceOnly`.",
    "kSecClass": "Use one of the `kSecClass…` constants, such as `kSecClassGenericPassword`.",
    "kSecMatchLimit": "Use `kSecMatchLimitOne` or `kSecMatchLimitAll`.",
    "kSecUseAuthenticationUI":
      "Drop `kSecUseAuthenticationUI` (deprecated since iOS 14): to keep the keychain from prompting, pass an `LAContext` with `interactionNotAllowed = true` as `kSecUseAuthenticationContext`.",
  ]

  public static func check(_ context: RuleContext) {
    let model = context.model
    reportValuesOfOtherAttributes(context)
    for query in model.keychainQueries where query.mayStore {
      // `query.removeValue(forKey: kSecAttrAccessible)` before the add: swapped, not combined;
      // set in the `if` and the `else`: never together.
      for write in query.writes(forKey: "kSecAttrAccessible") where !query.isRemoved(after: write) {
        let controls = query.writes(forKey: "kSecAttrAccessControl").filter {
          !BranchFacts.mayRunApart($0.node, write.node)
        }
        guard !controls.isEmpty else { continue }
        var advice = "Pass the accessibility to `SecAccessControlCreateWithFlags` and drop this attribute."
        if let weak = controls.lazy.compactMap({ weakProtection(of: $0.value, model: model) }).first {
          // Dropping this attribute alone would leave the access control's own weak class.
          advice =
            "Drop this attribute, and create the access control with a stronger class than `\(weak.name)`, which it carries now (such as `kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly`)."
        }
        context.report(
          write.keyExpression,
          message:
            "`kSecAttrAccessible` and `kSecAttrAccessControl` in one query conflict: the access control already carries the accessibility, and the add can fail with `errSecParam`, leaving the secret unstored. \(advice)",
          related: controls.map { (context.offset(of: $0.keyExpression), "access control set here") })
      }
      for value in query.synchronizableTrueValues(in: model) {
        let deviceOnly = query.writes(forKey: "kSecAttrAccessible").filter {
          !BranchFacts.mayRunApart($0.node, value)
        }.flatMap { model.resolver.values(of: $0.value) }
          .compactMap { AccessibilityClass.denoted(by: $0.expression)?.value }.filter(\.isThisDeviceOnly)
        guard let accessibility = deviceOnly.first else { continue }
        context.report(
          value,
          message:
            "A synchronizable item cannot use `\(accessibility.name)`: `ThisDeviceOnly` classes never leave the device, so the keychain rejects or ignores one of the two. Decide whether the item stays on this device (drop `kSecAttrSynchronizable`) or syncs (use a class without `ThisDeviceOnly`)."
        )
      }
    }
  }

  /// The deprecated "always" class an access control value was created with, if it was.
  static func weakProtection(of control: ExprSyntax, model: SemanticModel) -> AccessibilityClass? {
    for value in model.resolver.values(of: control) {
      guard let call = SequenceShape.unwrap(value.expression).as(FunctionCallExprSyntax.self),
        SyntaxFacts.calledName(call) == "SecAccessControlCreateWithFlags",
        let protection = SyntaxFacts.argument(call, at: 1)
      else { continue }
      for candidate in model.resolver.values(of: protection) {
        if let (accessibility, _) = AccessibilityClass.denoted(by: candidate.expression), accessibility.isDeprecated {
          return accessibility
        }
      }
    }
    return nil
  }

  /// `kSecUseAuthenticationUI: kSecUseAuthenticationContext`: a key constant where a value of the
  /// attribute's own family belongs, so the query does not ask for what it seems to.
  private static func reportValuesOfOtherAttributes(_ context: RuleContext) {
    let model = context.model
    for write in model.keychainWrites {
      guard let advice = valueFamilies[write.key] else { continue }
      for value in model.resolver.values(of: write.value) {
        let leaf = SequenceShape.unwrapCasts(value.expression)
        guard let constant = KeychainKeys.denoted(by: leaf), !constant.hasPrefix(write.key) || constant == write.key
        else { continue }
        context.report(
          leaf,
          message:
            "`\(constant)` is not a value of `\(write.key)`: it names another keychain attribute, so the query does not ask for what it seems to and the keychain may reject it. \(advice)",
          related: [(context.offset(of: write.keyExpression), "`\(write.key)` set here")])
      }
    }
  }
}
