import Foundation
import KeywardCore
import SwiftSyntax

/// Flags LocalAuthentication prompts whose reason is empty or a placeholder.
public struct LocalAuthMissingReason: Rule {
  public static let metadata = RuleMetadata(
    id: "swift.local_auth_missing_reason",
    title: "Authentication prompt without a reason",
    severity: .low, confidence: .high, resource: "Authentication",
    tags: ["CWE:1021", "MASVS-AUTH-2"],
    profile: .standard,
    description: """
      The `localizedReason` of `evaluatePolicy` and of `LARight.authorize` is what the system \
      prompt tells the user they are approving. Keyward reports a reason that is, on every path \
      the file shows, an empty or blank string, or a placeholder (`"TODO"`, `"FIXME"`, \
      `"Reason"`, `"test"`, `"xxx"`, `"..."`), written directly or through a constant. A reason \
      from `NSLocalizedString`, `String(localized:)` or a parameter is not judged. It also reports \
      a file's first evaluation of a policy Face ID can satisfy when the scanned folder holds an \
      app's settings (Info.plist, `project.pbxproj`, `.xcconfig`) and none declares \
      `NSFaceIDUsageDescription` (nor the `INFOPLIST_KEY_` build setting); a folder of sources \
      only is not judged, nor is macOS-only code, nor a published library's own code (a \
      `.podspec` beside a `Package.swift`), whose host apps declare the key.
      """,
    rationale: """
      LocalAuthentication requires a non-empty reason and rejects an empty one at run time, so \
      the gate fails instead of prompting. A placeholder does prompt, but tells the user nothing \
      about what the authentication unlocks; prompts that never say why train users to approve \
      any prompt, including one shown by code that should not have it.
      """,
    vulnerableExample: """
      context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "") { success, error in }
      """,
    remediation: """
      Say what the authentication unlocks, in the user's language: "Unlock your vault", "Approve \
      the payment of $20 to Anna".
      """,
    fixedExample: """
      context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics,
                             localizedReason: String(localized: "Unlock your vault")) { success, error in }
      """,
    references: [
      Reference(
        "Apple: evaluatePolicy(_:localizedReason:reply:)",
        url:
          "https://developer.apple.com/documentation/localauthentication/lacontext/evaluatepolicy(_:localizedreason:reply:)"
      ),
      Reference(
        "CWE-1021: Improper Restriction of Rendered UI Layers or Frames",
        url: "https://cwe.mitre.org/data/definitions/1021.html"),
    ])

  public static let examples = RuleExamples(
    flagged: [
      "context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: ↓\"\") { success, _ in }",
      "let ok = try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: ↓\"  \")",
      """
      let reason = "TODO"
      context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: ↓reason) { success, _ in }
      """,
      "try await right.authorize(localizedReason: ↓\"Reason\")",
    ],
    clean: [
      "context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: \"Unlock your vault\") { success, _ in }",
      "context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: NSLocalizedString(\"\", comment: \"\")) { success, _ in }",
      "func unlock(reason: String) { context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: reason) { _, _ in } }",
      """
      let reason = isPayment ? "Approve the payment" : "Unlock your vault"
      context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: reason) { success, _ in }
      """,
      "log.record(localizedReason: \"\")",
      "// context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: \"\") { _, _ in }",
    ])

  public static func prefilterTokens(options: RuleOptions) -> [String] { ["localizedReason"] }

  /// Reasons that stand in for one still to be written, compared lowercased without spaces and
  /// punctuation around them.
  static let placeholders: Set<String> = [
    "todo", "fixme", "tbd", "reason", "localizedreason", "placeholder", "test", "testing", "xxx", "...", "lorem ipsum",
  ]

  public static func check(_ context: RuleContext) {
    let model = context.model
    reportMissingFaceIDUsage(context)
    let prompts =
      model.policyEvaluations.filter { !$0.isOverloadBody }.map(\.call)
      + model.index.calls(named: "authorize").filter {
        SyntaxFacts.receiver(of: $0) != nil && SyntaxFacts.argument($0, labeled: "localizedReason") != nil
      }
    for call in prompts {
      guard let reason = SyntaxFacts.argument(call, labeled: "localizedReason"),
        let problem = problem(with: reason, model: model)
      else { continue }
      context.report(reason, message: message(for: problem))
    }
  }

  /// The file's first evaluation of a policy Face ID can satisfy (biometrics, or device owner
  /// authentication), outside macOS-only code: it stands only when the scanned folder has an
  /// app's settings and none declares `NSFaceIDUsageDescription` (settled after the scan).
  static func reportMissingFaceIDUsage(_ context: RuleContext) {
    let model = context.model
    guard
      let evaluation = model.policyEvaluations.first(where: { evaluation in
        !evaluation.isOverloadBody && !TargetPlatform.isMacOSOnly(evaluation.call, in: model)
          && (evaluation.policies.isEmpty || evaluation.policies.contains { [1, 2, 4].contains($0.rawValue) })
      })
    else { return }
    let range = evaluation.reportRange
    context.report(
      start: range.start, end: range.end,
      message: missingFaceIDUsageMessage,
      handOff: HandOff(call: nil, settledMessage: nil, unlessFaceIDUsageIsDeclared: true))
  }

  /// "empty", "blank" or "the placeholder `TODO`" when every value the reason may have is one.
  static func problem(with reason: ExprSyntax, model: SemanticModel) -> String? {
    let values = model.resolver.values(of: reason)
    let texts = values.compactMap { SyntaxFacts.stringLiteralValue($0.expression) }
    guard !values.isEmpty, texts.count == values.count else { return nil }
    return problem(withTexts: texts)
  }

  /// What is wrong with a reason that may be any of `texts`, if every one of them is empty,
  /// blank or a placeholder.
  static func problem(withTexts texts: [String]) -> String? {
    var problems: [String] = []
    for text in texts {
      let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
      let word = trimmed.lowercased()
      if text.isEmpty {
        problems.append("empty")
      } else if trimmed.isEmpty {
        problems.append("blank")
      } else if placeholders.contains(word)
        || placeholders.contains(word.trimmingCharacters(in: .punctuationCharacters))
      {
        problems.append("the placeholder `\(trimmed)`")
      } else {
        return nil
      }
    }
    return problems.first
  }

  /// The message for a reason with `problem`.
  static func message(for problem: String) -> String {
    let consequence =
      problem.hasPrefix("the placeholder")
      ? "The prompt shows it and tells the user nothing about what they approve."
      : "LocalAuthentication rejects a reason without text at run time, so the gate fails instead of prompting."
    return
      "This authentication prompt's reason is \(problem). \(consequence) Say what the authentication unlocks, in the user's language."
  }

  static let missingFaceIDUsageMessage =
    "This evaluates a policy Face ID can satisfy, but no Info.plist, Xcode project or `.xcconfig` file in the scanned folder declares `NSFaceIDUsageDescription`: without it the system does not let the app use Face ID, and the request fails on Face ID devices. Add the key, saying what Face ID unlocks."
}
