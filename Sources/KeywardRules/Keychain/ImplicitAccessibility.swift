import KeywardCore
import SwiftSyntax

/// Flags items added without an accessibility class or access control, so the default applies.
public struct ImplicitAccessibility: Rule {
  public static let metadata = RuleMetadata(
    id: "swift.keychain_implicit_accessibility",
    title: "Keychain item relies on the default accessibility",
    severity: .low, confidence: .medium, resource: "Information leak",
    tags: ["CWE:922", "MASWE:0006", "MASVS-STORAGE-1"],
    profile: .strict,
    description: """
      A dictionary passed to `SecItemAdd` with neither `kSecAttrAccessible` nor \
      `kSecAttrAccessControl` leaves the item to the default class, \
      `kSecAttrAccessibleWhenUnlocked`, which backups carry to other devices. Reported only \
      where the whole dictionary is in view (a literal, or a local only subscripts change), \
      also when only an `if` without `else`, not around the add, sets the class. A wrapper \
      store made without a class that the file writes a value through is reported too: its items get the library's default, `.afterFirstUnlock` for a \
      KeychainAccess `Keychain` without `.accessibility(...)`, a `SimpleKeychain` without \
      `accessibility:` and a `UICKeyChainStore` whose `accessibility` is never set, \
      `.whenUnlocked` for a `KeychainSwift` or `KeychainWrapper` write that names none. An item that may sync \
      through iCloud Keychain (`kSecAttrSynchronizable` true or from a setting) is not \
      reported: sync needs a class leaving the device. Nor is a probe deleted again, \
      nor an item in macOS's file-based keychain (no classes).
      """,
    rationale: """
      An implicit class is a decision nobody made: the item gets whatever the default is, which \
      lets it leave the device and says nothing to a reviewer about when the app needs it. \
      Naming the class (usually a `ThisDeviceOnly` one) makes the protection explicit and \
      reviewable.
      """,
    vulnerableExample: """
      let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                  kSecAttrAccount as String: "session",
                                  kSecValueData as String: token]
      SecItemAdd(query as CFDictionary, nil)
      """,
    remediation: """
      Add `kSecAttrAccessible` with the narrowest class the app can use \
      (`kSecAttrAccessibleWhenUnlockedThisDeviceOnly` for most secrets, \
      `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly` for items background work reads), or an \
      access control made with `SecAccessControlCreateWithFlags`.
      """,
    fixedExample: """
      let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                  kSecAttrAccount as String: "session",
                                  kSecValueData as String: token,
                                  kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly]
      SecItemAdd(query as CFDictionary, nil)
      """,
    references: [
      Reference(
        "Apple: kSecAttrAccessible", url: "https://developer.apple.com/documentation/security/ksecattraccessible"),
      Reference(
        "Apple: Restricting keychain item accessibility",
        url: "https://developer.apple.com/documentation/security/restricting-keychain-item-accessibility"),
      Reference(
        "CWE-922: Insecure Storage of Sensitive Information", url: "https://cwe.mitre.org/data/definitions/922.html"),
    ])

