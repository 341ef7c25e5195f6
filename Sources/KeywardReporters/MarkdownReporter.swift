import Foundation
import KeywardCore

/// A pull-request comment: a summary by severity, then the findings grouped by rule with their
/// code line and the fix.
public struct MarkdownReporter: StreamingReporter {
  public init() {}

  public var findingSeparator: String { "" }

  public var groupsByRule: Bool { true }

  public func printFindings(_ findings: [Finding], scope: ReportScope) -> [UInt8] {
    var out = ""
    for finding in findings where finding.isActive {
      let marker = finding.placeLabel.map { " _(\($0))_" } ?? ""
      out += "- **\(finding.location.place)**\(marker) \(Self.escape(finding.message))\n"
      // A finding in a built app has no code line to quote.
      if finding.location.binary == nil {
        out += "  ```\n  \(finding.snippet.trimmingCharacters(in: .whitespaces))\n  ```\n"
      }
      if let fix = finding.fix {
        let kind = fix.behaviorChange.map { " (changes behaviour: \($0))" } ?? (fix.safe ? "" : " (review first)")
        out += "  Fix\(kind): \(Self.escape(fix.description))\n"
      }
    }
    return Array(out.utf8)
  }

  public func writeDocument(
    _ result: ScanResult, findings: PrintedFindings, to output: (String) throws -> Void
  ) throws {
    let counts = findings.counts
    let total = counts.activeTotal
    var out = "## Keyward: \(total == 0 ? "no findings" : "\(total) finding\(total == 1 ? "" : "s")")\n\n"
    if total > 0 {
      out += "| Severity | Findings |\n|---|---|\n"
      for severity in Severity.allCases.reversed() {
        if let count = counts.active[severity], count > 0 { out += "| \(severity.rawValue) | \(count) |\n" }
      }
      out += "\n"
    }
    try output(out)
    for configured in result.rules where counts.activeByRule[configured.metadata.id, default: 0] > 0 {
      let metadata = configured.metadata
      try output("### `\(metadata.id)` — \(metadata.title) (\(metadata.severity.rawValue))\n\n")
      try findings.write(rule: metadata.id, to: output)
      try output("\n")
    }
    out = ""
    if !result.errors.isEmpty {
      out += "### Not scanned completely\n\n"
      for issue in result.errors {
        let position = issue.line.map { ":\($0)" + (issue.column.map { ":\($0)" } ?? "") } ?? ""
        out += "- **\(issue.path)\(position)** \(Self.escape(issue.message))\n"
      }
      out += "\n"
    }
    var footer: [String] = ["\(result.filesScanned) files scanned"]
    let informational = counts.informational(result.failPolicy)
    if informational.count > 0 {
      footer.append("\(informational.count) in \(listed(informational.places)) shown for information")
    }
    if !result.skippedFolders.isEmpty {
      footer.append("third-party code not scanned: \(result.skippedFolders.joined(separator: ", "))")
    }
    if counts.suppressed > 0 { footer.append("\(counts.suppressed) suppressed") }
    if !result.errors.isEmpty { footer.append("\(result.errors.count) could not be scanned completely") }
    out += "_" + footer.joined(separator: ", ") + "._\n"
    try output(out)
  }

  static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
  }
}
