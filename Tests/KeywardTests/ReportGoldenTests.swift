import Foundation
import KeywardCore
import KeywardReporters
import KeywardRules
import Testing

/// The reports of a fixture tree (findings through constants and ternaries, a syntax error,
/// invalid UTF-8, multi-byte text) compared byte for byte with checked-in golden files.
/// `KEYWARD_UPDATE_GOLDEN=1 swift test` rewrites them after an intended change.
@Suite struct ReportGoldenTests {
  static func scanFixture(jobs: Int = 1) throws -> ScanResult {
    let scanner = Scanner(rules: Configuration().configuredRules(from: .standard))
    return try scanner.scan(ScanRequest(paths: [Paths.fixture("Report").path], jobs: jobs))
  }

  @Test(arguments: [("report.json", ReportFormat.json), ("report.sarif", .sarif), ("report.txt", .text)])
  func reportMatchesGoldenFile(_ name: String, _ format: ReportFormat) throws {
    let rendered = try format.reporter().render(try Self.scanFixture())
    let golden = Paths.packageRoot.appendingPathComponent("Tests/KeywardTests/Golden/\(name)")
    if ProcessInfo.processInfo.environment["KEYWARD_UPDATE_GOLDEN"] == "1" {
      try rendered.write(to: golden, atomically: true, encoding: .utf8)
    }
    let expected = try String(contentsOf: golden, encoding: .utf8)
    #expect(
      rendered == expected, "\(name) differs from its golden file; rerun with KEYWARD_UPDATE_GOLDEN=1 if intended")
  }

  @Test func jsonReportHasTheDocumentedShape() throws {
    let text = try JSONReporter().render(try Self.scanFixture())
    let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    #expect(object["version"] as? Int == 1)
    #expect((object["tool"] as? [String: Any])?["name"] as? String == "keyward")
    let findings = try #require(object["findings"] as? [[String: Any]])
    #expect(findings.count == 8)
    for finding in findings {
      for key in ["ruleId", "severity", "confidence", "message", "location", "snippet", "tags", "fingerprint"] {
        #expect(finding[key] != nil, "finding lacks \(key)")
      }
      #expect(finding.keys.contains("suppression") && finding["suppression"] is NSNull)
      let location = try #require(finding["location"] as? [String: Any])
      #expect((location["path"] as? String)?.hasPrefix("Sources/") == true)
      #expect((location["start"] as? [String: Any])?["line"] is Int)
      #expect((location["end"] as? [String: Any])?["column"] is Int)
    }
    let errors = try #require(object["errors"] as? [[String: Any]])
    #expect(errors.map { $0["path"] as? String } == ["Sources/Broken.swift", "Sources/Latin1.swift"])
    #expect(errors.map { $0["kind"] as? String } == ["parse", "encoding"])
  }

  @Test func sarifUsesUTF16ColumnsAndRelativeURIs() throws {
    let text = try SARIFReporter().render(try Self.scanFixture())
    let log = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    #expect(log["version"] as? String == "2.1.0")
    let run = try #require((log["runs"] as? [[String: Any]])?.first)
    let rules = try #require(
      ((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])
    let enabled = Configuration().configuredRules(from: .standard).map(\.metadata.id)
    #expect(rules.map { $0["id"] as? String } == enabled)
    #expect(!enabled.contains("swift.keychain_item_migratable"), "strict rules are off by default")
    for rule in rules {
      let properties = try #require(rule["properties"] as? [String: Any])
      let metadata = try #require(RuleCatalog.standard.rule(withID: rule["id"] as? String ?? "")).metadata
      #expect(properties["security-severity"] as? String == metadata.severity.securityScore)
      #expect((properties["tags"] as? [String])?.contains("security") == true)
      #expect(((rule["help"] as? [String: Any])?["markdown"] as? String)?.contains("## Remediation") == true)
    }
    let results = try #require(run["results"] as? [[String: Any]])
    // Line 8 of TokenStore.swift has "ключ" (4 characters, 8 bytes) before the finding.
    let cyrillicLine = try #require(
      results.first { result in
        let location = ((result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
        let uri = (location?["artifactLocation"] as? [String: Any])?["uri"] as? String
        return uri == "Sources/TokenStore.swift" && ((location?["region"] as? [String: Any])?["startLine"] as? Int) == 8
      })
    let physical = try #require(
      (cyrillicLine["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
    let region = try #require(physical["region"] as? [String: Any])
    #expect(region["startColumn"] as? Int == 109)
    #expect((physical["artifactLocation"] as? [String: Any])?["uri"] as? String == "Sources/TokenStore.swift")
    for result in results {
      #expect((result["partialFingerprints"] as? [String: Any])?["primaryLocationLineHash"] is String)
      #expect(result["ruleIndex"] is Int)
    }
    let notifications = try #require(
      (run["invocations"] as? [[String: Any]])?.first?["toolExecutionNotifications"] as? [[String: Any]])
    #expect(notifications.count == 2)
  }

  @Test func resultDoesNotDependOnTheNumberOfWorkers() throws {
    let one = try JSONReporter().render(try Self.scanFixture(jobs: 1))
    for jobs in [2, 4, 8] {
      #expect(try JSONReporter().render(try Self.scanFixture(jobs: jobs)) == one)
    }
  }
}
