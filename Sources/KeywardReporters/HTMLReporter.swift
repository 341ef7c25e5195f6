import Foundation
import KeywardCore

/// One self-contained page for an auditor: the summary by severity and by rule, then every
/// finding with its code (the expression highlighted), the rule's explanation and the fix.
public struct HTMLReporter: StreamingReporter {
  public init() {}

  public var findingSeparator: String { "" }

  public var groupsByRule: Bool { true }

  public func printFindings(_ findings: [Finding], scope: ReportScope) -> [UInt8] {
    Array(findings.lazy.filter(\.isActive).map(Self.finding).joined().utf8)
  }

  public func writeDocument(
    _ result: ScanResult, findings: PrintedFindings, to output: (String) throws -> Void
  ) throws {
    let counts = findings.counts
    var body = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Keyward report</title>"
    body += "<style>\(Self.style)</style></head><body>\n"
    body += "<header><h1>Keyward report</h1><p>\(result.filesScanned) files scanned, \(counts.activeTotal) findings"
    if counts.suppressed > 0 { body += ", \(counts.suppressed) suppressed" }
    if !result.errors.isEmpty { body += ", \(result.errors.count) files not scanned completely" }
    let informational = counts.informational(result.failPolicy)
    if informational.count > 0 {
      body += "; \(informational.count) in \(Self.escape(listed(informational.places))) shown for information"
    }
    if !result.skippedFolders.isEmpty {
      body += "; third-party code not scanned: \(Self.escape(result.skippedFolders.joined(separator: ", ")))"
    }
    body += ".</p><div class=\"badges\">"
    for severity in Severity.allCases.reversed() {
      body +=
        "<span class=\"badge \(severity.rawValue)\">\(counts.active[severity, default: 0]) \(severity.rawValue)</span>"
    }
    body += "</div></header>\n"
    // Most severe rules first (as configured), catalogue order within a severity.
    let rules = result.rules.enumerated()
      .filter { counts.activeByRule[$0.element.metadata.id, default: 0] > 0 }
      .sorted { ($0.element.severity, $1.offset) > ($1.element.severity, $0.offset) }
      .map { $0.element.metadata }
    let severityOf = Dictionary(result.rules.map { ($0.metadata.id, $0.severity.rawValue) }) { first, _ in first }
    if !rules.isEmpty {
      body += "<section><h2>By rule</h2><table><tr><th>Rule</th><th>Severity</th><th>Findings</th></tr>"
      for metadata in rules {
        body +=
          "<tr><td><a href=\"#\(Self.escape(metadata.id))\">\(Self.escape(metadata.title))</a><br><code>\(Self.escape(metadata.id))</code></td>"
        body +=
          "<td><span class=\"badge \(severityOf[metadata.id] ?? "")\">\(severityOf[metadata.id] ?? "")</span></td><td>\(counts.activeByRule[metadata.id, default: 0])</td></tr>"
      }
      body += "</table></section>\n"
    }
    try output(body)
    for metadata in rules {
      var section = "<section class=\"rule\" id=\"\(Self.escape(metadata.id))\"><h2>\(Self.escape(metadata.title)) "
      section += "<span class=\"badge \(severityOf[metadata.id] ?? "")\">\(severityOf[metadata.id] ?? "")</span></h2>"
      section +=
        "<p class=\"meta\"><code>\(Self.escape(metadata.id))</code> · \(Self.escape(metadata.tags.joined(separator: ", ")))</p>"
      section +=
        "<details><summary>Why it matters and how to fix it</summary><p>\(Self.prose(metadata.description))</p>"
      section +=
        "<p>\(Self.prose(metadata.rationale))</p><p><strong>Fix:</strong> \(Self.prose(metadata.remediation))</p>"
      section += "<pre>\(Self.escape(metadata.fixedExample))</pre>"
      if !metadata.references.isEmpty {
        section += "<p><strong>References:</strong></p><ul class=\"references\">"
        for reference in metadata.references {
          let title = Self.escape(reference.title)
          section += reference.url.map { "<li><a href=\"\(Self.escape($0))\">\(title)</a></li>" } ?? "<li>\(title)</li>"
        }
        section += "</ul>"
      }
      section += "</details>"
      try output(section)
      try findings.write(rule: metadata.id, to: output)
      try output("</section>\n")
    }
    body = ""
    if !result.errors.isEmpty {
      body += "<section><h2>Files not scanned completely</h2><ul>"
      for issue in result.errors {
        body +=
          "<li><code>\(Self.escape(issue.path))\(issue.line.map { ":\($0)" } ?? "")</code> \(Self.escape(issue.message))</li>"
      }
      body += "</ul></section>\n"
    }
    if counts.activeTotal == 0 { body += "<p class=\"clean\">No findings.</p>" }
    body += "<footer>keyward \(KeywardVersion.current)</footer></body></html>\n"
    try output(body)
  }

