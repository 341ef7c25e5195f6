import KeywardCore

/// The flagged and clean examples of `swift.weak_keychain_accessibility`, which the test suite runs.
extension WeakKeychainAccessibility {
  public static let examples = RuleExamples(
    flagged: [
      // Chosen by the caller, reported at the choice.
      """
      struct TokenStore {
          func put(_ secret: Data, protection: CFString) -> OSStatus {
              let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: secret,
                                          kSecAttrAccessible as String: protection]
              return SecItemAdd(query as CFDictionary, nil)
          }
      }
      func remember(_ store: TokenStore, _ token: Data) { _ = store.put(token, protection: ↓kSecAttrAccessibleAlways) }
      """,
      // A settings value built once, kept in a stored property and read by a method.
      vaultSettings(protection: "↓kSecAttrAccessibleAlways"),
      // A property wrapper whose setter stores with the protection its attribute is given.
      keychainBacked(protection: "↓kSecAttrAccessibleAlways"),
      // A value built into a local, then handed to a function reading its member.
      """
      struct KeyAccess { var protection: CFString }
      func storeKey(_ key: Data, access: KeyAccess) {
          let query: [String: Any] = [kSecValueData as String: key, kSecAttrAccessible as String: access.protection]
          SecItemAdd(query as CFDictionary, nil)
      }
      func setUp(_ key: Data) {
          let sessionAccess = KeyAccess(protection: ↓kSecAttrAccessibleAlwaysThisDeviceOnly)
          storeKey(key, access: sessionAccess)
      }
      """,
      // The memberwise initializer sets a stored property its method stores with.
      """
      struct SessionStore {
          var accessibility: CFString = kSecAttrAccessibleWhenUnlockedThisDeviceOnly
          func save(_ token: Data) -> OSStatus {
              let query: [String: Any] = [kSecValueData as String: token, kSecAttrAccessible as String: accessibility]
              return SecItemAdd(query as CFDictionary, nil)
          }
      }
      enum Stores { static let background = SessionStore(accessibility: ↓kSecAttrAccessibleAlwaysThisDeviceOnly) }
      """,
      """
      let query: [String: Any] = [
          kSecClass as String: kSecClassGenericPassword,
          kSecAttrAccount as String: "apiToken",
          kSecAttrAccessible as String: ↓kSecAttrAccessibleAlways
      ]
      """,
      "let query = [kSecAttrAccessible: ↓kSecAttrAccessibleAlwaysThisDeviceOnly] as CFDictionary",
      "query[kSecAttrAccessible as String] = ↓kSecAttrAccessibleAlways",
      "query[String(kSecAttrAccessible)] = ↓kSecAttrAccessibleAlways as String",
      "query.updateValue(↓kSecAttrAccessibleAlways, forKey: kSecAttrAccessible as String)",
      "attributes.setValue(↓kSecAttrAccessibleAlwaysThisDeviceOnly, forKey: kSecAttrAccessible as String)",
      "attributes.setObject(↓kSecAttrAccessibleAlways, forKey: kSecAttrAccessible as NSString)",
      #"let query: [String: Any] = ["pdmn": ↓"dk", "acct": account]"#,
      #"query[kSecAttrAccessible as String] = ↓"dku""#,
      "let access = SecAccessControlCreateWithFlags(nil, ↓kSecAttrAccessibleAlways, .biometryCurrentSet, nil)",
      """
      struct TokenStore {
          static let accessibility = ↓kSecAttrAccessibleAlways
          func save(_ data: Data) {
              let query: [String: Any] = [kSecValueData as String: data, kSecAttrAccessible as String: Self.accessibility]
              SecItemAdd(query as CFDictionary, nil)
          }
      }
      """,
      """
      func save(_ data: Data) {
          let level = ↓kSecAttrAccessibleAlways
          let key = kSecAttrAccessible as String
          var query: [String: Any] = [kSecValueData as String: data]
          query[key] = level
          SecItemAdd(query as CFDictionary, nil)
      }
      """,
      "query[kSecAttrAccessible as String] = background ? ↓kSecAttrAccessibleAlways : kSecAttrAccessibleWhenUnlocked",
      """
      import KeychainAccess
      let keychain = Keychain(service: "com.example.app").accessibility(↓.always)
      """,
      """
      import SwiftKeychainWrapper
      KeychainWrapper.standard.set(token, forKey: "token", withAccessibility: ↓.alwaysThisDeviceOnly)
      """,
      """
      import KeychainSwift
      KeychainSwift().set(token, forKey: "token", withAccess: ↓.accessibleAlways)
      """,
      """
      import Locksmith
      struct Account: GenericPasswordSecureStorable {
          var accessible: LocksmithAccessibleOption? { ↓.always }
      }
      """,
      """
      let store = UICKeyChainStore(service: "com.example.app")
      store.accessibility = ↓.always
      """,
      RuleExample(protectionChoice(cache: "↓.always")),
      // The attributes of an update are stored.
      """
      func relax(_ match: [String: Any]) {
          let attributes: [String: Any] = [kSecAttrAccessible as String: ↓kSecAttrAccessibleAlways]
          SecItemUpdate(match as CFDictionary, attributes as CFDictionary)
      }
      """,
      // Key-pair attributes take the role of the key generation holding them.
      """
      func makeKey() -> SecKey? {
          let privateAttributes: [String: Any] = [kSecAttrIsPermanent as String: true,
                                                  kSecAttrAccessible as String: ↓kSecAttrAccessibleAlways]
          let attributes: [String: Any] = [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                                           kSecPrivateKeyAttrs as String: privateAttributes]
          return SecKeyCreateRandomKey(attributes as CFDictionary, nil)
      }
      """,
      // Handed to code the file does not show: it may be stored.
      """
      func save(_ data: Data, in store: ItemStore) {
          let item: [String: Any] = [kSecValueData as String: data, kSecAttrAccessible as String: ↓kSecAttrAccessibleAlways]
          store.add(item)
      }
      """,
      legacyMigration(label: "with", marker: "↓"),
      RuleExample(reassignedClass(marker: "↓", guarded: true)),
      // Added before it is set again.
      """
      func store(_ secret: Data) {
          var item: [String: Any] = [kSecValueData as String: secret]
          item[kSecAttrAccessible as String] = ↓kSecAttrAccessibleAlways
          SecItemAdd(item as CFDictionary, nil)
          item[kSecAttrAccessible as String] = kSecAttrAccessibleWhenUnlockedThisDeviceOnly
          SecItemUpdate(item as CFDictionary, [kSecValueData as String: secret] as CFDictionary)
      }
      """,
      RuleExample(
        "query[kSecAttrAccessible as String] = ↓kSecAttrAccessibleAfterFirstUnlock",
        options: ["weakAccessibilityAttributes": .strings(["kSecAttrAccessibleAfterFirstUnlock"])]),
    ],
    clean: [
      // Set again before the add, whichever branch ran.
      RuleExample(reassignedClass(marker: "", guarded: false)),
      // A helper given the dictionary as what to match (`matching:`) looks old items up.
      legacyMigration(label: "matching", marker: ""),
      // The same shapes carrying strong values.
      vaultSettings(protection: "kSecAttrAccessibleWhenUnlockedThisDeviceOnly"),
      keychainBacked(protection: "kSecAttrAccessibleWhenUnlockedThisDeviceOnly"),
      // Chosen for a public key's item, which holds nothing secret.
      """
      struct KeyAccess { var protection: CFString }
      func storeKey(_ key: Data, access: KeyAccess) {
          let query: [String: Any] = [kSecValueData as String: key, kSecAttrAccessible as String: access.protection]
          SecItemAdd(query as CFDictionary, nil)
      }
      func setUp(_ key: Data) {
          let publicKeyAccess = KeyAccess(protection: kSecAttrAccessibleAlwaysThisDeviceOnly)
          storeKey(key, access: publicKeyAccess)
      }
      """,
      // A weak class kept in a property that never reaches a keychain item.
      """
      struct AccessibilityRow { var protection: CFString; var title: String }
      let rows = [AccessibilityRow(protection: kSecAttrAccessibleAlways, title: "Always (deprecated)")]
      let query: [String: Any] = [kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked]
      """,
      // The same shape carrying a strong class.
      """
      struct TokenStore {
          func put(_ secret: Data, protection: CFString) -> OSStatus {
              let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: secret,
                                          kSecAttrAccessible as String: protection]
              return SecItemAdd(query as CFDictionary, nil)
          }
      }
      func remember(_ store: TokenStore, _ token: Data) {
          _ = store.put(token, protection: kSecAttrAccessibleWhenUnlockedThisDeviceOnly)
      }
      """,
      // A weak class passed to a function that only searches for it (a migration).
      """
      func countItems(protectedBy protection: CFString) -> Int {
          let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccessible as String: protection,
                                      kSecMatchLimit as String: kSecMatchLimitAll]
          var found: CFTypeRef?
          return SecItemCopyMatching(query as CFDictionary, &found) == errSecSuccess ? ((found as? [Any])?.count ?? 0) : 0
      }
      let legacy = countItems(protectedBy: kSecAttrAccessibleAlways)
      """,
      """
      let query: [String: Any] = [
          kSecClass as String: kSecClassGenericPassword,
          kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked
      ]
      """,
      "query[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly",
      "let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, .biometryCurrentSet, nil)",
      "// Never use kSecAttrAccessibleAlways: query[kSecAttrAccessible] = kSecAttrAccessibleAlways",
      #"let help = "kSecAttrAccessible: kSecAttrAccessibleAlways is deprecated""#,
      """
      // Migrating items stored by an old version: reading the old class is not storing with it.
      if let current = attributes[kSecAttrAccessible as String] as? String, current == kSecAttrAccessibleAlways as String {
          migrate()
      }
      """,
      #"let labels: [String: String] = ["mode": "dk", "pdmnx": "dk"]"#,
      """
      enum Visibility { case always, never }
      let banner = Banner().accessibility(.always)
      """,
      """
      import KeychainAccess
      let keychain = Keychain(service: "com.example.app").accessibility(.afterFirstUnlockThisDeviceOnly)
      """,
      // A migration searches for items stored with the old class, to store them again.
      """
      func upgradeLegacyItems() {
          let legacy: [String: Any] = [
              kSecClass as String: kSecClassGenericPassword,
              kSecAttrAccessible as String: kSecAttrAccessibleAlways,
              kSecReturnAttributes as String: true,
              kSecMatchLimit as String: kSecMatchLimitAll,
          ]
          var items: CFTypeRef?
          guard SecItemCopyMatching(legacy as CFDictionary, &items) == errSecSuccess else { return }
          let stronger = [kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock]
          SecItemUpdate(legacy as CFDictionary, stronger as CFDictionary)
      }
      """,
      """
      func purgeOldItems() {
          var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword]
          query[kSecAttrAccessible as String] = kSecAttrAccessibleAlwaysThisDeviceOnly
          SecItemDelete(query as CFDictionary)
      }
      """,
      // A search kept in a property: it asks for results and carries no value.
      """
      struct LegacyLookup {
          static let query: [String: Any] = [kSecAttrAccessible as String: kSecAttrAccessibleAlways,
                                             kSecReturnData as String: true]
      }
      """,
      """
      func testSavedItemIsNotWeak() {
          XCTAssertNotEqual(saved as NSDictionary, [kSecAttrAccessible as String: kSecAttrAccessibleAlways] as NSDictionary)
      }
      """,
      """
      func describeDefaults() -> Int {
          let unusedDefaults: [String: Any] = [kSecAttrAccessible as String: kSecAttrAccessibleAlways]
          return 0
      }
      """,
      // The enum offers `.always`, but no call chooses it.
      RuleExample(protectionChoice(cache: ".background")),
      // A library's mapping table offers `.always`; its callers, elsewhere, choose.
      """
      public enum ItemAccessibility {
          case whenUnlocked, afterFirstUnlock, always
          var attribute: CFString {
              switch self {
              case .whenUnlocked: return kSecAttrAccessibleWhenUnlocked
              case .afterFirstUnlock: return kSecAttrAccessibleAfterFirstUnlock
              case .always: return kSecAttrAccessibleAlways
              }
          }
      }
      public final class Vault {
          let accessibility: ItemAccessibility
          public init(accessibility: ItemAccessibility) { self.accessibility = accessibility }
          public func save(_ data: Data) {
              SecItemAdd([kSecValueData: data, kSecAttrAccessible: accessibility.attribute] as CFDictionary, nil)
          }
      }
      """,
      RuleExample(
        "query[kSecAttrAccessible as String] = kSecAttrAccessibleAlways",
        options: ["weakAccessibilityAttributes": .strings(["kSecAttrAccessibleAlwaysThisDeviceOnly"])]),
    ])

