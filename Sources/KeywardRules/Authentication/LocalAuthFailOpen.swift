import Foundation
import KeywardCore
import SwiftSyntax

/// Flags access granted on the failure paths of local authentication.
public struct LocalAuthFailOpen: Rule {
  public static let metadata = RuleMetadata(
    id: "swift.local_auth_fail_open",
    title: "Access granted when local authentication fails",
    severity: .high, confidence: .medium, resource: "Authentication",
    tags: ["CWE:636", "CWE:287", "MASWE:0044", "OWASP:2021:A07", "MASVS-AUTH-2"],
    profile: .essential,
    description: """
      Reports access granted where authentication did not succeed: where `canEvaluatePolicy` is \
      false, the reply's `success` is false or its `error` set, in the `catch` of `try await \
      evaluatePolicy`, in a reply ignoring both, and on `biometryNotAvailable`, \
      `biometryNotEnrolled`, `passcodeNotSet` or `userFallback`, unless that path authenticates \
      again (a device without a passcode only in the strict profile: its holder could set one). \
      Granting is calling a completion with `true` or a `.success` whose payload reports no \
      failure, setting an authenticated/unlocked flag, calling an unlock or login function, \
      returning `true` or a comparison (unless the function's name makes `true` the refusal), or returning data read from a store. A failure path is also compared \
      with the success path of the same check: it grants when it calls the same continuation, \
      returns `true` where success returns the evaluation's result, or returns a copy from \
      `UserDefaults` or a cache where success returns the protected data.
      """,
    rationale: """
      Failure paths are under the attacker's control: they can cancel the prompt, remove all \
      fingerprints, or make biometrics unavailable. If any of those opens the door, the \
      authentication protects nothing.
      """,
    vulnerableExample: """
      guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) else {
          completion(true)   // no biometrics: let the user in anyway
          return
      }
      """,
    remediation: """
      On every failure path deny access, or require a stronger authentication: the passcode through \
      `.deviceOwnerAuthentication` on a keychain item, or the app's full login. Never fall back to \
      a copy of the secret that is stored without an access control.
      """,
    fixedExample: """
      guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) else {
          completion(false)
          showFullLogin()
          return
      }
      """,
    references: [
      Reference(
        "CWE-636: Not Failing Securely ('Failing Open')", url: "https://cwe.mitre.org/data/definitions/636.html"),
      Reference("OWASP MASTG: Testing Local Authentication"),
      Reference("Apple: LAError", url: "https://developer.apple.com/documentation/localauthentication/laerror"),
    ])

