/// Renders a rule's documentation in the seed pages' sections: Description, Rationale,
/// Remediation, Configuration, References. The same text serves `keyward explain`, SARIF help
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
    lines.append("| Severity | \(metadata.severity.rawValue) |")
    lines.append("| Confidence | \(metadata.confidence.rawValue) |")
    lines.append("| Resource | \(metadata.resource) |")
    lines.append("| Language | \(metadata.language) |")
    lines.append("| Profile | \(metadata.profile.rawValue) |")
    lines.append("| Tags | \(metadata.tags.joined(separator: ", ")) |")
    lines.append("")
    lines.append("## Description")
    lines.append("")
    lines.append(metadata.description)
    lines.append("")
    lines.append("## Rationale")
    lines.append("")
    lines.append(metadata.rationale)
    lines.append("")
    lines += fenced(metadata.vulnerableExample)
    lines.append("")
    lines.append("## Remediation")
    lines.append("")
    lines.append(metadata.remediation)
    lines.append("")
    lines += fenced(metadata.fixedExample)
    lines.append("")
    lines.append("## Configuration")
    lines.append("")
    lines += configuration(for: rule)
    lines.append("")
    lines.append("## References")
    lines.append("")
    for reference in metadata.references {
      lines.append(reference.url.map { "- [\(reference.title)](\($0))" } ?? "- \(reference.title)")
    }
    lines.append("")
    lines.append(
      "Tags use the seed detector pages' scheme: `MASVS:` ids are MASVS v1, `MASWE:` numbers are the MASWE beta numbering used by the MASTG tests; `MASVS-` ids are MASVS v2."
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

  private static func fenced(_ code: String) -> [String] {
    ["```swift", code, "```"]
  }
}
