import Foundation
import KeywardCore
import KeywardRules
import Testing

@testable import KeywardReporters

/// The formats for Xcode, GitHub, pull requests, auditors and spreadsheets, on the report fixture.
@Suite struct ReporterFormatTests {
  static let result: ScanResult = try! ReportGoldenTests.scanFixture()

  /// The JSON printer writes findings byte by byte: every field, optional or not, must come
  /// back as it went in, and the layout must be the one the rest of the document uses.
  @Test func jsonFindingsCarryEveryFieldInTheDocumentsLayout() throws {
    let position = SourcePosition(line: 2, column: 5, utf16Column: 4, offset: 17)
    let site = BinarySite(file: "App", architecture: "arm64", address: 0x1_0000_4010)
    let full = Finding(
      ruleId: "swift.r", severity: .high, confidence: .medium, message: "a \"quoted\"\tmessage",
      location: SourceLocation(path: "é/A.swift", start: position, end: position, binary: site), snippet: "let a = 1",
      tags: ["CWE-311", "keychain"], fingerprint: "00ff",
      suppression: Suppression(kind: .inline, justification: "tested\nelsewhere"),
      fix: Fix(description: "d", safe: false, edits: [TextEdit(start: 1, end: 3, replacement: "🔑\u{1}")]),
      related: [RelatedLocation(message: "query", location: SourceLocation(path: "b", start: position, end: position))],
      origin: .thirdParty, buildCondition: .simulator)
    let bare = Finding(
      ruleId: "swift.s", severity: .low, confidence: .high, message: "m",
      location: SourceLocation(path: "b", start: position, end: position), snippet: "", tags: [], fingerprint: "f")
    let result = ScanResult(root: "/", findings: [full, bare], errors: [], rules: [], filesScanned: 1, filesParsed: 1)
    let text = try JSONReporter().render(result)
    let report = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    let findings = try #require(report["findings"] as? [[String: Any]])
    let first = try #require(findings.first)
    #expect(first["message"] as? String == full.message && first["snippet"] as? String == full.snippet)
    #expect(first["tags"] as? [String] == full.tags && first["confidence"] as? String == "medium")
    let location = try #require(first["location"] as? [String: Any])
    #expect(location["path"] as? String == "é/A.swift")
    #expect((location["binary"] as? [String: Any])?["address"] as? String == "0x100004010")
    #expect((location["start"] as? [String: Any])?["utf16Column"] as? Int == 4)
    #expect((first["suppression"] as? [String: Any])?["justification"] as? String == "tested\nelsewhere")
    let edit = try #require(((first["fix"] as? [String: Any])?["edits"] as? [[String: Any]])?.first)
    #expect(edit["replacement"] as? String == "🔑\u{1}" && edit["end"] as? Int == 3)
    #expect(((first["related"] as? [[String: Any]])?.first?["message"]) as? String == "query")
    #expect(findings.last?["fix"] is NSNull && findings.last?["suppression"] is NSNull)
    #expect((findings.last?["tags"] as? [Any])?.isEmpty == true)
    #expect(first["origin"] as? String == "third-party" && first["buildCondition"] as? String == "simulator")
    #expect(findings.last?["origin"] as? String == "app" && findings.last?["buildCondition"] is NSNull)
    // Layout: sorted keys, two spaces per level, `[]` for empty lists, as in the golden files.
    #expect(
      text.contains(
        "\n    {\n      \"buildCondition\": \"simulator\",\n      \"confidence\": \"medium\",\n      \"fingerprint\": \"00ff\",\n"
      ))
    #expect(text.contains("\n      \"message\": \"m\",\n      \"origin\": \"app\",\n      \"related\": [],\n"))
    #expect(text.contains("\n      \"related\": [],\n") && text.contains("\n      \"tags\": []\n    }\n  ],\n"))
    #expect(text.contains("\"edits\": [\n          {\n            \"end\": 3,\n") && text.contains("}\n        ],\n"))
  }

  @Test func xcodeLinesAreCompilerDiagnosticsWithAbsolutePaths() throws {
    // Errors only for what fails the scan (at least --fail-on's severity); the rest are warnings.
    let text = try XcodeReporter(errorThreshold: .medium).render(Self.result)
    let lines = text.split(separator: "\n").map(String.init)
    #expect(lines.count == Self.result.activeFindings.count + Self.result.errors.count)
    let first = try #require(lines.first)
    #expect(first.hasPrefix(Self.result.root + "/Sources/Broken.swift:4:87: error: "))
    #expect(first.hasSuffix("[swift.weak_biometric_acl]"))
    #expect(lines.contains { $0.contains(": warning: ") && $0.contains("[swift.keychain_status_unchecked]") })
    // A scan that does not fail the build (--fail-on none) shows no error.
    let lenient = try XcodeReporter().render(Self.result)
    #expect(lenient.contains("/Sources/Broken.swift:4:87: warning: ") && !lenient.contains(": error: "))
  }

  @Test func githubAnnotationsEscapeTheirProperties() throws {
    let text = try GitHubReporter().render(Self.result)
    #expect(text.contains("::error file=Sources/TokenStore.swift,line=8,col=113,"))
    #expect(GitHubReporter.property("a:b,c%") == "a%3Ab%2Cc%25")
    #expect(GitHubReporter.data("one\ntwo") == "one%0Atwo")
    #expect(!text.split(separator: "\n").contains { !$0.hasPrefix("::") })
  }

  @Test func csvQuotesFieldsThatNeedIt() throws {
    let text = try CSVReporter().render(Self.result)
    let rows = text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
    // New columns go at the end, so the existing ones keep their places.
    #expect(
      rows.first
        == "severity,confidence,rule,path,line,column,message,fingerprint,suppressed,origin,buildCondition,bundle")
    #expect(rows.dropFirst().first?.hasSuffix(",app,,") == true)
    #expect(rows.count == Self.result.findings.count + Self.result.errors.count + 1)
    #expect(rows.last?.hasPrefix("error,,keyward.scan-error.") == true)
    #expect(CSVReporter.field("a, \"b\"") == "\"a, \"\"b\"\"\"")
    #expect(CSVReporter.field("plain") == "plain")
  }

  @Test func markdownSummarisesAndGroupsByRule() throws {
    let text = try MarkdownReporter().render(Self.result)
    #expect(text.hasPrefix("## Keyward: 8 findings"))
    #expect(text.contains("| high | 6 |"))
    #expect(text.contains("### `swift.weak_keychain_accessibility` — Weak keychain accessibility (high)"))
    #expect(text.contains("2 could not be scanned completely"))
  }

  @Test func htmlIsSelfContainedEscapedAndHighlighted() throws {
    let text = try HTMLReporter().render(Self.result)
    #expect(text.hasPrefix("<!DOCTYPE html>"))
    // Self-contained: nothing loaded from elsewhere (the rules' references are plain links).
    #expect(!text.contains("<script") && !text.contains("src=\"http") && !text.contains("<link"))
    #expect(text.contains("<mark>kSecAttrAccessibleAlways</mark>"))
    #expect(text.contains("id=\"swift.weak_biometric_acl\""))
    #expect(HTMLReporter.escape("<a href=\"x\">&</a>") == "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;")
    #expect(text.contains("Files not scanned completely"))
    #expect(HTMLReporter.prose("use `.biometryCurrentSet` <now>") == "use <code>.biometryCurrentSet</code> &lt;now&gt;")
  }
}