  /// An enum mapping protections to classes, offering `.always`, and a call choosing `cache`.
  static func protectionChoice(cache: String) -> String {
    """
    enum Protection {
        case strict, background, always
        var attribute: CFString {
            switch self {
            case .strict: return kSecAttrAccessibleWhenUnlockedThisDeviceOnly
            case .background: return kSecAttrAccessibleAfterFirstUnlock
            case .always: return kSecAttrAccessibleAlways
            }
        }
    }
    func save(_ data: Data, protection: Protection = .strict) {
        SecItemAdd([kSecValueData as String: data, kSecAttrAccessible as String: protection.attribute] as CFDictionary, nil)
    }
    func saveToken(_ token: Data) { save(token) }
    func saveCache(_ cache: Data) { save(cache, protection: \(cache)) }
    """
  }

  /// A store moving items written with an old class: the query goes to a helper under `label`.
  static func legacyMigration(label: String, marker: String) -> RuleExample {
    RuleExample(
      """
      final class TokenStore {
          func migrateLegacyItems() throws {
              var query = baseQuery
              query[kSecAttrAccessible as String] = \(marker)kSecAttrAccessibleAlways
              try moveItems(\(label): query)
          }
      }
      """)
  }

  /// A settings value built once, kept in a stored property and read by a method that stores with
  /// its `protection`.
  static func vaultSettings(protection: String) -> RuleExample {
    RuleExample(
      """
      struct VaultSettings { var protection: CFString }
      final class Vault {
          private let settings: VaultSettings
          init(settings: VaultSettings) { self.settings = settings }
          func save(_ secret: Data) -> OSStatus {
              var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: secret]
              query[kSecAttrAccessible as String] = settings.protection
              return SecItemAdd(query as CFDictionary, nil)
          }
      }
      let vault = Vault(settings: .init(protection: \(protection)))
      """)
  }