  public static let examples = RuleExamples(
    flagged: [
      // No passcode on the device: its holder could set one and pass, so only strict reports it.
      RuleExample(noPasscodeReveal(marker: "↓"), profile: .strict),
      // A Combine future's promise is the caller's answer.
      """
      func authenticate() -> Future<Bool, Never> {
          Future { promise in
              let context = LAContext()
              guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: nil) else {
                  ↓promise(.success(true))
                  return
              }
              context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Show the phrase") { success, _ in
                  promise(.success(success))
              }
          }
      }
      """,
      // The default taken when the awaited evaluation throws.
      """
      func canUnlock(with context: LAContext) async -> Bool {
          (try? await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock")) ?? ↓true
      }
      """,
      """
      context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock") { _, _ in
          ↓self.isUnlocked = true
      }
      """,
      """
      func canOpenVault() -> Bool {
          var error: NSError?
          guard LAContext().canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) else {
              return ↓true
          }
          return false
      }
      """,
      """
      func unlock(completion: @escaping (Bool) -> Void) {
          let context = LAContext()
          var error: NSError?
          guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) else {
              ↓completion(true)
              return
          }
      }
      """,
      """
      context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock") { success, error in
          if success {
              self.unlock()
          } else {
              ↓self.isAuthenticated = true
          }
      }
      """,
      """
      context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock") { success, error in
          guard success else {
              DispatchQueue.main.async { ↓self.showVault() }
              return
          }
      }
      """,
      """
      func secret() async -> Data? {
          do {
              _ = try await LAContext().evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Read")
              return try protectedStore.read()
          } catch {
              return ↓try? plainStore.read()
          }
      }
      """,
      """
      final class Manager {
          func retrieve(key: String) async throws -> Data? {
              do {
                  let context = try await authenticator.authenticate(reason: "Read")
                  return try biometricKeychain.retrieve(forKey: key, context: context)
              } catch let error as LAError {
                  switch error.code {
                  case .biometryNotAvailable, .biometryNotEnrolled:
                      return ↓try fallbackToPasscode(forKey: key)
                  case .biometryLockout:
                      return try await fallbackToDevicePasscode(forKey: key)
                  default:
                      throw error
                  }
              }
          }
          private func fallbackToPasscode(forKey key: String) throws -> Data? { try fallbackKeychain.read(forKey: key) }
          private func fallbackToDevicePasscode(forKey key: String) async throws -> Data? {
              let context = LAContext()
              _ = try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Read")
              return try biometricKeychain.retrieve(forKey: key, context: context)
          }
      }
      """,
      // A `Result.success` whose payload is the secret grants, on the failure path as anywhere.
      """
      context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Sign in") { ok, _ in
          guard ok else {
              ↓completion(Result.success(SessionOutcome(granted: true, error: nil)))
              return
          }
      }
      """,
      // A yes/no built from stored data still grants when the function's name asks "may I?".
      """
      func canOpenVault(account: String) -> Bool {
          let context = LAContext()
          var error: NSError?
          guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) else {
              return ↓loadSessionToken(for: account) != nil
          }
          return false
      }
      """,
      // Judged against the success path: `true` is what success answers (the evaluation's result).
      """
      func requireBiometricUnlock() async -> Bool {
          let context = LAContext()
          var error: NSError?
          guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) else {
              return ↓true
          }
          return (try? await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock")) ?? false
      }
      """,
      // The failure branch goes on as the success branch does.
      """
      func openNotes() {
          LAContext().evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Open your notes") { success, _ in
              DispatchQueue.main.async {
                  if success {
                      self.goToNotes()
                  } else {
                      self.hintLabel.isHidden = false
                      ↓self.goToNotes()
                  }
              }
          }
      }
      """,
      // A cached copy of what success reads from the protected store.
      """
      func sessionToken() async -> String? {
          let context = LAContext()
          do {
              try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Sign in")
              return try tokenVault.token()
          } catch {
              return ↓UserDefaults.standard.string(forKey: "lastSessionToken")
          }
      }
      """,
    ],
    clean: [
      RuleExample(noPasscodeReveal(marker: "")),
      // A failed evaluation always comes with an error: the branch without one never runs.
      """
      context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Open the diary") { success, error in
          if success {
              self.showDiary()
          } else if let error {
              self.handle(error)
          } else {
              self.showDiary()
          }
      }
      """,
      // Releasing the semaphore on both paths grants nothing; a cancelled prompt asks again.
      """
      import LocalAuthentication
      final class AppLock {
          var isLocked = true
          let semaphore = DispatchSemaphore(value: 1)
          func unlockApp() {
              let context = LAContext()
              context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Unlock") { [weak self] success, error in
                  guard success else {
                      self?.semaphore.signal()
                      if (error as? LAError)?.code == .userCancel { self?.unlockApp() }
                      return
                  }
                  self?.isLocked = false
                  self?.semaphore.signal()
              }
          }
      }
      """,
      // The same shapes where failure does something else than success.
      """
      func openNotes() {
          LAContext().evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Open your notes") { success, _ in
              DispatchQueue.main.async {
                  self.setLoading(false)
                  if success {
                      self.setLoading(false)
                      self.goToNotes()
                  } else {
                      self.setLoading(false)
                      self.showRetry()
                  }
              }
          }
      }
      """,
      """
      func sessionToken() async -> String? {
          let context = LAContext()
          do {
              try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Sign in")
              return try tokenVault.token()
          } catch {
              UserDefaults.standard.set(true, forKey: "biometricSignInFailed")
              return nil
          }
      }
      """,
      // `true` answers "is a fallback needed?": success answers the opposite of the evaluation.
      """
      func needsPasscodeFallback() async -> Bool {
          let context = LAContext()
          var error: NSError?
          guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) else {
              return true
          }
          let passed = (try? await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock")) ?? false
          return !passed
      }
      """,
      """
      func canUnlock(with context: LAContext) async -> Bool {
          (try? await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock")) ?? false
      }
      """,
      // A plug-in reporting every outcome through `Result.success`: the payload says "denied".
      """
      func prompt(reason: String, completion: @escaping (Result<PromptOutcome, Error>) -> Void) {
          let context = LAContext()
          var error: NSError?
          guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) else {
              completion(.success(PromptOutcome(
                  success: false,
                  message: error?.localizedDescription ?? "Biometrics unavailable",
                  code: .notAvailable)))
              return
          }
          context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: reason) { ok, _ in
              if ok {
                  completion(.success(PromptOutcome(success: true, message: nil, code: .ok)))
              } else {
                  completion(.success(PromptOutcome(success: false, message: "Cancelled", code: .cancelled)))
              }
          }
      }
      """,
      """
      context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Create the signing key") { ok, _ in
          if ok {
              makeKeyPair()
          } else {
              completion(.success(KeyPairOutcome(publicKey: nil, error: "Authentication failed", code: .userCancel)))
          }
      }
      """,
      // `true` means "the enrollment changed (or cannot be checked), so the saved state is void".
      """
      static func enrollmentChangedOrUnknown(_ account: String) -> Bool {
          let context = LAContext()
          var error: NSError?
          guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error),
              let current = context.evaluatedPolicyDomainState
          else {
              return loadBaseline(for: account) != nil
          }
          if let saved = loadBaseline(for: account) { return saved != current }
          return false
      }
      """,
      // The reply ignores the result, but grants nothing: a permission request.
      """
      LAContext().evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: " ") { _, _ in
          self.checkStatus { completion($0) }
      }
      """,
      """
      func biometryChangedSinceEnrollment(saved: Data) -> Bool {
          let context = LAContext()
          var error: NSError?
          guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) else {
              return true   // nothing enrolled any more: the saved state is void
          }
          return context.evaluatedPolicyDomainState != saved
      }
      """,
      """
      context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock") { success, evaluationError in
          guard success else {
              return
          }
          self.unlock()
      }
      """,
      """
      guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) else {
          if let err = error { print("Biometrics not available: \\(err.localizedDescription)") }
          throw KeychainError.accessControlCreationFailed
      }
      """,
      """
      var availableBiometric: BiometricType {
          guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) else {
              return .none
          }
          return .faceID
      }
      """,
      """
      context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock") { success, _ in
          if !success {
              context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Use your passcode") { ok, _ in
                  if ok { self.unlock() }
              }
          }
      }
      """,
      """
      context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock") { success, _ in
          if !success { completion(false); self.isAuthenticated = false }
      }
      """,
      // Without biometrics the check falls back to a closure that asks for the passcode.
      """
      func confirmOwner(completion: @escaping (Bool) -> Void) {
          let context = LAContext()
          let askForPasscode = {
              context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Show the key") { ok, _ in
                  completion(ok)
              }
          }
          var error: NSError?
          guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) else {
              askForPasscode()
              return
          }
          context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Show the key") { ok, _ in
              ok ? completion(true) : askForPasscode()
          }
      }
      """,
    ])