  public static let examples = RuleExamples(
    flagged: [
      // The access control is set only when the caller asks for authentication.
      """
      final class TokenStore {
          let requiresAuthentication: Bool
          init(requiresAuthentication: Bool) { self.requiresAuthentication = requiresAuthentication }
          func save(_ token: String) {
              var query: [String: Any] = ↓[kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "token"]
              if requiresAuthentication {
                  query[kSecAttrAccessControl as String] = SecAccessControlCreateWithFlags(
                      nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, .biometryCurrentSet, nil)!
              }
              query[kSecValueData as String] = Data(token.utf8)
              SecItemAdd(query as CFDictionary, nil)
          }
      }
      """,
      RuleExample(
        """
        let query: [String: Any] = ↓[kSecClass as String: kSecClassGenericPassword, kSecValueData as String: token]
        SecItemAdd(query as CFDictionary, nil)
        """, profile: .strict),
      // A KeychainAccess store that names no class keeps its items `.afterFirstUnlock`.
      RuleExample(
        """
        import KeychainAccess
        final class SessionStore {
            private let keychain = ↓Keychain(service: "com.example.session")
            func save(_ refreshToken: String) { keychain["refreshToken"] = refreshToken }
        }
        """, profile: .strict),
      RuleExample(
        """
        import KeychainAccess
        func remember(_ pin: String) throws { try ↓Keychain(service: "com.example.pin").set(pin, key: "pin") }
        """, profile: .strict),
      RuleExample(
        """
        import SimpleKeychain
        let credentials = ↓SimpleKeychain(service: "com.example.auth")
        func store(_ refreshToken: String) throws { try credentials.set(refreshToken, forKey: "refresh") }
        """, profile: .strict),
      // A function of the file builds the dictionary; the caller adds the data and the item.
      RuleExample(
        """
        struct PasswordItem {
            let service: String
            let account: String
            private static func query(service: String, account: String) -> [String: AnyObject] {
                var query = ↓[String: AnyObject]()
                query[kSecClass as String] = kSecClassGenericPassword
                query[kSecAttrService as String] = service as AnyObject
                query[kSecAttrAccount as String] = account as AnyObject
                return query
            }
            func save(password: String) {
                var item = Self.query(service: service, account: account)
                item[kSecValueData as String] = Data(password.utf8) as AnyObject
                let status = SecItemAdd(item as CFDictionary, nil)
                guard status == errSecSuccess else { return }
            }
        }
        """, profile: .strict),
      // The dictionary is made empty and filled by subscripts.
      RuleExample(
        """
        func save(token: String) {
            var query = ↓Dictionary<String, Any>()
            query[kSecClass as String] = kSecClassGenericPassword
            query[kSecAttrAccount as String] = "token"
            query[kSecValueData as String] = Data(token.utf8)
            let status = SecItemAdd(query as CFDictionary, nil)
            guard status == errSecSuccess else { return }
        }
        """, profile: .strict),
      // The store is made in `init` and kept in a property declared without a value.
      RuleExample(
        """
        import KeychainAccess
        final class AccountKeychain {
            private var keychain: Keychain
            init() { keychain = ↓Keychain(service: "com.example.account") }
            func save(password: String) { keychain["password"] = password }
        }
        """, profile: .strict),
      // The store is a parameter's default kept in a property, or a computed property's value.
      RuleExample(
        """
        import KeychainSwift
        final class Lock {
            private let keychain: KeychainSwift
            init(keychain: KeychainSwift = ↓KeychainSwift(keyPrefix: "lock")) { self.keychain = keychain }
            func setPasscode(_ passcode: String) { keychain.set(passcode, forKey: "passcode") }
        }
        """, profile: .strict),
      RuleExample(
        """
        import KeychainAccess
        enum Credentials {
            private static var keychain: KeychainAccess.Keychain { ↓KeychainAccess.Keychain(service: "com.example.appleid") }
            static let save: (String, String) throws -> Void = { try keychain.set($0, key: $1) }
        }
        """, profile: .strict),
      // SwiftKeychainWrapper's shared store keeps `.whenUnlocked` unless a write names a class.
      RuleExample(
        """
        import SwiftKeychainWrapper
        func store(authToken: String, refreshToken: String) {
            ↓KeychainWrapper.standard.set(authToken, forKey: "auth")
            ↓KeychainWrapper.standard[.refreshToken] = refreshToken
            KeychainWrapper.standard.set(authToken, forKey: "copy", withAccessibility: .afterFirstUnlockThisDeviceOnly)
        }
        """, profile: .strict),
      // KeychainSwift takes the class with each write; without one the keychain's default applies.
      RuleExample(
        """
        import KeychainSwift
        final class AccountStore {
            let keychain = ↓KeychainSwift()
            func save(accessToken: String) {
                keychain.set(accessToken, forKey: "access", withAccess: .accessibleWhenUnlockedThisDeviceOnly)
                keychain.set(accessToken, forKey: "accessCopy")
            }
        }
        """, profile: .strict),
      RuleExample(
        """
        import UICKeyChainStore
        func save(_ password: String, host: String) {
            let keychain = ↓UICKeyChainStore(service: "com.example.hosts")
            keychain.setString(password, forKey: host)
        }
        """, profile: .strict),
      RuleExample(
        """
        func save(_ token: Data) -> OSStatus {
          var item: [String: Any] = ↓[kSecClass as String: kSecClassGenericPassword]
          item[kSecAttrAccount as String] = "session"
          item[kSecValueData as String] = token
          return SecItemAdd(item as CFDictionary, nil)
        }
        """, profile: .strict),
      RuleExample(
        "let status = SecItemAdd(↓[kSecClass: kSecClassGenericPassword, kSecValueData: token] as CFDictionary, nil)",
        profile: .strict),
      RuleExample(savePassword(synchronizable: "false", marker: "↓"), profile: .strict),
    ],
    clean: [
      // The `if` holds the add as well, after a lookup outside it.
      """
      func ensureKey(_ secret: String) {
          var params: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "key"]
          let status = SecItemCopyMatching(params as CFDictionary, nil)
          if status == errSecItemNotFound {
              params[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
              params[kSecValueData as String] = Data(secret.utf8)
              SecItemAdd(params as CFDictionary, nil)
          }
      }
      """,
      // The `if` holds the add as well.
      """
      func save(_ token: String) {
          if let data = token.data(using: .utf8) {
              let query: [String: Any] = [kSecValueData as String: data, kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly]
              SecItemAdd(query as CFDictionary, nil)
          }
      }
      """,
      """
      func save(_ token: String, requiresAuthentication: Bool) {
          var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: Data(token.utf8)]
          if requiresAuthentication {
              query[kSecAttrAccessControl as String] = SecAccessControlCreateWithFlags(
                  nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, .biometryCurrentSet, nil)!
          } else {
              query[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
          }
          SecItemAdd(query as CFDictionary, nil)
      }
      """,
      // The class is named on the store, or where the item is written; or the store syncs.
      RuleExample(
        """
        import KeychainAccess
        final class SessionStore {
            private let keychain = Keychain(service: "com.example.session").accessibility(.afterFirstUnlockThisDeviceOnly)
            private let plain = Keychain(service: "com.example.other")
            private let shared = Keychain(service: "com.example.shared").synchronizable(true)
            func save(_ refreshToken: String) {
                keychain["refreshToken"] = refreshToken
                try? plain.accessibility(.whenUnlockedThisDeviceOnly).set(refreshToken, key: "copy")
                shared["refreshToken"] = refreshToken
                plain["launched"] = String(true)
            }
        }
        """, profile: .strict),
      // The class is an initializer argument, or set on the store before it is written.
      RuleExample(
        """
        import SimpleKeychain
        import UICKeyChainStore
        let credentials = SimpleKeychain(service: "com.example.auth", accessibility: .afterFirstUnlockThisDeviceOnly)
        func store(_ refreshToken: String, password: String, host: String) throws {
            try credentials.set(refreshToken, forKey: "refresh")
            let keychain = UICKeyChainStore(service: "com.example.hosts")
            keychain.accessibility = .whenUnlockedThisDeviceOnly
            keychain.setString(password, forKey: host)
        }
        """, profile: .strict),
      RuleExample(
        """
        import KeychainSwift
        func save(accessToken: String) {
            KeychainSwift().set(accessToken, forKey: "access", withAccess: .accessibleAfterFirstUnlockThisDeviceOnly)
        }
        """, profile: .strict),
      // Push tokens and a fresh install id are no secret, whatever class they are kept in.
      RuleExample(
        """
        import UICKeyChainStore
        import KeychainAccess
        func remember(deviceToken: String, pushKitToken: String) {
            let keychain = UICKeyChainStore(service: "com.example.push")
            keychain.setString(deviceToken, forKey: "apns")
            keychain.setString(pushKitToken, forKey: "voip")
            let ids = Keychain(service: "com.example.install")
            let newID = UUID().uuidString
            ids["installID"] = newID
        }
        """, profile: .strict),
      // A Mac app's items live in the file-based keychain, which has no accessibility classes.
      RuleExample(
        """
        import AppKit
        func save(_ token: Data) {
            let item: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: token]
            SecItemAdd(item as CFDictionary, nil)
        }
        """, profile: .strict),
      RuleExample(
        """
        import AppKit
        import KeychainAccess
        func save(appleIDPassword: String) throws {
            try Keychain(service: "com.example.xcode").set(appleIDPassword, key: "appleID")
        }
        """, profile: .strict),
      // A probe the function deletes again (to learn the app's access group) keeps nothing.
      RuleExample(
        """
        func defaultAccessGroup() -> String? {
            let probe: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "probe",
                                        kSecValueData as String: token, kSecReturnAttributes as String: true]
            var result: CFTypeRef?
            guard SecItemAdd(probe as CFDictionary, &result) == errSecSuccess else { return nil }
            SecItemDelete(probe as CFDictionary)
            return (result as? [String: Any])?[kSecAttrAccessGroup as String] as? String
        }
        """, profile: .strict),
      RuleExample(
        """
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: token,
                                    kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly]
        SecItemAdd(query as CFDictionary, nil)
        """, profile: .strict),
      RuleExample(
        """
        var item: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: token]
        item[kSecAttrAccessControl as String] = access
        SecItemAdd(item as CFDictionary, nil)
        """, profile: .strict),
      // The base query comes from elsewhere: its attributes are not in view.
      RuleExample(
        """
        var item = baseQuery(account: "session")
        item[kSecValueData as String] = token
        SecItemAdd(item as CFDictionary, nil)
        """, profile: .strict),
      RuleExample(
        """
        var item: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: token]
        item.merge(defaults) { current, _ in current }
        SecItemAdd(item as CFDictionary, nil)
        """, profile: .strict),
      RuleExample(
        """
        var item: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: token]
        applyProtection(&item)
        SecItemAdd(item as CFDictionary, nil)
        """, profile: .strict),
      // A public key: anyone may read it.
      RuleExample(
        """
        let query: [String: Any] = [kSecClass as String: kSecClassKey, kSecValueRef as String: publicKey]
        SecItemAdd(query as CFDictionary, nil)
        """, profile: .strict),
      // A key the file does not resolve may be the accessibility.
      RuleExample(
        """
        var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: token]
        query[Attribute.protection.rawValue] = protection
        SecItemAdd(query as CFDictionary, nil)
        """, profile: .strict),
      // Synchronized when the user turns iCloud sync on: the default class is the one sync needs.
      RuleExample(savePassword(synchronizable: "syncToiCloud", marker: ""), profile: .strict),
      // Only searched for: nothing is stored.
      RuleExample(
        """
        let lookup: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecReturnData as String: true]
        SecItemCopyMatching(lookup as CFDictionary, &result)
        """, profile: .strict),
    ])

