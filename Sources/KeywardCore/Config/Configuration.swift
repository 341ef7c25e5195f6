import Foundation

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
  /// The absolute folder of the file the configuration was read from: its globs are relative
  /// to it. nil for the defaults.
  public var folder: String? {
    source.map { (FileDiscovery.absolute($0) as NSString).deletingLastPathComponent }
  }
  public var excludes: [String]
  /// When not empty, only files matching one of these globs are scanned.
  public var includes: [String] = []
  /// The rule profile; rules of larger profiles are off unless enabled one by one.
  public var profile: Profile
  public var rules: [String: RuleSettings]
  /// Keychain wrapper libraries declared in the configuration (`wrapperMappings`), used
  /// besides the built-in ones.
  public var wrapperMappings: [WrapperMapping] = []
  /// `origins`: globs saying where code lives, over the built-in path and content rules.
  public var origins: [CodeOrigin: [String]] = [:]
  /// `failOrigins`: origins whose findings count toward `--fail-on` besides app code; nil when
  /// not configured.
  public var failPolicy: FailPolicy?
  /// `includeThirdParty`: scan `Pods` and `Carthage` folders instead of skipping them.
  public var includeThirdParty = false
  /// Problems that do not stop a scan (unknown keys), as `file:line:column: message`.
  public var warnings: [String]

  public init(
    source: String? = nil, excludes: [String] = [], profile: Profile = .standard, rules: [String: RuleSettings] = [:],
    warnings: [String] = []
  ) {
    self.source = source
    self.excludes = excludes
    self.profile = profile
    self.rules = rules
    self.warnings = warnings
  }

  /// The wrapper libraries a scan recognises: the built-in ones and the configured ones.
  public var wrappers: [WrapperMapping] { WrapperMapping.builtIn + wrapperMappings }

  /// Whether a rule runs: its own `enabled` setting, else whether the profile includes it.
  public func isEnabled(_ rule: any Rule.Type) -> Bool {
    rules[rule.metadata.id]?.enabled ?? (rule.metadata.profile <= profile)
  }

  /// The enabled rules of `catalog` with their effective options and severity.
  public func configuredRules(from catalog: RuleCatalog) -> [ConfiguredRule] {
    catalog.rules.compactMap { rule in
      let settings = rules[rule.metadata.id] ?? RuleSettings()
      guard isEnabled(rule) else { return nil }
      return ConfiguredRule(
        rule: rule, options: RuleOptions(specs: rule.options, overrides: settings.options, profile: profile),
        severity: settings.severity ?? rule.metadata.severity, wrappers: wrappers)
    }
  }
}
