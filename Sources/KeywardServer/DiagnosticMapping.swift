import Foundation
import KeywardCore

/// Turns findings into the Language Server Protocol's shapes. LSP positions are 0-based lines
/// and 0-based characters counted in UTF-16 code units; Keyward's are 1-based lines with a
/// 1-based `utf16Column` (its `column` counts UTF-8 bytes, which editors do not).
enum DiagnosticMapping {
  static func position(_ point: SourcePosition) -> JSON {
    ["line": .int(point.line - 1), "character": .int(point.utf16Column - 1)]
  }

  static func range(_ location: SourceLocation) -> JSON {
    ["start": position(location.start), "end": position(location.end)]
  }

  /// The range of a byte range of `text` (a fix's edit).
  static func range(start: Int, end: Int, in text: SourceText) -> JSON {
    ["start": position(text.position(of: start)), "end": position(text.position(of: end))]
  }

  /// Error for critical and high, warning for medium and low, information for info. Findings
  /// that `keyward scan` shows for information only (code in tests, samples, third-party or
  /// generated code, or built only for DEBUG or the simulator) are information too.
  static func severity(_ finding: Finding) -> Int {
    guard finding.origin == .app, finding.buildCondition == nil else { return 3 }
    switch finding.severity {
    case .critical, .high: return 1
    case .medium, .low: return 2
    case .info: return 3
    }
  }

  /// `uri` is the document's; related locations in the same file use it too.
  /// `documentation` is the link to the rule's page, when there is one.
  static func diagnostic(
    _ finding: Finding, uri: String, documentation: String? = nil, uriOfPath: (String) -> String
  ) -> JSON {
    var diagnostic: [String: JSON] = [
      "range": range(finding.location),
      "severity": .int(severity(finding)),
      "code": .string(finding.ruleId),
      "source": "keyward",
      "message": .string(finding.message),
      // Lets code actions and hover find the finding again without guessing from the range.
      "data": ["fingerprint": .string(finding.fingerprint)],
    ]
    if let documentation { diagnostic["codeDescription"] = ["href": .string(documentation)] }
    if !finding.related.isEmpty {
      diagnostic["relatedInformation"] = .array(
        finding.related.map { related in
          let path = related.location.path
          return [
            "location": [
              "uri": .string(path == finding.location.path ? uri : uriOfPath(path)),
              "range": range(related.location),
            ],
            "message": .string(related.message),
          ]
        })
    }
    return .object(diagnostic)
  }

  /// Whether the LSP position (0-based) lies within the finding's range, ends included.
  static func contains(_ location: SourceLocation, line: Int, character: Int) -> Bool {
    let start = (location.start.line - 1, location.start.utf16Column - 1)
    let end = (location.end.line - 1, location.end.utf16Column - 1)
    return start <= (line, character) && (line, character) <= end
  }

  /// Whether two ranges (0-based line and character pairs) overlap or touch.
  static func overlaps(_ location: SourceLocation, _ lower: (Int, Int), _ upper: (Int, Int)) -> Bool {
    let start = (location.start.line - 1, location.start.utf16Column - 1)
    let end = (location.end.line - 1, location.end.utf16Column - 1)
    return start <= upper && lower <= end
  }
}

/// `file://` URIs and paths.
enum DocumentURI {
  static func path(of uri: String) -> String? {
    guard let url = URL(string: uri), url.isFileURL else { return nil }
    return url.standardizedFileURL.path
  }

  static func uri(ofPath path: String) -> String { URL(fileURLWithPath: path).absoluteString }
}
