import KeywardCore

/// The versioned JSON report: `{"version": 1, "tool": ..., "summary": ..., "findings": [...],
/// "errors": [...]}`. Paths are relative to the scan root; findings are in report order.
public struct JSONReporter: Reporter {
  public static let formatVersion = 1

  public init() {}

  public func render(_ result: ScanResult) throws -> String {
    var out = ""
    write(result) { out += $0 }
    return out
  }

  /// The document around the findings is printed whole; the findings are printed in blocks, each
  /// block's findings on all cores, and handed on as soon as they are printed.
  public func write(_ result: ScanResult, to output: (String) throws -> Void) rethrows {
    let active = result.activeFindings
    var bySeverity: [String: JSONValue] = [:]
    for severity in Severity.allCases {
      let count = active.filter { $0.severity == severity }.count
      if count > 0 { bySeverity[severity.rawValue] = .int(count) }
    }
    let marker = "\u{0}findings\u{0}"
    let report: [String: JSONValue] = [
      "version": .int(Self.formatVersion),
      "tool": .object(["name": .string("keyward"), "version": .string(KeywardVersion.current)]),
      "summary": .object([
        "filesScanned": .int(result.filesScanned), "filesParsed": .int(result.filesParsed),
        "findings": .int(active.count), "suppressed": .int(result.findings.count - active.count),
        "bySeverity": .object(bySeverity), "rules": .array(result.rules.map { .string($0.metadata.id) }),
      ]),
      "findings": .raw(marker),
      "errors": .array(result.errors.map(Self.json)),
      "binaries": .array(result.binaries.map(Self.json)),
    ]
    let document = JSONValue.object(report).rendered()
    let split = document.range(of: marker)!
    try output(String(document[..<split.lowerBound]))
    try Self.writeFindings(result.findings, to: output)
    try output(String(document[split.upperBound...]))
  }

  private static func writeFindings(_ findings: [Finding], to output: (String) throws -> Void) rethrows {
    guard !findings.isEmpty else { return try output("[]") }
    try output("[\n")
    let blockSize = 2048
    for blockStart in stride(from: 0, to: findings.count, by: blockSize) {
      let block = findings[blockStart..<min(blockStart + blockSize, findings.count)]
      let printed = ParallelWork.map(count: block.count, jobs: 0) { offset in
        "    " + json(block[block.startIndex + offset]).rendered(indent: 4)
      }
      var text = printed.joined(separator: ",\n")
      text += block.endIndex == findings.count ? "\n" : ",\n"
      try output(text)
    }
    try output("  ]")
  }

  static func json(_ finding: Finding) -> JSONValue {
    .object([
      "ruleId": .string(finding.ruleId),
      "severity": .string(finding.severity.rawValue),
      "confidence": .string(finding.confidence.rawValue),
      "message": .string(finding.message),
      "location": json(finding.location),
      "snippet": .string(finding.snippet),
      "tags": .array(finding.tags.map(JSONValue.string)),
      "fingerprint": .string(finding.fingerprint),
      "suppression": finding.suppression.map { suppression in
        .object([
          "kind": .string(suppression.kind.rawValue),
          "justification": suppression.justification.map(JSONValue.string) ?? .null,
        ])
      } ?? .null,
      "fix": finding.fix.map { fix in
        .object([
          "description": .string(fix.description), "safe": .bool(fix.safe),
          "edits": .array(
            fix.edits.map {
              .object(["start": .int($0.start), "end": .int($0.end), "replacement": .string($0.replacement)])
            }),
        ])
      } ?? .null,
      "related": .array(
        finding.related.map { .object(["message": .string($0.message), "location": json($0.location)]) }),
    ])
  }

  static func json(_ location: SourceLocation) -> JSONValue {
    var object: [String: JSONValue] = [
      "path": .string(location.path), "start": json(location.start), "end": json(location.end),
    ]
    if let site = location.binary {
      object["binary"] = .object([
        "file": .string(site.file), "architecture": site.architecture.map(JSONValue.string) ?? .null,
        "address": site.address.map { .string("0x" + String($0, radix: 16)) } ?? .null,
      ])
    }
    return .object(object)
  }

  static func json(_ binary: BinarySummary) -> JSONValue {
    .object([
      "path": .string(binary.path),
      "bundleIdentifier": binary.bundleIdentifier.map(JSONValue.string) ?? .null,
      "files": .array(
        binary.files.map { file in
          .object([
            "path": .string(file.path),
            "architectures": .array(
              file.architectures.map { architecture in
                .object([
                  "name": .string(architecture.name), "encrypted": .bool(architecture.encrypted),
                  "linkedLibraries": .array(architecture.linkedLibraries.map(JSONValue.string)),
                ])
              }),
          ])
        }),
    ])
  }

  static func json(_ position: SourcePosition) -> JSONValue {
    .object([
      "line": .int(position.line), "column": .int(position.column), "utf16Column": .int(position.utf16Column),
      "offset": .int(position.offset),
    ])
  }

  static func json(_ issue: ScanIssue) -> JSONValue {
    .object([
      "path": .string(issue.path), "kind": .string(issue.kind.rawValue), "message": .string(issue.message),
      "line": issue.line.map(JSONValue.int) ?? .null, "column": issue.column.map(JSONValue.int) ?? .null,
    ])
  }
}
