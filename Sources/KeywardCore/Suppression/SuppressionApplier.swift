import Foundation

/// Marks the findings of one file that its `keyward:` comments suppress, and reports the
/// directives that are wrong: unknown rule ids, directives that suppress nothing, and (when the
/// configuration asks for them) directives without a reason.
struct SuppressionApplier {
  static let unusedID = "keyward.unused_suppression"
  static let unknownRuleID = "keyward.unknown_rule"
  static let missingReasonID = "keyward.missing_suppression_reason"

  let directives: [SuppressionDirective]
  let knownRuleIDs: Set<String>
  let requireReason: Bool
  let text: SourceText

  /// The findings with `suppression` set where a directive covers them, and reports about the
  /// directives themselves, by meta rule id.
  func apply(to findings: [Finding]) -> (findings: [Finding], directiveReports: [(ruleID: String, report: RuleReport)])
  {
    var used: Set<[Int]> = []  // [directive index, rule id index]
    let active = directives.indices.filter { !requireReason || directives[$0].reason != nil }
    let marked = findings.map { finding -> Finding in
      var finding = finding
      let line = finding.location.start.line - 1
      for index in active {
        let directive = directives[index]
        guard let idIndex = directive.ruleIDs.firstIndex(where: { $0 == finding.ruleId || $0 == "all" }),
          covers(directive, line: line, ruleID: finding.ruleId)
        else { continue }
        used.insert([index, idIndex])
        finding.suppression = Suppression(kind: .inline, justification: directive.reason)
        break
      }
      return finding
    }
    var reports: [(String, RuleReport)] = []
    for (index, directive) in directives.enumerated() where directive.kind != .enable {
      if requireReason && directive.reason == nil {
        reports.append(
          (
            Self.missingReasonID,
            RuleReport(
              start: directive.start, end: directive.end,
              message:
                "This suppression gives no reason, and this project requires one: add `-- why it is safe` after the rule ids. It suppresses nothing until then."
            )
          ))
        continue
      }
      if directive.ruleIDs.isEmpty {
        reports.append(
          (
            Self.unknownRuleID,
            RuleReport(
              start: directive.start, end: directive.end,
              message:
                "`keyward:\(directive.kind.rawValue)` names no rule: write the rule ids it is meant for, or `all`.")
          ))
      }
      for (idIndex, id) in directive.ruleIDs.enumerated() {
        if id != "all" && !knownRuleIDs.contains(id) {
          let hint = EditDistance.nearest(to: id, in: Array(knownRuleIDs)).map { " (did you mean `\($0)`?)" } ?? ""
          reports.append(
            (
              Self.unknownRuleID,
              RuleReport(
                start: directive.start, end: directive.end,
                message: "`\(id)` is not a Keyward rule\(hint), so this suppression does nothing.")
            ))
        } else if !used.contains([index, idIndex]) {
          reports.append(
            (
              Self.unusedID,
              RuleReport(
                start: directive.start, end: directive.end,
                message:
                  "This suppression of `\(id)` matches no finding: the code it excused has changed or the rule no longer applies. Remove it so it cannot hide a future finding."
              )
            ))
        }
      }
    }
    return (marked, reports)
  }

  private func covers(_ directive: SuppressionDirective, line: Int, ruleID: String) -> Bool {
    switch directive.kind {
    case .ignore:
      return directive.line == line
    case .ignoreNext:
      return nextCodeLine(after: directive.line) == line
    case .disable:
      guard directive.line <= line else { return false }
      // Open until an `enable` for the same rule (or all) after it.
      let closing = directives.first { other in
        other.kind == .enable && other.line > directive.line
          && (other.ruleIDs.contains(ruleID) || other.ruleIDs.contains("all") || other.ruleIDs.isEmpty)
      }
      return closing.map { line < $0.line } ?? true
    case .enable:
      return false
    }
  }

  /// The first line after `line` that is not blank and not only a comment.
  private func nextCodeLine(after line: Int) -> Int {
    var candidate = line + 1
    while candidate < text.lineStarts.count {
      let content = text.lineText(candidate).trimmingCharacters(in: .whitespaces)
      if !content.isEmpty && !content.hasPrefix("//") { return candidate }
      candidate += 1
    }
    return candidate
  }
}
