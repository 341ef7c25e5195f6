import KeywardCore
import SwiftSyntax

/// Flags access controls that the device passcode alone can satisfy.
public struct PasscodeFallbackACL: Rule {
  public static let metadata = RuleMetadata(
    id: "swift.keychain_passcode_fallback_acl",
    title: "Keychain access control accepts the passcode alone",
    severity: .medium, confidence: .high, resource: "Authentication",
    tags: ["CWE:287", "CWE:308", "MASWE:0045", "OWASP:2021:A07", "MASVS-AUTH-2", "MASTG-TEST-0268"],
    profile: .standard,
    description: """
      An access control whose flags are `.devicePasscode` alone, or `.devicePasscode` combined with \
      `.or` (for example `[.biometryCurrentSet, .or, .devicePasscode]`), lets the device passcode \
      unlock the item without biometrics. MASTG-TEST-0268 calls this a hardening issue rather than \
      a vulnerability in itself: report it where the item protects a sensitive transaction. A \
      passcode option this code offers and its caller picks (a `switch` over a parameter, \
      `allowPasscode ? … : …`, code named for it such as `BiometricOrDeviceCredentialAuthenticator`) \
      is the caller's choice and is reported only by the strict profile. \
      `.devicePasscode` alone where a biometric `canEvaluatePolicy` check failed is all such a \
      device can ask for, and is not reported.
      """,
    rationale: """
      The passcode is typed in front of others and can be observed or guessed; biometrics cannot \
      be shoulder-surfed. An item that a passcode alone releases is as strong as the passcode.
      """,
    vulnerableExample: """
      let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
                                                   [.biometryCurrentSet, .or, .devicePasscode], nil)
      """,
    remediation: """
      Require biometrics for sensitive items: `.biometryCurrentSet` alone, or `[.biometryCurrentSet, \
      .and, .devicePasscode]` to require both. Keep an `.or, .devicePasscode` fallback only for items \
      whose exposure to someone who knows the passcode is an accepted risk.
      """,
    fixedExample: """
      let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
                                                   .biometryCurrentSet, nil)
      """,
    references: [
      Reference(
        "CWE-308: Use of Single-factor Authentication", url: "https://cwe.mitre.org/data/definitions/308.html"),
      Reference("OWASP MASTG-TEST-0268: References to APIs Allowing Fallback to Non-Biometric Authentication"),
      Reference(
        "Apple: SecAccessControlCreateFlags",
        url: "https://developer.apple.com/documentation/security/secaccesscontrolcreateflags"),
    ])

  public static let examples = RuleExamples(
    flagged: [
      "let access = SecAccessControlCreateWithFlags(nil, protection, ↓.devicePasscode, nil)",
      "let access = SecAccessControlCreateWithFlags(nil, protection, [.biometryCurrentSet, .or, ↓.devicePasscode], nil)",
      """
      var flags: SecAccessControlCreateFlags = [.biometryCurrentSet, .or]
      flags.insert(↓.devicePasscode)
      let access = SecAccessControlCreateWithFlags(nil, protection, flags, nil)
      """,
      "let access = SecAccessControlCreateWithFlags(nil, protection, [.privateKeyUsage, ↓.devicePasscode], nil)",
      // Each side of the choice is judged alone: the fallback on one side; the passcode alone on
      // the other is all a device without biometrics can ask for.
      """
      func access() -> SecAccessControl? {
          let enrolled = LAContext().canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: nil)
          let flags: SecAccessControlCreateFlags = enrolled ? [.biometryCurrentSet, .or, ↓.devicePasscode] : [.devicePasscode]
          return SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, flags, nil)
      }
      """,
      // A name declared again for the simulator: the device build's flags are the ones that ship.
      """
      func access() -> SecAccessControl? {
      #if !targetEnvironment(simulator)
          let flags: SecAccessControlCreateFlags = [.biometryCurrentSet, .or, ↓.devicePasscode, .privateKeyUsage]
      #else
          let flags: SecAccessControlCreateFlags = [.biometryCurrentSet]
      #endif
          return SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, flags, nil)
      }
      """,
      // The caller's own choice among the options this code offers: reported under strict.
      RuleExample(passcodeOption(marker: "↓"), profile: .strict),
      // A type named for the device credential accepts it by its stated purpose (strict only).
      RuleExample(deviceCredentialAuthenticator(marker: "↓"), profile: .strict),
    ],
    clean: [
      RuleExample(passcodeOption(marker: "")),
      RuleExample(deviceCredentialAuthenticator(marker: "")),
      // Without biometrics the passcode is all the device can ask for.
      """
      let biometricsAvailable = LAContext().canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: nil)
      let flags: SecAccessControlCreateFlags = biometricsAvailable ? [.biometryCurrentSet, .privateKeyUsage] : [.devicePasscode, .privateKeyUsage]
      let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, flags, nil)
      """,
      // A template that recognises an existing item's access control by comparison.
      """
      let template = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .devicePasscode, nil)
      let usesPasscode = CFEqual(existing, template)
      """,
      "let access = SecAccessControlCreateWithFlags(nil, protection, [.biometryCurrentSet, .and, .devicePasscode], nil)",
      "let access = SecAccessControlCreateWithFlags(nil, protection, .biometryCurrentSet, nil)",
      "let access = SecAccessControlCreateWithFlags(nil, protection, [.biometryCurrentSet, .devicePasscode], nil)",
      // `.or` on one side of a choice and `.devicePasscode` with biometrics on the other: no set has both.
      """
      func access(watch: Bool) -> SecAccessControl? {
          let flags: SecAccessControlCreateFlags = watch ? [.biometryCurrentSet, .or, .watch] : [.biometryCurrentSet, .and, .devicePasscode]
          return SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, flags, nil)
      }
      """,
      "enum Unlock { case devicePasscode }; let u: Unlock = .devicePasscode",
    ])

