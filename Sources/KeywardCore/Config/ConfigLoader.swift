import Foundation
import Yams

/// A configuration problem that stops the run, with the place it was found.
public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
  public var description: String
  public init(_ description: String) { self.description = description }
}

/// Reads `.keyward.yml`. Every value is checked against what the rule or setting accepts, and
/// reported with file, line and column: a bad value is an error, never silently a default.
///
/// ```yaml
/// exclude: ["Generated/**"]
/// profile: strict
/// rules:
///   swift.weak_biometric_acl:
///     enabled: true
///     severity: critical
///     weakBiometricFlags: [biometryAny, touchIDAny]
/// ```
public struct ConfigLoader {
  public static let fileName = ".keyward.yml"
  static let topLevelKeys = [
    "exclude", "include", "profile", "rules", "wrapperMappings", "origins", "failOrigins", "includeThirdParty",
  ]
  /// The keys of `origins`; `third-party` is read as `thirdParty`.
  static let originKeys = ["app", "test", "sample", "thirdParty", "generated"]
  static let ruleKeys = ["enabled", "severity"]

  let catalog: RuleCatalog

  public init(catalog: RuleCatalog) { self.catalog = catalog }

  /// The configuration file for a scan of `directory`: `.keyward.yml` there or in a parent.
  public static func discover(from directory: String) -> String? {
    var url = URL(fileURLWithPath: directory).standardizedFileURL
    while true {
      let candidate = url.appendingPathComponent(fileName).path
      if FileManager.default.fileExists(atPath: candidate) { return candidate }
      let parent = url.deletingLastPathComponent()
      if parent.path == url.path { return nil }
      url = parent
    }
  }

  public func load(path: String) throws -> Configuration {
    guard FileManager.default.fileExists(atPath: path) else {
      throw ConfigurationError("\(path): configuration file does not exist")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw ConfigurationError("\(path): configuration file cannot be read")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw ConfigurationError("\(path): configuration file is not UTF-8 text")
    }
    return try parse(text, path: path)
  }

  public func parse(_ text: String, path: String) throws -> Configuration {
    let root: Node?
    do {
      root = try Yams.compose(yaml: text)
    } catch let error as YamlError {
      throw ConfigurationError("\(path): malformed YAML: \(Self.describe(error))")
    } catch {
      throw ConfigurationError("\(path): malformed YAML: \(error)")
    }
    var configuration = Configuration(source: path)
    guard let root else { return configuration }
    var reader = NodeReader(path: path)
    let mapping = try reader.mapping(root, what: "the configuration")
    for (keyNode, value) in mapping {
      let key = try reader.scalarKey(keyNode)
      switch key {
      case "exclude":
        configuration.excludes = try reader.strings(value, key: key)
      case "include":
        configuration.includes = try reader.strings(value, key: key)
      case "profile":
        configuration.profile = try reader.choice(value, key: key, as: Profile.self)
      case "rules":
        configuration.rules = try readRules(value, reader: &reader)
      case "wrapperMappings":
        configuration.wrapperMappings = try WrapperMappingReader.read(value, reader: &reader)
      case "origins":
        configuration.origins = try readOrigins(value, reader: reader)
      case "failOrigins":
        let values = try reader.strings(value, key: key)
        var invalid = ""
        guard let policy = FailPolicy(values: values, invalid: { invalid = $0 }) else {
          throw ConfigurationError(
            "\(reader.place(value)): '\(invalid)' is not a valid value for 'failOrigins'; valid values: \(FailPolicy.valueNames.joined(separator: ", "))"
          )
        }
        configuration.failPolicy = policy
      case "includeThirdParty":
        configuration.includeThirdParty = try reader.bool(value, key: key)
      default:
        reader.warn(keyNode, "unknown key '\(key)'", suggestions: Self.topLevelKeys)
      }
    }
    configuration.warnings = reader.warnings
    return configuration
  }

  /// `origins: {test: ["IntegrationSupport/**"], app: ["Demo/RealApp/**"]}`; an unknown origin
  /// is an error, since a misspelt one would leave code failing (or not) without a word.
  private func readOrigins(_ node: Node, reader: NodeReader) throws -> [CodeOrigin: [String]] {
    var result: [CodeOrigin: [String]] = [:]
    for (keyNode, value) in try reader.mapping(node, what: "'origins'") {
      let key = try reader.scalarKey(keyNode)
      guard let origin = key == "thirdParty" ? .thirdParty : CodeOrigin(rawValue: key) else {
        let hint = EditDistance.nearest(to: key, in: Self.originKeys).map { "did you mean '\($0)'? " } ?? ""
        throw ConfigurationError(
          "\(reader.place(keyNode)): unknown origin '\(key)' in 'origins'; \(hint)valid origins: \(Self.originKeys.joined(separator: ", "))"
        )
      }
      result[origin, default: []] += try reader.strings(value, key: "origins.\(key)")
    }
    return result
  }

  private func readRules(_ node: Node, reader: inout NodeReader) throws -> [String: RuleSettings] {
    var result: [String: RuleSettings] = [:]
    for (idNode, settingsNode) in try reader.mapping(node, what: "'rules'") {
      let id = try reader.scalarKey(idNode)
      guard let rule = catalog.rule(withID: id) else {
        let hint = catalog.nearestID(to: id).map { "; did you mean '\($0)'?" } ?? "; run 'keyward rules' for the list"
        throw ConfigurationError("\(reader.place(idNode)): unknown rule id '\(id)'\(hint)")
      }
      var settings = RuleSettings()
      let optionKeys = rule.options.map(\.key)
      for (keyNode, value) in try reader.mapping(settingsNode, what: "the settings of '\(id)'") {
        let key = try reader.scalarKey(keyNode)
        switch key {
        case "enabled":
          settings.enabled = try reader.bool(value, key: key)
        case "severity":
          settings.severity = try reader.choice(value, key: key, as: Severity.self)
        default:
          guard let spec = rule.options.first(where: { $0.key == key }) else {
            reader.warn(keyNode, "unknown option '\(key)' for rule '\(id)'", suggestions: Self.ruleKeys + optionKeys)
            continue
          }
          settings.options[key] = try reader.value(value, for: spec)
        }
      }
      result[rule.metadata.id] = settings
    }
    return result
  }

  static func describe(_ error: YamlError) -> String {
    switch error {
    case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _):
      let prefix = context.map { "\($0.text) " } ?? ""
      return "line \(mark.line), column \(mark.column): \(prefix)\(problem)"
    default:
      return "\(error)"
    }
  }
}
