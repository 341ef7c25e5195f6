import Foundation
import KeywardCore
import Testing

@testable import KeywardReporters

/// Reports whose findings were printed file by file during the scan (`FindingSpool`) are the
/// same, byte for byte, as reports printed from the whole result.
@Suite struct StreamingReportTests {
  static let example = Paths.packageRoot.appendingPathComponent("Examples/VaultApp").path
  static let scanner = Scanner(rules: Configuration().configuredRules(from: .standard))

  static func reporter(_ format: ReportFormat) throws -> any StreamingReporter {
    try #require(format.reporter() as? any StreamingReporter, "\(format) does not stream")
  }

  static func streamed(_ reporter: any StreamingReporter, jobs: Int, spool: FindingSpool) throws -> String {
    var request = ScanRequest(paths: [example], jobs: jobs)
    request.findingSink = spool
    let result = try scanner.scan(request)
    #expect(result.findings.isEmpty, "a streamed result must not also hold the findings")
    var text = ""
    try reporter.write(result, spooled: spool) { text += $0 }
    return text
  }

  @Test(arguments: ReportFormat.allCases, [1, 2])
  func streamedReportsEqualWholeOnes(_ format: ReportFormat, jobs: Int) throws {
    let reporter = try Self.reporter(format)
    let result = try Self.scanner.scan(ScanRequest(paths: [Self.example], jobs: jobs))
    let whole = try reporter.render(result)
    #expect(whole.utf8.count > 1000, "the example app should give a report worth comparing")
    let scope = result.reportScope
    #expect(try Self.streamed(reporter, jobs: jobs, spool: reporter.spool(scope: scope)) == whole)
    let inMemory = FindingSpool(
      prepare: { $0 }, groupsByRule: reporter.groupsByRule, print: { reporter.printFindings($0, scope: scope) },
      inMemory: true)
    #expect(try Self.streamed(reporter, jobs: jobs, spool: inMemory) == whole)
  }

  @Test(arguments: [ReportFormat.json, .markdown, .html])
  func aBaselineIsAppliedFileByFile(_ format: ReportFormat) throws {
    let all = try Self.scanner.scan(ScanRequest(paths: [Self.example])).findings
    // Accept every other finding: the streamed and the whole report must suppress the same ones.
    let baseline = Baseline(findings: all.enumerated().filter { $0.offset.isMultiple(of: 2) }.map(\.element))
    var whole = try Self.scanner.scan(ScanRequest(paths: [Self.example]))
    whole.findings = baseline.apply(to: whole.findings)
    let reporter = try Self.reporter(format)
    let matcher = baseline.matcher
    let spool = reporter.spool(scope: whole.reportScope) { matcher.apply(to: $0) }
    #expect(try Self.streamed(reporter, jobs: 2, spool: spool) == reporter.render(whole))
    #expect(spool.counts == whole.counts)
    #expect(spool.counts.suppressed == (all.count + 1) / 2)
  }

  @Test func filesComeBackInPathOrderWithoutGivenUpOnesOrLateOnes() throws {
    let finding = try #require(try Self.scanner.scan(ScanRequest(paths: [Self.example])).findings.first)
    let spool = FindingSpool(print: { findings in Array(findings.map(\.message).joined(separator: "+").utf8) })
    func named(_ message: String) -> Finding {
      var copy = finding
      copy.message = message
      copy.ruleId = "rule." + message
      copy.suppression = message == "a1" ? Suppression(kind: .baseline, justification: nil) : nil
      return copy
    }
    spool.take([named("c")], file: 7)
    spool.take([named("a1"), named("a2")], file: 2)
    spool.take([], file: 3)
    spool.take([named("stuck")], file: 5)
    spool.take([named("b")], file: 4)
    spool.finish(givenUp: [5])
    spool.take([named("late")], file: 9)
    var text = ""
    try spool.write(separator: "|") { text += $0 }
    #expect(text == "a1+a2|b|c")
    #expect(spool.counts.activeTotal == 3)
    #expect(spool.counts.suppressed == 1)
    #expect(spool.firstActiveRule == "rule.a2")
  }

  @Test func aGroupedSpoolWritesOneRulesActiveFindingsInPathOrder() throws {
    let finding = try #require(try Self.scanner.scan(ScanRequest(paths: [Self.example])).findings.first)
    let spool = FindingSpool(groupsByRule: true) { findings in
      Array(findings.map(\.message).joined(separator: "+").utf8)
    }
    func named(_ message: String, rule: String, suppressed: Bool = false) -> Finding {
      var copy = finding
      copy.message = message
      copy.ruleId = rule
      copy.suppression = suppressed ? Suppression(kind: .baseline, justification: nil) : nil
      return copy
    }
    spool.take([named("b1", rule: "x"), named("b2", rule: "y"), named("b3", rule: "x")], file: 4)
    spool.take([named("a1", rule: "y"), named("a2", rule: "x", suppressed: true)], file: 1)
    spool.finish(givenUp: [])
    func written(_ rule: String) throws -> String {
      var text = ""
      try spool.write(separator: "|", rule: rule) { text += $0 }
      return text
    }
    #expect(try written("x") == "b1+b3")
    #expect(try written("y") == "a1|b2")
    #expect(try written("z") == "")
    #expect(spool.counts.activeByRule == ["x": 2, "y": 2])
    #expect(spool.counts.suppressed == 1)
  }
}
