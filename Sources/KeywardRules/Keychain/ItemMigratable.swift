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
      onto another device. Keyward reports them on queries that store data (not synchronized \
      ones), on the protection \
      class of access controls, and where a keychain wrapper library is given one (not on a \
      wrapper's lookups, nor where it also synchronizes the item, nor on an access control that \
      only protects Secure Enclave keys, which never leave the device). The deprecated `Always` \
      classes are left to `swift.weak_keychain_accessibility`.
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
      // The access control also protects a password item, which can migrate.
      """
      import CryptoKit
      func protect(_ password: Data) throws {
          let access = SecAccessControlCreateWithFlags(kCFAllocatorDefault, ↓kSecAttrAccessibleWhenUnlocked, [.userPresence], nil)!
          _ = try SecureEnclave.P256.Signing.PrivateKey(accessControl: access)
          let item: [String: Any] = [kSecValueData as String: password, kSecAttrAccessControl as String: access]
          SecItemAdd(item as CFDictionary, nil)
      }
      """,
      "let query: [String: Any] = [kSecValueData as String: token, kSecAttrAccessible as String: ↓kSecAttrAccessibleAfterFirstUnlock]",
      "let access = SecAccessControlCreateWithFlags(nil, ↓kSecAttrAccessibleWhenUnlocked, .biometryCurrentSet, nil)",
      """
      import SwiftKeychainWrapper
      func storeDatabaseKey(_ key: String) {
          KeychainWrapper.standard.set(key, forKey: "databaseKey", withAccessibility: ↓.afterFirstUnlock)
      }
      """,
      // A helper's default, whatever option its caller passes.
      RuleExample(protectionHelper(defaultClass: "↓kSecAttrAccessibleWhenUnlocked")),
      // Merged into the item that is added; handed to a helper whose name says it also saves.
      """
      func save(_ base: [String: Any]) throws -> OSStatus {
          let item = base.merging([kSecAttrAccessible as String: ↓kSecAttrAccessibleAfterFirstUnlock]) { $1 }
          var copy = base
          copy[kSecAttrAccessible as String] = ↓kSecAttrAccessibleWhenUnlocked
          try keychain.removeAndSave(copy)
          return SecItemAdd(item as CFDictionary, nil)
      }
      """,
    ],
    clean: [
      // Set again before the add, whichever branch ran.
      RuleExample(WeakKeychainAccessibility.reassignedClass(marker: "", guarded: false), profile: .strict),
      "let query: [String: Any] = [kSecValueData as String: token, kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly]",
      "let lookup: [String: Any] = [kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked, kSecReturnData as String: true]",
      "let query: [String: Any] = [kSecValueData as String: token, kSecAttrAccessible as String: kSecAttrAccessibleAlways]",
      """
      import SwiftKeychainWrapper
      func storeDatabaseKey(_ key: String) {
          KeychainWrapper.standard.set(key, forKey: "databaseKey", withAccessibility: .afterFirstUnlockThisDeviceOnly)
      }
      """,
      // A lookup selects items by their class; a synchronized item cannot stay on this device.
      """
      import SwiftKeychainWrapper
      func hasDatabaseKey() -> Bool {
          KeychainWrapper.standard.hasValue(forKey: "databaseKey", withAccessibility: .afterFirstUnlock)
      }
      """,
      """
      import KeychainAccess
      let backedUp = Keychain(service: "sync").synchronizable(true).accessibility(.afterFirstUnlock)
      let shared = Keychain(service: "shared").accessibility(.afterFirstUnlock).synchronizable(true)
      """,
      // Queries only handed to helpers named for removing or looking items up select old items.
      """
      func purgeLegacyItems(_ base: [String: Any]) throws {
          var legacy = base
          legacy[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlock
          try keychain.removeItem(query: legacy)
          let stale = base.merging([kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked]) { $1 }
          try keychain.deleteItems(matching: stale)
          _ = try keychain.loadItem(base.merging([kSecAttrAccessible as String: kSecAttrAccessibleAlways]) { $1 })
      }
      """,
      // A synchronized item cannot be `ThisDeviceOnly`.
      """
      func storeSyncedPassphrase(_ passphrase: String) {
          let item: [String: Any] = [kSecValueData as String: Data(passphrase.utf8),
                                     kSecAttrSynchronizable as String: true,
                                     kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock]
          SecItemAdd(item as CFDictionary, nil)
      }
      """,
      // A synchronized store cannot be `ThisDeviceOnly`, also when its local is used later.
      """
      import KeychainAccess
      func storePrivateKey(_ privateKey: String, for account: String) {
          let keychain = Keychain(service: "keys").synchronizable(true)
          try? keychain.accessibility(.afterFirstUnlock).set(privateKey, key: account)
      }
      """,
      // Secure Enclave keys never leave the device, whatever class their access control names.
      """
      import CryptoKit
      func makeSigningKey() throws -> SecureEnclave.P256.Signing.PrivateKey {
          let access = SecAccessControlCreateWithFlags(kCFAllocatorDefault, kSecAttrAccessibleWhenUnlocked, [.privateKeyUsage], nil)!
          return try SecureEnclave.P256.Signing.PrivateKey(accessControl: access)
      }
      """,
      """
      func makeEnclaveKey() -> SecKey? {
          guard let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleAfterFirstUnlock, .privateKeyUsage, nil) else { return nil }
          let attributes: [String: Any] = [
              kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
              kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
              kSecPrivateKeyAttrs as String: [kSecAttrIsPermanent as String: true, kSecAttrAccessControl as String: access],
          ]
          return SecKeyCreateRandomKey(attributes as CFDictionary, nil)
      }
      """,
      // The helper offers a migrating class only when its caller asks for it.
      RuleExample(protectionHelper(defaultClass: "kSecAttrAccessibleWhenUnlockedThisDeviceOnly")),
    ])

  /// A helper choosing the class from its caller's option, starting from `defaultClass`.
  static func protectionHelper(defaultClass: String) -> String {
    """
    func protection(for option: String?) -> CFString {
        var chosen: CFString = \(defaultClass)
        switch option {
        case "firstUnlock": chosen = kSecAttrAccessibleAfterFirstUnlock
        case "thisDevice": chosen = kSecAttrAccessibleWhenUnlockedThisDeviceOnly
        default: break
        }
        return chosen
    }
    func save(_ token: Data, option: String?) {
        let query: [String: Any] = [kSecValueData as String: token,
                                    kSecAttrAccessible as String: protection(for: option)]
        SecItemAdd(query as CFDictionary, nil)
    }
    """
  }

  public static func prefilterTokens(options: RuleOptions) -> [String] { ["kSecAttrAccessible"] }

  public static let readsWrapperSettings = true

  public static func check(_ context: RuleContext) {
    let model = context.model
    var values: [ExprSyntax] = []
    // A synchronized item cannot be `ThisDeviceOnly`: `swift.keychain_synchronizable_secret`
    // judges it. Only sync the code always turns on counts: a caller's option leaves the other path.
    values += model.keychainQueries
      .filter { $0.mayStore && $0.synchronizableTrueValues(in: model, includingCallerChoices: false).isEmpty }
      .flatMap { $0.writes(forKey: "kSecAttrAccessible") }.map(\.value)
    // A Secure Enclave key stays on the device whatever class its access control names.
    // Nor does one that only goes into searches protect anything.
    values += model.accessControlCreations.filter {
      !model.protectsOnlyEnclaveKeys($0) && !model.isPutOnlyIntoSearches($0)
    }.compactMap {
      SyntaxFacts.argument($0, at: 1)
    }
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
    // The same classes chosen through a keychain wrapper (`.accessibility(.afterFirstUnlock)`).
    // A synchronized item cannot be `ThisDeviceOnly`: `swift.keychain_synchronizable_secret` judges it.
    for value in model.wrapperValues(.accessibility) {
      guard let accessibility = AccessibilityClass.named(value.meaning), !accessibility.isThisDeviceOnly,
        !accessibility.isDeprecated, !model.isSynchronizedAlong(value)
      else { continue }
      context.report(
        value.expression,
        message:
          "`\(SyntaxFacts.text(value.expression))` (\(value.library) for `\(accessibility.name)`) lets this secret travel in backups and restore onto another device, which can then act as this one. Use the library's `ThisDeviceOnly` variant.",
        confidence: value.isConditional ? .low : nil)
    }
  }
}
