import KeywardCore
import SwiftSyntax

/// Flags local authentication whose only result is a boolean: nothing in the keychain depends
/// on it, so a hooked `evaluatePolicy` that answers `true` unlocks the app.
public struct EventBoundBiometricAuth: Rule {
  public static let metadata = RuleMetadata(
    id: "swift.event_bound_biometric_auth",
    title: "Event-bound biometric authentication",
    severity: .high, confidence: .medium, resource: "Authentication",
    tags: [
      "CWE:287", "CWE:603", "MASVS:auth-8", "MASWE:0044", "OWASP:2021:A07", "MASVS-AUTH-2", "MASTG-TEST-0266",
    ],
    profile: .essential,
    description: """
      `LAContext.evaluatePolicy` (callback or `async`) and `LARight.authorize` only report whether \
      the user authenticated. When that answer alone unlocks data or a feature, authentication is \
      event-bound. The context is followed through aliases, arguments and stored properties; when it \
      reaches a keychain query as `kSecUseAuthenticationContext` (or KeychainAccess's \
      `authenticationContext(_:)`) and the file's items have an access control, or opens a CryptoKit \
      Secure Enclave key, it is keychain-bound and not reported; so is a prompt on a context \
      parameter every caller fills with a protected read's context. A context handed to another \
      file's function is followed there after the scan. An evaluation in code named for a permission \
      guards nothing. Only strict reports a context given back to the caller (returned, or \
      `completion(.success(context))`), a result that only logs or shows a fixed alert \
      (`if success { print(…) }`), and a prompt or success that turns biometric unlock or an app lock on or off \
      (`isAppLockEnabled = …`).
      """,
    rationale: """
      On a jailbroken or instrumented device, Frida or objection can make `evaluatePolicy` call \
      its reply with `success = true` (or return `true`) without anyone touching the sensor, and \
      whatever the `if success` branch unlocks is exposed. A keychain item protected by an access \
      control is released by the Secure Enclave only after a real authentication, so there is \
      nothing to hook.
      """,
    vulnerableExample: """
      let context = LAContext()
      context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock your vault") { success, _ in
          if success {
              self.showVault()   // unlocked by a boolean
          }
      }
      """,
    remediation: """
      Store the secret that the feature needs (a refresh token, a key) in the keychain with \
      `SecAccessControlCreateWithFlags(..., .biometryCurrentSet, ...)` as `kSecAttrAccessControl`, \
      and read it to unlock the feature. To prompt once and reuse the authentication, evaluate the \
      policy on an `LAContext` and pass that context as `kSecUseAuthenticationContext` in the \
      query that reads the item.
      """,
    fixedExample: """
      let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .biometryCurrentSet, nil)!
      let added = SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrAccount: "vault", kSecValueData: key,
                              kSecAttrAccessControl: access] as CFDictionary, nil)
      guard added == errSecSuccess else { throw KeychainError(status: added) }

      let context = LAContext()
      context.localizedReason = "Unlock your vault"
      let query: [CFString: Any] = [kSecClass: kSecClassGenericPassword, kSecAttrAccount: "vault",
                                    kSecReturnData: true, kSecUseAuthenticationContext: context]
      var result: AnyObject?
      let status = SecItemCopyMatching(query as CFDictionary, &result)
      guard status == errSecSuccess, let secret = result as? Data else { throw KeychainError(status: status) }
      """,
    references: [
      Reference("CWE-287: Improper Authentication", url: "https://cwe.mitre.org/data/definitions/287.html"),
      Reference(
        "CWE-603: Use of Client-Side Authentication", url: "https://cwe.mitre.org/data/definitions/603.html"),
      Reference("OWASP MASTG-TEST-0266: References to APIs for Event-Bound Biometric Authentication"),
      Reference("OWASP MASTG: Testing Local Authentication (MASVS v1 AUTH-8)"),
      Reference(
        "Apple: Accessing Keychain Items with Face ID or Touch ID",
        url:
          "https://developer.apple.com/documentation/localauthentication/accessing-keychain-items-with-face-id-or-touch-id"
      ),
    ])

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

  public static let followsContextsAcrossFiles = true

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

  public static func prefilterTokens(options: RuleOptions) -> [String] { ["evaluatePolicy", "LARight"] }

