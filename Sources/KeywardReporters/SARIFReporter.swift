import Foundation
import KeywardCore

/// SARIF 2.1.0 as GitHub code scanning reads it: rules with help and `security-severity`,
/// repository-relative URIs, UTF-16 columns, `partialFingerprints`, suppressions, and files
/// that could not be scanned as tool notifications.
public struct SARIFReporter: StreamingReporter {
  public static let schemaURI = "https://json.schemastore.org/sarif-2.1.0.json"

  public init() {}

  public var findingSeparator: String { ",\n" }

  /// Each result printed as built, at its depth in the log (runs > run > results > result).
  public func printFindings(_ findings: [Finding], scope: ReportScope) -> [UInt8] {
    let ruleIndex = Dictionary(
      uniqueKeysWithValues: scope.rules.enumerated().map { ($0.element.metadata.id, $0.offset) })
    let lineHashes = Self.primaryLocationLineHashes(findings)
    var text = ""
    for (offset, finding) in findings.enumerated() {
      if offset > 0 { text += ",\n" }
      text += String(repeating: " ", count: 8)
      text += Self.result(
        finding, ruleIndex: ruleIndex[finding.ruleId], lineHash: lineHashes[offset],
        counts: scope.failPolicy.fails(finding)
      ).rendered(indent: 8)
    }
    return Array(text.utf8)
  }

  public func writeDocument(
    _ result: ScanResult, findings: PrintedFindings, to output: (String) throws -> Void
  ) throws {
    var run: [String: JSONValue] = [
      "tool": .object([
        "driver": .object([
          "name": .string("Keyward"),
          "semanticVersion": .string(KeywardVersion.current),
          "version": .string(KeywardVersion.current),
          "rules": .array(result.rules.map(Self.rule)),
        ])
      ]),
      "columnKind": .string("utf16CodeUnits"),
      "results": .raw(PrintedFindings.marker),
      "invocations": .array([
        .object([
          "executionSuccessful": .bool(true),
          "toolExecutionNotifications": .array(
            result.errors.map(Self.notification) + result.skippedFolders.map(Self.skippedNotification)),
        ])
      ]),
    ]
    if let evidence = result.evidence {
      // The MASTG tests checked, and whether the app passes them (`--evidence`).
      run["properties"] = .object(["mastgEvidence": .array(evidence.map(JSONReporter.json))])
    }
    let log: [String: JSONValue] = [
      "$schema": .string(Self.schemaURI),
      "version": .string("2.1.0"),
      "runs": .array([.object(run)]),
    ]
    try findings.writeArray(in: .object(log), indent: 6, to: output)
  }

  static func rule(_ configured: ConfiguredRule) -> JSONValue {
    let metadata = configured.metadata
    var properties: [String: JSONValue] = [
      "tags": .array(tags(metadata).map(JSONValue.string)),
      "precision": .string(precision(metadata.confidence)),
      "problem.severity": .string(
        metadata.severity >= .high ? "error" : metadata.severity >= .low ? "warning" : "recommendation"),
    ]
    if let score = metadata.severity.securityScore { properties["security-severity"] = .string(score) }
    return .object([
      "id": .string(metadata.id),
      "name": .string(metadata.title),
      "shortDescription": .object(["text": .string(metadata.title)]),
      "fullDescription": .object(["text": .string(String(metadata.description.prefix(1024)))]),
      "help": .object([
        "text": .string(metadata.description + "\n\n" + metadata.remediation),
        "markdown": .string(RuleDocumentation.markdown(for: configured.rule)),
      ]),
      "defaultConfiguration": .object(["level": .string(level(metadata.severity))]),
      "properties": .object(properties),
    ])
  }

  /// The rule's own tags, plus `security` and CodeQL-style CWE tags that GitHub recognises.
  static func tags(_ metadata: RuleMetadata) -> [String] {
    let cwe = metadata.tags.compactMap { tag -> String? in
      guard tag.hasPrefix("CWE:") else { return nil }
      return "external/cwe/cwe-" + tag.dropFirst(4)
    }
    return Array((["security"] + metadata.tags + cwe).prefix(20))
  }