  /// A password saved with the given `kSecAttrSynchronizable` value.
  static func savePassword(synchronizable: String, marker: String) -> String {
    """
    func save(_ password: Data, account: String, syncToiCloud: Bool) {
        let item: [String: Any] = \(marker)[kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account,
                                   kSecAttrSynchronizable as String: \(synchronizable), kSecValueData as String: password]
        SecItemAdd(item as CFDictionary, nil)
    }
    """
  }

  public static func prefilterTokens(options: RuleOptions) -> [String] { ["SecItemAdd"] }

  public static let readsWrapperSettings = true

  /// Whether the item holds data or a key that is not evidently public: a public key or a
  /// certificate may be read by anyone, so its class is moot, and an item with neither data nor
  /// a key is a marker.
  static func storesSecretMaterial(_ query: KeychainQuery, model: SemanticModel) -> Bool {
    let stored = query.writes(forKey: "kSecValueData") + query.writes(forKey: "kSecValueRef")
    guard !stored.isEmpty else { return false }
    func denotes(_ key: String, _ constant: String) -> Bool {
      query.writes(forKey: key).contains { write in
        model.resolver.values(of: write.value).contains {
          $0.expression.as(DeclReferenceExprSyntax.self)?.baseName.text == constant
        }
      }
    }
    if denotes("kSecAttrKeyClass", "kSecAttrKeyClassPublic") || denotes("kSecClass", "kSecClassCertificate") {
      return false
    }
    return !stored.contains { namesReadableValue(SensitiveNames.words(in: $0.value, model: model)) }
  }

