import Foundation
import KeywardCore

/// `swift.biometric_enrollment_change_unchecked` for Objective-C sources.
public struct ObjCEnrollmentChangeUnchecked: Rule {
  public static let language = SourceLanguage.objectiveC
  public static let metadata = EnrollmentChangeUnchecked.metadata.objcTwin(
    description: """
      `evaluatePolicy:` with a biometric policy (`LAPolicyDeviceOwnerAuthenticationWithBiometrics`, \
      or biometrics or a watch or companion) in a file that does not bind it to the keychain \
      (`kSecUseAuthenticationContext` with items protected by `SecAccessControlCreateWithFlags`) \
      and never reads `evaluatedPolicyDomainState` or `domainState`; except under the strict \
      profile, a Swift file of the scan that reads them covers it too. Only strict reports a reply \
      whose `success` decides only a log line or a fixed alert.
      """,
    vulnerableExample: """
      [context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:@"Unlock"
                        reply:^(BOOL success, NSError *error) { if (success) { [self unlock]; } }];
      """,
    fixedExample: """
      [context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:@"Unlock"
                        reply:^(BOOL success, NSError *error) {
          if (success && [context.evaluatedPolicyDomainState isEqualToData:self.savedDomainState]) { [self unlock]; }
      }];
      """)

  public static let examples = RuleExamples(
    flagged: [
      """
      [context ↓evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:@"Unlock" reply:^(BOOL success, NSError *error) {
          if (success) { [self unlock]; }
      }];
      """,
      """
      #define UNLOCK_POLICY LAPolicyDeviceOwnerAuthenticationWithBiometrics
      [context ↓evaluatePolicy:UNLOCK_POLICY localizedReason:@"Unlock" reply:^(BOOL ok, NSError *e) {}];
      """,
      // The policy a helper method returns unless its caller's options ask for the passcode.
      objcPolicyHelper(defaultPolicy: "LAPolicyDeviceOwnerAuthenticationWithBiometrics", marker: "↓"),
      // A success that only announces itself guards nothing: strict only.
      RuleExample(
        ObjCEventBoundBiometricAuth.announcingReply(marker: "↓", message: #"@"Touch ID worked""#), profile: .strict),
    ],
    clean: [
      """
      [context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:@"Unlock" reply:^(BOOL success, NSError *error) {
          if (success && [context.evaluatedPolicyDomainState isEqualToData:saved]) { [self unlock]; }
      }];
      """,
      "[context evaluatePolicy:LAPolicyDeviceOwnerAuthentication localizedReason:@\"Unlock\" reply:nil];",
      """
      SecAccessControlRef access = SecAccessControlCreateWithFlags(NULL, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, kSecAccessControlBiometryCurrentSet, NULL);
      [context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:@"Unlock" reply:^(BOOL success, NSError *error) {
          NSDictionary *query = @{(__bridge id)kSecReturnData: @YES, (__bridge id)kSecUseAuthenticationContext: context};
      }];
      """,
      "// [context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:@\"x\" reply:nil];",
      // The helper's own default accepts the passcode; biometrics alone is the caller's option.
      objcPolicyHelper(defaultPolicy: "LAPolicyDeviceOwnerAuthentication", marker: ""),
      RuleExample(ObjCEventBoundBiometricAuth.announcingReply(marker: "", message: #"@"Touch ID worked""#)),
    ])

  /// A module method evaluating the policy a helper method picks from the caller's options.
  static func objcPolicyHelper(defaultPolicy: String, marker: String) -> RuleExample {
    let other =
      defaultPolicy == "LAPolicyDeviceOwnerAuthentication"
      ? "LAPolicyDeviceOwnerAuthenticationWithBiometrics" : "LAPolicyDeviceOwnerAuthentication"
    return RuleExample(
      """
      - (LAPolicy)policyFor:(NSDictionary *)options {
          if ([options[@"switchPolicy"] boolValue]) {
              return \(other);
          }
          return \(defaultPolicy);
      }
      - (void)prompt:(NSDictionary *)options resolver:(RCTPromiseResolveBlock)resolve {
          [[LAContext new] \(marker)evaluatePolicy:[self policyFor:options] localizedReason:@"Unlock" reply:^(BOOL ok, NSError *e) {
              resolve(@(ok));
          }];
      }
      """)
  }

  public static func prefilterTokens(options: RuleOptions) -> [String] { ["evaluatePolicy"] }

  public static func check(_ context: RuleContext) {
    let objc = context.objc
    guard !objc.bindsEvaluationsToKeychain, !objc.mentions("evaluatedPolicyDomainState"), !objc.mentions("domainState")
    else { return }
    let handOff = HandOff.waitingForEnrollmentChecks(
      after: nil, reportsWeakEvidence: context.options.reportsWeakEvidence)
    for (part, policies) in objc.policyEvaluations where policies.contains(where: { $0.policy.involvesBiometrics }) {
      // A success that only announces itself guards nothing: strict only.
      if !context.options.reportsWeakEvidence && objc.successOnlyAnnounces(part: part) { continue }
      context.report(
        start: part.start, end: part.end,
        message:
          "This biometric check would accept a finger or face enrolled after the user set it up, and nothing in this file compares `evaluatedPolicyDomainState` with a saved value. Bind the check to a keychain item protected with `kSecAccessControlBiometryCurrentSet`, or require the full login when the domain state changes.",
        handOff: handOff)
    }
  }
}

/// `swift.biometric_reuse_window` for Objective-C sources.
public struct ObjCBiometricReuseWindow: Rule {
  public static let language = SourceLanguage.objectiveC
  public static let metadata = BiometricReuseWindow.metadata.objcTwin(
    description: """
      `context.touchIDAuthenticationAllowableReuseDuration = N` (or the setter message) with a \
      number or `LATouchIDAuthenticationMaximumAllowableReuseDuration` above `maxReuseSeconds` \
      (default 0): a Touch ID unlock of the device within that many seconds (up to five minutes) \
      satisfies the app's own prompt.
      """,
    vulnerableExample: """
      context.touchIDAuthenticationAllowableReuseDuration = LATouchIDAuthenticationMaximumAllowableReuseDuration;
      """,
    fixedExample: """
      context.touchIDAuthenticationAllowableReuseDuration = 0;
      """)

  public static let options = BiometricReuseWindow.options

  public static let examples = RuleExamples(
    flagged: [
      "context.touchIDAuthenticationAllowableReuseDuration = ↓60;",
      "self.context.touchIDAuthenticationAllowableReuseDuration = ↓LATouchIDAuthenticationMaximumAllowableReuseDuration;",
      "[context setTouchIDAuthenticationAllowableReuseDuration:↓30.5];",
      """
      #define GRACE 120
      context.touchIDAuthenticationAllowableReuseDuration = ↓GRACE;
      """,
      RuleExample(
        "context.touchIDAuthenticationAllowableReuseDuration = ↓120;", options: ["maxReuseSeconds": .int(60)]),
    ],
    clean: [
      "context.touchIDAuthenticationAllowableReuseDuration = 0;",
      RuleExample(
        "context.touchIDAuthenticationAllowableReuseDuration = 60;", options: ["maxReuseSeconds": .int(60)]),
      "NSTimeInterval left = context.touchIDAuthenticationAllowableReuseDuration;",
      "context.touchIDAuthenticationAllowableReuseDuration = self.graceSeconds;",
    ])

  public static func prefilterTokens(options: RuleOptions) -> [String] { ["IDAuthenticationAllowableReuseDuration"] }

  public static func check(_ context: RuleContext) {
    let objc = context.objc
    let limit = Double(context.options.int("maxReuseSeconds"))
    for value in objc.reuseDurationValues {
      let tokens = objc.expand(value)
      guard tokens.count == 1, let token = tokens.first, let seconds = Self.seconds(token), seconds > limit else {
        continue
      }
      let span = seconds >= BiometricReuseWindow.systemMaximum ? "five minutes" : "\(Self.format(seconds)) seconds"
      context.report(
        start: value[0].start, end: value[value.count - 1].end,
        message:
          "A Touch ID unlock of the device in the last \(span) will satisfy this prompt, so whoever gets hold of the recently unlocked device passes without touching the sensor. Keep the reuse duration at 0 for sensitive actions."
      )
    }
  }

  static func seconds(_ token: ObjCToken) -> Double? {
    if let constant = BiometricReuseWindow.systemConstants[token.text] { return constant }
    guard token.kind == .number else { return nil }
    if let integer = ObjCIntegers.value(of: token) { return Double(integer) }
    var text = token.text.lowercased()
    while let last = text.last, last == "f" || last == "l" { text.removeLast() }
    return Double(text)
  }

  static func format(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
  }
}

extension ObjCModel {
  /// The values given to `touchIDAuthenticationAllowableReuseDuration`: after `=` in a property
  /// assignment (up to `;`), or as the argument of its setter message.
  var reuseDurationValues: [[ObjCToken]] {
    var values = messageArguments("setTouchIDAuthenticationAllowableReuseDuration").map(\.argument)
    for index in tokens.indices where tokens[index].text == "touchIDAuthenticationAllowableReuseDuration" {
      guard index > 0, tokens[index - 1].text == ".", index + 1 < tokens.count, tokens[index + 1].text == "=" else {
        continue
      }
      let rest = tokens[(index + 2)...].prefix { $0.text != ";" && $0.kind != .directive }
      if !rest.isEmpty { values.append(Array(rest)) }
    }
    return values
  }
}
