import KeywardCore

/// Turns a scan result into one output format.
public protocol Reporter {
  func render(_ result: ScanResult) throws -> String
  /// Hands the report to `output` piece by piece, so a large report is never held whole.
  func write(_ result: ScanResult, to output: (String) throws -> Void) throws
}

extension Reporter {
  public func write(_ result: ScanResult, to output: (String) throws -> Void) throws {
    try output(try render(result))
  }
}

public enum ReportFormat: String, CaseIterable, Sendable {
  case text, json, sarif, xcode, github, markdown, html, csv, gitlab, sonarqube

  public func reporter(useColor: Bool = false) -> any Reporter {
    switch self {
    case .text: TextReporter(useColor: useColor)
    case .json: JSONReporter()
    case .sarif: SARIFReporter()
    case .xcode: XcodeReporter()
    case .github: GitHubReporter()
    case .markdown: MarkdownReporter()
    case .html: HTMLReporter()
    case .csv: CSVReporter()
    case .gitlab: GitLabCodeQualityReporter()
    case .sonarqube: SonarQubeReporter()
    }
  }

  /// Whether the report prints the scan record (`ScanResult.record`): what was scanned, when,
  /// at which commit, with which settings.
  public var printsScanRecord: Bool { self == .html }

  /// Lines of code the report shows before and after each finding (`Finding.excerpt`).
  public var contextLines: Int { self == .html ? 2 : 0 }
}

/// What printing findings may need besides the findings: the rules that ran, in the order of
/// `ScanResult.rules`, and the folder the findings' paths are relative to.
public struct ReportScope: Sendable {
  public var rules: [ConfiguredRule]
  public var root: String
  /// Which findings count toward `--fail-on`; the others are shown as notes, for information.
  public var failPolicy: FailPolicy

  public init(rules: [ConfiguredRule], root: String, failPolicy: FailPolicy = .default) {
    self.rules = rules
    self.root = root
    self.failPolicy = failPolicy
  }
}

extension ScanResult {
  public var reportScope: ReportScope { ReportScope(rules: rules, root: root, failPolicy: failPolicy) }
}

/// A reporter whose findings print independently of each other, so that they can be printed
/// file by file while the scan runs (into a `FindingSpool`) instead of being held to the end.
public protocol StreamingReporter: Reporter, Sendable {
  /// Findings in report order, printed as one piece of the report.
  func printFindings(_ findings: [Finding], scope: ReportScope) -> [UInt8]
  /// What goes between two printed pieces.
  var findingSeparator: String { get }
  /// Whether the report lists active findings rule by rule, in the order of the scope's rules,
  /// instead of all findings in report order. `printFindings` then gets active findings of one
  /// rule, and the document writes each rule's with `PrintedFindings.write(rule:to:)`.
  var groupsByRule: Bool { get }
  /// The whole report, `findings` writing the printed findings where they belong.
  func writeDocument(_ result: ScanResult, findings: PrintedFindings, to output: (String) throws -> Void) throws
}

/// The findings of a report, already counted, to be written in place.
public struct PrintedFindings {
  public var counts: FindingCounts
  public var isEmpty: Bool
  /// The rule of the first active finding in report order, for a closing hint.
  public var firstActiveRule: String?
  /// Writes the printed findings: all of them, or (for reports grouped by rule) one rule's.
  var writeFindings: (_ rule: String?, _ output: (String) throws -> Void) throws -> Void

  public init(
    counts: FindingCounts, isEmpty: Bool, firstActiveRule: String?,
    writeFindings: @escaping (_ rule: String?, _ output: (String) throws -> Void) throws -> Void
  ) {
    self.counts = counts
    self.isEmpty = isEmpty
    self.firstActiveRule = firstActiveRule
    self.writeFindings = writeFindings
  }

  public func write(_ output: (String) throws -> Void) throws { try writeFindings(nil, output) }

  /// The printed active findings of the rule `id`, for reports grouped by rule.
  public func write(rule id: String, to output: (String) throws -> Void) throws { try writeFindings(id, output) }

  /// Stands in a JSON document (as `.raw`) where the findings array goes.
  static let marker = "\u{0}findings\u{0}"

