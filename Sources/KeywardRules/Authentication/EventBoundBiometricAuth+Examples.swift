import KeywardCore

/// The flagged and clean examples of `swift.event_bound_biometric_auth`, which the test suite runs, and the shapes
/// they are built from.
extension EventBoundBiometricAuth {
  public static let examples = RuleExamples(
    flagged: [
      // Logging on success, and more: the result guards what else runs.
      """
      context.↓evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock") { success, _ in
          if success {
              Log.debug("unlocked")
              self.showVault()
          }
      }
      """,
      // An alert that shows the user's data on success: the result guards what it reveals.
      """
      context.↓evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Show PIN") { success, _ in
          if success { AlertPresenter.showAlert(title: "Your card PIN", message: card.pin, on: self) }
      }
      """,
      // The evaluated context goes back to the caller, who decides (strict only).
      RuleExample(contextGivenBack(marker: "↓"), profile: .strict),
      RuleExample(contextGivenBack(marker: "↓", returned: true), profile: .strict),
      RuleExample(
        lockSettingPrompt(
          policy: ".deviceOwnerAuthenticationWithBiometrics", reason: #""Enable Face ID""#, marker: "↓"),
        profile: .strict),
      // "Enable" names no lock: the prompt confirms an action, which the result alone decides.
      RuleExample(
        lockSettingPrompt(
          policy: ".deviceOwnerAuthenticationWithBiometrics", reason: #""Enable payments""#, marker: "↓",
          setting: "paymentsEnabled", otherReason: #""Disable payments""#)),
      // A prompt that confirms deleting the user's own data (strict only) ...
      RuleExample(
        deletionPrompt(reason: #"NSLocalizedString("DeleteKeyPairPrompt", comment: "")"#, marker: "↓"),
        profile: .strict),
      // ... but not one that also shows what it deletes.
      RuleExample(deletionPrompt(reason: #""Authenticate to view and delete your recovery phrase""#, marker: "↓")),
      // Whatever the prompt says, a success that only turns the app lock on confirms that setting.
      RuleExample(
        lockSettingPrompt(
          policy: ".deviceOwnerAuthenticationWithBiometrics", reason: #""Confirm it's you""#, marker: "↓",
          setting: "isAppLockEnabled", otherReason: #""Confirm it's you""#),
        profile: .strict),
      // The same, with the wrapper and its caller in different extensions of the type.
      """
      import LocalAuthentication
      final class Authenticator { let context = LAContext() }
      extension Authenticator {
          fileprivate func evaluatePolicy(_ policy: LAPolicy, localizedReason reason: String) async throws -> Bool {
              try await context.↓evaluatePolicy(policy, localizedReason: reason)
          }
      }
      extension Authenticator {
          func unlock() async throws -> Bool { try await evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Unlock") }
      }
      """,
      // The app's own `evaluatePolicy` is judged once, where it calls the context's.
      """
      import LocalAuthentication
      struct Gate {
          private var context = LAContext()
          fileprivate func evaluatePolicy(_ policy: LAPolicy, localizedReason reason: String) async throws -> Bool {
              try await context.↓evaluatePolicy(policy, localizedReason: reason)
          }
          func unlock() async throws -> Bool {
              try await evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock")
          }
      }
      """,
      // A log line on success, as tutorials write it for the code still to come: strict only.
      RuleExample(
        """
        func requestBiometricUnlock() {
            let context = LAContext()
            var error: NSError? = nil
            if context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) {
                context.↓evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "To access your data") { success, error in
                    if success { print("Authenticated successfully!") }
                }
            }
        }
        """, profile: .strict),
      // A success that only shows a fixed alert guards nothing either.
      RuleExample(fixedAlertReply(marker: "↓"), profile: .strict),
      """
      func unlock() async throws {
          let ok = try await LAContext().↓evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Unlock")
          if ok { vault.isLocked = false }
      }
      """,
      """
      final class Gate {
          private let context = LAContext()
          func open(_ done: @escaping (Bool) -> Void) {
              context.↓evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Open", reply: { ok, _ in done(ok) })
          }
      }
      """,
      """
      final class TokenVault {
          func save(_ token: Data) {
              let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: token]
              SecItemAdd(query as CFDictionary, nil)
          }
          func read() async throws -> Data? {
              let context = LAContext()
              guard try await context.↓evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Read") else { return nil }
              let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecReturnData as String: true,
                                          kSecUseAuthenticationContext as String: context]
              var result: AnyObject?
              SecItemCopyMatching(query as CFDictionary, &result)
              return result as? Data
          }
      }
      """,
      """
      final class UnlockViewModel {
          let store = SecureStore()   // declared in another file
          func unlock() {
              let context = LAContext()
              context.↓evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock") { ok, _ in
                  if ok { self.secret = self.store.retrieve(context: context) }
              }
          }
      }
      """,
      """
      func sign(_ message: Data, blob: Data) async throws -> Data {
          let context = LAContext()
          _ = try await context.↓evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Sign")
          let key = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: blob, authenticationContext: LAContext())
          return try key.signature(for: message).rawRepresentation
      }
      """,
      """
      import KeychainAccess
      func readToken(keychain: Keychain, completion: @escaping (String?) -> Void) {
          let context = LAContext()
          context.↓evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Read") { ok, _ in
              completion(ok ? try? keychain.authenticationContext(context).get("token") : nil)
          }
      }
      """,
      """
      func authorize() async throws {
          let right = LARight()
          try await right.↓authorize(localizedReason: "Approve the payment")
          approvePayment()
      }
      """,
      // Another right is the one saved with the secret.
      """
      func store(_ data: Data) async throws {
          let gate = LARight()
          try await gate.↓authorize(localizedReason: "Store the secret")
          let right = LARight()
          _ = try await LARightStore.shared.saveRight(right, identifier: "secret", secret: data)
      }
      """,
      // An overload of `evaluatePolicy` is judged where it is called, with that caller's context.
      """
      extension LAContext {
          func evaluatePolicy(_ policy: LAPolicy, localizedReason: String) -> Task<Bool, Error> {
              Task { try await self.evaluatePolicy(policy, localizedReason: localizedReason) }
          }
          func unlockPrompt() async throws -> Bool {
              try await ↓evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock")
          }
      }
      func openVault(_ context: LAContext) async throws {
          guard try await context.↓evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Open").value else { return }
          vault.isLocked = false
      }
      """,
      // The same prompt, named for opening the vault it guards.
      RuleExample(faceIDPrompt(named: "unlockVault", evaluate: "↓evaluatePolicy")),
      // Kept for other files in a property they can read (reported at low confidence).
      """
      final class GrantedSession {
          let context: LAContext
          let expires: Date
          init(context: LAContext, expires: Date) {
              self.context = context
              self.expires = expires
          }
      }
      actor SessionCache {
          private var sessions: [String: GrantedSession] = [:]
          func open(_ name: String) async throws {
              let fresh = LAContext()
              fresh.touchIDAuthenticationAllowableReuseDuration = 0
              let ok = try await fresh.↓evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Use the saved session")
              guard ok else { return }
              sessions[name] = GrantedSession(context: fresh, expires: Date().addingTimeInterval(300))
          }
      }
      """,
    ],
    clean: [
      // A success that only shows a fixed alert guards nothing (strict only).
      RuleExample(fixedAlertReply(marker: "")),
      // A function that gives its caller the evaluated context gives it to be used.
      RuleExample(contextGivenBack()),
      RuleExample(contextGivenBack(returned: true)),
      // The prompt confirms turning biometric unlock on or off inside the open app: strict only.
      RuleExample(lockSettingPrompt(policy: ".deviceOwnerAuthenticationWithBiometrics", reason: #""Enable Face ID""#)),
      RuleExample(
        lockSettingPrompt(
          policy: ".deviceOwnerAuthenticationWithBiometrics", reason: #""Confirm it's you""#,
          setting: "isAppLockEnabled", otherReason: #""Confirm it's you""#)),
      // The prompt confirms deleting the user's own key pair: losing data, not disclosing it.
      RuleExample(deletionPrompt(reason: #"NSLocalizedString("DeleteKeyPairPrompt", comment: "")"#)),
      RuleExample(deletionPrompt(reason: #""Authenticate to erase all saved notes".localized"#)),
      // A request for the Face ID permission, named so: the first evaluation makes the system ask.
      RuleExample(faceIDPrompt(named: "ensureFaceIDPermission", evaluate: "evaluatePolicy")),
      // The result decides only a log line: what runs on success runs on failure too (strict
      // reports it, in case the line stands for code still to be written).
      """
      context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Check") { [weak self] ok, error in
          guard let self else { return }
          if ok {
              NSLog("Touch ID recognized the owner")
          } else {
              self.show(error)
          }
      }
      """,
      // A permission request: the reply ignores the result, so nothing is guarded by it.
      """
      LAContext().evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: " ") { _, _ in
          self.checkStatus { completion($0) }
      }
      """,
      """
      func store(_ data: Data) async throws {
          let right = LARight(requirement: .biometry(fallback: .devicePasscode))
          try await right.authorize(localizedReason: "Store the secret")
          _ = try await LARightStore.shared.saveRight(right, identifier: "secret", secret: data)
      }
      """,
      """
      final class Authenticator {
          func authenticate(reason: String) async throws -> LAContext {
              let context = LAContext()
              _ = try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: reason)
              return context
          }
      }
      final class SecureStore {
          func store(_ data: Data) {
              let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .biometryCurrentSet, nil)!
              SecItemAdd([kSecValueData as String: data, kSecAttrAccessControl as String: access] as CFDictionary, nil)
          }
          func retrieve(context: LAContext? = nil) -> Data? {
              var query: [String: Any] = [kSecReturnData as String: true]
              if let context { query[kSecUseAuthenticationContext as String] = context }
              var result: AnyObject?
              SecItemCopyMatching(query as CFDictionary, &result)
              return result as? Data
          }
      }
      func load(authenticator: Authenticator, store: SecureStore) async throws -> Data? {
          let context = try await authenticator.authenticate(reason: "Read")
          return store.retrieve(context: context)
      }
      """,
      """
      final class Session {
          private var context = LAContext()
          func unlock() {
              context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock") { ok, _ in }
          }
          func token() -> Data? {
              let query: [CFString: Any] = [kSecReturnData: true, kSecUseAuthenticationContext: context]
              var result: AnyObject?
              SecItemCopyMatching(query as CFDictionary, &result)
              return result as? Data
          }
      }
      """,
      """
      import KeychainAccess
      struct TokenStore {
          let keychain: Keychain
          func save(_ token: String) throws {
              try keychain.accessibility(.whenPasscodeSetThisDeviceOnly, authenticationPolicy: .biometryCurrentSet)
                  .set(token, key: "token")
          }
          func read(context: LAContext) throws -> String? {
              try keychain.authenticationContext(context).get("token")
          }
      }
      func unlock(store: TokenStore, done: @escaping (String?) -> Void) {
          let context = LAContext()
          context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock") { ok, _ in
              done(ok ? try? store.read(context: context) : nil)
          }
      }
      """,
      """
      let context = LAContext()
      var error: NSError?
      let available = context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error)
      """,
      "context.evaluateAccessControl(access, operation: .useItem, localizedReason: \"Sign\") { ok, _ in }",
      // The overload's body evaluates its caller's context; the caller binds it to a protected item.
      """
      extension LAContext {
          func evaluatePolicy(_ policy: LAPolicy, localizedReason: String) -> Task<Bool, Error> {
              Task { try await self.evaluatePolicy(policy, localizedReason: localizedReason) }
          }
      }
      final class VaultUnlock {
          private let context = LAContext()
          func unlock() async throws -> Data? {
              guard try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock").value else { return nil }
              return try password()
          }
          private func password() throws -> Data? {
              let query: [CFString: Any] = [kSecClass: kSecClassGenericPassword, kSecReturnData: true,
                                            kSecUseAuthenticationContext: context]
              var result: AnyObject?
              SecItemCopyMatching(query as CFDictionary, &result)
              return result as? Data
          }
          func save(_ secret: Data) {
              let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .biometryCurrentSet, nil)!
              SecItemAdd([kSecClass: kSecClassGenericPassword, kSecValueData: secret, kSecAttrAccessControl: access] as CFDictionary, nil)
          }
      }
      """,
      """
      func sign(_ message: Data, blob: Data) async throws -> Data {
          let context = LAContext()
          _ = try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Sign")
          let key = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: blob, authenticationContext: context)
          return try key.signature(for: message).rawRepresentation
      }
      """,
    ])

  /// A reply whose success only shows an alert with texts written in the source.
  static func fixedAlertReply(marker: String) -> String {
    """
    @IBAction func tryFaceID(_ sender: Any) {
        let context = LAContext()
        context.\(marker)evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Try Face ID") { success, _ in
            DispatchQueue.main.async {
                if success { AlertPresenter.showAlert(title: "Success", message: "Face ID worked", on: self) }
            }
        }
    }
    """
  }
}
