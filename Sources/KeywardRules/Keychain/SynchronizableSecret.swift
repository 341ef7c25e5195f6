import KeywardCore
import SwiftSyntax

/// Flags secrets and private keys that iCloud Keychain copies to the user's other devices.
public struct SynchronizableSecret: Rule {
  public static let metadata = RuleMetadata(
    id: "swift.keychain_synchronizable_secret",
    title: "Secret synchronised through iCloud Keychain",
    severity: .medium, confidence: .medium, resource: "Information leak",
    tags: ["CWE:359", "CWE:312", "MASWE:0006", "MASVS-STORAGE-1", "MASVS-STORAGE-2"],
    profile: .standard,
    description: """
      `kSecAttrSynchronizable` set to true makes iCloud Keychain copy the item to every device on \
      the user's account (since iOS 14 that includes keys). Keyward reports it on items that hold \
      secrets: private keys, and items whose account, service, label or data is named like a \
      secret (`sensitiveNamePatterns`), also when a keychain wrapper store is set to synchronize. \
      A store only used to look items up or remove them copies nothing and is not reported. The \
      strict profile also reports synchronized items with no sign of a secret, and syncing that a \
      caller's argument or a setting chooses as the app runs (`backupEnabled ? kCFBooleanTrue : \
      kCFBooleanFalse`): the user opted in to having the item on their devices.
      """,
    rationale: """
      A session token or private key synchronised to other devices can be used from any of them, \
      including ones the app never authenticated, and survives on them after the user signs out \
      on this device. Device-bound secrets should stay on the device that created them.
      """,
    vulnerableExample: """
      let query: [String: Any] = [
          kSecClass as String: kSecClassGenericPassword,
          kSecAttrAccount as String: "refreshToken",
          kSecValueData as String: token,
          kSecAttrSynchronizable as String: true
      ]
      """,
    remediation: """
      Leave `kSecAttrSynchronizable` unset (false) for tokens and keys, and use a \
      `...ThisDeviceOnly` accessibility class so they also stay out of backups. Synchronise only \
      what the user expects on all devices, such as website passwords.
      """,
    fixedExample: """
      let query: [String: Any] = [
          kSecClass as String: kSecClassGenericPassword,
          kSecAttrAccount as String: "refreshToken",
          kSecValueData as String: token,
          kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
      ]
      """,
    references: [
      Reference(
        "Apple: kSecAttrSynchronizable",
        url: "https://developer.apple.com/documentation/security/ksecattrsynchronizable"),
      Reference(
        "CWE-359: Exposure of Private Personal Information to an Unauthorized Actor",
        url: "https://cwe.mitre.org/data/definitions/359.html"),
    ])

  public static let options = [SensitiveNames.option]

