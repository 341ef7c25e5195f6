/// Settings for one rule from `.keyward.yml`.
public struct RuleSettings: Sendable, Hashable {
  public var enabled: Bool?
  public var severity: Severity?
  public var options: [String: OptionValue]

  public init(enabled: Bool? = nil, severity: Severity? = nil, options: [String: OptionValue] = [:]) {
    self.enabled = enabled
    self.severity = severity
    self.options = options
  }
}

/// The effective configuration of a scan.
public struct Configuration: Sendable {
  /// The file it was read from, if any.
  public var source: String?
  public var excludes: [String]
  public var rules: [String: RuleSettings]
  /// Problems that do not stop a scan (unknown keys), as `file:line:column: message`.
  public var warnings: [String]

  public init(
    source: String? = nil, excludes: [String] = [], rules: [String: RuleSettings] = [:], warnings: [String] = []
  ) {
    self.source = source
    self.excludes = excludes
    self.rules = rules
    self.warnings = warnings
  }

  /// The enabled rules of `catalog` with their effective options and severity.
  public func configuredRules(from catalog: RuleCatalog) -> [ConfiguredRule] {
    catalog.rules.compactMap { rule in
      let settings = rules[rule.metadata.id] ?? RuleSettings()
      guard settings.enabled ?? true else { return nil }
      return ConfiguredRule(
        rule: rule, options: RuleOptions(specs: rule.options, overrides: settings.options),
        severity: settings.severity ?? rule.metadata.severity)
    }
  }
}
