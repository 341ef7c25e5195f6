import Foundation
import KeywardCore

/// `path:line:column: error|warning|note: message [rule]` with absolute paths, as compilers
/// print, so an Xcode Run Script build phase shows findings inline. A finding is an `error:`
/// only when it fails the scan (it counts and is at least `errorThreshold`, from `--fail-on`),
/// so a scan that does not fail the build shows warnings; informational findings are notes.
public struct XcodeReporter: StreamingReporter {
  public var errorThreshold: Severity?

  public init(errorThreshold: Severity? = nil) { self.errorThreshold = errorThreshold }

  public var findingSeparator: String { "" }

  public func printFindings(_ findings: [Finding], scope: ReportScope) -> [UInt8] {
    var out = ""
    for finding in findings where finding.isActive {
      let location = finding.location
      let path = scope.root + "/" + location.path
      // A built app has no lines: a diagnostic on the file, naming where inside it.
      let place = location.binary == nil ? "\(path):\(location.start.line):\(location.start.column)" : path
      // Code that does not count toward --fail-on (tests, samples, DEBUG-only...) gives notes.
      let level: String
      if !scope.failPolicy.fails(finding) || finding.severity == .info {
        level = "note"
      } else if let errorThreshold, finding.severity >= errorThreshold {
        level = "error"
      } else {
        level = "warning"
      }
      let marker = finding.placeLabel.map { " [\($0)]" } ?? ""
      out += "\(place): \(level): \(finding.message)\(Self.inside(location)) [\(finding.ruleId)]\(marker)\n"
    }
    return Array(out.utf8)
  }

  public func writeDocument(
    _ result: ScanResult, findings: PrintedFindings, to output: (String) throws -> Void
  ) throws {
    try findings.write(output)
    for issue in result.errors {
      try output(
        "\(result.root)/\(issue.path):\(issue.line ?? 1):\(issue.column ?? 1): warning: keyward could not scan this file completely: \(issue.message)\n"
      )
    }
  }

  /// For a finding in a built app, which has no lines: " (in Mach-O file (architecture, address))"
  /// to follow the message; nothing for source.
  static func inside(_ location: SourceLocation) -> String {
    location.siteInApp.map { " (in \($0))" } ?? ""
  }

  static func level(_ severity: Severity) -> String {
    switch severity {
    case .critical, .high: "error"
    case .medium, .low: "warning"
    case .info: "note"
    }
  }
}

/// GitHub Actions workflow commands (`::error file=...,line=...::message`), which show as
/// annotations on the pull request. Paths are relative to the scan root: scan from the
/// repository root.
public struct GitHubReporter: StreamingReporter {
  public init() {}

  public var findingSeparator: String { "" }

  public func printFindings(_ findings: [Finding], scope: ReportScope) -> [UInt8] {
    var out = ""
    for finding in findings where finding.isActive {
      let location = finding.location
      let level = scope.failPolicy.fails(finding) ? XcodeReporter.level(finding.severity) : "note"
      let command = level == "note" ? "notice" : level
      // A built app has no lines: the annotation is on the file, and says where inside it.
      let lines =
        location.binary != nil
        ? []
        : [
          "line=\(location.start.line)", "col=\(location.start.column)", "endLine=\(location.end.line)",
          "endColumn=\(location.end.column)",
        ]
      let properties =
        ["file=\(Self.property(location.path))"] + lines + [
          "title=\(Self.property("\(finding.ruleId) (\(([finding.severity.rawValue] + (finding.placeLabel.map { [$0] } ?? [])).joined(separator: ", ")))"))"
        ]
      out +=
        "::\(command) \(properties.joined(separator: ","))::\(Self.data(finding.message + XcodeReporter.inside(location)))\n"
    }
    return Array(out.utf8)
  }

  public func writeDocument(
    _ result: ScanResult, findings: PrintedFindings, to output: (String) throws -> Void
  ) throws {
    try findings.write(output)
    for issue in result.errors {
      try output(
        "::warning file=\(Self.property(issue.path))::\(Self.data("keyward could not scan this file completely: \(issue.message)"))\n"
      )
    }
  }

  static func data(_ text: String) -> String {
    text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
      .replacingOccurrences(of: "\n", with: "%0A")
  }

  static func property(_ text: String) -> String {
    data(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
  }
}

/// One row per finding, RFC 4180 quoting, for spreadsheets and audit trackers. Suppressed
/// findings are included with how they were suppressed.
public struct CSVReporter: StreamingReporter {
  public init() {}

  public var findingSeparator: String { "" }

  public func printFindings(_ findings: [Finding], scope: ReportScope) -> [UInt8] {
    var out = ""
    for finding in findings {
      // A built app has no lines: the row leaves them empty and says where inside it.
      let location = finding.location
      let isBinary = location.binary != nil
      out += Self.row([
        finding.severity.rawValue, finding.confidence.rawValue, finding.ruleId, location.path,
        isBinary ? "" : String(location.start.line), isBinary ? "" : String(location.start.column),
        finding.message + XcodeReporter.inside(location),
        finding.fingerprint,
        finding.suppression.map { $0.kind.rawValue } ?? "",
        finding.origin.rawValue, finding.buildCondition?.rawValue ?? "",
        location.binary?.bundle?.description ?? "",
      ])
    }
    return Array(out.utf8)
  }

  public func writeDocument(
    _ result: ScanResult, findings: PrintedFindings, to output: (String) throws -> Void
  ) throws {
    try output(
      Self.row([
        "severity", "confidence", "rule", "path", "line", "column", "message", "fingerprint", "suppressed", "origin",
        "buildCondition", "bundle",
      ]))
    try findings.write(output)
    // Files that could not be scanned completely are rows too, so a spreadsheet shows the gaps.
    for issue in result.errors {
      try output(
        Self.row([
          "error", "", "keyward.scan-error.\(issue.kind.rawValue)", issue.path, issue.line.map(String.init) ?? "",
          issue.column.map(String.init) ?? "", issue.message, "", "", "", "", "",
        ]))
    }
  }

  static func row(_ fields: [String]) -> String { fields.map(field).joined(separator: ",") + "\r\n" }

  static func field(_ text: String) -> String {
    let special: (UInt8) -> Bool = { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
    guard text.utf8.contains(where: special) else { return text }
    var bytes: [UInt8] = [UInt8(ascii: "\"")]
    for byte in text.utf8 {
      bytes.append(byte)
      if byte == UInt8(ascii: "\"") { bytes.append(byte) }
    }
    bytes.append(UInt8(ascii: "\""))
    return String(decoding: bytes, as: UTF8.self)
  }
}