  /// A property wrapper whose setter stores with the `protection` its attribute is given.
  static func keychainBacked(protection: String) -> RuleExample {
    RuleExample(
      """
      @propertyWrapper
      struct KeychainBacked {
          let key: String
          let protection: CFString
          init(_ key: String, protection: CFString = kSecAttrAccessibleWhenUnlockedThisDeviceOnly) {
              self.key = key
              self.protection = protection
          }
          var wrappedValue: String? {
              get { nil }
              set {
                  let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: key,
                                              kSecValueData as String: Data((newValue ?? "").utf8), kSecAttrAccessible as String: protection]
                  SecItemAdd(query as CFDictionary, nil)
              }
          }
      }
      final class Session {
          @KeychainBacked("session", protection: \(protection)) var token: String?
      }
      """)
  }

  /// A class chosen in an `if`/`else`, then set again for every item before the add; `guarded`
  /// puts that last write under a condition of its own, so the first class may be stored.
  static func reassignedClass(marker: String, guarded: Bool) -> String {
    let last = "item[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly"
    return """
      func storeCredentials(_ secret: Data, upgradingFromLegacyStore: Bool, isFreshInstall: Bool) {
          var item: [String: Any] = [kSecClass as String: kSecClassGenericPassword]
          if upgradingFromLegacyStore {
              item[kSecAttrAccessible as String] = \(marker)kSecAttrAccessibleAlways
          } else {
              item[kSecAttrAccessible as String] = kSecAttrAccessibleWhenUnlocked
          }
          \(guarded ? "if isFreshInstall { \(last) }" : last)
          item[kSecValueData as String] = secret
          SecItemAdd(item as CFDictionary, nil)
      }
      """
  }
}
