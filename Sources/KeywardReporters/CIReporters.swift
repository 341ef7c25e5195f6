import KeywardCore

/// GitLab's code quality report: a JSON array of issues (`description`, `check_name`,
/// `fingerprint`, `severity`, `location.path`, `location.lines.begin`) that merge requests show.
/// Active findings only, then one `info` issue per file not scanned completely.
public struct GitLabCodeQualityReporter: StreamingReporter {
  public init() {}

  public var findingSeparator: String { ",\n" }
  public var groupsByRule: Bool { true }

  public func printFindings(_ findings: [Finding], scope: ReportScope) -> [UInt8] {
    let objects = findings.filter(\.isActive).map { finding in
      let location = finding.location
      return Self.issue(
        check: finding.ruleId, description: finding.message + XcodeReporter.inside(location),
        fingerprint: finding.fingerprint, severity: Self.severity(finding.severity), path: location.path,
        line: location.binary == nil ? location.start.line : 1)
    }
    return Array(objects.joined(separator: ",\n").utf8)
  }

  public func writeDocument(
    _ result: ScanResult, findings: PrintedFindings, to output: (String) throws -> Void
  ) throws {
    try output("[\n")
    let written = try writeItems(result, findings: findings, to: output) { issue in
      Self.issue(
        check: "keyward.scan-error.\(issue.kind.rawValue)",
        description: "keyward could not scan this file completely: \(issue.message)",
        fingerprint: "keyward-scan-error:\(issue.path)", severity: "info", path: issue.path, line: issue.line ?? 1)
    }
    try output(written ? "\n]\n" : "]\n")
  }

  static func issue(
    check: String, description: String, fingerprint: String, severity: String, path: String, line: Int
  ) -> String {
    "  "
      + JSONValue.object([
        "type": .string("issue"), "check_name": .string(check), "description": .string(description),
        "categories": .array([.string("Security")]), "fingerprint": .string(fingerprint),
        "severity": .string(severity),
        "location": .object(["path": .string(path), "lines": .object(["begin": .int(line)])]),
      ]).rendered(indent: 2)
  }

  /// GitLab's scale: info, minor, major, critical, blocker.
  static func severity(_ severity: Severity) -> String {
    switch severity {
    case .critical: "blocker"
    case .high: "critical"
    case .medium: "major"
    case .low: "minor"
    case .info: "info"
    }
  }
}

/// SonarQube's generic issue import format (`sonar.externalIssuesReportPaths`, SonarQube 10.3 and
/// later): one issue per active finding with its text range (columns from 0), then the rules
/// that ran, with their clean-code attribute and impact on security (and the older type and
/// severity). Files not scanned completely are issues of the rule `keyward.scan-error`.
public struct SonarQubeReporter: StreamingReporter {
  public init() {}

  public var findingSeparator: String { ",\n" }
  public var groupsByRule: Bool { true }

  public func printFindings(_ findings: [Finding], scope: ReportScope) -> [UInt8] {
    let objects = findings.filter(\.isActive).map { finding in
      let location = finding.location
      var primary: [String: JSONValue] = [
        "message": .string(finding.message + XcodeReporter.inside(location)), "filePath": .string(location.path),
      ]
      // A built app has no lines: the issue is on the file.
      if location.binary == nil {
        primary["textRange"] = .object([
          "startLine": .int(location.start.line), "startColumn": .int(location.start.column - 1),
          "endLine": .int(location.end.line), "endColumn": .int(location.end.column - 1),
        ])
      }
      return Self.issue(rule: finding.ruleId, primary: primary)
    }
    return Array(objects.joined(separator: ",\n").utf8)
  }

  public func writeDocument(
    _ result: ScanResult, findings: PrintedFindings, to output: (String) throws -> Void
  ) throws {
    try output("{\n  \"issues\": [\n")
    let written = try writeItems(result, findings: findings, to: output) { issue in
      var primary: [String: JSONValue] = [
        "message": .string("keyward could not scan this file completely: \(issue.message)"),
        "filePath": .string(issue.path),
      ]
      if let line = issue.line { primary["textRange"] = .object(["startLine": .int(line)]) }
      return Self.issue(rule: "keyward.scan-error", primary: primary)
    }
    try output(written ? "\n  ],\n  \"rules\": " : "  ],\n  \"rules\": ")
    var rules: [JSONValue] = result.rules.map { rule in
      Self.rule(
        id: rule.metadata.id, name: rule.metadata.title, description: rule.metadata.description,
        severity: rule.severity)
    }
    if !result.errors.isEmpty {
      rules.append(
        Self.rule(
          id: "keyward.scan-error", name: "File not scanned completely",
          description: "Keyward could not read or parse this file completely; findings in it may be missing.",
          severity: .info))
    }
    try output(JSONValue.array(rules).rendered(indent: 2) + "\n}\n")
  }

  static func issue(rule: String, primary: [String: JSONValue]) -> String {
    "    "
      + JSONValue.object(["ruleId": .string(rule), "effortMinutes": .int(5), "primaryLocation": .object(primary)])
      .rendered(indent: 4)
  }

  static func rule(id: String, name: String, description: String, severity: Severity) -> JSONValue {
    .object([
      "id": .string(id), "name": .string(name), "description": .string(description), "engineId": .string("keyward"),
      "cleanCodeAttribute": .string("TRUSTWORTHY"), "type": .string("VULNERABILITY"),
      "severity": .string(Self.severity(severity)),
      "impacts": .array([
        .object(["softwareQuality": .string("SECURITY"), "severity": .string(Self.impact(severity))])
      ]),
    ])
  }

  static func severity(_ severity: Severity) -> String {
    switch severity {
    case .critical: "BLOCKER"
    case .high: "CRITICAL"
    case .medium: "MAJOR"
    case .low: "MINOR"
    case .info: "INFO"
    }
  }

  static func impact(_ severity: Severity) -> String {
    switch severity {
    case .critical, .high: "HIGH"
    case .medium: "MEDIUM"
    case .low, .info: "LOW"
    }
  }
}

/// Writes the printed findings rule by rule, then one item per file not scanned completely, all
/// separated by commas, as both CI formats list them; returns whether anything was written.
func writeItems(
  _ result: ScanResult, findings: PrintedFindings, to output: (String) throws -> Void,
  error: (ScanIssue) -> String
) throws -> Bool {
  var written = false
  func next() throws {
    if written { try output(",\n") }
    written = true
  }
  for rule in result.rules {
    var started = false
    try findings.write(rule: rule.metadata.id) { piece in
      if !started {
        try next()
        started = true
      }
      try output(piece)
    }
  }
  for issue in result.errors {
    try next()
    try output(error(issue))
  }
  return written
}
