import KeywardCore
import SwiftSyntax

/// Flags protection attributes that the macOS file-based keychain silently ignores.
public struct MacOSFileBasedKeychain: Rule {
  public static let metadata = RuleMetadata(
    id: "swift.macos_file_based_keychain",
    title: "Protection ignored by the macOS file-based keychain",
    severity: .medium, confidence: .medium, resource: "Authentication",
    tags: ["CWE:311", "CWE:922", "MASVS-STORAGE-1"],
    profile: .standard,
    description: """
      On macOS, `SecItemAdd` and `SecItemUpdate` without `kSecUseDataProtectionKeychain: true` use \
      the legacy file-based keychain, which ignores `kSecAttrAccessible`, unless the query sets \
      `kSecAttrSynchronizable: true`, `kSecAttrAccessControl` or `kSecAttrTokenID` (those send the \
      item to the data protection keychain). Keyward reports a `…ThisDeviceOnly` class (the device \
      binding is what is lost; strict also reports migratable classes, which ask for about what the \
      login keychain gives) in code built only for macOS: inside `#if os(macOS)` (or \
      `canImport(AppKit)`), in a file importing AppKit or Cocoa and not UIKit, in the `Sources` of a \
      package whose `platforms:` names only macOS, or beside an Xcode project whose every `SDKROOT` \
      is `macosx`. Mac Catalyst and iOS apps on Apple silicon Macs are not reported. Outside strict \
      only where the whole dictionary is in view (a literal, or a local that starts as one and \
      changes only by subscripts): a base query from elsewhere may set the key.
      """,
    rationale: """
      The app asks for `WhenUnlockedThisDeviceOnly` and does not get it: the item lands in the \
      user's login keychain, protected by its file's password and the item's list of trusted \
      apps, readable whenever that keychain is unlocked and copied with it to another Mac.
      """,
    vulnerableExample: """
      #if os(macOS)
      let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                  kSecValueData as String: token,
                                  kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly]
      SecItemAdd(query as CFDictionary, nil)
      #endif
      """,
    remediation: """
      Add `kSecUseDataProtectionKeychain as String: true` (macOS 10.15 and later) to every query \
      for the item: adds, reads, updates and deletes. Items already stored in the file-based \
      keychain stay there; read them once without the key and store them again with it.
      """,
    fixedExample: """
      #if os(macOS)
      let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                  kSecValueData as String: token,
                                  kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                                  kSecUseDataProtectionKeychain as String: true]
      SecItemAdd(query as CFDictionary, nil)
      #endif
      """,
    references: [
      Reference(
        "Apple TN3137: On Mac keychain APIs and implementations",
        url: "https://developer.apple.com/documentation/technotes/tn3137-on-mac-keychains"),
      Reference(
        "Apple: kSecUseDataProtectionKeychain",
        url: "https://developer.apple.com/documentation/security/ksecusedataprotectionkeychain"),
    ])

