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
  case text, json, sarif, xcode, github, markdown, html, csv

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
    }
  }
}

/// A reporter whose findings print independently of each other, so that they can be printed
/// file by file while the scan runs (into a `FindingSpool`) instead of being held to the end.
public protocol StreamingReporter: Reporter, Sendable {
  /// Findings in report order, printed as one piece of the report; `rules` are the rules that
  /// ran, as in `ScanResult.rules`.
  func printFindings(_ findings: [Finding], rules: [ConfiguredRule]) -> [UInt8]
  /// What goes between two printed pieces.
  var findingSeparator: String { get }
  /// The whole report, `findings` writing the printed findings where they belong.
  func writeDocument(_ result: ScanResult, findings: PrintedFindings, to output: (String) throws -> Void) throws
}

/// The findings of a report, already counted, to be written in place.
public struct PrintedFindings {
  public var counts: FindingCounts
  public var isEmpty: Bool
  /// The rule of the first active finding in report order, for a closing hint.
  public var firstActiveRule: String?
  public var write: ((String) throws -> Void) throws -> Void

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
  public func render(_ result: ScanResult) throws -> String {
    var out = ""
    try write(result) { out += $0 }
    return out
  }

  /// The findings of `result` are printed in pieces on every core, and each group of pieces
  /// handed on as soon as it is printed.
  public func write(_ result: ScanResult, to output: (String) throws -> Void) throws {
    let findings = result.findings
    let printed = PrintedFindings(
      counts: result.counts, isEmpty: findings.isEmpty, firstActiveRule: findings.first(where: \.isActive)?.ruleId
    ) { output in
      let pieceSize = 256
      let pieces = stride(from: 0, to: findings.count, by: pieceSize).map {
        $0..<min($0 + pieceSize, findings.count)
      }
      for groupStart in stride(from: 0, to: pieces.count, by: 16) {
        let group = Array(pieces[groupStart..<min(groupStart + 16, pieces.count)])
        let texts = ParallelWork.map(count: group.count, jobs: 0) {
          printFindings(Array(findings[group[$0]]), rules: result.rules)
        }
        for (offset, text) in texts.enumerated() {
          if groupStart + offset > 0 { try output(findingSeparator) }
          try output(String(decoding: text, as: UTF8.self))
        }
      }
    }
    try writeDocument(result, findings: printed, to: output)
  }

  /// The report of a scan whose findings went to `spool`.
  public func write(_ result: ScanResult, spooled spool: FindingSpool, to output: (String) throws -> Void) throws {
    let printed = PrintedFindings(counts: spool.counts, isEmpty: spool.isEmpty, firstActiveRule: spool.firstActiveRule)
    {
      try spool.write(separator: findingSeparator, to: $0)
    }
    try writeDocument(result, findings: printed, to: output)
  }

  /// A sink that prints findings for this reporter as files are scanned by `rules`.
  public func spool(
    rules: [ConfiguredRule], prepare: @escaping @Sendable ([Finding]) -> [Finding] = { $0 }
  ) -> FindingSpool {
    FindingSpool(prepare: prepare) { printFindings($0, rules: rules) }
  }
}
