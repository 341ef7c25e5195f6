import KeywardCore
import SwiftSyntax

/// Flags LocalAuthentication-only biometric gates that would not notice a newly enrolled
/// finger or face.
public struct EnrollmentChangeUnchecked: Rule {
  public static let metadata = RuleMetadata(
    id: "swift.biometric_enrollment_change_unchecked",
    title: "Biometric enrollment changes not detected",
    severity: .low, confidence: .medium, resource: "Authentication",
    tags: ["CWE:287", "MASWE:0046", "MASVS-AUTH-2", "MASTG-TEST-0270"],
    profile: .standard,
    description: """
      A biometric check made with `LAContext.evaluatePolicy` alone (not bound to a keychain item) \
      accepts any finger or face enrolled on the device, even one added by someone else. Apps \
      that gate with LocalAuthentication should compare `evaluatedPolicyDomainState` (or, from iOS \
      18, `domainState.biometry.stateHash`) with the value saved at enrollment and ask for the full \
      login when it changed. Reported when the file evaluates a biometric policy without a keychain \
      binding and reads neither, nor (except under strict) does another shipped file. A biometric policy handed to a function of the file that evaluates its \
      parameter is reported where it is chosen; an evaluation whose failure hands over to a passcode \
      check is not biometrics-only. Only strict reports one whose result only logs or shows a fixed alert \
      (`if success { print(…) }`), whose prompts or success turn biometric unlock or an app lock on \
      or off (`isAppLockEnabled = …`) or only confirm deleting the user's data, or whose context goes \
      back to the caller.
      """,
    rationale: """
      Keychain items protected with `.biometryCurrentSet` are invalidated by the system when \
      enrollment changes; a LocalAuthentication gate has no such protection unless the app \
      checks the domain state itself.
      """,
    vulnerableExample: """
      context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock") { ok, _ in
          if ok { self.unlock() }
      }
      """,
    remediation: """
      Prefer a keychain item protected with `.biometryCurrentSet`. Otherwise save the domain state \
      after the user logs in, compare it after each evaluation, and require the full login when it \
      differs.
      """,
    fixedExample: """
      context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock") { ok, _ in
          guard ok, context.evaluatedPolicyDomainState == self.savedDomainState else { return self.requireLogin() }
          self.unlock()
      }
      """,
    references: [
      Reference("OWASP MASTG-TEST-0270: References to APIs Detecting Biometric Enrollment Changes"),
      Reference("MASWE-0046 (beta numbering): Crypto Keys Not Invalidated on New Biometric Enrollment"),
      Reference(
        "Apple: evaluatedPolicyDomainState",
        url: "https://developer.apple.com/documentation/localauthentication/lacontext/evaluatedpolicydomainstate"),
    ])