  public static func check(_ context: RuleContext) {
    let model = context.model
    // A reply that ignores the result guards nothing with it (swift.local_auth_fail_open judges
    // it); one that only logs it, nothing but the log line (strict reports it).
    for evaluation in model.policyEvaluations
    where !evaluation.replyIgnoresResult && !evaluation.requestsPermission && !evaluation.isOverloadBody
      && (!evaluation.successOnlyLogs || context.options.reportsWeakEvidence)
      && (!evaluation.onlyConfirmsLockSetting(in: model) || context.options.reportsWeakEvidence)
    {
      let range = evaluation.reportRange
      let message: String
      switch model.binding(of: evaluation) {
      case .keychainBound: continue
      case .contextToUnprotectedItems(wrapper: nil):
        message =
          "This context is passed to a keychain query, but the items this file stores have no access control (`kSecAttrAccessControl`), so the keychain releases them without authentication and only the boolean from `evaluatePolicy` stands in the way; a hooked call unlocks them. Store the items with `SecAccessControlCreateWithFlags(..., .biometryCurrentSet, ...)`."
      case .contextToUnprotectedItems(let wrapper?):
        message =
          "This context is passed to \(wrapper), but nothing in this file gives \(wrapper) an access control, so the keychain releases its items without authentication and only the boolean from `evaluatePolicy` stands in the way; a hooked call unlocks them. Store the items with an authentication policy of `.biometryCurrentSet`."
      case .givenBack(let way):
        // A function giving its caller the evaluated context, not only the result, gives it to
        // be used: the caller binds it or not (reported only under strict).
        guard context.options.reportsWeakEvidence else { continue }
        context.report(
          start: range.start, end: range.end,
          message:
            "This context is \(way.destination), which decides whether it reaches a keychain query; Keyward does not follow it there. If that code reads an item protected by an access control (`.biometryCurrentSet`) with it as `kSecUseAuthenticationContext`, the authentication is keychain-bound: suppress this finding and say so. If it only goes on the success, a hooked call unlocks what follows.",
          confidence: .low)
        continue
      case .handedOff(let handOff):
        let callee = handOff.contextCall.signature
        context.report(
          start: range.start, end: range.end,
          message:
            "This context is handed to `\(callee)`, which this file does not declare and no other scanned file settles (none declares it with an `LAContext` parameter, on the receiver's type where this file names it; or several do and disagree), so Keyward cannot see whether it reaches a keychain query. If `\(callee)` reads an item protected by an access control (`.biometryCurrentSet`) with it as `kSecUseAuthenticationContext`, the authentication is keychain-bound: suppress this finding and say so. If not, only the boolean result of `evaluatePolicy` guards what follows, and a hooked call unlocks it.",
          confidence: .low, related: [(context.offset(of: handOff.call), "the context leaves this file here")],
          handOff: HandOff(call: handOff.contextCall, settledMessage: settledMessage))
        continue
      case .eventBound:
        // Kept in a property other files read: they may give it to a protected item or a key.
        if let property = model.exposingProperty(of: evaluation) {
          context.report(
            start: range.start, end: range.end,
            message:
              "This context is kept in `\(property.name)`, a property code outside this file can read, so Keyward cannot see whether it reaches a keychain query or a Secure Enclave key. If it is used as `kSecUseAuthenticationContext` for an item protected by an access control (`.biometryCurrentSet`), or as a CryptoKit key's `authenticationContext`, the authentication is bound: suppress this finding and say so. If not, only the boolean result of `evaluatePolicy` guards what follows, and a hooked call unlocks it.",
            confidence: .low, handOff: model.handOff(keptIn: property))
          continue
        }
        message = evaluation.policies.contains(where: { $0.rawValue == 2 }) ? passcodeMessage : settledMessage
      }
      context.report(start: range.start, end: range.end, message: message)
    }
    let savedRights = Set(
      model.index.calls(named: "saveRight").compactMap { save in
        save.arguments.first.flatMap { model.resolver.binding(denotedBy: $0.expression)?.id }
      })
    for call in model.index.calls(named: "authorize") {
      let receiver = SyntaxFacts.receiver(of: call)
      guard isLARight(receiver, model: model) else { continue }
      // A right saved with a secret (`LARightStore.saveRight(right, identifier:, secret:)`) becomes
      // a persisted right: the secret, not this event, is what a later authorization unlocks.
      if let right = receiver.flatMap(model.resolver.binding(denotedBy:)), savedRights.contains(right.id) { continue }
      let name =
        call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName ?? call.calledExpression.firstToken(
          viewMode: .sourceAccurate)!
      context.report(
        start: context.offset(of: name),
        end: call.rightParen?.endPositionBeforeTrailingTrivia.utf8Offset
          ?? call.endPositionBeforeTrailingTrivia.utf8Offset,
        message:
          "`LARight.authorize` only reports that the user authenticated; whatever it unlocks is unlocked by that event. Use an `LAPersistedRight` and its key or secret, or a keychain item protected by an access control, so that a real authentication is needed to obtain the secret."
      )
    }
  }

  /// The message of a finding whose context, handed to another file, is found to unlock no
  /// protected item there, after the sentence saying where it went.
  static let settledMessage =
    "Only the boolean result of `evaluatePolicy` guards what follows: on an instrumented device a hooked call reports success without authentication. Bind the unlock to a keychain item protected by an access control (`.biometryCurrentSet`) and read it with this context as `kSecUseAuthenticationContext`."

  /// The message for a policy that also accepts the passcode: the access control that matches it
  /// is `.userPresence`, not a biometric-only one that would lock out passcode users.
  static let passcodeMessage =
    "Only the boolean result of `evaluatePolicy` guards what follows: on an instrumented device a hooked call reports success without authentication. Bind the unlock to a keychain item protected by an access control that asks for the same (`.userPresence` accepts Face ID, Touch ID or the passcode, as `.deviceOwnerAuthentication` does) and read it with this context as `kSecUseAuthenticationContext`."

  /// Whether `receiver` is an `LARight` (not an `LAPersistedRight`, whose secret binds it).
  static func isLARight(_ receiver: ExprSyntax?, model: SemanticModel) -> Bool {
    guard let receiver else { return false }
    return model.resolver.values(of: receiver).contains { value in
      guard let call = value.expression.as(FunctionCallExprSyntax.self) else { return false }
      return call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "LARight"
    }
  }
}
