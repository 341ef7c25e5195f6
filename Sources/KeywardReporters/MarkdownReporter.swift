import Foundation
import KeywardCore

/// A pull-request comment: a summary by severity, then the findings grouped by rule with their
/// code line and the fix.
public struct MarkdownReporter: Reporter {
  public init() {}

  public func render(_ result: ScanResult) throws -> String {
    let active = result.activeFindings
    var out =
      "## Keyward: \(active.isEmpty ? "no findings" : "\(active.count) finding\(active.count == 1 ? "" : "s")")\n\n"
    if !active.isEmpty {
      out += "| Severity | Findings |\n|---|---|\n"
      for severity in Severity.allCases.reversed() {
        let count = active.filter { $0.severity == severity }.count
        if count > 0 { out += "| \(severity.rawValue) | \(count) |\n" }
      }
      out += "\n"
    }
    let byRule = Dictionary(grouping: active, by: \.ruleId)
    for configured in result.rules where byRule[configured.metadata.id] != nil {
      let metadata = configured.metadata
      out += "### `\(metadata.id)` — \(metadata.title) (\(metadata.severity.rawValue))\n\n"
      for finding in byRule[metadata.id]! {
        let location = finding.location
        out +=
          "- **\(location.path):\(location.start.line):\(location.start.column)** \(Self.escape(finding.message))\n"
        out += "  ```\n  \(finding.snippet.trimmingCharacters(in: .whitespaces))\n  ```\n"
        if let fix = finding.fix {
          out += "  Fix\(fix.safe ? "" : " (review first)"): \(Self.escape(fix.description))\n"
        }
      }
      out += "\n"
    }
    if !result.errors.isEmpty {
      out += "### Not scanned completely\n\n"
      for issue in result.errors {
        let position = issue.line.map { ":\($0)" + (issue.column.map { ":\($0)" } ?? "") } ?? ""
        out += "- **\(issue.path)\(position)** \(Self.escape(issue.message))\n"
      }
      out += "\n"
    }
    let suppressed = result.findings.count - active.count
    var footer: [String] = ["\(result.filesScanned) files scanned"]
    if suppressed > 0 { footer.append("\(suppressed) suppressed") }
    if !result.errors.isEmpty { footer.append("\(result.errors.count) could not be scanned completely") }
    out += "_" + footer.joined(separator: ", ") + "._\n"
    return out
  }

  static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
  }
}