  public static func check(_ context: RuleContext) {
    let model = context.model
    let classKeys: Set<String> = ["kSecAttrAccessible", "kSecAttrAccessControl"]
    for query in model.keychainQueries
    where query.roles.contains(.add) && query.mayStore && !query.isProbe
      && (!classKeys.contains(where: query.has) || query.mayLackAll(classKeys))
    {
      // An item that may sync through iCloud Keychain needs a class that leaves the device, as
      // the default does; `ThisDeviceOnly` would forbid the sync.
      // Native macOS code's file-based keychain has no classes to default to.
      guard let literal = query.site, model.isFullySeen(query), storesSecretMaterial(query, model: model),
        !query.mayBeSynchronized(in: model), !model.goesToFileBasedKeychain(query)
      else { continue }
      let onlyInIf = classKeys.filter(query.has).sorted().map { "`\($0)`" }.joined(separator: " or ")
      context.report(
        literal,
        message: onlyInIf.isEmpty
          ? message
          : message.replacingOccurrences(
            of: "`kSecAttrAccessControl`, so",
            with: "`kSecAttrAccessControl` whenever the `if` that sets \(onlyInIf) is skipped, so"))
    }
    // A wrapper's store made without a class: its items get the library's default.
    // Native macOS code: these libraries write to the file-based keychain, which has no classes.
    for store in model.wrapperStoresOnDefaultAccessibility
    where !TargetPlatform.isMacOSOnly(store.creation, in: model)
      && store.writtenValues.contains(where: { mayBeSecret($0, model: model) })
    {
      guard let accessibility = AccessibilityClass.named(store.meaning), !accessibility.isThisDeviceOnly else {
        continue
      }
      context.report(
        store.creation,
        message: wrapperMessage(library: store.library, accessibility, naming: store.namingAccessibility))
    }
  }

