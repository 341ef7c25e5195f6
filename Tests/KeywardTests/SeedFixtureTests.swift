import Foundation
import KeywardCore
import Testing

/// Reference samples of vulnerable and secure code, judged by all rules at their defaults: findings exactly at
/// the `↓` markers, none elsewhere.
@Suite struct SeedFixtureTests {
  static let fixtureNames: [String] = {
    let folder = Paths.fixture("ReferenceSamples")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".swift") || $0.hasSuffix(".m") }.sorted()
  }()

  @Test func thereAreSeedFixtures() {
    #expect(Self.fixtureNames.count >= 8)
    #expect(Self.fixtureNames.contains { $0.hasSuffix(".m") })
  }

  @Test(arguments: fixtureNames)
  func seedSampleIsJudgedRight(_ name: String) throws {
    let source = try String(contentsOf: Paths.fixture("ReferenceSamples/\(name)"), encoding: .utf8)
    let (code, markers) = RuleExample(source).withoutMarkers
    let outcome = Scan.allFindings(code, path: name)
    #expect(outcome.issues.isEmpty, "\(outcome.issues)")
    let found = outcome.findings.map { "\($0.location.start.line):\($0.location.start.column) \($0.ruleId)" }
    #expect(outcome.findings.map(\.location.start.offset).sorted() == markers.sorted(), "\(found)")
  }
}