  /// A wallet that shows the recovery phrase at once when the device has no passcode.
  static func noPasscodeReveal(marker: String) -> String {
    """
    func confirmOwner(then reveal: @escaping (Bool) -> Void) {
        let context = LAContext()
        var error: NSError?
        guard context.canEvaluatePolicy(.deviceOwnerAuthentication, error: &error) else {
            \(marker)reveal(true)
            return
        }
        context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Show the recovery phrase") { ok, _ in
            reveal(ok)
        }
    }
    """
  }

  public static func prefilterTokens(options: RuleOptions) -> [String] {
    ["evaluatePolicy", "canEvaluatePolicy", "LAError"]
  }

  public static func check(_ context: RuleContext) {
    let finder = FailurePathFinder(model: context.model)
    let grants = GrantFinder(model: context.model)
    let comparison = SuccessComparison(model: context.model, failureRegions: finder.paths.map(\.region))
    // A device without a passcode lets its holder set one and then pass the check, so letting
    // them in at once gives away nothing the check kept: reported only under the strict profile,
    // for apps that must hold their data back from whoever holds the device.
    let paths = finder.paths.filter {
      $0.situation != FailurePathFinder.noPasscode || context.options.reportsWeakEvidence
    }
    for path in paths where !grants.authenticates(path.region) {
      let grantedValue = path.value.flatMap { ReportedOutcome.of($0) == .success ? Syntax($0) : nil }
      for grant in grantedValue.map({ [$0] }) ?? (grants.grants(in: path.region) + comparison.grants(on: path))
      where !finder.neverRuns(grant, on: path) {
        context.report(grant, message: Self.message(path))
      }
    }
  }

  private static func message(_ path: FailurePath) -> String {
    let grant = "Access is granted \(path.situation): \(path.who) gets in without authenticating."
    guard path.situation == FailurePathFinder.noPasscode else {
      return grant
        + " Deny access here, or require a stronger authentication (the passcode on a keychain item, or the full login)."
    }
    return grant
      + " That holder could also set a passcode and then pass the check, so this matters where the app must keep its data from whoever holds the device: there, ask for the app's own PIN or password instead of letting them in."
  }
}
