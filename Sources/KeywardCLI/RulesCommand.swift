import ArgumentParser
import KeywardCore
import KeywardRules

struct RulesCommand: KeywardCommand {
  static let configuration = CommandConfiguration(commandName: "rules", abstract: "List the rules.")

  @OptionGroup var configurationOptions: ConfigurationOptions

  func execute(_ io: inout CommandOutput) throws -> Int32 {
    let configuration = try configurationOptions.load(&io)
    let rows = RuleCatalog.standard.rules.map { rule in
      let metadata = rule.metadata
      let severity = configuration.rules[metadata.id]?.severity ?? metadata.severity
      return [
        metadata.id, severity.rawValue, metadata.profile.rawValue, configuration.isEnabled(rule) ? "on" : "off",
        metadata.title,
      ]
    }
    io.print(Table.render(header: ["RULE", "SEVERITY", "PROFILE", "STATE", "TITLE"], rows: rows))
    let enabled = rows.filter { $0[3] == "on" }.count
    io.print(
      "\n\(rows.count) rules, \(enabled) on with the \(configuration.profile.rawValue) profile. `keyward explain RULE-ID` shows one in full."
    )
    return ExitStatus.clean
  }
}

struct ExplainCommand: KeywardCommand {
  static let configuration = CommandConfiguration(
    commandName: "explain", abstract: "Show a rule's documentation: why it matters, how to fix it, its options.")

  @Argument(help: "The rule id, e.g. swift.weak_biometric_acl.")
  var ruleID: String

  func execute(_ io: inout CommandOutput) throws -> Int32 {
    guard let rule = RuleCatalog.standard.rule(withID: ruleID) else {
      let hint = RuleCatalog.standard.nearestID(to: ruleID).map { "; did you mean '\($0)'?" } ?? ""
      throw UsageError("unknown rule '\(ruleID)'\(hint) Run `keyward rules` for the list.")
    }
    io.print(RuleDocumentation.markdown(for: rule))
    return ExitStatus.clean
  }
}

enum Table {
  static func render(header: [String], rows: [[String]]) -> String {
    let all = [header] + rows
    let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
    return all.map { row in
      row.enumerated().map { column, cell in
        column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
      }.joined(separator: "  ")
    }.joined(separator: "\n")
  }
}