  public static let examples = RuleExamples(
    flagged: [
      // The class is set for macOS alone; the add after `#endif` runs there too.
      """
      func save(_ config: Data) {
          var item: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: config]
          #if os(macOS)
          item[↓kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
          #endif
          SecItemAdd(item as CFDictionary, nil)
      }
      """,
      """
      #if os(macOS)
      let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: token,
                                  ↓kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly]
      let status = SecItemAdd(query as CFDictionary, nil)
      #endif
      """,
      """
      import AppKit
      import Security
      func save(_ token: Data) -> OSStatus {
        var item: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: token]
        item[↓kSecAttrAccessible as String] = kSecAttrAccessibleWhenUnlockedThisDeviceOnly
        return SecItemAdd(item as CFDictionary, nil)
      }
      """,
      """
      #if os(macOS) && !DEBUG
      let changes: [String: Any] = [↓kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly]
      let status = SecItemUpdate(match as CFDictionary, changes as CFDictionary)
      #endif
      """,
      RuleExample(
        """
        import Cocoa
        func save(_ token: Data) -> OSStatus {
          var item = baseQuery()
          item[↓kSecAttrAccessible as String] = kSecAttrAccessibleWhenUnlockedThisDeviceOnly
          return SecItemAdd(item as CFDictionary, nil)
        }
        """, profile: .strict),
      RuleExample(
        """
        #if os(macOS)
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: token,
                                    ↓kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked]
        let status = SecItemAdd(query as CFDictionary, nil)
        #endif
        """, profile: .strict),
      // A class Keyward cannot name may be a device-bound one.
      """
      #if os(macOS)
      func save(_ token: Data, protection: CFString) {
          let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: token,
                                      ↓kSecAttrAccessible as String: protection]
          SecItemAdd(query as CFDictionary, nil)
      }
      #endif
      """,
    ],
    clean: [
      // A migratable class asks for about what the login keychain gives (strict reports it).
      """
      #if os(macOS)
      let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: token,
                                  kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked]
      let status = SecItemAdd(query as CFDictionary, nil)
      #endif
      """,
      // An access control (or a token's key) sends the item to the data protection keychain.
      """
      #if os(macOS)
      let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: token,
                                  kSecAttrAccessControl as String: access,
                                  kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly]
      let status = SecItemAdd(query as CFDictionary, nil)
      #endif
      """,
      """
      #if os(macOS)
      let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: token,
                                  kSecAttrAccessControl as String: access, kSecUseDataProtectionKeychain as String: true]
      let status = SecItemAdd(query as CFDictionary, nil)
      #endif
      """,
      """
      import AppKit
      let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: token,
                                  kSecAttrSynchronizable as String: true,
                                  kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock]
      let status = SecItemAdd(query as CFDictionary, nil)
      """,
      // iOS code, and code for both platforms.
      """
      import UIKit
      let query: [String: Any] = [kSecValueData as String: token, kSecAttrAccessControl as String: access]
      let status = SecItemAdd(query as CFDictionary, nil)
      """,
      """
      #if os(iOS)
      let query: [String: Any] = [kSecValueData as String: token, kSecAttrAccessControl as String: access]
      let status = SecItemAdd(query as CFDictionary, nil)
      #endif
      """,
      """
      #if os(macOS)
      import AppKit
      #else
      import UIKit
      #endif
      let query: [String: Any] = [kSecValueData as String: token, kSecAttrAccessControl as String: access]
      let status = SecItemAdd(query as CFDictionary, nil)
      """,
      """
      #if targetEnvironment(macCatalyst)
      let query: [String: Any] = [kSecValueData as String: token, kSecAttrAccessControl as String: access]
      let status = SecItemAdd(query as CFDictionary, nil)
      #endif
      """,
      // A base query from elsewhere may set the key.
      """
      import Cocoa
      func save(_ token: Data) -> OSStatus {
        var item = baseQuery()
        item[kSecAttrAccessible as String] = kSecAttrAccessibleWhenUnlockedThisDeviceOnly
        return SecItemAdd(item as CFDictionary, nil)
      }
      """,
      // Only searched for.
      """
      #if os(macOS)
      let lookup: [String: Any] = [kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked, kSecReturnData as String: true]
      let status = SecItemCopyMatching(lookup as CFDictionary, &result)
      #endif
      """,
    ])

  public static func prefilterTokens(options: RuleOptions) -> [String] { ["SecItemAdd", "SecItemUpdate"] }

  static let ignoredKeys = ["kSecAttrAccessible"]

  /// Whether the class asked for may be a `…ThisDeviceOnly` one, or one Keyward cannot name.
  /// What the file-based keychain loses is the device binding: a migratable class
  /// (`WhenUnlocked`, `AfterFirstUnlock`) asks for about what the login keychain gives, an item
  /// readable while the user's session is unlocked that moves with the keychain to another Mac.
  static func mayBindToDevice(_ value: ExprSyntax, model: SemanticModel) -> Bool {
    let values = model.resolver.values(of: value)
    return values.isEmpty
      || values.contains { AccessibilityClass.denoted(by: $0.expression)?.value.isThisDeviceOnly ?? true }
  }

  public static func check(_ context: RuleContext) {
    let model = context.model
    for query in model.keychainQueries
    where query.mayStore && (query.roles.contains(.add) || query.roles.contains(.updateAttributes)) {
      guard context.options.reportsWeakEvidence || model.isFullySeen(query) else { continue }
      for write in query.writes
      where ignoredKeys.contains(write.key) && !query.isRemoved(after: write)
        && model.goesToFileBasedKeychain(query, write: write)
        && (context.options.reportsWeakEvidence || mayBindToDevice(write.value, model: model))
      {
        context.report(
          write.keyExpression,
          message:
            "On macOS this item goes to the file-based keychain, because its query does not set `kSecUseDataProtectionKeychain` to true, and that keychain ignores `\(write.key)`: the protection asked for here is not applied. Add `kSecUseDataProtectionKeychain as String: true` to every query for this item."
        )
      }
    }
  }
}
