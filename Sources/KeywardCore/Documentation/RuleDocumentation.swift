/// Renders a rule's documentation in fixed sections: Description, Rationale, How far values
/// are followed (for rules that follow values into functions), Remediation, Configuration, References. The same text serves `keyward explain`, SARIF help
/// and the generated `Docs/rules` pages.
public enum RuleDocumentation {
  public static func markdown(for rule: any Rule.Type) -> String {
    let metadata = rule.metadata
    var lines: [String] = []
    lines.append("# \(metadata.title)")
    lines.append("")
    lines.append("| | |")
    lines.append("|---|---|")
    lines.append("| ID | `\(metadata.id)` |")
    let formerIDs = RuleAliases.formerIDs(of: metadata.id)
    if !formerIDs.isEmpty {
      lines.append("| Former ID | \(formerIDs.map { "`\($0)` (still accepted)" }.joined(separator: ", ")) |")
    }
    lines.append("| Severity | \(metadata.severity.rawValue) |")
    lines.append("| Confidence | \(metadata.confidence.rawValue) |")
    lines.append("| Resource | \(metadata.resource) |")
    lines.append("| Language | \(metadata.language) |")
    lines.append("| Profile | \(metadata.profile.rawValue) |")
    lines.append("| Tags | \(metadata.tags.joined(separator: ", ")) |")
    lines.append("")
    lines += section("Description", [metadata.description])
    lines += section("Rationale", [metadata.rationale, ""] + fenced(metadata.vulnerableExample, rule.language))
    // Preferences helpers are followed only within their file, which the rule's description says.
    if rule.valueSinks.contains(where: \.parsesFiles) {
      lines += section("How far values are followed", [ValueSink.howFarValuesAreFollowed])
    }
    lines += section("Remediation", [metadata.remediation, ""] + fenced(metadata.fixedExample, rule.language))
    lines += section("Configuration", configuration(for: rule))
    lines += section(
      "References",
      metadata.references.map { reference in
        reference.url.map { "- [\(reference.title)](\($0))" } ?? "- \(reference.title)"
      })
    lines.append(
      "Tags: `MASVS:` ids are MASVS v1; `MASWE:` numbers are the MASWE numbering as published before 2025 (its beta, which the MASTG tests of that time cite); `MASVS-` ids are MASVS v2; `MASTG-TEST-` ids name the MASTG test that checks the same weakness."
    )
    return lines.joined(separator: "\n") + "\n"
  }

  /// The rule's `.keyward.yml` section with its defaults.
  public static func configuration(for rule: any Rule.Type) -> [String] {
    var lines = ["In `.keyward.yml` (defaults shown):", "", "```yaml", "rules:", "  \(rule.metadata.id):"]
    lines.append("    enabled: true")
    lines.append("    severity: \(rule.metadata.severity.rawValue)")
    for spec in rule.options {
      lines.append("    # \(spec.summary)")
      switch spec.defaultValue {
      case .strings(let values):
        lines.append("    \(spec.key):")
        lines += values.map { "      - \($0)" }
      default:
        lines.append("    \(spec.key): \(spec.defaultValue)")
      }
    }
    lines.append("```")
    for spec in rule.options {
      if let allowed = spec.allowedValues {
        lines.append("")
        lines.append("`\(spec.key)` accepts: \(allowed.map { "`\($0)`" }.joined(separator: ", ")).")
      }
    }
    return lines
  }

  private static func section(_ title: String, _ body: [String]) -> [String] {
    ["## \(title)", ""] + body + [""]
  }

  /// Code in the rule's language; binary rules document disassembly and plists as text.
  private static func fenced(_ code: String, _ language: SourceLanguage) -> [String] {
    let name =
      switch language {
      case .swift: "swift"
      case .objectiveC: "objectivec"
      case .binary: "text"
      }
    return ["```" + name, code, "```"]
  }
}