  public static let examples = RuleExamples(
    flagged: [
      """
      let query: [String: Any] = [
          kSecAttrAccount as String: "refreshToken",
          kSecValueData as String: data,
          kSecAttrSynchronizable as String: ↓true
      ]
      """,
      """
      var query = [String: Any]()
      query[kSecClass as String] = kSecClassKey
      query[kSecAttrKeyClass as String] = kSecAttrKeyClassPrivate
      query[kSecAttrSynchronizable as String] = ↓kCFBooleanTrue
      SecItemAdd(query as CFDictionary, nil)
      """,
      """
      let item: [CFString: Any] = [kSecAttrService: service, kSecValueData: passwordData, kSecAttrSynchronizable: ↓true]
      """,
      """
      func storePassphrase(_ passphrase: String) {
          var query: [String: Any] = [kSecAttrService as String: "passphrase", kSecAttrSynchronizable as String: kCFBooleanTrue!]
          query[kSecValueData as String] = Data(passphrase.utf8)
          // The value set last is the one stored.
          query[kSecAttrSynchronizable as String] = ↓kCFBooleanTrue
          SecItemAdd(query as CFDictionary, nil)
      }
      """,
      """
      import SwiftKeychainWrapper
      KeychainWrapper.standard.set(token, forKey: "authToken", isSynchronizable: ↓true)
      """,
      // No sign of a secret: reported under the strict profile only.
      RuleExample(
        """
        import KeychainSwift
        let keychain = KeychainSwift()
        keychain.synchronizable = ↓true
        """, profile: .strict),
      """
      import Valet
      let valet = ↓Valet.iCloudValet(with: Identifier(nonEmpty: "tokens")!, accessibility: .whenUnlocked)
      """,
      RuleExample(
        """
        import Valet
        let valet = ↓Valet.iCloudValet(with: Identifier(nonEmpty: "settings")!, accessibility: .whenUnlocked)
        """, profile: .strict),
      // No sign of a secret: reported under the strict profile only.
      RuleExample(
        """
        func set(_ value: Data, forKey key: String) {
            let item: [String: Any] = [kSecAttrAccount as String: key, kSecValueData as String: value,
                                       kSecAttrSynchronizable as String: ↓true]
            SecItemAdd(item as CFDictionary, nil)
        }
        """, profile: .strict),
      // The same choice made as the app runs: strict reports it.
      RuleExample(
        """
        enum SyncMode { case local, cloud }
        var mode = SyncMode.local
        func storePassphrase(_ passphraseData: Data) {
            let sync: CFBoolean
            switch mode {
            case .local: sync = kCFBooleanFalse
            case .cloud: sync = ↓kCFBooleanTrue
            }
            let item: [String: Any] = [kSecAttrAccount as String: "passphrase", kSecValueData as String: passphraseData,
                                       kSecAttrSynchronizable as String: sync]
            SecItemAdd(item as CFDictionary, nil)
        }
        """, profile: .strict),
      // A parameter's default holds wherever a caller does not choose.
      """
      func storePassphrase(_ passphraseData: Data, syncing: Bool = ↓true) {
          let item: [String: Any] = [kSecAttrAccount as String: "passphrase", kSecValueData as String: passphraseData,
                                     kSecAttrSynchronizable as String: syncing]
          SecItemAdd(item as CFDictionary, nil)
      }
      """,
      // The same store, written through.
      """
      import KeychainAccess
      func storePrivateKey(_ privateKey: String, for account: String) {
          let keychain = Keychain(service: "keys").synchronizable(↓true)
          try? keychain.accessibility(.afterFirstUnlock).set(privateKey, key: account)
      }
      """,
    ],
    clean: [
      // Stores that only look synchronized items up or remove them copy nothing.
      RuleExample(
        """
        import KeychainAccess
        func privateKey(for account: String) -> String? {
            let keychain = Keychain(service: "keys").synchronizable(true)
            return try? keychain.get(account)
        }
        func forgetPrivateKey(for account: String) {
            let keychain = Keychain(service: "keys").synchronizable(true)
            try? keychain.remove(account)
        }
        func hasPrivateKey(_ account: String) -> Bool { (try? Keychain(service: "keys").synchronizable(true).get(account)) != nil }
        """, profile: .strict),
      // A value of the app's own type, not a wrapper's setting.
      """
      import SwiftKeychainWrapper
      let entry = KeychainEntry(account: "refreshToken", isSynchronizable: true)
      """,

      """
      func store(_ key: Data, syncing: Bool) {
          let item: [String: Any] = [kSecAttrAccount as String: "vaultPrivateKey", kSecValueData as String: key,
                                     kSecAttrSynchronizable as String: syncing ? kCFBooleanTrue! : kCFBooleanFalse!]
          SecItemAdd(item as CFDictionary, nil)
      }
      """,

      // Syncing that follows a setting as the app runs: the user chose to have it everywhere.
      """
      final class VaultKeys {
          var backupEnabled = false
          private var syncValue: CFBoolean { backupEnabled ? kCFBooleanTrue : kCFBooleanFalse }
          func store(_ passphraseData: Data) {
              let item: [String: Any] = [kSecAttrAccount as String: "vaultPassphrase", kSecValueData as String: passphraseData,
                                         kSecAttrSynchronizable as String: syncValue]
              SecItemAdd(item as CFDictionary, nil)
          }
      }
      """,
      """
      import KeychainSwift
      let keychain = KeychainSwift()
      keychain.synchronizable = true
      """,
      // Push device tokens and CloudKit change tokens are not credentials.
      """
      let item: [String: Any] = [kSecAttrAccount as String: "apnsDeviceToken", kSecValueData as String: data,
                                 kSecAttrSynchronizable as String: true]
      SecItemAdd(item as CFDictionary, nil)
      """,
      """
      let item: [String: Any] = [kSecAttrAccount as String: "serverChangeToken", kSecValueData as String: data,
                                 kSecAttrSynchronizable as String: true]
      """,
      """
      import SwiftKeychainWrapper
      KeychainWrapper.standard.set(token, forKey: "authToken", isSynchronizable: false)
      """,
      """
      let query: [String: Any] = [kSecAttrAccount as String: "refreshToken", kSecValueData as String: data,
                                  kSecAttrSynchronizable as String: false]
      """,
      """
      let query: [String: Any] = [kSecAttrServer as String: "example.com", kSecValueData as String: data,
                                  kSecAttrSynchronizable as String: true]
      """,
      """
      let lookup: [String: Any] = [kSecAttrAccount as String: "refreshToken", kSecReturnData as String: true,
                                   kSecAttrSynchronizable as String: kSecAttrSynchronizableAny]
      """,
    ])

