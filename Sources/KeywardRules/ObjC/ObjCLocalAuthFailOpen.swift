import KeywardCore

/// `swift.local_auth_fail_open` for Objective-C sources.
public struct ObjCLocalAuthFailOpen: Rule {
  public static let language = SourceLanguage.objectiveC
  public static let metadata = LocalAuthFailOpen.metadata.objcTwin(
    description: """
      Access granted where authentication did not succeed: in an `evaluatePolicy:` reply, the \
      branch taken when `success` is false or `error` is set (including `if (success || error)`), \
      and the branch taken when `canEvaluatePolicy:` is false, unless that branch evaluates a \
      policy again. Granting is `return YES;`, calling a block or function with `YES` first \
      (`completion(YES, nil)`), or setting a flag named for access (`self.unlocked = YES`).
      """,
    vulnerableExample: """
      [context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:@"Unlock"
                        reply:^(BOOL success, NSError *error) {
          if (success || error.code == LAErrorBiometryNotAvailable) { completion(YES); }
      }];
      """,
    fixedExample: """
      [context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:@"Unlock"
                        reply:^(BOOL success, NSError *error) {
          completion(success);
          if (!success) { [self showFullLogin]; }
      }];
      """)

  public static let examples = RuleExamples(
    flagged: [
      """
      [context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:@"Unlock" reply:^(BOOL success, NSError *error) {
          if (success || error) { completion(↓YES, nil); }
      }];
      """,
      """
      [context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:@"Unlock" reply:^(BOOL ok, NSError *authError) {
          if (ok) {
              [self openVault];
          } else {
              self.vaultUnlocked = ↓YES;
          }
      }];
      """,
      """
      - (BOOL)mayOpen {
          LAContext *context = [[LAContext alloc] init];
          if (![context canEvaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics error:nil]) {
              return ↓YES;
          }
          return NO;
      }
      """,
      """
      [context evaluatePolicy:LAPolicyDeviceOwnerAuthentication localizedReason:@"Unlock" reply:^(BOOL success, NSError *error) {
          if (error != nil) callback(↓true);
      }];
      """,
    ],
    clean: [
      """
      [context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:@"Unlock" reply:^(BOOL success, NSError *error) {
          if (success) { completion(YES); } else { completion(NO); }
      }];
      """,
      // A failure path that closes the prompt or asks again grants nothing.
      """
      [context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:@"Unlock" reply:^(BOOL success, NSError *error) {
          if (!success) {
              [self.navigationController popViewControllerAnimated:YES];
              self.showsPasscode = YES;
          }
      }];
      """,
      """
      [context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:@"Unlock" reply:^(BOOL success, NSError *error) {
          if (error) {
              [context evaluatePolicy:LAPolicyDeviceOwnerAuthentication localizedReason:@"Unlock" reply:^(BOOL ok, NSError *e) {
                  completion(ok);
              }];
          }
      }];
      """,
      """
      if ([context canEvaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics error:&error]) {
          self.biometricsAvailable = YES;
      } else {
          [self hideBiometricButton];
      }
      """,
      "BOOL same = (success == YES);",
    ])

  public static func prefilterTokens(options: RuleOptions) -> [String] { ["evaluatePolicy", "canEvaluatePolicy"] }

  public static func check(_ context: RuleContext) {
    for (grant, path) in context.objc.failOpenGrants {
      let where_ =
        switch path {
        case .successOrError: "This branch is taken when the evaluation reports an error, not only on success"
        case .failedEvaluation: "This is the path where the evaluation failed"
        case .unavailable:
          "This is the path where the policy cannot be evaluated (no biometrics enrolled, none available, no passcode)"
        }
      context.report(
        grant,
        message:
          "\(where_), and it grants access: whoever cancels the prompt, removes the enrolled fingers or faces, or makes biometrics unavailable gets in. Deny on every failure path, or require a stronger authentication (the passcode on a keychain item, or the full login)."
      )
    }
  }
}
