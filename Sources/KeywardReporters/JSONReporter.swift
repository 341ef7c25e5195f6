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
    let counts = result.activeCounts
    let activeCount = counts.values.reduce(0, +)
    var bySeverity: [String: JSONValue] = [:]
    for (severity, count) in counts { bySeverity[severity.rawValue] = .int(count) }
    let marker = "\u{0}findings\u{0}"
    let report: [String: JSONValue] = [
      "version": .int(Self.formatVersion),
      "tool": .object(["name": .string("keyward"), "version": .string(KeywardVersion.current)]),
      "summary": .object([
        "filesScanned": .int(result.filesScanned), "filesParsed": .int(result.filesParsed),
        "findings": .int(activeCount), "suppressed": .int(result.findings.count - activeCount),
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
        FindingPrinter.print(block[block.startIndex + offset], indent: 4)
      }
      var text: [UInt8] = []
      text.reserveCapacity(printed.reduce(0) { $0 + $1.count + 6 })
      for (position, finding) in printed.enumerated() {
        text += "    ".utf8
        text += finding
        text += (position + 1 < printed.count || block.endIndex < findings.count ? ",\n" : "\n").utf8
      }
      try output(String(decoding: text, as: UTF8.self))
    }
    try output("  ]")
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

  static func json(_ issue: ScanIssue) -> JSONValue {
    .object([
      "path": .string(issue.path), "kind": .string(issue.kind.rawValue), "message": .string(issue.message),
      "line": issue.line.map(JSONValue.int) ?? .null, "column": issue.column.map(JSONValue.int) ?? .null,
    ])
  }
}
