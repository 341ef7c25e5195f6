import KeywardCore

/// The versioned JSON report: `{"version": 1, "tool": ..., "summary": ..., "findings": [...],
/// "errors": [...]}`. Paths are relative to the scan root; findings are in report order.
public struct JSONReporter: StreamingReporter {
  public static let formatVersion = 1

  public init() {}

  public var findingSeparator: String { ",\n" }

  public func printFindings(_ findings: [Finding], scope: ReportScope) -> [UInt8] {
    var text: [UInt8] = []
    for finding in findings {
      if !text.isEmpty { text += ",\n".utf8 }
      text += "    ".utf8
      text += FindingPrinter.print(finding, indent: 4)
    }
    return text
  }

  /// The document around the findings is rendered whole, with a marker where they go.
  public func writeDocument(
    _ result: ScanResult, findings: PrintedFindings, to output: (String) throws -> Void
  ) throws {
    let counts = findings.counts
    var bySeverity: [String: JSONValue] = [:]
    for (severity, count) in counts.active { bySeverity[severity.rawValue] = .int(count) }
    var byOrigin: [String: JSONValue] = [:]
    for (origin, count) in counts.activeByOrigin { byOrigin[origin.rawValue] = .int(count) }
    var byBuildCondition: [String: JSONValue] = [:]
    for (condition, count) in counts.activeByBuildCondition { byBuildCondition[condition.rawValue] = .int(count) }
    let counted = counts.counted(by: result.failPolicy).values.reduce(0, +)
    let report: [String: JSONValue] = [
      "version": .int(Self.formatVersion),
      "tool": .object(["name": .string("keyward"), "version": .string(KeywardVersion.current)]),
      "summary": .object([
        "filesScanned": .int(result.filesScanned), "filesParsed": .int(result.filesParsed),
        "findings": .int(counts.activeTotal), "suppressed": .int(counts.suppressed),
        "bySeverity": .object(bySeverity), "rules": .array(result.rules.map { .string($0.metadata.id) }),
        // Where findings live; `informational` ones do not count toward `--fail-on`.
        "byOrigin": .object(byOrigin), "byBuildCondition": .object(byBuildCondition),
        "informational": .int(counts.activeTotal - counted),
        "failOrigins": .array(result.failPolicy.valueNames.map(JSONValue.string)),
        "skippedFolders": .array(result.skippedFolders.map(JSONValue.string)),
      ]),
      "findings": .raw(PrintedFindings.marker),
      "errors": .array(result.errors.map(Self.json)),
      "binaries": .array(result.binaries.map(Self.json)),
    ]
    var document = report
    if let evidence = result.evidence { document["evidence"] = .array(evidence.map(Self.json)) }
    try findings.writeArray(in: .object(document), indent: 2, to: output)
  }

  /// One MASTG test's verdict and the places that show it.
  static func json(_ evidence: TestEvidence) -> JSONValue {
    .object([
      "test": .string(evidence.test), "title": .string(evidence.title), "verdict": .string(evidence.verdict.rawValue),
      "rules": .array(evidence.rules.map(JSONValue.string)),
      "places": .array(
        evidence.places.map {
          .object(["note": .string($0.note), "path": .string($0.path), "line": .int($0.line)])
        }),
    ])
  }

  static func json(_ binary: BinarySummary) -> JSONValue {
    .object([
      "path": .string(binary.path),
      "bundleIdentifier": binary.bundleIdentifier.map(JSONValue.string) ?? .null,
      "files": .array(
        binary.files.map { file in
          .object([
            "path": .string(file.path),
            "bundle": file.bundle.map(json) ?? .null,
            "entitlements": file.entitlements.map(json) ?? .null,
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

  static func json(_ bundle: ShippingBundle) -> JSONValue {
    .object([
      "kind": .string(bundle.kind.rawValue), "name": .string(bundle.name),
      "identifier": bundle.identifier.map(JSONValue.string) ?? .null,
      "version": bundle.version.map(JSONValue.string) ?? .null,
    ])
  }

  static func json(_ entitlements: SigningEntitlements) -> JSONValue {
    .object([
      "applicationIdentifier": entitlements.applicationIdentifier.map(JSONValue.string) ?? .null,
      "defaultDataProtection": entitlements.defaultDataProtection.map(JSONValue.string) ?? .null,
      "keychainAccessGroups": .array(entitlements.keychainAccessGroups.map(JSONValue.string)),
      "sharedKeychainAccessGroups": .array(entitlements.sharedKeychainAccessGroups.map(JSONValue.string)),
    ])
  }

  static func json(_ issue: ScanIssue) -> JSONValue {
    .object([
      "path": .string(issue.path), "kind": .string(issue.kind.rawValue), "message": .string(issue.message),
      "line": issue.line.map(JSONValue.int) ?? .null, "column": issue.column.map(JSONValue.int) ?? .null,
    ])
  }
}
