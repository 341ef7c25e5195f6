import Foundation
import KeywardCore
import KeywardRules
import Testing

/// One rule example, as a test argument.
struct ExampleCase: Sendable, CustomTestStringConvertible {
  let ruleID: String
  let kind: String
  let number: Int
  let example: RuleExample

  var testDescription: String { "\(ruleID) \(kind) #\(number)" }

  var rule: any Rule.Type { RuleCatalog.standard.rule(withID: ruleID)! }

  static func all(_ kind: String) -> [ExampleCase] {
    // Binary rules' examples are fixture apps; BinaryTests runs them.
    allRules.filter { $0.language != .binary }.flatMap { rule in
      let examples = kind == "flagged" ? rule.examples.flagged : rule.examples.clean
      return examples.enumerated().map {
        ExampleCase(ruleID: rule.metadata.id, kind: kind, number: $0.offset + 1, example: $0.element)
      }
    }
  }
}

enum Scan {
  /// Scans `code` with one rule configured with `options`, through the real file scanner.
  static func findings(
    _ code: String, rule: any Rule.Type, options: [String: OptionValue] = [:], profile: Profile = .standard
  ) -> [Finding] {
    let configured = ConfiguredRule(
      rule: rule, options: RuleOptions(specs: rule.options, overrides: options, profile: profile),
      severity: rule.metadata.severity)
    // Rules about suppressions judge directives for the other rules, so those run too.
    let others =
      rule.metadata.id.hasPrefix("keyward.")
      ? Configuration().configuredRules(from: .standard).filter { $0.metadata.id != rule.metadata.id } : []
    let path = "Example." + rule.language.exampleExtension
    let rules = [configured] + others
    let scanner = FileScanner(rules: rules, knownRuleIDs: Set(RuleCatalog.standard.ids))
    let outcome = scanner.scan(bytes: Array(code.utf8), path: path)
    // The project step, over the one file, as a scan of a folder holding only it runs it.
    let settled = HandOffSettler(facts: outcome.facts, rules: rules).settle(outcome.findings)
    return settled.filter { $0.ruleId == rule.metadata.id }
  }

  /// `code` inside a string literal of the rule's language.
  static func wrappedInString(_ code: String, language: SourceLanguage) -> String {
    switch language {
    case .swift:
      return "let text = #\"\"\"\n\(code)\n\"\"\"#\n"
    case .objectiveC:
      let lines = code.split(separator: "\n", omittingEmptySubsequences: false).map { line in
        "@\"" + line.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\\n\""
      }
      return "NSString *text =\n" + lines.joined(separator: "\n") + ";\n"
    case .binary:
      preconditionFailure("binary rules have no source examples")
    }
  }

  /// Scans `code` with every rule at its defaults.
  static func allFindings(_ code: String, path: String = "Example.swift") -> FileOutcome {
    let rules = Configuration().configuredRules(from: .standard)
    var outcome = FileScanner(rules: rules).scan(bytes: Array(code.utf8), path: path)
    outcome.findings = HandOffSettler(facts: outcome.facts, rules: rules).settle(outcome.findings)
    return outcome
  }
}

enum Paths {
  /// A new temporary folder holding `files` (relative path → text), subfolders made as needed.
  static func tree(_ files: [String: String]) throws -> URL {
    let root = temporaryFolder()
    for (name, text) in files {
      let url = root.appendingPathComponent(name)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try text.write(to: url, atomically: true, encoding: .utf8)
    }
    return root
  }

  /// The package's root folder.
  static let packageRoot: URL = {
    var url = URL(fileURLWithPath: #filePath)
    while url.path != "/" {
      url.deleteLastPathComponent()
      if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
    }
    fatalError("Package.swift not found above \(#filePath)")
  }()

  static func fixture(_ relative: String) -> URL {
    packageRoot.appendingPathComponent("Tests/KeywardTests/Fixtures").appendingPathComponent(relative)
  }

  /// A product of this package built beside the test bundle, if it was built.
  static func builtExecutable(_ name: String) -> String? {
    let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name)
    return [beside.path, packageRoot.appendingPathComponent(".build/debug/\(name)").path].first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  static func temporaryFolder() -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("keyward-tests-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }
}