  static func finding(_ finding: Finding) -> String {
    let location = finding.location
    var out = "<article class=\"finding\"><p class=\"where\"><code>\(escape(location.place))</code>"
    out += " · confidence \(finding.confidence.rawValue)"
    if let place = finding.placeLabel { out += " · <span class=\"origin\">\(escape(place))</span>" }
    out += "</p><p>\(prose(finding.message))</p>"
    // A finding in a built app has no code line to show.
    if location.binary == nil {
      out += "<pre class=\"code\"><span class=\"line\">\(location.start.line)</span>\(highlighted(finding))</pre>"
    }
    for related in finding.related {
      out +=
        "<p class=\"note\">Note: \(escape(related.message)) (<code>\(escape(related.location.path)):\(related.location.start.line)</code>)</p>"
    }
    if let fix = finding.fix {
      out += "<p class=\"fix\">\(fix.safe ? "Fix" : "Suggested fix (review first)"): \(prose(fix.description))</p>"
      if let change = fix.behaviorChange { out += "<p class=\"fix\">Changes behaviour: \(escape(change)).</p>" }
    }
    return out + "</article>"
  }

  /// The snippet with the finding's bytes wrapped in `<mark>`.
  static func highlighted(_ finding: Finding) -> String {
    let line = Array(finding.snippet.utf8)
    let start = min(max(finding.location.start.column - 1, 0), line.count)
    let sameLine = finding.location.end.line == finding.location.start.line
    let end = sameLine ? min(max(finding.location.end.column - 1, start), line.count) : line.count
    let text = { (range: Range<Int>) in escape(String(decoding: line[range], as: UTF8.self)) }
    return text(0..<start) + "<mark>" + text(start..<end) + "</mark>" + text(end..<line.count)
  }

  /// Escaped text with `backtick spans` set as code.
  static func prose(_ text: String) -> String {
    let parts = escape(text).split(separator: "`", omittingEmptySubsequences: false)
    guard parts.count % 2 == 1 else { return escape(text) }
    return parts.enumerated().map { $0.offset % 2 == 1 ? "<code>\($0.element)</code>" : String($0.element) }.joined()
  }

  static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }

  static let style = """
    body{font:15px/1.5 -apple-system,system-ui,sans-serif;margin:0 auto;max-width:70rem;padding:1.5rem;color:#1d1d1f}
    h1{margin:0}h2{font-size:1.2rem;margin-top:2rem}code,pre{font-family:ui-monospace,Menlo,monospace;font-size:13px}
    table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left}
    .badge{border-radius:.6rem;color:#fff;font-size:12px;padding:.1rem .5rem;margin-right:.3rem;background:#888}
    .critical{background:#7a0010}.high{background:#c62828}.medium{background:#e67e00}.low{background:#b59b00}.info{background:#1565c0}
    .finding{border-left:4px solid #c62828;background:#fafafa;margin:1rem 0;padding:.5rem 1rem}
    .code{background:#f0f0f0;padding:.5rem;overflow-x:auto}.line{color:#888;margin-right:1rem}
    mark{background:#ffd54f}.origin{background:#e0e0e0;border-radius:.4rem;padding:0 .4rem}.where,.meta{color:#555;margin:.2rem 0}.fix{color:#2e7d32}.note{color:#555}
    details{margin:.5rem 0}footer{color:#888;margin-top:2rem}.clean{color:#2e7d32;font-size:1.2rem}
    """
}
