import KeywardCore
import SwiftSyntax

/// Flags secrets and permanent private keys stored with no access control in files that ask
/// for local authentication: the check the app makes does not guard the item.
public struct ItemWithoutAccessControl: Rule {
  public static let metadata = RuleMetadata(
    id: "swift.keychain_item_without_access_control",
    title: "Secret stored without an access control",
    severity: .medium, confidence: .medium, resource: "Authentication",
    tags: ["CWE:522", "CWE:287", "MASWE:0044", "MASVS-AUTH-2", "MASTG-TEST-0266"],
    profile: .standard,
    description: """
      A keychain item that holds a secret (a private key, or an account, service, label, tag or \
      data named like a secret: `sensitiveNamePatterns`), added with `SecItemAdd` or generated \
      as a permanent key with `SecKeyCreateRandomKey`, with no `kSecAttrAccessControl` on the \
      item or its `kSecPrivateKeyAttrs`. The standard profile reports it in files that also \
      evaluate an `LAContext` policy, where the app evidently means the secret to sit behind \
      Face ID, Touch ID or the passcode; the strict profile reports every such item, and items \
      holding data that is not named. Only dictionaries wholly in view are judged (a literal, or \
      a local variable that starts as one and changes only by subscripts). An item with an \
      access control is left to `swift.weak_biometric_acl`, whatever its flags; an item that may \
      sync through iCloud Keychain is not reported, since an access control asking for the user \
      keeps an item on its device.
      """,
    rationale: """
      Without an access control, the keychain releases the item to the app whenever the device \
      is unlocked (or its accessibility class allows): no user presence is asked for. A Face ID \
      prompt shown before reading it is a check in the app's own code, which a jailbroken device \
      or an injected library skips; an access control makes the Secure Enclave ask for it before \
      the item is decrypted.
      """,
    vulnerableExample: """
      context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock your vault") { ok, _ in
        if ok { self.showVault() }
      }
      let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                  kSecAttrAccount as String: "vaultPassword",
                                  kSecValueData as String: secret,
                                  kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly]
      SecItemAdd(query as CFDictionary, nil)
      """,
    remediation: """
      Create an access control with `SecAccessControlCreateWithFlags` (for example \
      `kSecAttrAccessibleWhenUnlockedThisDeviceOnly` with `.biometryCurrentSet`), store it as \
      `kSecAttrAccessControl` (on a key, in `kSecPrivateKeyAttrs`), and read the item with the \
      evaluated `LAContext` as `kSecUseAuthenticationContext` so the prompt and the item are one \
      check.
      """,
    fixedExample: """
      let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                                                   .biometryCurrentSet, nil)!
      let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                  kSecAttrAccount as String: "vaultPassword",
                                  kSecValueData as String: secret,
                                  kSecAttrAccessControl as String: access]
      SecItemAdd(query as CFDictionary, nil)
      """,
    references: [
      Reference(
        "Apple: Restricting keychain item accessibility",
        url: "https://developer.apple.com/documentation/security/restricting-keychain-item-accessibility"),
      Reference(
        "Apple: Accessing keychain items with Face ID or Touch ID",
        url:
          "https://developer.apple.com/documentation/localauthentication/accessing-keychain-items-with-face-id-or-touch-id"
      ),
      Reference(
        "CWE-522: Insufficiently Protected Credentials", url: "https://cwe.mitre.org/data/definitions/522.html"),
    ])

  public static let options = [SensitiveNames.option]

