import Foundation
import KeywardCLI
import KeywardCore
import KeywardReporters
import KeywardRules
import Testing

/// `keyward:` comments end to end: what they suppress, where suppressed findings still show,
/// and what is reported about the comments themselves.
@Suite struct SuppressionTests {
  static let weak = "SecAccessControlCreateWithFlags(nil, p, .biometryAny, nil)"

  func scan(_ code: String, path: String = "A.swift", configuration: Configuration = Configuration()) -> [Finding] {
    FileScanner(rules: configuration.configuredRules(from: .standard), knownRuleIDs: Set(RuleCatalog.standard.ids))
      .scan(bytes: Array(code.utf8), path: path).findings
  }

  func active(_ findings: [Finding]) -> [String] {
    findings.filter { $0.suppression == nil }.map { "\($0.location.start.line) \($0.ruleId)" }
  }

  @Test func eachFormSuppressesWhereItApplies() {
    let code = """
      let a = \(Self.weak) // keyward:ignore swift.weak_biometric_acl -- tracked in SEC-1
      // keyward:ignore-next swift.weak_biometric_acl -- SEC-2

      // (the next line of code is meant)
      let b = \(Self.weak)
      // keyward:disable swift.weak_biometric_acl -- generated fixtures
      let c = \(Self.weak)
      let d = \(Self.weak)
      // keyward:enable swift.weak_biometric_acl
      let e = \(Self.weak)
      let f = \(Self.weak) /* keyward:ignore all -- demo */
      """
    let findings = scan(code)
    #expect(active(findings) == ["10 swift.weak_biometric_acl"])
    let suppressed = findings.filter { $0.suppression != nil }
    #expect(suppressed.map(\.location.start.line) == [1, 5, 7, 8, 11])
    #expect(suppressed.first?.suppression == Suppression(kind: .inline, justification: "tracked in SEC-1"))
  }

  @Test func wrongDirectivesAreReported() {
    let code = """
      let a = \(Self.weak) // keyward:ignore swift.weak_biometrics_acl -- typo
      let b = 1 // keyward:ignore swift.weak_keychain_accessibility -- stale
      let c = "// keyward:ignore swift.weak_biometric_acl -- in a string, not a directive"
      """
    let findings = scan(code)
    #expect(
      active(findings) == ["1 swift.weak_biometric_acl", "1 keyward.unknown_rule", "2 keyward.unused_suppression"])
    #expect(
      findings.first { $0.ruleId == "keyward.unknown_rule" }?.message.contains(
        "did you mean `swift.weak_biometric_acl`?") == true)
  }

  @Test func reasonsCanBeRequired() {
    var configuration = Configuration()
    configuration.rules["keyward.missing_suppression_reason"] = RuleSettings(options: ["requireReason": .bool(true)])
    let findings = scan(
      "let a = \(Self.weak) // keyward:ignore swift.weak_biometric_acl\n", configuration: configuration)
    #expect(active(findings) == ["1 swift.weak_biometric_acl", "1 keyward.missing_suppression_reason"])
  }

  @Test func objectiveCCommentsSuppressToo() {
    let code = """
      SecAccessControlCreateWithFlags(NULL, p, kSecAccessControlBiometryAny, NULL); // keyward:ignore objc.weak_biometric_acl -- legacy
      NSString *s = @"// keyward:ignore objc.weak_biometric_acl -- not a comment";
      SecAccessControlCreateWithFlags(NULL, p, kSecAccessControlBiometryAny, NULL);
      """
    #expect(active(scan(code, path: "A.m")) == ["3 objc.weak_biometric_acl"])
  }

  @Test func suppressedFindingsStayInMachineReportsOnly() throws {
    let root = Paths.temporaryFolder()
    try "let a = \(Self.weak) // keyward:ignore swift.weak_biometric_acl -- accepted risk\n".write(
      to: root.appendingPathComponent("A.swift"), atomically: true, encoding: .utf8)
    let text = KeywardCLI.run(["scan", root.path])
    #expect(text.status == 0)
    #expect(text.output.standardOutput.contains("No findings in 1 file. 1 suppressed."))
    let json = KeywardCLI.run(["scan", root.path, "--format", "json"]).output.standardOutput
    #expect(json.contains("\"justification\": \"accepted risk\""))
    let sarif = KeywardCLI.run(["scan", root.path, "--format", "sarif"]).output.standardOutput
    #expect(sarif.contains("\"kind\": \"inSource\""))
  }
}
