import KeywardCore

/// `swift.event_bound_biometric_auth` for Objective-C sources.
public struct ObjCEventBoundBiometricAuth: Rule {
  public static let language = SourceLanguage.objectiveC
  public static let metadata = EventBoundBiometricAuth.metadata.objcTwin(
    description: """
      `[context evaluatePolicy:... localizedReason:... reply:^(BOOL success, NSError *error) {...}]` \
      whose `success` alone unlocks data or a feature. In Objective-C the file is the unit: the \
      evaluation is keychain-bound when the file passes a context as `kSecUseAuthenticationContext` \
      and protects its items with `SecAccessControlCreateWithFlags`. Only strict reports a reply \
      whose `success` decides only a log line or a fixed alert (`if (success) { NSLog(…); }`).
      """,
    vulnerableExample: """
      [context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics
              localizedReason:@"Unlock your vault"
                        reply:^(BOOL success, NSError *error) {
          if (success) { [self showVault]; }
      }];
      """,
    fixedExample: """
      NSDictionary *query = @{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
                              (__bridge id)kSecReturnData: @YES,
                              (__bridge id)kSecUseAuthenticationContext: context};
      OSStatus status = SecItemCopyMatching((__bridge CFDictionaryRef)query, &result);
      """)

  public static let examples = RuleExamples(
    flagged: [
      """
      [context ↓evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:@"Unlock" reply:^(BOOL success, NSError *error) {
          if (success) { [self showVault]; }
      }];
      """,
      // A success that only announces itself guards nothing: strict only.
      RuleExample(announcingReply(marker: "↓", message: #"@"Touch ID worked""#), profile: .strict),
      // An alert showing the user's data guards what it reveals.
      RuleExample(announcingReply(marker: "↓", message: "self.card.pin")),
    ],
    clean: [
      """
      SecAccessControlRef access = SecAccessControlCreateWithFlags(NULL, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, kSecAccessControlBiometryCurrentSet, NULL);
      [context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:@"Unlock" reply:^(BOOL success, NSError *error) {
          NSDictionary *query = @{(__bridge id)kSecReturnData: @YES, (__bridge id)kSecUseAuthenticationContext: context};
      }];
      """,
      "BOOL ok = [context canEvaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics error:&error];",
      RuleExample(announcingReply(marker: "", message: #"@"Touch ID worked""#)),
    ])

  /// A reply whose success shows an alert with `message` on the main queue, and logs a failure.
  static func announcingReply(marker: String, message: String) -> String {
    """
    - (IBAction)tryTouchID:(id)sender {
        LAContext *context = [[LAContext alloc] init];
        [context \(marker)evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:@"Try Touch ID"
                          reply:^(BOOL success, NSError *error) {
            if (success) {
                dispatch_async(dispatch_get_main_queue(), ^{
                    [AlertPresenter showAlertWithTitle:@"Success" message:\(message)];
                });
            } else {
                NSLog(@"Touch ID failed: %@", error);
            }
        }];
    }
    """
  }

  public static func prefilterTokens(options: RuleOptions) -> [String] { ["evaluatePolicy"] }

  public static func check(_ context: RuleContext) {
    let objc = context.objc
    guard !objc.bindsEvaluationsToKeychain else { return }
    for (part, _) in objc.messageArguments("evaluatePolicy")
    where context.options.reportsWeakEvidence || !objc.successOnlyAnnounces(part: part) {
      context.report(
        part,
        message:
          "Only the `success` flag of `evaluatePolicy:` guards what follows: on an instrumented device a hooked call reports success without authentication. Bind the unlock to a keychain item protected by an access control (`kSecAccessControlBiometryCurrentSet`) and read it with this context as `kSecUseAuthenticationContext`."
      )
    }
  }
}

/// `swift.local_auth_passcode_fallback_policy` for Objective-C sources.
public struct ObjCPasscodeFallbackPolicy: Rule {
  public static let language = SourceLanguage.objectiveC
  public static let metadata = PasscodeFallbackPolicy.metadata.objcTwin(
    description: """
      `evaluatePolicy:LAPolicyDeviceOwnerAuthentication` (raw value 2) and the watch and companion \
      policies, which accept the passcode or a nearby device instead of biometrics, also through \
      `#define`s and `const`s of the file, locals assigned earlier in the same method, and macros \
      handing their argument to `evaluatePolicy:`. `canEvaluatePolicy:` with the same policy checks \
      that a passcode is set and is never reported. On native macOS code (an AppKit or Cocoa \
      file, a macOS-only clause or project) the policy asks for the login password, the Mac's \
      own credential, and only the strict profile reports it.
      """,
    vulnerableExample: """
      [context evaluatePolicy:LAPolicyDeviceOwnerAuthentication localizedReason:@"Approve transfer"
                        reply:^(BOOL success, NSError *error) { ... }];
      """,
    fixedExample: """
      [context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:@"Approve transfer"
                        reply:^(BOOL success, NSError *error) { ... }];
      """)

  public static let options = PasscodeFallbackPolicy.options

  public static let examples = RuleExamples(
    flagged: [
      "[context evaluatePolicy:↓LAPolicyDeviceOwnerAuthentication localizedReason:@\"Pay\" reply:^(BOOL ok, NSError *e) {}];",
      "[context evaluatePolicy:↓kLAPolicyDeviceOwnerAuthentication localizedReason:@\"Pay\" reply:nil];",
      "[context evaluatePolicy:(LAPolicy)↓2 localizedReason:@\"Pay\" reply:nil];",
      // Through a local, and through a macro handing its argument to `evaluatePolicy:`.
      """
      - (void)pay {
          LAPolicy policy = ↓LAPolicyDeviceOwnerAuthentication;
          [self.context evaluatePolicy:policy localizedReason:@"Pay" reply:^(BOOL ok, NSError *error) {}];
      }
      """,
      """
      #define AUTHENTICATE(policy, done) [[LAContext new] evaluatePolicy:policy localizedReason:@"Confirm" reply:done]
      - (void)confirm { AUTHENTICATE(↓LAPolicyDeviceOwnerAuthentication, ^(BOOL ok, NSError *error) {}); }
      """,
      // On a Mac the policy asks for the login password (reported by the strict profile).
      RuleExample(
        """
        #import <Cocoa/Cocoa.h>
        - (void)approveConnection {
            [[LAContext new] evaluatePolicy:↓LAPolicyDeviceOwnerAuthentication localizedReason:@"connect" reply:^(BOOL ok, NSError *e) {}];
        }
        """, profile: .strict),
      // The caller's choice, reported by the strict profile.
      RuleExample(
        """
        - (void)requestWithReason:(NSString *)reason fallbackTitle:(NSString *)fallbackTitle {
            [self.context evaluatePolicy:fallbackTitle ? LAPolicyDeviceOwnerAuthenticationWithBiometrics : ↓LAPolicyDeviceOwnerAuthentication
                         localizedReason:reason reply:^(BOOL ok, NSError *error) {}];
        }
        """, profile: .strict),
      // Chosen in an `if` on an option the caller passes: the caller's choice, strict only.
      RuleExample(objcOptionPrompt(marker: "↓"), profile: .strict),
      // A method named for the passcode offers it beside a biometric one: strict only.
      RuleExample(
        """
        - (void)authenticateWithPasscode:(NSString *)reason {
            [self.context evaluatePolicy:↓LAPolicyDeviceOwnerAuthentication localizedReason:reason reply:^(BOOL ok, NSError *error) {}];
        }
        """, profile: .strict),
      // A condition the method decides itself is no caller's choice.
      """
      - (void)unlock {
          BOOL hasFallback = self.allowsPasscode;
          [self.context evaluatePolicy:hasFallback ? ↓LAPolicyDeviceOwnerAuthentication : LAPolicyDeviceOwnerAuthenticationWithBiometrics
                       localizedReason:@"Unlock" reply:^(BOOL ok, NSError *error) {}];
      }
      """,
    ],
    clean: [
      RuleExample(objcOptionPrompt(marker: "")),
      """
      - (void)authenticateWithPasscode:(NSString *)reason {
          [self.context evaluatePolicy:LAPolicyDeviceOwnerAuthentication localizedReason:reason reply:^(BOOL ok, NSError *error) {}];
      }
      """,
      // On a Mac the policy asks for the login password, the expected credential there.
      """
      #import <Cocoa/Cocoa.h>
      - (void)approveConnection {
          [[LAContext new] evaluatePolicy:LAPolicyDeviceOwnerAuthentication localizedReason:@"connect" reply:^(BOOL ok, NSError *e) {}];
      }
      """,
      "BOOL passcodeSet = [context canEvaluatePolicy:LAPolicyDeviceOwnerAuthentication error:&error];",
      // The caller picks the policy: biometrics only unless it passes no fallback title.
      """
      - (void)requestWithReason:(NSString *)reason fallbackTitle:(NSString *)fallbackTitle {
          [self.context evaluatePolicy:fallbackTitle ? LAPolicyDeviceOwnerAuthenticationWithBiometrics : LAPolicyDeviceOwnerAuthentication
                       localizedReason:reason reply:^(BOOL ok, NSError *error) {}];
      }
      """,
      "[context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:@\"Pay\" reply:nil];",
      """
      #define AUTHENTICATE(policy, done) [[LAContext new] evaluatePolicy:policy localizedReason:@"Confirm" reply:done]
      - (void)confirm {
          LAPolicy policy = LAPolicyDeviceOwnerAuthenticationWithBiometrics;
          AUTHENTICATE(policy, ^(BOOL ok, NSError *error) {});
      }
      """,
    ])

  /// A module method whose options, passed by its caller, may allow the passcode.
  static func objcOptionPrompt(marker: String) -> String {
    """
    - (void)prompt:(NSDictionary *)options resolver:(RCTPromiseResolveBlock)resolve {
        BOOL allowPasscode = [options[@"allowPasscode"] boolValue];
        LAPolicy policy = LAPolicyDeviceOwnerAuthenticationWithBiometrics;
        if (allowPasscode) {
            policy = \(marker)LAPolicyDeviceOwnerAuthentication;
        }
        [[LAContext new] evaluatePolicy:policy localizedReason:@"Confirm" reply:^(BOOL ok, NSError *error) { resolve(@(ok)); }];
    }
    """
  }

  public static func prefilterTokens(options: RuleOptions) -> [String] { ["evaluatePolicy"] }

  public static func check(_ context: RuleContext) {
    let reported = Set(context.options.strings("fallbackPolicies"))
    let objc = context.objc
    var platform: ObjCTargetPlatform?
    for (part, policies) in objc.policyEvaluations {
      for (token, policy) in policies {
        // A policy the method's caller picks offers the passcode; the weakness is in the caller
        // that picks it, so only the strict profile reports the offer. On a Mac the policy asks
        // for the login password, the expected credential there (strict only too).
        guard reported.contains(policy.name),
          context.options.reportsWeakEvidence
            || !(objc.isPolicyChosenByCaller(token, part: part)
              || objc.tokenIndex(startingAt: token.start).map { objc.isNamedForThePasscode(tokenAt: $0) } == true)
        else { continue }
        if !context.options.reportsWeakEvidence {
          if platform == nil { platform = ObjCTargetPlatform(objc) }
          if platform?.isMacOSOnly(at: token.start) == true { continue }
        }
        context.report(
          token,
          message:
            "`\(token.text)` accepts \(policy.rawValue == 2 ? "the device passcode" : "a passcode or nearby device") instead of biometrics, so whoever knows it passes this check. "
            + PasscodeFallbackPolicy.advice(
              biometricPolicy: "LAPolicyDeviceOwnerAuthenticationWithBiometrics",
              currentSetFlag: "kSecAccessControlBiometryCurrentSet")
        )
      }
    }
  }
}

/// `swift.unprotected_file_storage` for Objective-C sources.
public struct ObjCUnprotectedFileStorage: Rule {
  public static let language = SourceLanguage.objectiveC
  public static let metadata = UnprotectedFileStorage.metadata.objcTwin(
    description: """
      `NSFileProtectionNone`, `NSDataWritingFileProtectionNone` and `NSURLFileProtectionNone` write \
      files that can be read while the device is locked.
      """,
    vulnerableExample: """
      [data writeToFile:path options:NSDataWritingFileProtectionNone error:&error];
      """,
    fixedExample: """
      [data writeToFile:path options:NSDataWritingFileProtectionComplete error:&error];
      """)

  public static let examples = RuleExamples(
    flagged: [
      "[data writeToFile:path options:↓NSDataWritingFileProtectionNone error:&error];",
      "NSDictionary *attributes = @{NSFileProtectionKey: ↓NSFileProtectionNone};",
    ],
    clean: [
      "[data writeToFile:path options:NSDataWritingFileProtectionComplete error:&error];",
      "/* NSFileProtectionNone */ NSString *s = @\"NSFileProtectionNone\";",
      "BOOL unprotected = [current isEqualToString:NSFileProtectionNone];",
      """
      NSSet *known = [NSSet setWithObjects:NSFileProtectionNone, NSFileProtectionComplete,
                      NSFileProtectionCompleteUntilFirstUserAuthentication, nil];
      if ([known containsObject:requested]) { [self apply:requested]; }
      """,
      // A table from the caller's mode to a class offers every class.
      """
      NSString *ProtectionForMode(StorageMode mode) {
          switch (mode) {
              case StorageModeLocked: return NSFileProtectionComplete;
              case StorageModeOpen: return NSFileProtectionNone;
          }
          return NSFileProtectionComplete;
      }
      """,
    ])

  static let names: Set<String> = [
    "NSFileProtectionNone", "NSDataWritingFileProtectionNone", "NSURLFileProtectionNone",
  ]

  public static func prefilterTokens(options: RuleOptions) -> [String] { Array(names) }

  public static func check(_ context: RuleContext) {
    let objc = context.objc
    for (index, token) in objc.tokens.enumerated() where token.kind == .identifier && names.contains(token.text) {
      // A class compared with, one of a list of every class, or one case of a table mapping a
      // caller's mode to a class, protects no file by itself.
      guard !objc.isOnlyLookedFor(tokenAt: index, family: "NSFileProtection"),
        !objc.isReturnedOnCallersChoice(tokenAt: index)
      else { continue }
      context.report(
        token,
        message:
          "This file is written without data protection, so its contents can be read while the device is locked. Use `NSDataWritingFileProtectionComplete` / `NSFileProtectionComplete` (or `...CompleteUntilFirstUserAuthentication` for files background work needs), or keep the secret in the keychain."
      )
    }
  }
}
