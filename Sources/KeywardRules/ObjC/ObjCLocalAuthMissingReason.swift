import KeywardCore

/// `swift.local_auth_missing_reason` for Objective-C sources.
public struct ObjCLocalAuthMissingReason: Rule {
  public static let language = SourceLanguage.objectiveC
  public static let metadata = LocalAuthMissingReason.metadata.objcTwin(
    description: """
      The `localizedReason:` of `evaluatePolicy:localizedReason:reply:` when it is an empty or \
      blank string literal or a placeholder (`@"TODO"`, `@"Reason"`), written directly or through \
      a `#define` or `static const`. A reason from `NSLocalizedString` or a variable is not \
      judged. Like the Swift rule, it also reports a file's first evaluation of a policy Face ID \
      can satisfy when the scanned folder holds an iOS app's settings and none declares \
      `NSFaceIDUsageDescription`; a file importing AppKit or Cocoa is macOS code and is not judged.
      """,
    vulnerableExample: """
      [context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics
              localizedReason:@""
                        reply:^(BOOL success, NSError *error) { }];
      """,
    fixedExample: """
      [context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics
              localizedReason:NSLocalizedString(@"Unlock your vault", nil)
                        reply:^(BOOL success, NSError *error) { }];
      """)

  public static let examples = RuleExamples(
    flagged: [
      "[context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:↓@\"\" reply:^(BOOL success, NSError *error) { }];",
      """
      #define UNLOCK_REASON @"TODO"
      [context evaluatePolicy:LAPolicyDeviceOwnerAuthentication localizedReason:↓UNLOCK_REASON reply:^(BOOL success, NSError *error) { }];
      """,
    ],
    clean: [
      "[context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:@\"Unlock your vault\" reply:^(BOOL success, NSError *error) { }];",
      "[context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:NSLocalizedString(@\"\", nil) reply:^(BOOL success, NSError *error) { }];",
      "[context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:reason reply:^(BOOL success, NSError *error) { }];",
      "// [context evaluatePolicy:LAPolicyDeviceOwnerAuthentication localizedReason:@\"\" reply:nil];",
    ])

  public static func prefilterTokens(options: RuleOptions) -> [String] { ["localizedReason"] }

  public static func check(_ context: RuleContext) {
    let objc = context.objc
    for (_, argument) in objc.messageArguments("localizedReason") {
      // `@"…"`, directly or through a definition.
      let expanded = objc.expand(argument)
      guard expanded.count == 1, let literal = expanded.first, literal.kind == .string, let reported = argument.first,
        let problem = LocalAuthMissingReason.problem(withTexts: [literal.text])
      else { continue }
      context.report(reported, message: LocalAuthMissingReason.message(for: problem))
    }
    reportMissingFaceIDUsage(context)
  }

  /// The file's first evaluation that Face ID can satisfy, settled after the scan against the
  /// app's settings (`HandOff.unlessFaceIDUsageIsDeclared`).
  static func reportMissingFaceIDUsage(_ context: RuleContext) {
    let objc = context.objc
    let importsMacFrameworks = objc.tokens.contains {
      $0.kind == .directive && ($0.text.contains("AppKit") || $0.text.contains("Cocoa"))
    }
    guard !importsMacFrameworks,
      let evaluation = objc.policyEvaluations.first(where: { evaluation in
        evaluation.policies.isEmpty || evaluation.policies.contains { [1, 2, 4].contains($0.policy.rawValue) }
      })
    else { return }
    context.report(
      start: evaluation.part.start, end: evaluation.part.end, message: LocalAuthMissingReason.missingFaceIDUsageMessage,
      handOff: HandOff(call: nil, settledMessage: nil, unlessFaceIDUsageIsDeclared: true))
  }
}
