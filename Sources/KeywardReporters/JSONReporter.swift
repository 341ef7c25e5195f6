import KeywardCore

/// The versioned JSON report: `{"version": 1, "tool": ..., "summary": ..., "findings": [...],
/// "errors": [...]}`. Paths are relative to the scan root; findings are in report order.
public struct JSONReporter: Reporter {
  public static let formatVersion = 1

  public init() {}

  struct Report: Encodable {
    struct Tool: Encodable {
      var name = "keyward"
      var version = KeywardVersion.current
    }
    struct Summary: Encodable {
      var filesScanned: Int
      var filesParsed: Int
      var findings: Int
      var suppressed: Int
      var bySeverity: [String: Int]
      var rules: [String]
    }
    var version = JSONReporter.formatVersion
    var tool = Tool()
    var summary: Summary
    var findings: [Finding]
    var errors: [ScanIssue]
  }

  public func render(_ result: ScanResult) throws -> String {
    let active = result.activeFindings
    var bySeverity: [String: Int] = [:]
    for finding in active { bySeverity[finding.severity.rawValue, default: 0] += 1 }
    let summary = Report.Summary(
      filesScanned: result.filesScanned, filesParsed: result.filesParsed, findings: active.count,
      suppressed: result.findings.count - active.count, bySeverity: bySeverity, rules: result.rules.map(\.metadata.id))
    return try JSONValue.encode(Report(summary: summary, findings: result.findings, errors: result.errors))
  }
}
