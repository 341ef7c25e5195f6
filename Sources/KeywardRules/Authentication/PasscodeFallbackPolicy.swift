import KeywardCore
import SwiftSyntax

/// Flags policy evaluations that accept the device passcode (or a companion device) instead of
/// biometrics for a sensitive action.
public struct PasscodeFallbackPolicy: Rule {
  public static let metadata = RuleMetadata(
    id: "swift.local_auth_passcode_fallback_policy",
    title: "Local authentication falls back to the passcode",
    severity: .medium, confidence: .high, resource: "Authentication",
    tags: ["CWE:287", "CWE:308", "MASWE:0045", "OWASP:2021:A07", "MASVS-AUTH-2", "MASTG-TEST-0268"],
    profile: .standard,
    description: """
      `evaluatePolicy(.deviceOwnerAuthentication, ...)` (raw value 2) succeeds with biometrics or, \
      after failures or without biometrics, with the device passcode; the watch and companion \
      policies accept a nearby device. For a sensitive transaction that makes the passcode, \
      easier to observe than a face or finger, enough. `canEvaluatePolicy` checking that a \
      passcode is set is not reported, nor is an evaluation whose context \
      then reads an item protected by an access control or opens a Secure Enclave key: that \
      access control decides what unlocks it (a context given back to the caller may: strict \
      only). On native macOS code the policy asks for the login password, the Mac's own \
      credential: strict only. An evaluation in code named for a permission \
      (`ensureFaceIDPermission()`) guards nothing; strict alone reports one whose prompt or \
      success turns biometric unlock or an app lock on or off, whose prompt only confirms \
      deleting the user's own data, or in a method named for the passcode \
      (`authenticateWithPasscode()`).
      """,
    rationale: """
      Anyone who has watched the owner type the passcode, or learned it otherwise, passes this \
      check. Payments, credential changes and other step-up actions should demand the enrolled \
      biometrics, so that knowing the passcode is not enough (MASWE-0045).
      """,
    vulnerableExample: """
      context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Approve transfer") { success, _ in
          if success { self.approveTransfer() }
      }
      """,
    remediation: """
      Use `.deviceOwnerAuthenticationWithBiometrics` for sensitive transactions, and better still \
      a keychain item protected with `.biometryCurrentSet`. Keep the passcode-accepting policy for \
      unlocking the app itself where the passcode is an accepted fallback, and list only the \
      policies your security policy rejects in `fallbackPolicies`.
      """,
    fixedExample: """
      context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Approve transfer") { success, _ in
          if success { self.approveTransfer() }
      }
      """,
    references: [
      Reference("CWE-287: Improper Authentication", url: "https://cwe.mitre.org/data/definitions/287.html"),
      Reference(
        "CWE-308: Use of Single-factor Authentication", url: "https://cwe.mitre.org/data/definitions/308.html"),
      Reference("OWASP MASTG-TEST-0268: References to APIs Allowing Fallback to Non-Biometric Authentication"),
      Reference(
        "MASWE-0045 (beta numbering): Fallback to Non-biometric Credentials Allowed for Sensitive Transactions"),
      Reference("Apple: LAPolicy", url: "https://developer.apple.com/documentation/localauthentication/lapolicy"),
    ])

  public static let options = [
    OptionSpec(
      key: "fallbackPolicies", summary: "LAPolicy cases to report when evaluated.",
      defaultValue: .strings(
        LAPolicyCase.all.map(\.name).filter { $0 != "deviceOwnerAuthenticationWithBiometrics" }),
      allowedValues: LAPolicyCase.all.map(\.name))
  ]

