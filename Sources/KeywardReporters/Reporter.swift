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