  public static let examples = RuleExamples(
    flagged: [
      """
      func unlock(context: LAContext) {
        context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock") { ok, _ in }
      }
      func remember(_ secret: Data) {
        let query: [String: Any] = ↓[kSecClass as String: kSecClassGenericPassword,
                                    kSecAttrAccount as String: "vaultPassword", kSecValueData as String: secret]
        SecItemAdd(query as CFDictionary, nil)
      }
      """,
      """
      func enroll() throws -> SecKey? {
        try await LAContext().evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Set up signing")
        let attributes: [String: Any] = ↓[kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                                         kSecAttrKeySizeInBits as String: 256,
                                         kSecPrivateKeyAttrs as String: [kSecAttrIsPermanent as String: true,
                                                                         kSecAttrApplicationTag as String: tag]]
        return SecKeyCreateRandomKey(attributes as CFDictionary, nil)
      }
      """,
      RuleExample(
        """
        func remember(_ secret: Data) {
          let query: [String: Any] = ↓[kSecClass as String: kSecClassGenericPassword,
                                      kSecAttrAccount as String: "refreshToken", kSecValueData as String: secret]
          SecItemAdd(query as CFDictionary, nil)
        }
        """, profile: .strict),
    ],
    clean: [
      // A backup synchronized to the user's other devices cannot ask for this device's user.
      """
      func unlock(context: LAContext) {
        context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock") { ok, _ in }
      }
      func backUp(_ secret: Data) {
        let item: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "vaultPassword",
                                   kSecValueData as String: secret, kSecAttrSynchronizable as String: true as CFBoolean]
        SecItemAdd(item as CFDictionary, nil)
      }
      """,
      // Bound to user presence (how strongly is `swift.weak_biometric_acl`'s question).
      """
      func unlock(context: LAContext) {
        context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock") { ok, _ in }
      }
      func remember(_ secret: Data, access: SecAccessControl) {
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "vaultPassword",
                                    kSecValueData as String: secret, kSecAttrAccessControl as String: access]
        SecItemAdd(query as CFDictionary, nil)
      }
      """,
      """
      func makeKey(access: SecAccessControl) -> SecKey? {
        try? await LAContext().evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Set up signing")
        let attributes: [String: Any] = [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                                         kSecPrivateKeyAttrs as String: [kSecAttrIsPermanent as String: true,
                                                                         kSecAttrAccessControl as String: access]]
        return SecKeyCreateRandomKey(attributes as CFDictionary, nil)
      }
      """,
      // A key that is not stored, and a secret in a file that never asks for local authentication.
      """
      let context = LAContext()
      context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Sign") { _, _ in }
      let attributes: [String: Any] = [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                                       kSecAttrKeySizeInBits as String: 256]
      let key = SecKeyCreateRandomKey(attributes as CFDictionary, nil)
      """,
      """
      let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "refreshToken",
                                  kSecValueData as String: secret]
      SecItemAdd(query as CFDictionary, nil)
      """,
      // Nothing named like a secret; a flag; only searched for; a base query from elsewhere.
      """
      LAContext().evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Unlock") { _, _ in }
      let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "theme",
                                  kSecValueData as String: Data(theme.utf8)]
      SecItemAdd(query as CFDictionary, nil)
      """,
      """
      LAContext().evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Unlock") { _, _ in }
      let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "hasPassword",
                                  kSecValueData as String: Data([1])]
      SecItemAdd(query as CFDictionary, nil)
      """,
      """
      LAContext().evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Unlock") { _, _ in }
      let lookup: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "vaultPassword",
                                   kSecReturnData as String: true]
      SecItemCopyMatching(lookup as CFDictionary, &result)
      """,
      """
      LAContext().evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Unlock") { _, _ in }
      var query = baseQuery(account: "vaultPassword")
      query[kSecValueData as String] = secret
      SecItemAdd(query as CFDictionary, nil)
      """,
    ])

  public static func prefilterTokens(options: RuleOptions) -> [String] { ["SecItemAdd", "SecKeyCreateRandomKey"] }

  public static func check(_ context: RuleContext) {
    let model = context.model
    let patterns = context.options.strings("sensitiveNamePatterns")
    let gate = model.policyEvaluations.first { !$0.isOverloadBody }
    guard gate != nil || context.options.reportsWeakEvidence else { return }
    // An item synchronized through iCloud Keychain cannot carry an access control that asks
    // for the user: such items stay on their device.
    for query in model.keychainQueries where query.mayStore && !query.isProbe && !query.mayBeSynchronized(in: model) {
      guard let literal = query.site, let subject = subject(of: query, patterns: patterns, model: model),
        subject.isEvident || context.options.reportsWeakEvidence
      else { continue }
      context.report(
        literal,
        message: message(subject, gate: gate == nil ? nil : "evaluatePolicy", flag: ".biometryCurrentSet"),
        related: gate.map { [(context.offset(of: $0.call), "local authentication evaluated here")] } ?? [])
    }
  }

  /// - Parameters: gate: how the file's own evaluation is written, if it has one; flag: a
  ///   biometric flag as the language spells it.
  static func message(_ subject: Subject, gate: String?, flag: String) -> String {
    let gateNote = gate.map { ", although this file asks for local authentication (`\($0)`)" } ?? ""
    return
      "This item holds \(subject.description) and has no `kSecAttrAccessControl`, so the keychain releases it without Face ID, Touch ID or the passcode\(gateNote). Give it an access control made with `SecAccessControlCreateWithFlags` (for example `\(flag)`) and read it with the evaluated `LAContext`."
  }

  struct Subject {
    var description: String
    /// Named like a secret or a private key, rather than only holding data.
    var isEvident: Bool
  }

  /// What the query stores that wants an access control, or nil when it has one, stores
  /// nothing secret, or is not wholly in view.
  static func subject(of query: KeychainQuery, patterns: [String], model: SemanticModel) -> Subject? {
    guard model.isFullySeen(query), !query.has("kSecAttrAccessControl") else { return nil }
    if query.isUsed(by: "SecKeyCreateRandomKey") {
      let privateAttributes = model.nestedQueries(of: query, key: "kSecPrivateKeyAttrs")
      guard privateAttributes.allSatisfy({ model.isFullySeen($0) && !$0.has("kSecAttrAccessControl") }),
        (privateAttributes + [query]).contains(where: { isPermanent($0, model: model) })
      else { return nil }
      return Subject(description: "a private key", isEvident: true)
    }
    guard query.roles.contains(.add), !query.storesNoSecret(in: model),
      ImplicitAccessibility.storesSecretMaterial(query, model: model)
    else { return nil }
    if let reason = SynchronizableSecret.holdsSecret(query, patterns: patterns, model: model) {
      return Subject(description: reason, isEvident: true)
    }
    return Subject(description: "data", isEvident: false)
  }

  static func isPermanent(_ query: KeychainQuery, model: SemanticModel) -> Bool {
    query.writes(forKey: "kSecAttrIsPermanent").contains { write in
      model.resolver.values(of: write.value).contains { SyntaxFacts.isTrue($0.expression) }
    }
  }
}
