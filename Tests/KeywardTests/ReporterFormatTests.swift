import Foundation
import KeywardCore
import KeywardRules
import Testing

@testable import KeywardReporters

/// The formats for Xcode, GitHub, pull requests, auditors and spreadsheets, on the report fixture.
@Suite struct ReporterFormatTests {
  static let result: ScanResult = try! ReportGoldenTests.scanFixture()

  @Test func xcodeLinesAreCompilerDiagnosticsWithAbsolutePaths() throws {
    let text = try XcodeReporter().render(Self.result)
    let lines = text.split(separator: "\n").map(String.init)
    #expect(lines.count == Self.result.activeFindings.count + Self.result.errors.count)
    let first = try #require(lines.first)
    #expect(first.hasPrefix(Self.result.root + "/Sources/Broken.swift:4:87: error: "))
    #expect(first.hasSuffix("[swift.weak_biometric_acl]"))
    #expect(lines.contains { $0.contains(": warning: ") && $0.contains("[swift.keychain_status_unchecked]") })
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
    #expect(rows.first == "severity,confidence,rule,path,line,column,message,fingerprint,suppressed")
    #expect(rows.count == Self.result.findings.count + Self.result.errors.count + 1)
    #expect(rows.last?.hasPrefix("error,,keyward.scan-error.") == true)
    #expect(CSVReporter.field("a, \"b\"") == "\"a, \"\"b\"\"\"")
    #expect(CSVReporter.field("plain") == "plain")
  }

  @Test func markdownSummarisesAndGroupsByRule() throws {
    let text = try MarkdownReporter().render(Self.result)
    #expect(text.hasPrefix("## Keyward: 7 findings"))
    #expect(text.contains("| high | 5 |"))
    #expect(text.contains("### `swift.weak_keychain_accessibility` — Weak keychain accessibility (high)"))
    #expect(text.contains("2 could not be scanned completely"))
  }

  @Test func htmlIsSelfContainedEscapedAndHighlighted() throws {
    let text = try HTMLReporter().render(Self.result)
    #expect(text.hasPrefix("<!DOCTYPE html>"))
    #expect(!text.contains("<script") && !text.contains("src=\"http") && !text.contains("href=\"http"))
    #expect(text.contains("<mark>kSecAttrAccessibleAlways</mark>"))
    #expect(text.contains("id=\"swift.weak_biometric_acl\""))
    #expect(HTMLReporter.escape("<a href=\"x\">&</a>") == "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;")
    #expect(text.contains("Files not scanned completely"))
    #expect(HTMLReporter.prose("use `.biometryCurrentSet` <now>") == "use <code>.biometryCurrentSet</code> &lt;now&gt;")
  }
}
