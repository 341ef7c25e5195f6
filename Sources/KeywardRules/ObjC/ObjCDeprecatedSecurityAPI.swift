import KeywardCore

/// `swift.deprecated_security_api` for Objective-C sources.
public struct ObjCDeprecatedSecurityAPI: Rule {
  public static let language = SourceLanguage.objectiveC
  public static let metadata = DeprecatedSecurityAPI.metadata.objcTwin(
    description: """
      Deprecated keychain and biometric constants and functions, each with Apple's replacement: \
      `kSecUseOperationPrompt`, `kSecUseAuthenticationUIAllow` / `...UIFail`, \
      `kSecUseNoAuthenticationUI`, `kSecAccessControlTouchIDCurrentSet`, \
      `kSecAccessControlWatch`, the watch policies, `LAErrorTouchID...` codes, `LABiometryNone`, \
      `evaluatedPolicyDomainState` read on another object, and `SecKeyGeneratePair`, \
      `SecKeyRawSign`, `SecKeyRawVerify`, `SecKeyEncrypt`, `SecKeyDecrypt`, and the legacy \
      `SecKeychain…` item and search functions of macOS, where they are called. Not in the `else` of \
      `if (@available(...))`, where the replacement does not exist, nor under `#if \
      __IPHONE_OS_VERSION_MIN_REQUIRED < ...` (built only for older deployment targets). \
      `kSecAccessControlTouchIDAny` and the "always" classes are reported, with their \
      deprecation, by `objc.weak_biometric_acl` and `objc.weak_keychain_accessibility`.
      """,
    vulnerableExample: """
      query[(__bridge id)kSecUseOperationPrompt] = @"Authenticate to continue";
      """,
    fixedExample: """
      LAContext *context = [[LAContext alloc] init];
      context.localizedReason = @"Authenticate to continue";
      query[(__bridge id)kSecUseAuthenticationContext] = context;
      """)

  public static let examples = RuleExamples(
    flagged: [
      "OSStatus status = ↓SecKeychainSearchCreateFromAttributes(NULL, kSecGenericPasswordItemClass, &list, &search);",
      "OSStatus status = ↓SecKeychainItemCreateFromContent(kSecGenericPasswordItemClass, &list, length, data, NULL, NULL, &item);",
      "query[(__bridge id)↓kSecUseOperationPrompt] = @\"Authenticate\";",
      "SecAccessControlRef a = SecAccessControlCreateWithFlags(NULL, p, ↓kSecAccessControlTouchIDCurrentSet, NULL);",
      "if (error.code == ↓LAErrorTouchIDLockout) { [self showPasscode]; }",
      "NSData *state = context.↓evaluatedPolicyDomainState;",
      "OSStatus status = ↓SecKeyGeneratePair((__bridge CFDictionaryRef)parameters, &publicKey, &privateKey);",
      "OSStatus status = ↓SecKeychainAddInternetPassword(NULL, hostLength, host, 0, NULL, userLength, user, 0, NULL, 0, kSecProtocolTypeHTTPS, kSecAuthenticationTypeDefault, passwordLength, password, NULL);",
      "[context evaluatePolicy:↓LAPolicyDeviceOwnerAuthenticationWithWatch localizedReason:@\"Unlock\" reply:nil];",
      """
      if (@available(iOS 11.3, *)) {
          flags = ↓kSecAccessControlTouchIDCurrentSet;
      }
      """,
    ],
    clean: [
      // The function's address kept for an error's details calls nothing.
      "NSDictionary *info = @{@\"function\": [NSValue valueWithPointer:SecKeychainFindGenericPassword]};",
      """
      if (@available(iOS 11.3, *)) {
          flags = kSecAccessControlBiometryCurrentSet;
      } else {
          flags = kSecAccessControlTouchIDCurrentSet;
      }
      """,
      "self.evaluatedPolicyDomainState = saved;",
      "// kSecUseOperationPrompt is deprecated",
      "NSString *name = @\"SecKeyGeneratePair\";",
      "SecKeyRef key = SecKeyCreateRandomKey((__bridge CFDictionaryRef)attributes, &error);",
      // Built only for deployment targets older than the replacement's system.
      """
      #if __IPHONE_OS_VERSION_MIN_REQUIRED < __IPHONE_9_0
          query[(__bridge id)kSecUseNoAuthenticationUI] = (__bridge id)kCFBooleanTrue;
      #endif
      """,
    ])

  /// Deprecated Objective-C names that the Swift tables do not spell the same way.
  static let renamed: [String: String] = [
    "kSecAccessControlTouchIDCurrentSet": "`kSecAccessControlBiometryCurrentSet`",
    "kSecAccessControlWatch": "`kSecAccessControlCompanion`",
    "LAPolicyDeviceOwnerAuthenticationWithWatch": "`LAPolicyDeviceOwnerAuthenticationWithCompanion`",
    "LAPolicyDeviceOwnerAuthenticationWithBiometricsOrWatch":
      "`LAPolicyDeviceOwnerAuthenticationWithBiometricsOrCompanion`",
    "LAErrorTouchIDLockout": "`LAErrorBiometryLockout`",
    "LAErrorTouchIDNotAvailable": "`LAErrorBiometryNotAvailable`",
    "LAErrorTouchIDNotEnrolled": "`LAErrorBiometryNotEnrolled`",
    "kLAErrorTouchIDLockout": "`kLAErrorBiometryLockout`",
    "kLAErrorTouchIDNotAvailable": "`kLAErrorBiometryNotAvailable`",
    "kLAErrorTouchIDNotEnrolled": "`kLAErrorBiometryNotEnrolled`",
    "LABiometryNone": "`LABiometryTypeNone`",
  ]

  static let replacements = DeprecatedSecurityAPI.constants
    .merging(DeprecatedSecurityAPI.functions.mapValues(\.replacement)) { $1 }
    .merging(renamed) { $1 }

  public static func prefilterTokens(options: RuleOptions) -> [String] {
    Array(replacements.keys) + ["evaluatedPolicyDomainState"]
  }

  public static func check(_ context: RuleContext) {
    let objc = context.objc
    let fallbacks = objc.availabilityFallbacks
    for (index, token) in objc.tokens.enumerated() where token.kind == .identifier {
      guard !fallbacks.contains(where: { $0.contains(index) }) else { continue }
      // A function only where it is called: its address kept as a value (`[NSValue
      // valueWithPointer:SecKeychainFindGenericPassword]`, for an error's details) runs nothing.
      let isFunction = DeprecatedSecurityAPI.functions[token.text] != nil
      if isFunction, objc.tokens.indices.contains(index + 1) ? objc.tokens[index + 1].text != "(" : true { continue }
      if let replacement = replacements[token.text] {
        let since = DeprecatedSecurityAPI.functions[token.text].map { " since \($0.since)" } ?? ""
        context.report(token, message: "`\(token.text)` is deprecated\(since); use \(replacement).")
      } else if token.text == "evaluatedPolicyDomainState", index > 1, objc.tokens[index - 1].text == ".",
        objc.tokens[index - 2].text != "self"
      {
        context.report(
          token,
          message:
            "`evaluatedPolicyDomainState` is deprecated since iOS 18 and macOS 15; use `domainState.biometry.stateHash` (and `domainState.companion` for companion devices) there, under `if (@available(iOS 18, macOS 15, *))`, and keep this one for earlier systems."
        )
      }
    }
  }
}