  public static let examples = RuleExamples(
    flagged: [
      RuleExample(EventBoundBiometricAuth.contextGivenBack(policy: "↓.deviceOwnerAuthentication"), profile: .strict),
      RuleExample(
        EventBoundBiometricAuth.lockSettingPrompt(
          policy: "↓.deviceOwnerAuthentication", reason: #""Turn on App Lock""#),
        profile: .strict),
      RuleExample(
        """
        struct Gate {
            func check(using policy: LAPolicy, then proceed: @escaping (Bool) -> Void) {
                LAContext().evaluatePolicy(policy, localizedReason: "Unlock") { ok, _ in proceed(ok) }
            }
        }
        func approve(_ gate: Gate, allowPasscode: Bool) {
            if allowPasscode { gate.check(using: ↓.deviceOwnerAuthentication) { print($0) } }
        }
        """, profile: .strict),
      // A computed property choosing the policy, evaluated by another type.
      """
      struct UnlockSettings {
          var allowPasscode: Bool
          var policy: LAPolicy { allowPasscode ? ↓.deviceOwnerAuthentication : .deviceOwnerAuthenticationWithBiometrics }
      }
      final class UnlockGate {
          private let settings: UnlockSettings
          init(settings: UnlockSettings) { self.settings = settings }
          func unlock(_ done: @escaping (Bool) -> Void) {
              LAContext().evaluatePolicy(settings.policy, localizedReason: "Unlock") { ok, _ in done(ok) }
          }
      }
      """,
      // A policy handed to a wrapper that evaluates it.
      """
      struct Gate {
          func check(using policy: LAPolicy, then proceed: @escaping (Bool) -> Void) {
              LAContext().evaluatePolicy(policy, localizedReason: "Unlock") { ok, _ in proceed(ok) }
          }
      }
      func unlock(_ gate: Gate) { gate.check(using: ↓.deviceOwnerAuthentication) { ok in print(ok) } }
      """,
      RuleExample(
        """
        func confirm(options: PromptOptions, done: @escaping (Bool) -> Void) {
            let allowPasscode = options.allowPasscode ?? false
            let policy: LAPolicy = allowPasscode ? ↓.deviceOwnerAuthentication : .deviceOwnerAuthenticationWithBiometrics
            LAContext().evaluatePolicy(policy, localizedReason: "Confirm") { ok, _ in done(ok) }
        }
        """, profile: .strict),

      RuleExample(
        EventBoundBiometricAuth.deletionPrompt(reason: #""Leave the \(teamName) team?""#, policyMarker: "↓"),
        profile: .strict),
      RuleExample(EventBoundBiometricAuth.deletionPrompt(reason: #""Delete and export your keys""#, policyMarker: "↓")),
      // One branch of a switch over the caller's lock method evaluates the passcode policy.
      RuleExample(lockMethodPrompt(passcode: "↓.deviceOwnerAuthentication"), profile: .strict),
      // A method named for the passcode offers it beside a biometric one (strict only).
      RuleExample(namedPasscodePrompt(passcode: "↓.deviceOwnerAuthentication"), profile: .strict),
      // The prompt gets a fresh context, not the one the protected read retries with.
      lockoutRecovery(passcode: "↓.deviceOwnerAuthentication", promptContext: "LAContext()"),
      RuleExample(ownerCheck(type: "DeviceGate", passcode: "↓.deviceOwnerAuthentication")),

      """
      context.evaluatePolicy(↓.deviceOwnerAuthentication, localizedReason: "Approve transfer") { success, _ in }
      """,
      "let ok = try await context.evaluatePolicy(↓LAPolicy.deviceOwnerAuthentication, localizedReason: \"Pay\")",
      "let ok = try await context.evaluatePolicy(↓LAPolicy(rawValue: 2)!, localizedReason: \"Pay\")",
      """
      let policy: LAPolicy = allowPasscode ? ↓.deviceOwnerAuthentication : .deviceOwnerAuthenticationWithBiometrics
      context.evaluatePolicy(policy, localizedReason: "Pay") { _, _ in }
      """,
      "context.evaluatePolicy(↓.deviceOwnerAuthenticationWithCompanion, localizedReason: \"Unlock\") { _, _ in }",
      RuleExample(macApproval(marker: "↓"), profile: .strict),
    ],
    clean: [
      // The caller gets the context: an item's access control may decide what it unlocks.
      RuleExample(EventBoundBiometricAuth.contextGivenBack(policy: ".deviceOwnerAuthentication", returned: true)),
      RuleExample(
        EventBoundBiometricAuth.lockSettingPrompt(policy: ".deviceOwnerAuthentication", reason: #""Turn on App Lock""#)),
      // The owner confirms leaving a team: the passcode is their credential, nothing is revealed.
      RuleExample(EventBoundBiometricAuth.deletionPrompt(reason: #""Leave the \(teamName) team?""#)),
      // Named for the passcode: the caller that picks it over the biometric method decides.
      RuleExample(namedPasscodePrompt(passcode: ".deviceOwnerAuthentication")),
      // The lock method is the caller's choice: this code offers both.
      RuleExample(lockMethodPrompt(passcode: ".deviceOwnerAuthentication")),
      // The passcode clears a biometry lockout on the context the protected read then retries
      // with: the key's access control decides what unlocks it.
      lockoutRecovery(passcode: ".deviceOwnerAuthentication", promptContext: "context"),
      // On a Mac the passcode policy asks for the login password: the expected credential there.
      RuleExample(macApproval(marker: "")),
      // A settings screen's permission request: it shows whether the check works, guards nothing.
      RuleExample(ownerCheck(type: "DevicePermission", passcode: ".deviceOwnerAuthentication")),
      // The context then opens a Secure Enclave key: the key's access control decides what
      // unlocks it, not this policy.
      """
      func sign(_ message: Data, blob: Data) async throws -> Data {
          let context = LAContext()
          guard try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Sign") else { throw CancellationError() }
          let key = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: blob, authenticationContext: context)
          return try key.signature(for: message).rawRepresentation
      }
      """,
      // The passcode policy only checks that a passcode is set; the evaluated one is biometric.
      """
      struct UnlockSettings {
          var passcodeCheck: LAPolicy { .deviceOwnerAuthentication }
          var policy: LAPolicy { .deviceOwnerAuthenticationWithBiometrics }
      }
      final class UnlockGate {
          private let settings = UnlockSettings()
          func unlock(_ context: LAContext) {
              guard context.canEvaluatePolicy(settings.passcodeCheck, error: nil) else { return }
              context.evaluatePolicy(settings.policy, localizedReason: "Unlock") { _, _ in }
          }
      }
      """,
      // The function's caller picks the passcode option (reported under strict).
      """
      struct Gate {
          func check(using policy: LAPolicy, then proceed: @escaping (Bool) -> Void) {
              LAContext().evaluatePolicy(policy, localizedReason: "Unlock") { ok, _ in proceed(ok) }
          }
      }
      func approve(_ gate: Gate, allowPasscode: Bool) {
          if allowPasscode { gate.check(using: .deviceOwnerAuthentication) { print($0) } }
      }
      """,
      // The same wrapper given biometrics only.
      """
      struct Gate {
          func check(using policy: LAPolicy, then proceed: @escaping (Bool) -> Void) {
              LAContext().evaluatePolicy(policy, localizedReason: "Unlock") { ok, _ in proceed(ok) }
          }
      }
      func unlock(_ gate: Gate) { gate.check(using: .deviceOwnerAuthenticationWithBiometrics) { ok in print(ok) } }
      """,
      // A policy passed to a function that only asks whether it can be evaluated.
      """
      func isAvailable(_ policy: LAPolicy) -> Bool { LAContext().canEvaluatePolicy(policy, error: nil) }
      let canUsePasscode = isAvailable(.deviceOwnerAuthentication)
      LAContext().evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock") { _, _ in }
      """,
      """
      func confirm(allowPasscode: Bool, done: @escaping (Bool) -> Void) {
          let policy: LAPolicy = allowPasscode ? .deviceOwnerAuthentication : .deviceOwnerAuthenticationWithBiometrics
          LAContext().evaluatePolicy(policy, localizedReason: "Confirm") { ok, _ in done(ok) }
      }
      """,

      "let passcodeSet = context.canEvaluatePolicy(.deviceOwnerAuthentication, error: &error)",
      "context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: \"Pay\") { _, _ in }",
      "// context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: \"Pay\")",
      RuleExample(
        "context.evaluatePolicy(.deviceOwnerAuthenticationWithCompanion, localizedReason: \"Unlock\") { _, _ in }",
        options: ["fallbackPolicies": .strings(["deviceOwnerAuthentication"])]),
    ])

  /// An app lock whose caller passes the lock method; one method accepts the passcode.
  static func lockMethodPrompt(passcode: String) -> String {
    """
    enum LockMethod { case biometrics, passcodeOrBiometrics }
    final class LockPrompt {
        private let context = LAContext()
        func unlock(using method: LockMethod) async throws -> Bool {
            switch method {
            case .biometrics:
                return try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock")
            case .passcodeOrBiometrics:
                return try await context.evaluatePolicy(\(passcode), localizedReason: "Unlock")
            }
        }
    }
    """
  }

  /// A helper with a biometric method and one named for the passcode, which hands the
  /// passcode-accepting policy to the shared evaluation.
  static func namedPasscodePrompt(passcode: String) -> String {
    """
    final class Authenticator {
        func authenticateWithBiometrics(reason: String, done: @escaping (Bool) -> Void) {
            evaluate(.deviceOwnerAuthenticationWithBiometrics, reason: reason, done: done)
        }
        func authenticateWithPasscode(reason: String, done: @escaping (Bool) -> Void) {
            evaluate(\(passcode), reason: reason, done: done)
        }
        private func evaluate(_ policy: LAPolicy, reason: String, done: @escaping (Bool) -> Void) {
            LAContext().evaluatePolicy(policy, localizedReason: reason) { ok, _ in done(ok) }
        }
    }
    """
  }

  /// A macOS helper approving a request with the owner's Touch ID or login password.
  static func macApproval(marker: String) -> String {
    """
    import AppKit
    import LocalAuthentication
    func approve(_ request: String, then sign: @escaping () -> Void) {
        LAContext().evaluatePolicy(\(marker).deviceOwnerAuthentication, localizedReason: "approve \\(request)") { ok, _ in
            if ok { sign() }
        }
    }
    """
  }

  /// A value of `type` whose closure checks the device owner.
  static func ownerCheck(type: String, passcode: String) -> String {
    """
    struct \(type) { let request: () async throws -> Bool }
    extension \(type) {
        static let deviceOwner = \(type)(request: {
            try await LAContext().evaluatePolicy(\(passcode), localizedReason: "Check it is you")
        })
    }
    """
  }

  /// A key read that, locked out, prompts on a context and retries with the read's own context.
  static func lockoutRecovery(passcode: String, promptContext: String) -> RuleExample {
    RuleExample(
      """
      final class KeyVault {
          func privateKey(tag: Data) async throws -> SecKey? {
              let context = LAContext()
              if let key = find(tag: tag, context: context) { return key }
              guard try await clearLockout(on: \(promptContext)) else { return nil }
              return find(tag: tag, context: context)
          }
          private func clearLockout(on context: LAContext) async throws -> Bool {
              try await context.evaluatePolicy(\(passcode), localizedReason: "Unlock your key")
          }
      \(keyLookup)
      }
      """)
  }

  /// A method reading a key with the context it is given (`find(tag:context:)`).
  public static let keyLookup = """
        private func find(tag: Data, context: LAContext) -> SecKey? {
            let query: [String: Any] = [kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: tag,
                                        kSecReturnRef as String: true, kSecUseAuthenticationContext as String: context]
            var item: CFTypeRef?
            guard SecItemCopyMatching(query as CFDictionary, &item) == errSecSuccess else { return nil }
            return (item as! SecKey)
        }
    """

  public static func prefilterTokens(options: RuleOptions) -> [String] {
    ["evaluatePolicy"] + options.strings("fallbackPolicies")
  }

  public static let valueSinks: [ValueSink] = [.policy]

  public static let followsContextsAcrossFiles = true

  public static func check(_ context: RuleContext) {
    let reported = Set(context.options.strings("fallbackPolicies"))
    let model = context.model
    for evaluation in model.policyEvaluations {
      let binding = model.binding(of: evaluation)
      // A context bound to a protected item or key: the item's access control, not this policy,
      // decides what unlocks it (`swift.weak_biometric_acl` judges that).
      // A request for the Face ID permission guards nothing. On a Mac the passcode-accepting
      // policy asks for the login password, the Mac's own credential (and all a Mac without
      // Touch ID has): the expected policy there, reported only under strict.
      guard let argument = evaluation.policyExpression, !evaluation.requestsPermission,
        !evaluation.onlyConfirmsOwnersChoice(in: model) || context.options.reportsWeakEvidence,
        binding != .keychainBound,
        // Given back to the caller, the context may open a protected item, whose access
        // control then decides (reported only under strict).
        binding.wayBack == nil || context.options.reportsWeakEvidence,
        context.options.reportsWeakEvidence || !TargetPlatform.isMacOSOnly(evaluation.call, in: model)
      else {
        continue
      }
      let handOff = model.pendingHandOff(of: evaluation)
      // Evaluated in one branch of a choice the caller makes (`switch method { case
      // .passcodeOrBiometrics: … }` on a parameter), or in code named for the passcode
      // (`authenticateWithPasscode()`): an option this code offers.
      let evaluatedOnCallersChoice =
        model.isChosenByCaller(Syntax(evaluation.call)) || model.isNamedForThePasscode(Syntax(evaluation.call))
      for value in model.resolver.values(of: argument) {
        // A policy the caller picks (`allowPasscode ? .deviceOwnerAuthentication : ...`) is an
        // option this code offers; the caller's choice is the finding (strict reports both).
        guard let policy = model.policies(of: value.expression).first, reported.contains(policy.name),
          !(value.chosenByCaller || evaluatedOnCallersChoice) || context.options.reportsWeakEvidence
        else { continue }
        context.report(
          value.expression, message: message(policy),
          confidence: handOff != nil ? .low : value.isConditional ? .medium : nil,
          related: value.reachedThroughName ? [(context.offset(of: argument), "evaluated here")] : [], handOff: handOff)
      }
    }
    // A fallback policy passed to a function whose parameter reaches `evaluatePolicy`.
    let passed = reported.sorted().flatMap { model.index.memberAccessesByName[$0] ?? [] }.map(ExprSyntax.init)
    context.reportPassed(passed, to: .policy) { atom, call in
      guard context.options.reportsWeakEvidence || !model.isNamedForThePasscode(Syntax(atom)) else { return nil }
      return model.policies(of: atom).first.map {
        (message($0) + " (\(call.destination), which evaluates it.)", nil)
      }
    }
  }

  static func message(_ policy: LAPolicyCase) -> String {
    let (accepts, who) =
      switch policy.rawValue {
      case 2: ("the device passcode", "anyone who knows the passcode")
      case 5: ("the passcode of a worn watch", "anyone who knows that passcode")
      default: ("a nearby companion device", "anyone holding the companion device")
      }
    return "`.\(policy.name)` accepts \(accepts) instead of biometrics, so \(who) passes this check. "
      + advice(biometricPolicy: ".deviceOwnerAuthenticationWithBiometrics", currentSetFlag: ".biometryCurrentSet")
  }

  /// What to do instead, in the API spelling of the language (shared with the Objective-C twin).
  static func advice(biometricPolicy: String, currentSetFlag: String) -> String {
    "For sensitive actions (a payment, revealing a recovery phrase, linking a device) use `\(biometricPolicy)`, or better a keychain item protected with `\(currentSetFlag)`; a lock that only hides the app's screen may keep the passcode, as the device's own lock does."
  }
}