  /// Writes `document` with the findings as a JSON array in place of `marker`, whose line is
  /// indented by `indent` spaces: the document is rendered whole, the findings streamed.
  func writeArray(in document: JSONValue, indent: Int, to output: (String) throws -> Void) throws {
    let rendered = document.rendered()
    let split = rendered.range(of: Self.marker)!
    try output(String(rendered[..<split.lowerBound]))
    if isEmpty {
      try output("[]")
    } else {
      try output("[\n")
      try write(output)
      try output("\n" + String(repeating: " ", count: indent) + "]")
    }
    try output(String(rendered[split.upperBound...]))
  }
}

extension StreamingReporter {
  public var groupsByRule: Bool { false }

  public func render(_ result: ScanResult) throws -> String {
    var out = ""
    try write(result) { out += $0 }
    return out
  }

  /// The findings of `result` are printed in pieces on every core, and each group of pieces
  /// handed on as soon as it is printed.
  public func write(_ result: ScanResult, to output: (String) throws -> Void) throws {
    let findings = result.findings
    let scope = result.reportScope
    let printed = PrintedFindings(
      counts: result.counts, isEmpty: findings.isEmpty, firstActiveRule: findings.first(where: \.isActive)?.ruleId
    ) { rule, output in
      let selected = rule.map { rule in findings.filter { $0.isActive && $0.ruleId == rule } } ?? findings
      try printInPieces(selected, scope: scope, to: output)
    }
    try writeDocument(result, findings: printed, to: output)
  }

  private func printInPieces(_ findings: [Finding], scope: ReportScope, to output: (String) throws -> Void) throws {
    let pieceSize = 256
    let pieces = stride(from: 0, to: findings.count, by: pieceSize).map {
      $0..<min($0 + pieceSize, findings.count)
    }
    for groupStart in stride(from: 0, to: pieces.count, by: 16) {
      let group = Array(pieces[groupStart..<min(groupStart + 16, pieces.count)])
      let texts = ParallelWork.map(count: group.count, jobs: 0) {
        printFindings(Array(findings[group[$0]]), scope: scope)
      }
      for (offset, text) in texts.enumerated() {
        if groupStart + offset > 0 { try output(findingSeparator) }
        try output(String(decoding: text, as: UTF8.self))
      }
    }
  }

  /// The report of a scan whose findings went to `spool`.
  public func write(_ result: ScanResult, spooled spool: FindingSpool, to output: (String) throws -> Void) throws {
    let printed = PrintedFindings(counts: spool.counts, isEmpty: spool.isEmpty, firstActiveRule: spool.firstActiveRule)
    { rule, output in
      try spool.write(separator: findingSeparator, rule: rule, to: output)
    }
    try writeDocument(result, findings: printed, to: output)
  }

  /// A sink that prints findings for this reporter as files are scanned.
  public func spool(
    scope: ReportScope, prepare: @escaping @Sendable ([Finding]) -> [Finding] = { $0 }
  ) -> FindingSpool {
    FindingSpool(prepare: prepare, groupsByRule: groupsByRule) { printFindings($0, scope: scope) }
  }
}

extension Finding {
  /// Where the finding's code lives, for a marker beside it: "test", "third-party, debug-only",
  /// and in a built app the bundle that ships it ("third-party, framework AdsKit 7.4.1
  /// (com.vendor.adskit)"); nil for app code in every build.
  var placeLabel: String? {
    let parts =
      (origin == .app ? [] : [origin.rawValue]) + (buildCondition.map { [$0.label] } ?? [])
      + (location.binary?.bundle.map { [$0.description] } ?? [])
    return parts.isEmpty ? nil : parts.joined(separator: ", ")
  }
}

extension FindingCounts {
  /// Active findings that do not count toward `--fail-on`, and where they are ("tests",
  /// "third-party code", "debug-only code"), in a fixed order.
  func informational(_ policy: FailPolicy) -> (count: Int, places: [String]) {
    var count = 0
    var places: Set<String> = []
    for (place, bySeverity) in activeByPlace
    where !policy.fails(origin: place.origin, buildCondition: place.buildCondition) {
      count += bySeverity.values.reduce(0, +)
      if !policy.origins.contains(place.origin) {
        places.insert(place.origin.plural)
      } else if let condition = place.buildCondition {
        places.insert("\(condition.label) code")
      }
    }
    let order = CodeOrigin.allCases.map(\.plural) + BuildCondition.allCases.map { "\($0.label) code" }
    return (count, order.filter(places.contains))
  }
}

/// "a", "a and b", "a, b and c".
func listed(_ items: [String]) -> String {
  guard items.count > 1 else { return items.first ?? "" }
  return items.dropLast().joined(separator: ", ") + " and " + items.last!
}