  public static let examples = RuleExamples(
    flagged: [
      RuleExample(EventBoundBiometricAuth.contextGivenBack(marker: "↓", returned: true), profile: .strict),
      // Through an overload of `evaluatePolicy`: judged at its call, whose context opens nothing.
      overloadUnlock(marker: "↓", reading: "nil"),
      RuleExample(
        EventBoundBiometricAuth.lockSettingPrompt(
          policy: ".deviceOwnerAuthenticationWithBiometrics", reason: #""Enable Touch ID""#, marker: "↓"),
        profile: .strict),
      RuleExample(
        EventBoundBiometricAuth.deletionPrompt(
          reason: #""Erase this wallet from the device""#, policy: ".deviceOwnerAuthenticationWithBiometrics",
          marker: "↓"),
        profile: .strict),
      // The app's own `evaluatePolicy` is judged once: at the policy its caller picks.
      """
      import LocalAuthentication
      struct Gate {
          private var context = LAContext()
          fileprivate func evaluatePolicy(_ policy: LAPolicy, localizedReason reason: String) async throws -> Bool {
              try await context.evaluatePolicy(policy, localizedReason: reason)
          }
          func unlock() async throws -> Bool {
              try await evaluatePolicy(↓.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock")
          }
      }
      """,
      "context.↓evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: \"Unlock\") { ok, _ in }",
      // A log line on success, as tutorials write it for the code still to come: strict only.
      RuleExample(
        """
        context.↓evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock") { success, _ in
            if success { print("Authenticated successfully!") }
        }
        """, profile: .strict),
      // Logging on success, and more: the result guards what else runs.
      """
      context.↓evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock") { success, _ in
          if success {
              print("Face recognized")
              self.unlockVault()
          }
      }
      """,
      // A helper that evaluates whatever policy it is given.
      """
      final class Authenticator {
          func unlockWithFace(completion: @escaping (Bool) -> Void) {
              evaluate(policy: ↓.deviceOwnerAuthenticationWithBiometrics, completion: completion)
          }
          func unlockWithPasscode(completion: @escaping (Bool) -> Void) {
              evaluate(policy: .deviceOwnerAuthentication, completion: completion)
          }
          private func evaluate(policy: LAPolicy, completion: @escaping (Bool) -> Void) {
              LAContext().evaluatePolicy(policy, localizedReason: "Unlock") { ok, _ in completion(ok) }
          }
      }
      """,
      "let ok = try await context.↓evaluatePolicy(.deviceOwnerAuthenticationWithBiometricsOrCompanion, localizedReason: \"Unlock\")",
    ],
    clean: [
      // The caller gets the context: it may open an item a new enrollment invalidates.
      RuleExample(EventBoundBiometricAuth.contextGivenBack()),
      RuleExample(EventBoundBiometricAuth.contextGivenBack(returned: true)),
      // The same overload's caller then reads a `.biometryCurrentSet` item with its context.
      overloadUnlock(marker: "", reading: "password(context: context)"),
      RuleExample(
        EventBoundBiometricAuth.lockSettingPrompt(
          policy: ".deviceOwnerAuthenticationWithBiometrics", reason: #""Enable Touch ID""#)),
      RuleExample(
        EventBoundBiometricAuth.deletionPrompt(
          reason: #""Erase this wallet from the device""#, policy: ".deviceOwnerAuthenticationWithBiometrics")),
      // A permission request: the reply ignores the result, so nothing is guarded by it.
      """
      LAContext().evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: " ") { _, _ in
          self.checkStatus { completion($0) }
      }
      """,
      // The result decides only a log line: what runs on success runs on failure too (strict
      // reports it, in case the line stands for code still to be written).
      """
      context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Check") { success, error in
          if success {
              print("Face recognized")
              logger.info("biometric check passed")
          } else if let error {
              self.show(error)
          }
      }
      """,
      """
      context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock") { ok, _ in
          guard ok, context.evaluatedPolicyDomainState == saved else { return }
      }
      """,
      """
      let ok = try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock")
      let changed = context.domainState.biometry.stateHash != savedHash
      """,
      "context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: \"Unlock\") { ok, _ in }",
      // The biometric policy goes to an overload that only records it, not to the one that evaluates.
      """
      final class Gate {
          func evaluate(policy: LAPolicy, completion: @escaping (Bool) -> Void) {
              LAContext().evaluatePolicy(policy, localizedReason: "Unlock") { ok, _ in completion(ok) }
          }
          func evaluate(policy: LAPolicy, reason: String, log: Log, completion: @escaping (Bool) -> Void) {
              log.record(policy, reason)
          }
          func recordFaceChoice(_ log: Log) {
              evaluate(policy: .deviceOwnerAuthenticationWithBiometrics, reason: "Face", log: log) { _ in }
          }
      }
      """,
      // A failed or declined face hands over to the passcode: whoever could enrol a face (which
      // takes the passcode) gets in that way anyway.
      """
      func revealKey(completion: @escaping (Bool) -> Void) {
          let context = LAContext()
          let askForPasscode = {
              context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Show the key") { ok, _ in completion(ok) }
          }
          context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Show the key") { ok, error in
              if let error = error as? LAError, error.code == .userFallback || error.code == .authenticationFailed {
                  askForPasscode()
              } else {
                  completion(ok)
              }
          }
      }
      """,
      """
      import KeychainAccess
      func unlock(keychain: Keychain, done: @escaping (String?) -> Void) {
          let context = LAContext()
          context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock") { ok, _ in
              let protected = keychain.accessibility(.whenPasscodeSetThisDeviceOnly, authenticationPolicy: .biometryCurrentSet)
              done(ok ? try? protected.authenticationContext(context).get("token") : nil)
          }
      }
      """,
    ])

  /// An unlock through a promise overload of `evaluatePolicy` (the overload's own body evaluates
  /// the policy its caller gives); on success it returns `reading`.
  static func overloadUnlock(marker: String, reading: String) -> RuleExample {
    RuleExample(
      """
      extension LAContext {
          func evaluatePolicy(_ policy: LAPolicy, localizedReason: String) -> Promise<Void> {
              Promise { fulfill, reject in
                  self.evaluatePolicy(policy, localizedReason: localizedReason) { ok, error in
                      if ok { fulfill(()) } else { reject(error ?? CancellationError()) }
                  }
              }
          }
      }
      final class VaultUnlock {
          private let context = LAContext()
          func unlock() -> Promise<String?> {
              context.\(marker)evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock").then { \(reading) }
          }
          private func password(context: LAContext) -> String? {
              let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, .biometryCurrentSet, nil)!
              let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccessControl as String: access,
                                          kSecReturnData as String: true, kSecUseAuthenticationContext as String: context]
              var item: CFTypeRef?
              guard SecItemCopyMatching(query as CFDictionary, &item) == errSecSuccess else { return nil }
              return (item as? Data).flatMap { String(data: $0, encoding: .utf8) }
          }
      }
      """)
  }

  public static let followsContextsAcrossFiles = true

  public static func prefilterTokens(options: RuleOptions) -> [String] { ["evaluatePolicy"] }

  static let message =
    "This biometric check would accept a finger or face enrolled after the user set it up, and nothing here compares `evaluatedPolicyDomainState` / `domainState.biometry.stateHash` with a saved value. Bind the check to a keychain item protected with `.biometryCurrentSet`, or require the full login when the domain state changes."

  public static func check(_ context: RuleContext) {
    let model = context.model
    let index = model.index
    guard index.memberAccessesByName["evaluatedPolicyDomainState"] == nil,
      index.memberAccessesByName["domainState"] == nil
    else { return }
    // An overload's body (`extension LAContext { func evaluatePolicy(…) -> Promise<Void> }`) is
    // judged at each call of the overload, with the context and policy its caller gives.
    for evaluation in model.policyEvaluations
    where !evaluation.replyIgnoresResult && !evaluation.requestsPermission && !evaluation.isOverloadBody
      && (!evaluation.successOnlyLogs || context.options.reportsWeakEvidence)
      && !model.fallsBackToPasscode(evaluation)
      && (!evaluation.onlyConfirmsOwnersChoice(in: model) || context.options.reportsWeakEvidence)
    {
      let binding = model.binding(of: evaluation)
      if binding == .keychainBound { continue }
      // Given back to the caller, the context may open an item that a new enrollment
      // invalidates (`.biometryCurrentSet`): the caller decides (reported only under strict).
      if binding.wayBack != nil && !context.options.reportsWeakEvidence { continue }
      // A helper of this file evaluating the policy it is given: reported where biometrics are chosen.
      if evaluation.policies.isEmpty {
        for argument in model.policyArguments(of: evaluation)
        where model.policies(of: argument).contains(where: \.involvesBiometrics) {
          context.report(
            argument, message: message + " The policy is chosen here and evaluated by a function of this file.",
            related: [(context.offset(of: evaluation.call), "evaluated here")])
        }
        continue
      }
      guard evaluation.policies.contains(where: \.involvesBiometrics) else { continue }
      let pending = model.pendingHandOff(of: evaluation)
      let handOff = HandOff.waitingForEnrollmentChecks(
        after: pending, reportsWeakEvidence: context.options.reportsWeakEvidence)
      let range = evaluation.reportRange
      context.report(
        start: range.start, end: range.end, message: message,
        // A context handed to code in another file may reach such an item there; the scan
        // of that file settles it.
        confidence: pending == nil ? nil : .low, handOff: handOff)
    }
  }
}
