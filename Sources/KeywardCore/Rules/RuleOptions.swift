/// A configuration value of a rule option. Options are few and simple, so one closed set of
/// kinds lets the configuration loader validate every option the same way.
public enum OptionValue: Sendable, Hashable, CustomStringConvertible {
  case bool(Bool)
  case int(Int)
  case string(String)
  case strings([String])

  public var kindName: String {
    switch self {
    case .bool: "a boolean"
    case .int: "an integer"
    case .string: "a string"
    case .strings: "a list of strings"
    }
  }

  public var description: String {
    switch self {
    case .bool(let value): "\(value)"
    case .int(let value): "\(value)"
    case .string(let value): value
    case .strings(let values): "[" + values.joined(separator: ", ") + "]"
    }
  }
}

/// One option a rule accepts: its key in `.keyward.yml`, its default, and, for string options,
/// the values it accepts (so a typo is an error, not a silently ignored setting).
public struct OptionSpec: Sendable, Hashable {
  public var key: String
  public var summary: String
  public var defaultValue: OptionValue
  public var allowedValues: [String]?

  public init(key: String, summary: String, defaultValue: OptionValue, allowedValues: [String]? = nil) {
    self.key = key
    self.summary = summary
    self.defaultValue = defaultValue
    self.allowedValues = allowedValues
  }
}

/// The effective options of one rule: configured values over the rule's defaults.
public struct RuleOptions: Sendable, Hashable {
  private var values: [String: OptionValue]

  /// The scan's profile: under `strict`, rules also report findings whose evidence is weak
  /// (an item synchronized with no sign that it holds a secret).
  public var profile: Profile

  public init(specs: [OptionSpec], overrides: [String: OptionValue] = [:], profile: Profile = .standard) {
    var values: [String: OptionValue] = [:]
    for spec in specs { values[spec.key] = overrides[spec.key] ?? spec.defaultValue }
    self.values = values
    self.profile = profile
  }

  /// Whether findings without direct evidence are wanted (the strict profile).
  public var reportsWeakEvidence: Bool { profile >= .strict }

  public subscript(key: String) -> OptionValue? { values[key] }

  public func strings(_ key: String) -> [String] {
    if case .strings(let list)? = values[key] { return list }
    return []
  }

  public func bool(_ key: String) -> Bool {
    if case .bool(let value)? = values[key] { return value }
    return false
  }

  public func int(_ key: String) -> Int {
    if case .int(let value)? = values[key] { return value }
    return 0
  }

  /// A stable text form, used where options must be part of a key (caches, tests).
  public var canonicalDescription: String {
    (values.keys.sorted().map { "\($0)=\(values[$0]!)" } + ["profile=\(profile.rawValue)"]).joined(separator: ";")
  }
}
