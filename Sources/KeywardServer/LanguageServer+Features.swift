import KeywardCore
import KeywardRules

/// Code actions (the safe fixes Keyward computes for a finding) and hover (the rule's
/// explanation, as `keyward explain` prints it).
extension LanguageServer {
  func codeActions(_ params: JSON?) -> JSON {
    guard let uri = params?["textDocument"]?["uri"]?.stringValue, let analysis = currentAnalysis(uri),
      let range = params?["range"], let lower = Self.point(range["start"]), let upper = Self.point(range["end"])
    else { return [] }
    // A client asking only for other kinds (source.organizeImports, refactor...) gets none.
    if let only = params?["context"]?["only"]?.arrayValue,
      !only.contains(where: { $0.stringValue.map { "quickfix".hasPrefix($0) } ?? false })
    {
      return []
    }
    let asked = Set((params?["context"]?["diagnostics"]?.arrayValue ?? []).compactMap { $0["data"]?["fingerprint"] })
    var actions: [JSON] = []
    for finding in analysis.findings {
      guard let fix = finding.fix, fix.safe, !fix.edits.isEmpty else { continue }
      let isAsked = asked.contains(.string(finding.fingerprint))
      guard isAsked || DiagnosticMapping.overlaps(finding.location, lower, upper) else { continue }
      let edits: [JSON] = fix.edits.map { edit in
        [
          "range": DiagnosticMapping.range(start: edit.start, end: edit.end, in: analysis.text),
          "newText": .string(edit.replacement),
        ]
      }
      var title = "Keyward: \(fix.description)"
      if let change = fix.behaviorChange { title += " (changes behaviour: \(change))" }
      actions.append([
        "title": .string(title),
        "kind": "quickfix",
        "diagnostics": [diagnostic(finding, uri: uri)],
        "isPreferred": .bool(!fix.changesBehavior),
        "edit": ["changes": .object([uri: .array(edits)])],
      ])
    }
    return .array(actions)
  }

  func hover(_ params: JSON?) -> JSON {
    guard let uri = params?["textDocument"]?["uri"]?.stringValue, let analysis = currentAnalysis(uri),
      let (line, character) = Self.point(params?["position"])
    else { return .null }
    guard
      let finding = analysis.findings.first(where: {
        DiagnosticMapping.contains($0.location, line: line, character: character)
      }), let rule = RuleCatalog.standard.rule(withID: finding.ruleId)
    else { return .null }
    return [
      "contents": ["kind": "markdown", "value": .string(RuleDocumentation.markdown(for: rule))],
      "range": DiagnosticMapping.range(finding.location),
    ]
  }

  private static func point(_ position: JSON?) -> (Int, Int)? {
    guard let line = position?["line"]?.intValue, let character = position?["character"]?.intValue else {
      return nil
    }
    return (line, character)
  }
}
