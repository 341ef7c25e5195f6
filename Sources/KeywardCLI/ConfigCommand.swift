import ArgumentParser
import Foundation
import KeywardCore
import KeywardRules

struct ConfigCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "config", abstract: "Show the effective configuration, or write a starter .keyward.yml.",
    subcommands: [PrintConfig.self, InitConfig.self])
}

struct PrintConfig: KeywardCommand {
  static let configuration = CommandConfiguration(
    commandName: "print",
    abstract: "Print the effective configuration: every rule with its state, severity and options.")

  @OptionGroup var configurationOptions: ConfigurationOptions

  func execute(_ io: inout CommandOutput) throws -> Int32 {
    let configuration = try configurationOptions.load(&io)
    io.emit(ConfigurationText.printed(configuration))
    return ExitStatus.clean
  }
}

struct InitConfig: KeywardCommand {
  static let configuration = CommandConfiguration(
    commandName: "init", abstract: "Write a commented starter .keyward.yml in the current folder.")

  @Option(help: "Where to write it.")
  var path = ConfigLoader.fileName

  @Flag(help: "Replace an existing file.")
  var force = false

  func execute(_ io: inout CommandOutput) throws -> Int32 {
    if FileManager.default.fileExists(atPath: path) && !force {
      throw UsageError(
        "\(path) already exists; use --force to replace it, or `keyward config print` to see it in effect")
    }
    do {
      try ConfigurationText.starter().write(toFile: path, atomically: true, encoding: .utf8)
    } catch {
      throw UsageError("cannot write \(path): \(error.localizedDescription)")
    }
    io.print("Wrote \(path). Every setting in it is commented out at its default; uncomment what you change.")
    return ExitStatus.clean
  }
}

/// `.keyward.yml` text: the effective configuration, and the starter file.
enum ConfigurationText {
  /// What `keyward config print` prints: the effective configuration and a final line break.
  static func printed(_ configuration: Configuration) -> String { effective(configuration) + "\n" }

  static func effective(_ configuration: Configuration) -> String {
    var lines = [
      "# Effective configuration\(configuration.source.map { " (from \($0))" } ?? " (defaults: no .keyward.yml found)")"
    ]
    lines.append("profile: \(configuration.profile.rawValue)")
    lines.append("include: \(list(configuration.includes))")
    lines.append("exclude: \(list(configuration.excludes))")
    lines.append("includeThirdParty: \(configuration.includeThirdParty)")
    lines.append("failOrigins: \(list((configuration.failPolicy ?? .default).valueNames))")
    lines.append("origins:" + (configuration.origins.isEmpty ? " {}" : ""))
    for origin in CodeOrigin.allCases {
      if let globs = configuration.origins[origin] { lines.append("  \(originKey(origin)): \(list(globs))") }
    }
    lines.append("rules:")
    for rule in RuleCatalog.standard.rules {
      let settings = configuration.rules[rule.metadata.id]
      let options = RuleOptions(specs: rule.options, overrides: settings?.options ?? [:])
      lines.append("  \(rule.metadata.id):")
      lines.append("    enabled: \(configuration.isEnabled(rule))")
      lines.append("    severity: \((settings?.severity ?? rule.metadata.severity).rawValue)")
      for spec in rule.options { lines.append("    \(spec.key): \(yaml(options[spec.key] ?? spec.defaultValue))") }
    }
    if !configuration.wrapperMappings.isEmpty {
      lines.append(
        "# \(configuration.wrapperMappings.count) wrapper mapping(s) from the file: "
          + configuration.wrapperMappings.map(\.library).joined(separator: ", "))
    }
    return lines.joined(separator: "\n")
  }

  static func starter() -> String {
    var lines = [
      "# Keyward configuration. Every setting below is shown at its default, commented out.",
      "# `keyward config print` shows what is in effect; `keyward explain RULE-ID` documents a rule.",
      "",
      "# essential (high-confidence, high-impact rules), standard, or strict (adds hardening rules).",
      "profile: standard",
      "",
      "# Globs, as in .gitignore: `Generated/**` from the folder of this file, `*.generated.swift` anywhere.",
      "# include: []",
      "exclude: []",
      "",
      "# Where code lives: app, test, sample, thirdParty or generated, decided from paths and contents",
      "# (see the README, \"Where findings live\"). Globs here override that, e.g.",
      "#   test: [\"IntegrationSupport/**\"]",
      "# origins: {}",
      "# Only app code built for release fails a scan; list other origins to count, or `all`.",
      "# failOrigins: [app]",
      "# Scan Pods and Carthage folders (as third-party code) instead of skipping them.",
      "# includeThirdParty: false",
      "",
      "rules:",
    ]
    for rule in RuleCatalog.standard.rules {
      let metadata = rule.metadata
      lines.append("  # \(metadata.title) (\(metadata.severity.rawValue), \(metadata.profile.rawValue) profile)")
      lines.append("  # \(metadata.id):")
      lines.append("  #   enabled: true")
      lines.append("  #   severity: \(metadata.severity.rawValue)")
      for spec in rule.options { lines.append("  #   \(spec.key): \(yaml(spec.defaultValue))  # \(spec.summary)") }
    }
    lines += ["", "# In-house keychain wrappers: see the README, \"wrapperMappings\".", "# wrapperMappings: []", ""]
    return lines.joined(separator: "\n")
  }

  /// The key of an origin in `origins`.
  static func originKey(_ origin: CodeOrigin) -> String { origin == .thirdParty ? "thirdParty" : origin.rawValue }

  static func yaml(_ value: OptionValue) -> String {
    switch value {
    case .strings(let values): list(values)
    default: "\(value)"
    }
  }

  static func list(_ values: [String]) -> String {
    "[" + values.map { "\"\($0.replacingOccurrences(of: "\"", with: "\\\""))\"" }.joined(separator: ", ") + "]"
  }
}
