import Foundation
import KeywardCore

/// One self-contained page for an auditor: the summary by severity, a filter by where code
/// lives, the scan record (what was scanned, when, at which commit, with which settings), the
/// summary by rule, then every finding with the code around it (the expression highlighted),
/// the rule's explanation and the fix. No script: the filter is checkboxes and CSS.
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
    let filter = Self.originFilter(counts)
    body += "<style>\(Self.style)\(filter.style)</style></head><body>\n"
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
    body += "</div>"
    body += filter.form
    body += "</header>\n"
    if let record = result.record { body += Self.record(record, root: result.root) }
    if let evidence = result.evidence { body += Self.evidence(evidence) }
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

  /// Checkboxes that show and hide findings by where their code lives, when it lives in more
  /// than one kind of place; CSS does the hiding (`:has()`), and a rule whose findings are all
  /// hidden is hidden too.
  static func originFilter(_ counts: FindingCounts) -> (form: String, style: String) {
    var byOrigin: [CodeOrigin: Int] = [:]
    for (place, bySeverity) in counts.activeByPlace {
      byOrigin[place.origin, default: 0] += bySeverity.values.reduce(0, +)
    }
    let origins = CodeOrigin.allCases.filter { byOrigin[$0] != nil }
    guard origins.count > 1 else { return ("", "") }
    var form = "<form class=\"filter\">Show findings in:"
    for origin in origins {
      form +=
        " <label><input type=\"checkbox\" id=\"show-\(origin.rawValue)\" checked> \(origin.plural) (\(byOrigin[origin]!))</label>"
    }
    var style = "\n"
    for origin in origins {
      style += "body:has(#show-\(origin.rawValue):not(:checked)) .finding.origin-\(origin.rawValue){display:none}"
    }
    // Hidden when, for every origin, its box is clear or the rule has no finding there.
    style += "\n.rule"
    for origin in origins {
      style += ":is(body:has(#show-\(origin.rawValue):not(:checked)) *,:not(:has(.origin-\(origin.rawValue))))"
    }
    return (form + "</form>", style + "{display:none}")
  }

  /// What was scanned, when, at which commit, by which Keyward with which settings.
  static func record(_ record: ScanRecord, root: String) -> String {
    var rows: [(String, String)] = []
    rows.append(
      (
        "Scanned",
        record.paths.map { "<code>\(escape($0))</code>" }.joined(separator: ", ")
          + "; finding paths are relative to <code>\(escape(root))</code>"
      ))
    if let date = record.date { rows.append(("Date", "<time>\(ScanRecord.timestamp(date))</time>")) }
    if let commit = record.commit {
      let state = record.hasUncommittedChanges ? "with uncommitted changes" : "no uncommitted changes"
      rows.append(("Git commit", "<code>\(escape(commit))</code> (\(state))"))
    } else {
      rows.append(("Git commit", "none (not in a git repository)"))
    }
    rows.append(("Keyward", escape(record.version)))
    rows.append(("Profile", escape(record.profile.rawValue)))
    rows.append(
      (
        "Configuration",
        (record.configurationFile.map { "<code>\(escape($0))</code>" } ?? "defaults (no configuration file)")
          + "<br>SHA-256 of <code>keyward config print</code>: <code class=\"digest\">\(record.configurationDigest)</code>"
      ))
    var baselines: [String] = []
    if let file = record.baselineFile { baselines.append("findings in <code>\(escape(file))</code>") }
    if let revision = record.baselineRevision {
      let commit = record.baselineCommit.map { " (<code>\(escape($0))</code>)" } ?? ""
      baselines.append("findings already present at <code>\(escape(revision))</code>\(commit)")
    }
    if !baselines.isEmpty {
      rows.append(("Baseline", listed(baselines) + " are suppressed; only new findings are listed"))
    }
    var out = "<section class=\"record\"><h2>Scan record</h2><table>"
    for (name, value) in rows { out += "<tr><th>\(name)</th><td>\(value)</td></tr>" }
    return out + "</table></section>\n"
  }

  static func finding(_ finding: Finding) -> String {
    let location = finding.location
    var out =
      "<article class=\"finding origin-\(finding.origin.rawValue)\"><p class=\"where\"><code>\(escape(location.place))</code>"
    out += " · confidence \(finding.confidence.rawValue)"
    if let place = finding.placeLabel { out += " · <span class=\"origin\">\(escape(place))</span>" }
    out += "</p><p>\(prose(finding.message))</p>"
    // A finding in a built app has no code line to show.
    if location.binary == nil { out += code(finding) }
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

  /// The lines around the finding (its own line alone when the scan kept no more), numbered,
  /// the finding's bytes wrapped in `<mark>`.
  static func code(_ finding: Finding) -> String {
    let excerpt = finding.excerpt ?? CodeExcerpt(firstLine: finding.location.start.line, lines: [finding.snippet])
    let location = finding.location
    let lines = excerpt.lines.enumerated().map { offset, text in
      let number = excerpt.firstLine + offset
      let isFinding = (location.start.line...max(location.start.line, location.end.line)).contains(number)
      return "<span class=\"line\(isFinding ? " hit" : "")\">\(number)</span>"
        + (isFinding ? highlighted(text, line: number, location) : escape(text))
    }
    return "<pre class=\"code\">" + lines.joined(separator: "\n") + "</pre>"
  }

  /// Line `line` of the finding, the part of `location` on it wrapped in `<mark>`.
  static func highlighted(_ text: String, line number: Int, _ location: SourceLocation) -> String {
    let line = Array(text.utf8)
    let start = number == location.start.line ? min(max(location.start.column - 1, 0), line.count) : 0
    let end = number == location.end.line ? min(max(location.end.column - 1, start), line.count) : line.count
    let part = { (range: Range<Int>) in escape(String(decoding: line[range], as: UTF8.self)) }
    // Lines after the first are marked only where they have text.
    guard number == location.start.line || start < end else { return part(0..<line.count) }
    return part(0..<start) + "<mark>" + part(start..<end) + "</mark>" + part(end..<line.count)
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
    .code{background:#f0f0f0;padding:.5rem;overflow-x:auto}
    .line{color:#888;display:inline-block;min-width:3ch;text-align:right;margin-right:1rem;user-select:none}
    .line.hit{color:#1d1d1f;font-weight:bold}
    .filter{margin-top:.8rem;color:#555}.filter label{margin-left:.8rem;white-space:nowrap}
    .record th{width:9rem;color:#555;font-weight:normal;vertical-align:top}.digest{word-break:break-all}
    mark{background:#ffd54f}.origin{background:#e0e0e0;border-radius:.4rem;padding:0 .4rem}.where,.meta{color:#555;margin:.2rem 0}.fix{color:#2e7d32}.note{color:#555}
    details{margin:.5rem 0}footer{color:#888;margin-top:2rem}.clean{color:#2e7d32;font-size:1.2rem}
    """
  /// The MASTG tests the rules check: verdict, rules, and the places that show it.
  static func evidence(_ evidence: [TestEvidence]) -> String {
    var html = "<section><h2>MASTG evidence</h2><table><tr><th>Test</th><th>Verdict</th><th>Shown by</th></tr>"
    for test in evidence {
      html += "<tr><td><code>\(escape(test.test))</code><br>\(escape(test.title))</td>"
      html += "<td>\(escape(test.verdict.rawValue))</td><td><ul>"
      for place in test.places {
        html += "<li><code>\(escape(place.path)):\(place.line)</code> \(escape(place.note))</li>"
      }
      if test.places.isEmpty { html += "<li>no code the scan read shows this subject</li>" }
      html += "</ul>checked by \(escape(test.rules.joined(separator: ", ")))</td></tr>"
    }
    return html + "</table></section>\n"
  }
}