  /// The key of an authenticator named for biometrics or the device credential, beside one for
  /// biometrics alone: which one is used is its caller's choice.
  static func deviceCredentialAuthenticator(marker: String) -> String {
    """
    final class BiometricOrDeviceCredentialAuthenticator {
        func makeAccess() -> SecAccessControl? {
            SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
                                            [.biometryCurrentSet, .or, \(marker).devicePasscode, .privateKeyUsage], nil)
        }
    }
    final class BiometricOnlyAuthenticator {
        func makeAccess() -> SecAccessControl? {
            SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
                                            [.biometryCurrentSet, .privateKeyUsage], nil)
        }
    }
    """
  }

  /// A helper turning the protection its caller asks for into flags.
  static func passcodeOption(marker: String) -> String {
    """
    enum Protection { case biometryCurrentSet, devicePasscode }
    func makeAccess(for protection: Protection) -> SecAccessControl? {
        var flags: SecAccessControlCreateFlags = []
        switch protection {
        case .biometryCurrentSet: flags = [.biometryCurrentSet]
        case .devicePasscode: flags = [\(marker).devicePasscode]
        }
        return SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, flags, nil)
    }
    """
  }

  public static func prefilterTokens(options: RuleOptions) -> [String] {
    ["devicePasscode", "SecAccessControlCreateFlags(rawValue"]
  }

  public static func check(_ context: RuleContext) {
    let model = context.model
    let templates = model.flagsProtectingNoItem
    for call in model.accessControlCreations {
      guard let argument = SyntaxFacts.argument(call, at: 2), !templates.contains(argument.id) else { continue }
      // Each set the flags may be is judged alone: `useBiometrics ? [.biometryCurrentSet, .or,
      // .devicePasscode] : [.devicePasscode]` has a fallback on one side and the passcode only
      // on the other.
      var reported: Set<SyntaxIdentifier> = []
      for set in model.accessControl.flagSets(of: argument) where AccessControlEvaluator.passcodeAloneOpens(set) {
        let alone = !set.contains { $0.flag.name == "or" }
        // A passcode the caller picks among this code's options, or chosen in code named for the
        // passcode (`BiometricAndDeviceCredentialAuthenticator`), is the caller's choice.
        for origin in set
        where origin.flag.name == "devicePasscode"
          && (!(origin.chosenByCaller || model.isNamedForThePasscode(Syntax(origin.node)))
            || context.options.reportsWeakEvidence)
          // Where biometrics cannot be used the passcode is all the device can ask for.
          && (!alone || !model.isWhereBiometricsAreUnavailable(origin.node))
          && reported.insert(origin.node.id).inserted
        {
          context.report(
            origin.node,
            message: alone
              ? "`.devicePasscode` is the only authentication this item needs, so anyone who knows the passcode reads it. Require `.biometryCurrentSet` (with `.and, .devicePasscode` if both are wanted) for sensitive items."
              : "`.or, .devicePasscode` lets the passcode replace biometrics for this item, so anyone who knows the passcode reads it. Drop the fallback for sensitive items, or require both with `.and`.",
            confidence: origin.isConditional ? .medium : nil,
            related: origin.reachedThroughName
              ? [(context.offset(of: argument), "reaches SecAccessControlCreateWithFlags here")] : [])
        }
      }
    }
  }
}
