import KeywardCore

/// `swift.keychain_passcode_fallback_acl` for Objective-C sources.
public struct ObjCPasscodeFallbackACL: Rule {
  public static let language = SourceLanguage.objectiveC
  public static let metadata = PasscodeFallbackACL.metadata.objcTwin(
    description: """
      `kSecAccessControlDevicePasscode` in the flags of `SecAccessControlCreateWithFlags` with no \
      biometric flag, or combined with `kSecAccessControlOr` (`kSecAccessControlBiometryCurrentSet \
      | kSecAccessControlOr | kSecAccessControlDevicePasscode`), also as plain integers (`16`, \
      `1 << 4`) and through `#define`s, `const`s, locals and helpers of the file: the device \
      passcode alone unlocks the item. With `kSecAccessControlAnd` both are required, which is no \
      fallback. MASTG-TEST-0268 calls this a hardening issue: report it where the item protects a \
      sensitive transaction.
      """,
    vulnerableExample: """
      SecAccessControlRef access = SecAccessControlCreateWithFlags(kCFAllocatorDefault,
          kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
          kSecAccessControlBiometryCurrentSet | kSecAccessControlOr | kSecAccessControlDevicePasscode, &error);
      """,
    fixedExample: """
      SecAccessControlRef access = SecAccessControlCreateWithFlags(kCFAllocatorDefault,
          kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, kSecAccessControlBiometryCurrentSet, &error);
      """)

  public static let examples = RuleExamples(
    flagged: [
      "SecAccessControlCreateWithFlags(NULL, protection, ↓kSecAccessControlDevicePasscode, NULL);",
      "SecAccessControlCreateWithFlags(NULL, protection, kSecAccessControlBiometryCurrentSet | kSecAccessControlOr | ↓kSecAccessControlDevicePasscode, NULL);",
      "SecAccessControlCreateWithFlags(NULL, protection, kSecAccessControlPrivateKeyUsage | ↓kSecAccessControlDevicePasscode, NULL);",
      """
      - (SecAccessControlRef)makeAccess {
          SecAccessControlCreateFlags flags = kSecAccessControlBiometryCurrentSet | kSecAccessControlOr;
          flags |= ↓kSecAccessControlDevicePasscode;
          return SecAccessControlCreateWithFlags(NULL, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, NULL);
      }
      """,
      """
      #define PASSCODE_ONLY (1 << 30 | ↓1 << 4)
      SecAccessControlRef access = SecAccessControlCreateWithFlags(NULL, protection, PASSCODE_ONLY, NULL);
      """,
    ],
    clean: [
      "SecAccessControlCreateWithFlags(NULL, protection, kSecAccessControlBiometryCurrentSet | kSecAccessControlAnd | kSecAccessControlDevicePasscode, NULL);",
      "SecAccessControlCreateWithFlags(NULL, protection, kSecAccessControlBiometryCurrentSet, NULL);",
      "SecAccessControlCreateWithFlags(NULL, protection, kSecAccessControlBiometryCurrentSet | kSecAccessControlDevicePasscode, NULL);",
      "if (flags & kSecAccessControlDevicePasscode) { NSLog(@\"kSecAccessControlDevicePasscode\"); }",
      "// SecAccessControlCreateWithFlags(NULL, p, kSecAccessControlDevicePasscode, NULL);",
    ])

  public static func prefilterTokens(options: RuleOptions) -> [String] { ["SecAccessControlCreateWithFlags"] }

  public static func check(_ context: RuleContext) {
    for creation in context.objc.accessControlCreations {
      let names = Set(creation.flatMap { $0.flags.map(\.name) })
      guard AccessControlEvaluator.passcodeAloneOpens(names) else { continue }
      let alone = !names.contains("or")
      for (token, flags, fromInteger) in creation where flags.contains(where: { $0.name == "devicePasscode" }) {
        let subject = fromInteger ? "`\(token.text)` sets `kSecAccessControlDevicePasscode`, and " : ""
        context.report(
          token,
          message: alone
            ? "\(subject)`kSecAccessControlDevicePasscode` is the only authentication this item needs, so anyone who knows the passcode reads it. Require `kSecAccessControlBiometryCurrentSet` (with `kSecAccessControlAnd | kSecAccessControlDevicePasscode` if both are wanted) for sensitive items."
            : "\(subject)`kSecAccessControlOr | kSecAccessControlDevicePasscode` lets the passcode replace biometrics for this item, so anyone who knows the passcode reads it. Drop the fallback for sensitive items, or require both with `kSecAccessControlAnd`."
        )
      }
    }
  }
}
