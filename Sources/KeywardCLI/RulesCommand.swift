import ArgumentParser
import KeywardCore
import KeywardRules

struct RulesCommand: KeywardCommand {
  static let configuration = CommandConfiguration(commandName: "rules", abstract: "List the rules.")

  @Option(help: "Configuration file whose settings to show (default: .keyward.yml here or in a parent).")
  var config: String?

  func execute(_ io: inout CommandOutput) throws -> Int32 {
    let loader = ConfigLoader(catalog: .standard)
    let path = config ?? ConfigLoader.discover(from: FileDiscovery.absolute("."))
    let configuration = try path.map { try loader.load(path: $0) } ?? Configuration()
    let enabled = Set(configuration.configuredRules(from: .standard).map(\.metadata.id))
    let rows = RuleCatalog.standard.rules.map { rule in
      let metadata = rule.metadata
      let severity = configuration.rules[metadata.id]?.severity ?? metadata.severity
      return [metadata.id, severity.rawValue, enabled.contains(metadata.id) ? "on" : "off", metadata.title]
    }
    io.print(Table.render(header: ["RULE", "SEVERITY", "STATE", "TITLE"], rows: rows))
    io.print("\n\(rows.count) rules. `keyward explain RULE-ID` shows one in full.")
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