  public static let readsWrapperSettings = true

  public static func prefilterTokens(options: RuleOptions) -> [String] { ["kSecAttrSynchronizable", "\"sync\""] }

  public static func check(_ context: RuleContext) {
    let patterns = context.options.strings("sensitiveNamePatterns")
    let model = context.model
    for query in model.keychainQueries where query.mayStore {
      // Without a sign of a secret, a synchronized item is a choice, not a finding, unless strict.
      let secret = holdsSecret(query, patterns: patterns, model: model)
      guard secret != nil || context.options.reportsWeakEvidence else { continue }
      let reason = secret ?? "whatever this code stores"
      // Syncing chosen by the caller (`save(key, syncing: userEnabledBackup)`) is an option
      // this code offers, and syncing chosen as the app runs (`backupEnabled ? … : …`) follows
      // a setting: the user expects the item on their devices. Strict reports both too.
      let values = query.synchronizableTrueValues(
        in: model, includingCallerChoices: context.options.reportsWeakEvidence,
        includingRuntimeChoices: context.options.reportsWeakEvidence)
      // One item, one finding: the first place that turns synchronization on.
      if let first = values.min(by: { $0.position < $1.position }) {
        context.report(first, message: message(reason: reason), confidence: secret == nil ? .low : nil)
      }
    }
    // A store only used to look items up or remove them matches synchronized items; it copies none.
    for value in model.wrapperValues(.synchronizable) where !model.onlyLooksUp(value) {
      let calls =
        value.call.map { [$0] + model.callsThroughStore(of: value) }
        ?? callsOnReceiver(assignedBy: value.expression, model: model)
      let words: [String]? =
        calls.isEmpty
        ? nil : calls.flatMap { $0.arguments.flatMap { SensitiveNames.words(in: $0.expression, model: model) } }
      let named = words.flatMap { SensitiveNames.secretWord(in: $0, patterns: patterns) }
      // Without a sign of a secret, a synchronized item is a choice, not a finding, unless strict.
      guard named != nil || context.options.reportsWeakEvidence else { continue }
      context.report(
        value.expression,
        message: message(reason: named.map { "a secret (`\($0)`)" } ?? "what \(value.library) stores"),
        confidence: named == nil ? .low : nil)
    }
  }

  /// For a setting made by assignment (`box.synchronizable = true`), the calls on the same
  /// receiver (`box.set(token, forKey: "authToken")`): what they store tells whether it is secret.
  static func callsOnReceiver(assignedBy value: ExprSyntax, model: SemanticModel) -> [FunctionCallExprSyntax] {
    guard let list = ValueUse.outermostHolder(of: Syntax(value)).parent?.as(ExprListSyntax.self),
      let target = list.first?.as(MemberAccessExprSyntax.self), let base = target.base,
      let receiver = SyntaxFacts.storageName(base)
    else { return [] }
    return (model.index.memberCallsByReceiver[receiver] ?? []).map(\.call)
  }

  static func message(reason: String) -> String {
    "This item holds \(reason) and `kSecAttrSynchronizable` copies it through iCloud Keychain to every device on the user's account, where it can be used without this device. Keep it on this device: leave the attribute unset and use a `...ThisDeviceOnly` accessibility class."
  }

  /// What makes the item a secret, or nil.
  static func holdsSecret(_ query: KeychainQuery, patterns: [String], model: SemanticModel) -> String? {
    for write in query.writes(forKey: "kSecAttrKeyClass") {
      if model.resolver.values(of: write.value).contains(where: {
        $0.expression.as(DeclReferenceExprSyntax.self)?.baseName.text == "kSecAttrKeyClassPrivate"
      }) {
        return "a private key"
      }
    }
    for key in ["kSecAttrAccount", "kSecAttrService", "kSecAttrLabel", "kSecAttrApplicationTag", "kSecValueData"] {
      for write in query.writes(forKey: key) {
        if let word = SensitiveNames.words(in: write.value, model: model).first(where: {
          SensitiveNames.matches($0, patterns: patterns)
        }) {
          return "a secret (`\(word)`)"
        }
      }
    }
    return nil
  }
}
