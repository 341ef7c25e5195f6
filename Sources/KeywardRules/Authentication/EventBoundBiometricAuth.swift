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
      the user authenticated. When that alone unlocks data or a feature, authentication is \
      event-bound. The context is followed through aliases, arguments and properties; when it \
      reaches a keychain query as `kSecUseAuthenticationContext` (or KeychainAccess's \
      `authenticationContext(_:)`) and the file's items have an access control, or opens a \
      Secure Enclave key, it is keychain-bound; so is a prompt on a context parameter every caller \
      fills with a protected read's context. A context handed to another file's function is \
      followed there. Code named for a permission guards nothing. Only strict reports a context \
      given back to the caller (returned, or `completion(.success(context))`), a success that only \
      logs or shows a fixed alert (`if success { print(…) }`), a prompt or success that turns \
      biometric unlock or an app lock on or off (`isAppLockEnabled = …`), and a prompt that only \
      confirms deleting the user's data.
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

  public static let followsContextsAcrossFiles = true

  public static func prefilterTokens(options: RuleOptions) -> [String] { ["evaluatePolicy", "LARight"] }

  public static func check(_ context: RuleContext) {
    let model = context.model
    // A reply that ignores the result guards nothing with it (swift.local_auth_fail_open judges
    // it); one that only logs it, nothing but the log line (strict reports it).
    for evaluation in model.policyEvaluations
    where !evaluation.replyIgnoresResult && !evaluation.requestsPermission && !evaluation.isOverloadBody
      && (!evaluation.successOnlyLogs || context.options.reportsWeakEvidence)
      && (!evaluation.onlyConfirmsOwnersChoice(in: model) || context.options.reportsWeakEvidence)
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