  static func wrapperMessage(library: String, _ accessibility: AccessibilityClass, naming: String?) -> String {
    "This \(library) store names no accessibility class, so the items written through it get the library's default, `\(accessibility.name)`: carried in backups onto other devices. Name the class the items need, usually the `ThisDeviceOnly` variant"
      + (naming.map { " (\($0))." } ?? ".")
  }

  /// Whether a value written through a wrapper may be a secret: not a flag or number, not an
  /// identifier (`deviceID`, a fresh UUID) or a string written in the source, not named as public
  /// material or a push token.
  static func mayBeSecret(_ value: ExprSyntax, model: SemanticModel) -> Bool {
    !SensitiveNames.holdsPlainValue(value, model: model) && !SensitiveNames.isIdentifier(value, model: model)
      && !SensitiveNames.revealsNothingSecret(value, model: model)
      && !namesReadableValue(SensitiveNames.words(in: value, model: model))
  }

  /// Words in the name of an item's value that say anyone may read it.
  static let publicWords: Set<String> = ["public", "pub", "certificate", "cert"]

  /// Whether names of a stored value say it is no secret: a public key or certificate, or a token
  /// that is no credential (a push `deviceToken`, a `pushKitToken`).
  static func namesReadableValue(_ names: [String]) -> Bool {
    let words = names.flatMap(SensitiveNames.nameWords).map { $0.lowercased() }
    return words.contains(where: publicWords.contains)
      || words.contains("token") && words.contains(where: SensitiveNames.notCredentialTokenWords.contains)
  }

  static let message =
    "This item is added without `kSecAttrAccessible` or `kSecAttrAccessControl`, so it gets the default class, `kSecAttrAccessibleWhenUnlocked`: readable whenever the device is unlocked and carried in backups onto other devices. Name the class the item needs, usually `kSecAttrAccessibleWhenUnlockedThisDeviceOnly`."
}