  /// A result; one whose code does not count toward `--fail-on` (tests, samples, third-party,
  /// generated, DEBUG- or simulator-only) is a note, whatever its severity.
  static func result(_ finding: Finding, ruleIndex: Int?, lineHash: String, counts: Bool = true) -> JSONValue {
    var properties: [String: JSONValue] = [
      "severity": .string(finding.severity.rawValue),
      "confidence": .string(finding.confidence.rawValue),
      "origin": .string(finding.origin.rawValue),
    ]
    if let condition = finding.buildCondition { properties["buildCondition"] = .string(condition.rawValue) }
    if let bundle = finding.location.binary?.bundle { properties["bundle"] = JSONReporter.json(bundle) }
    var object: [String: JSONValue] = [
      "ruleId": .string(finding.ruleId),
      "level": .string(counts ? level(finding.severity) : "note"),
      "message": .object(["text": .string(finding.message)]),
      "locations": .array([.object(["physicalLocation": physicalLocation(finding.location, snippet: finding.snippet)])]
      ),
      "partialFingerprints": .object([
        "primaryLocationLineHash": .string(lineHash),
        "keyward/v1": .string(finding.fingerprint),
      ]),
      "properties": .object(properties),
    ]
    if let ruleIndex { object["ruleIndex"] = .int(ruleIndex) }
    if !finding.related.isEmpty {
      object["relatedLocations"] = .array(
        finding.related.enumerated().map { index, related in
          .object([
            "id": .int(index + 1),
            "message": .object(["text": .string(related.message)]),
            "physicalLocation": physicalLocation(related.location, snippet: nil),
          ])
        })
    }
    if let suppression = finding.suppression {
      var entry: [String: JSONValue] = ["kind": .string(suppression.kind == .inline ? "inSource" : "external")]
      if let justification = suppression.justification { entry["justification"] = .string(justification) }
      object["suppressions"] = .array([.object(entry)])
    }
    if let fix = finding.fix {
      object["fixes"] = .array([
        .object([
          "description": .object(["text": .string(fix.description)]),
          "artifactChanges": .array([
            .object([
              "artifactLocation": artifactLocation(finding.location.path),
              "replacements": .array(
                fix.edits.map { edit in
                  .object([
                    "deletedRegion": .object([
                      "byteOffset": .int(edit.start), "byteLength": .int(edit.end - edit.start),
                    ]),
                    "insertedContent": .object(["text": .string(edit.replacement)]),
                  ])
                }),
            ])
          ]),
        ])
      ])
    }
    return .object(object)
  }

  static func physicalLocation(_ location: SourceLocation, snippet: String?) -> JSONValue {
    if let site = location.binary {
      // A built app: the Mach-O file inside the scanned bundle, its byte offset and the address.
      let path = site.file.isEmpty ? location.path : location.path + "/" + site.file
      var object: [String: JSONValue] = [
        "artifactLocation": artifactLocation(path),
        "region": .object(["byteOffset": .int(location.start.offset), "byteLength": .int(0)]),
      ]
      if let address = site.address, address <= UInt64(Int.max) {
        object["address"] = .object(["absoluteAddress": .int(Int(address))])
      }
      return .object(object)
    }
    var region: [String: JSONValue] = [
      "startLine": .int(location.start.line),
      "startColumn": .int(location.start.utf16Column),
      "endLine": .int(location.end.line),
      "endColumn": .int(location.end.utf16Column),
    ]
    if let snippet { region["snippet"] = .object(["text": .string(snippet)]) }
    return .object(["artifactLocation": artifactLocation(location.path), "region": .object(region)])
  }

  static func artifactLocation(_ path: String) -> JSONValue {
    .object(["uri": .string(uri(for: path)), "uriBaseId": .string("%SRCROOT%")])
  }

  static func notification(_ issue: ScanIssue) -> JSONValue {
    var object: [String: JSONValue] = [
      "level": .string(issue.kind == .parse ? "warning" : "error"),
      "message": .object(["text": .string("\(issue.path): \(issue.message)")]),
      "descriptor": .object(["id": .string("keyward.scan-error.\(issue.kind.rawValue)")]),
    ]
    var region: [String: JSONValue] = [:]
    if let line = issue.line { region["startLine"] = .int(line) }
    var physical: [String: JSONValue] = ["artifactLocation": artifactLocation(issue.path)]
    if !region.isEmpty { physical["region"] = .object(region) }
    object["locations"] = .array([.object(["physicalLocation": .object(physical)])])
    return .object(object)
  }

  /// A dependency folder passed over, said once so that its code is not lost silently.
  static func skippedNotification(_ folder: String) -> JSONValue {
    .object([
      "level": .string("note"),
      "message": .object([
        "text": .string(
          "\(folder): third-party code not scanned; name the folder or set `includeThirdParty: true` in .keyward.yml to scan it"
        )
      ]),
      "descriptor": .object(["id": .string("keyward.skipped-folder")]),
      "locations": .array([.object(["physicalLocation": .object(["artifactLocation": artifactLocation(folder)])])]),
    ])
  }

  /// A relative URI reference: each path segment percent-encoded, non-ASCII included (RFC 3986
  /// allows only ASCII; `CharacterSet.alphanumerics` would let "É" through).
  public static func uri(for path: String) -> String {
    let allowed = CharacterSet(
      charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@")
    return path.split(separator: "/", omittingEmptySubsequences: false).map {
      String($0).addingPercentEncoding(withAllowedCharacters: allowed) ?? String($0)
    }.joined(separator: "/")
  }

  static func level(_ severity: Severity) -> String {
    switch severity {
    case .critical, .high: "error"
    case .medium, .low: "warning"
    case .info: "note"
    }
  }

  static func precision(_ confidence: Confidence) -> String {
    switch confidence {
    case .high: "high"
    case .medium: "medium"
    case .low: "low"
    }
  }

  /// Per finding, a hash of its line's text without white space, numbered among identical lines
  /// of the same file (`hash:n`), so alerts follow code that moves. Numbering is per file, so
  /// the findings may be given file by file.
  static func primaryLocationLineHashes(_ findings: [Finding]) -> [String] {
    var seen: [String: Int] = [:]
    return findings.map { finding in
      let hash = Fingerprint.hash([Fingerprint.normalized(finding.snippet)])
      let key = finding.location.path + "\u{0}" + hash
      let occurrence = (seen[key] ?? 0) + 1
      seen[key] = occurrence
      return "\(hash):\(occurrence)"
    }
  }
}
