import KeywardCore

/// Output for a terminal: `path:line:column: severity: message [rule]`, the code line with the
/// finding underlined, notes and fixes, then files that could not be scanned and a summary.
/// Suppressed findings are counted but not shown.
public struct TextReporter: StreamingReporter {
  public var useColor: Bool

  public init(useColor: Bool = false) { self.useColor = useColor }

  public var findingSeparator: String { "" }

  public func printFindings(_ findings: [Finding], scope: ReportScope) -> [UInt8] {
    var out = ""
    for finding in findings where finding.isActive {
      out += render(finding)
      out += "\n"
    }
    return Array(out.utf8)
  }

  public func writeDocument(
    _ result: ScanResult, findings: PrintedFindings, to output: (String) throws -> Void
  ) throws {
    try findings.write(output)
    var out = ""
    for issue in result.errors {
      let place = issue.line.map { "\(issue.path):\($0):\(issue.column ?? 1)" } ?? issue.path
      out += "\(place): \(paint("error", .red)): \(issue.message)\n"
    }
    if !result.errors.isEmpty { out += "\n" }
    out += Self.binaries(result.binaries)
    if let evidence = result.evidence { out += Self.evidence(evidence) }
    out += summary(result, findings) + "\n"
    try output(out)
  }

  func render(_ finding: Finding) -> String {
    var out = "\(finding.location.place): "
    out += "\(paint(finding.severity.rawValue, color(finding.severity))): \(finding.message) "
    out += paint("[\(finding.ruleId)]", .dim)
    if let place = finding.placeLabel { out += " " + paint("[\(place)]", .dim) }
    out += "\n"
    // A built app has no lines to show.
    guard finding.location.binary == nil else { return out }
    let start = finding.location.start
    let gutter = String(start.line)
    let pad = String(repeating: " ", count: gutter.count)
    out += " \(gutter) | \(finding.snippet)\n"
    out += " \(pad) | \(paint(underline(finding), .green))\n"
    for related in finding.related {
      let place = related.location
      out += " \(pad) = note: \(related.message) (\(place.path):\(place.start.line):\(place.start.column))\n"
    }
    if let fix = finding.fix {
      let kind =
        fix.behaviorChange.map { " (changes behaviour: \($0))" } ?? (fix.safe ? "" : " (review before applying)")
      out += " \(pad) = fix\(kind): \(fix.description)\n"
    }
    return out
  }

  /// Spaces up to the finding's first column (keeping tabs, so it lines up), then `^~~~`.
  func underline(_ finding: Finding) -> String {
    let line = Array(finding.snippet.utf8)
    let startColumn = min(max(finding.location.start.column - 1, 0), line.count)
    let endColumn =
      finding.location.end.line == finding.location.start.line
      ? min(max(finding.location.end.column - 1, startColumn), line.count) : line.count
    let before = String(decoding: line[..<startColumn], as: UTF8.self)
    let marked = String(decoding: line[startColumn..<endColumn], as: UTF8.self)
    let indent = String(before.map { $0 == "\t" ? "\t" : " " })
    return indent + "^" + String(repeating: "~", count: max(marked.count - 1, 0))
  }

  /// The `otool -L` view of each built app scanned.
  static func binaries(_ binaries: [BinarySummary]) -> String {
    var out = ""
    for binary in binaries {
      out += "\(binary.path)\(binary.bundleIdentifier.map { " (\($0))" } ?? ""):\n"
      for file in binary.files {
        let name = file.path.isEmpty ? binary.path : file.path
        if let bundle = file.bundle { out += "  \(name): shipped by \(bundle.description)\n" }
        if let entitlements = file.entitlements {
          let protection =
            entitlements.defaultDataProtection ?? "not set (NSFileProtectionCompleteUntilFirstUserAuthentication)"
          out += "  \(name): default data protection \(protection)\n"
          let shared = entitlements.sharedKeychainAccessGroups
          if !shared.isEmpty {
            out += "  \(name): keychain groups shared with other apps: \(shared.joined(separator: ", "))\n"
          }
        }
        for architecture in file.architectures {
          out += "  \(name) [\(architecture.name)\(architecture.encrypted ? ", encrypted" : "")] links:\n"
          out += architecture.linkedLibraries.map { "    \($0)\n" }.joined()
        }
      }
      out += "\n"
    }
    return out
  }

  func summary(_ result: ScanResult, _ findings: PrintedFindings) -> String {
    let counts = findings.counts
    let files = "\(result.filesScanned) file\(result.filesScanned == 1 ? "" : "s")"
    var text: String
    if counts.activeTotal == 0 {
      text = "No findings in \(files)."
    } else {
      let bySeverity = Severity.allCases.reversed().compactMap { severity -> String? in
        let count = counts.active[severity, default: 0]
        return count == 0 ? nil : "\(count) \(severity.rawValue)"
      }
      text =
        "\(counts.activeTotal) finding\(counts.activeTotal == 1 ? "" : "s") (\(bySeverity.joined(separator: ", "))) in \(files)."
    }
    let informational = counts.informational(result.failPolicy)
    if informational.count > 0 {
      let counted = counts.activeTotal - informational.count
      text +=
        " \(counted) count\(counted == 1 ? "s" : "") toward --fail-on; \(informational.count) in \(listed(informational.places)) \(informational.count == 1 ? "is" : "are") shown for information (--fail-origin makes them count)."
    }
    if counts.suppressed > 0 { text += " \(counts.suppressed) suppressed." }
    if !result.errors.isEmpty {
      text += " \(result.errors.count) file\(result.errors.count == 1 ? "" : "s") could not be scanned completely."
    }
    if let rule = findings.firstActiveRule {
      text += "\nRun `keyward explain \(rule)` to learn why a rule matters and how to fix what it finds."
    }
    return text
  }

  enum Color: String {
    case red = "31"
    case yellow = "33"
    case blue = "34"
    case green = "32"
    case dim = "2"
  }

  func color(_ severity: Severity) -> Color {
    switch severity {
    case .critical, .high: .red
    case .medium, .low: .yellow
    case .info: .blue
    }
  }

  func paint(_ text: String, _ color: Color) -> String {
    useColor ? "\u{1B}[\(color.rawValue)m\(text)\u{1B}[0m" : text
  }
  /// The MASTG tests the rules check, with their verdicts and the places that show them.
  static func evidence(_ evidence: [TestEvidence]) -> String {
    var out = "MASTG evidence:\n"
    for test in evidence {
      out += "  \(test.test) \(test.title): \(test.verdict.rawValue)\n"
      for place in test.places { out += "    \(place.path):\(place.line): \(place.note)\n" }
    }
    return out + "\n"
  }
}
