import Foundation
import KeywardCLI
import KeywardCore
import KeywardRules
import Testing

/// Keyward in the workflows iOS developers already have (CI, pre-commit, Xcode): exit codes CI
/// can trust, help, excludes, colour, driven from outside through the command line.
@Suite struct WorkflowTests {
  static let weakFlag = "let a = SecAccessControlCreateWithFlags(nil, p, .biometryAny, nil)\n"
  static let weakAccessibility = "let q = [kSecAttrAccessible: kSecAttrAccessibleAlways]\n"

  static func folder(_ files: [String: String]) throws -> URL {
    let root = Paths.temporaryFolder()
    for (name, text) in files {
      let url = root.appendingPathComponent(name)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try text.write(to: url, atomically: true, encoding: .utf8)
    }
    return root
  }

  /// Runs the built executable in `folder` (the current folder matters to these tests, and
  /// tests run in parallel, so it is never changed in process).
  static func keyward(_ arguments: [String], in folder: URL, environment: [String: String] = [:]) throws -> (
    status: Int32, output: String, errors: String
  ) {
    let path = try #require(Paths.builtExecutable("keyward"), "keyward was not built")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.currentDirectoryURL = folder
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text, errorText)
  }

  // MARK: Exit codes

  @Test func aScanThatReadsNoFileExitsTwoAndSaysWhy() throws {
    let empty = Paths.temporaryFolder()
    let notes = try Self.folder(["README.md": "# notes\n"])
    for path in [empty.path, notes.path, "/bin/ls"] {
      let (status, output) = KeywardCLI.run(["scan", path])
      #expect(status == 2, "\(path)")
      #expect(output.standardError.contains("no file to analyse in \(path)"), "\(output.standardError)")
      #expect(output.standardError.contains(".ipa, .app, Mach-O"))
      #expect(output.standardOutput.isEmpty)
    }
    #expect(KeywardCLI.run(["fix", empty.path, "--dry-run"]).status == 2)
    #expect(
      KeywardCLI.run(["baseline", "create", empty.appendingPathComponent("b.json").path, empty.path]).status == 2)
  }

  @Test func noPathScansTheCurrentFolder() throws {
    let root = try Self.folder(["App/A.swift": Self.weakAccessibility])
    let (status, output, _) = try Self.keyward(["scan", "--format", "csv"], in: root)
    #expect(status == 1)
    #expect(output.contains("swift.weak_keychain_accessibility,App/A.swift,1,"))
    let clean = try Self.folder(["A.swift": "let x = 1\n"])
    #expect(try Self.keyward(["scan"], in: clean).status == 0)
  }

  @Test func aDryRunWithFixesWaitingExitsOne() throws {
    let root = try Self.folder(["A.swift": Self.weakAccessibility])
    let pending = KeywardCLI.run(["fix", root.path, "--dry-run"])
    #expect(pending.status == 1)
    #expect(pending.output.standardOutput.contains("+let q = [kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlock]"))
    #expect(KeywardCLI.run(["fix", root.path]).status == 0)
    let done = KeywardCLI.run(["fix", root.path, "--dry-run"])
    #expect(done.status == 0)
    #expect(done.output.standardOutput.isEmpty)
  }

  @Test func aMissingPathAmongSeveralRefusesTheWholeRunNamingEveryMissingPath() throws {
    let root = try Self.folder(["A.swift": Self.weakAccessibility])
    let (status, output) = KeywardCLI.run([
      "scan", root.path, "/no/such/one.swift", "/no/such/two", "--format", "json",
    ])
    #expect(status == 2)
    #expect(output.standardOutput.isEmpty)
    #expect(
      output.standardError.contains(
        "paths do not exist or cannot be read: /no/such/one.swift, /no/such/two; nothing was scanned"))
  }

  // MARK: Help

  static let commands = [
    "scan", "fix", "inventory", "rules", "explain", "baseline", "baseline create", "config", "config print",
    "config init",
  ]

  @Test(arguments: commands) func everyCommandShowsItsOwnHelpInPlainWords(_ command: String) {
    let words = command.split(separator: " ").map(String.init)
    for arguments in [words + ["--help"], words + ["-h"], ["help"] + words] {
      let (status, output) = KeywardCLI.run(arguments)
      #expect(status == 0)
      let help = output.standardOutput
      #expect(help.contains("USAGE: keyward \(command)"), "\(arguments): \(help.prefix(300))")
      #expect(!help.contains("KeywardCore"), "\(arguments)")
      #expect(!help.contains("severity("), "\(arguments)")
      // Each option's text says its default and its values once.
      for option in Self.optionTexts(help) {
        #expect(option.components(separatedBy: "default").count <= 2, "\(command): \(option)")
        #expect(option.components(separatedBy: "values").count <= 2, "\(command): \(option)")
        #expect(!option.contains(".0)"), "\(command): \(option)")
      }
    }
  }

  @Test func scanHelpSaysBuiltAppsAreAcceptedAndShowsDefaultsAsWritten() {
    let help = KeywardCLI.run(["scan", "--help"]).output.standardOutput.split(whereSeparator: \.isWhitespace)
      .joined(separator: " ")
    #expect(help.contains(".ipa, .app, Mach-O"))
    #expect(help.contains("default: the current folder"))
    #expect(help.contains("default: low"))
    #expect(help.contains("--fail-on <severity>"))
  }

  /// The help text of each option: from a line starting with `-` to the next such line.
  static func optionTexts(_ help: String) -> [String] {
    var options: [String] = []
    for line in help.split(separator: "\n") {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix("-") || trimmed.hasPrefix("<") {
        options.append(trimmed)
      } else if !options.isEmpty, line.hasPrefix("  ") {
        options[options.count - 1] += " " + trimmed
      }
    }
    return options
  }

  // MARK: Excludes

  static func findingPaths(_ output: CommandOutput) -> [String] {
    output.standardOutput.split(whereSeparator: \.isNewline).dropFirst().compactMap { line in
      let columns = line.split(separator: ",", omittingEmptySubsequences: false)
      return columns.count > 3 ? String(columns[3]) : nil
    }
  }

  @Test func configurationGlobsAreRelativeToTheConfigurationFilesFolder() throws {
    let root = try Self.folder([
      ".keyward.yml": "exclude: [\"App/Generated/**\", \"*.skip.swift\"]\norigins:\n  test: [\"App/Support/**\"]\n",
      "App/Generated/G.swift": Self.weakAccessibility,
      "App/Sources/A.swift": Self.weakAccessibility,
      "App/Sources/B.skip.swift": Self.weakAccessibility,
      "App/Support/S.swift": Self.weakAccessibility,
    ])
    // The same files are left out whether the repository or the app folder is scanned.
    for scanned in [root, root.appendingPathComponent("App")] {
      let (_, output) = KeywardCLI.run(["scan", scanned.path, "--format", "csv"])
      let paths = Self.findingPaths(output)
      #expect(paths.count == 2, "\(scanned.path): \(paths)")
      #expect(!paths.contains { $0.contains("Generated") || $0.contains("skip") })
      #expect(output.standardOutput.contains("Support/S.swift") && output.standardOutput.contains(",test,"))
    }
    // A configuration in a subfolder anchors its globs there, whatever is scanned.
    let nested = try Self.folder([
      "Package/.keyward.yml": "exclude: [\"Generated/**\"]\n",
      "Package/Generated/G.swift": Self.weakAccessibility,
      "Generated/Kept.swift": Self.weakAccessibility,
    ])
    let config = nested.appendingPathComponent("Package/.keyward.yml").path
    let (_, output) = KeywardCLI.run(["scan", nested.path, "--config", config, "--format", "csv"])
    #expect(Self.findingPaths(output) == ["Generated/Kept.swift"])
  }

  @Test func forceExcludeAppliesExcludesToPathsNamedOnTheCommandLine() throws {
    let root = try Self.folder([
      ".keyward.yml": "exclude: [\"App/Generated/**\"]\n",
      "App/Generated/G.swift": Self.weakAccessibility,
      "App/A.swift": Self.weakAccessibility,
    ])
    let generated = root.appendingPathComponent("App/Generated/G.swift").path
    let app = root.appendingPathComponent("App/A.swift").path
    // Named, a file is scanned whatever the excludes say...
    #expect(KeywardCLI.run(["scan", generated]).status == 1)
    // ...unless --force-exclude, as a pre-commit hook passes every staged file.
    let (status, output) = KeywardCLI.run(["scan", generated, app, "--force-exclude", "--format", "csv"])
    #expect(status == 1)
    #expect(Self.findingPaths(output) == ["A.swift"])
    let onlyExcluded = KeywardCLI.run(["scan", generated, "--force-exclude"])
    #expect(onlyExcluded.status == 0)
    #expect(onlyExcluded.output.standardError.contains("every path named is excluded"))
    #expect(KeywardCLI.run(["fix", generated, "--force-exclude", "--dry-run"]).status == 0)
    // A folder named is scanned even when an exclusion covers it; exclusions inside it apply.
    let folder = root.appendingPathComponent("App/Generated").path
    try Self.weakAccessibility.write(toFile: folder + "/G.skip.swift", atomically: true, encoding: .utf8)
    let named = KeywardCLI.run(["scan", folder, "--exclude", "*.skip.swift", "--format", "csv"])
    #expect(Self.findingPaths(named.output) == ["G.swift"])
    #expect(KeywardCLI.run(["scan", folder, "--force-exclude"]).status == 0)
  }

  @Test func changedSinceOutsideARepositorySaysSoInOneLine() throws {
    let root = try Self.folder(["A.swift": Self.weakAccessibility])
    let (status, output) = KeywardCLI.run(["scan", root.path, "--changed-since", "origin/main"])
    #expect(status == 2)
    #expect(
      output.standardError == "keyward: error: --changed-since needs a git repository, and \(root.path) is not in one\n"
    )
  }

  // MARK: Fixes that change behaviour

  @Test func fixesThatChangeBehaviourAreAppliedOnlyWhenAskedFor() throws {
    let root = try Self.folder(["A.swift": Self.weakFlag + Self.weakAccessibility])
    let file = root.appendingPathComponent("A.swift")
    // The scan says so.
    let scan = KeywardCLI.run(["scan", root.path])
    #expect(scan.output.standardOutput.contains("= fix (changes behaviour: the item becomes unreadable"))
    let json = KeywardCLI.run(["scan", root.path, "--format", "json"]).output.standardOutput
    #expect(json.contains("\"changesBehavior\" : true") || json.contains("\"changesBehavior\": true"))
    // A dry run shows only the fix that keeps behaviour, and says what was left.
    let dry = KeywardCLI.run(["fix", root.path, "--dry-run"])
    #expect(dry.status == 1)
    #expect(dry.output.standardOutput.contains("+let q = [kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlock]"))
    #expect(!dry.output.standardOutput.contains("biometryCurrentSet"))
    #expect(dry.output.standardError.contains("Left 1 fix(es) that change behaviour"))
    #expect(dry.output.standardError.contains("--include-behavior-changes"))
    // With the flag, the diff says what changes, and fix applies it.
    let all = KeywardCLI.run(["fix", root.path, "--dry-run", "--include-behavior-changes"])
    #expect(all.output.standardOutput.hasPrefix("# A.swift: changes behaviour: the item becomes unreadable"))
    #expect(
      all.output.standardOutput.contains("+let a = SecAccessControlCreateWithFlags(nil, p, .biometryCurrentSet, nil)"))
    #expect(KeywardCLI.run(["fix", root.path]).status == 0)
    #expect(try String(contentsOf: file, encoding: .utf8).contains(".biometryAny"))
    #expect(KeywardCLI.run(["fix", root.path, "--include-behavior-changes"]).status == 0)
    #expect(try String(contentsOf: file, encoding: .utf8).contains(".biometryCurrentSet"))
  }

  @Test func theEventBoundRulesRemediationExampleScansClean() throws {
    let rule = try #require(RuleCatalog.standard.rule(withID: "swift.event_bound_biometric_auth"))
    let root = try Self.folder(["Remediation.swift": rule.metadata.fixedExample])
    let (status, output) = KeywardCLI.run(["scan", root.path, "--profile", "strict"])
    #expect(status == 0, "\(output.standardOutput)")
    #expect(output.standardOutput.contains("No findings"))
  }

  // MARK: Colour and progress

  @Test func colorIsChosenWithTheColorOption() throws {
    let root = try Self.folder(["A.swift": Self.weakAccessibility])
    let escape = "\u{1B}["
    // auto: colour on a terminal, unless NO_COLOR is set (as it may be where the tests run).
    let auto = KeywardCLI.run(["scan", root.path], isTerminal: true).output.standardOutput.contains(escape)
    #expect(auto == (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty)
    #expect(!KeywardCLI.run(["scan", root.path]).output.standardOutput.contains(escape))
    #expect(KeywardCLI.run(["scan", root.path, "--color", "always"]).output.standardOutput.contains(escape))
    let never = KeywardCLI.run(["scan", root.path, "--color", "never"], isTerminal: true)
    #expect(!never.output.standardOutput.contains(escape))
    #expect(
      !KeywardCLI.run(["scan", root.path, "--color", "always", "--format", "csv"]).output.standardOutput.contains(
        escape))
    #expect(KeywardCLI.run(["scan", root.path, "--color", "sometimes"]).status == 2)
  }

  final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var pieces: [String] = []
    func append(_ text: String) { lock.withLock { pieces.append(text) } }
    var text: String { lock.withLock { pieces.joined() } }
  }

  @Test func progressGoesToItsOwnStreamOnlyWhenAScanTakesLong() throws {
    var files: [String: String] = [:]
    for index in 0..<40 { files["F\(index).swift"] = Self.weakAccessibility }
    let root = try Self.folder(files)
    // A scan past the delay (0 here) shows files done / total, then clears the line.
    let shown = Collected()
    let (status, output) = KeywardCLI.run(
      ["scan", root.path, "--format", "json"], progress: ProgressMeter(delay: 0) { shown.append($0) })
    #expect(status == 1)
    #expect(shown.text.contains("keyward: 40/40 files"))
    #expect(shown.text.hasSuffix("\r\u{1B}[K"))
    // Never in the report.
    #expect(!output.standardOutput.contains("40 files"))
    #expect(!output.standardOutput.contains("\u{1B}"))
    #expect(!output.standardError.contains("40/40"))
    // A scan shorter than the delay shows nothing.
    let quiet = Collected()
    _ = KeywardCLI.run(["scan", root.path], progress: ProgressMeter(delay: 60) { quiet.append($0) })
    #expect(quiet.text.isEmpty)
  }

  // MARK: Formats CI systems import

  static let example = Paths.packageRoot.appendingPathComponent("Examples/VaultApp").path
  /// The example app's findings in the standard profile (also in the CLI test's summary line).
  static let exampleFindingCount = 49

  static func json(_ arguments: [String]) throws -> Any {
    let (_, output) = KeywardCLI.run(arguments)
    return try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8))
  }

  @Test func gitLabCodeQualityListsEveryActiveFindingAndEveryFileNotScanned() throws {
    let issues = try #require(try Self.json(["scan", Self.example, "--format", "gitlab"]) as? [[String: Any]])
    #expect(issues.count == Self.exampleFindingCount)
    let fingerprints = Set(issues.compactMap { $0["fingerprint"] as? String })
    #expect(fingerprints.count == issues.count, "GitLab needs a unique fingerprint per issue")
    for issue in issues {
      #expect(["info", "minor", "major", "critical", "blocker"].contains(issue["severity"] as? String ?? ""))
      let location = try #require(issue["location"] as? [String: Any])
      // Relative to the scan root: the app's sources and its Mac helper package's.
      let path = location["path"] as? String ?? "/"
      #expect(path.hasPrefix("Sources/") || path.hasPrefix("MacHelper/Sources/"), "\(path)")
      #expect(((location["lines"] as? [String: Any])?["begin"] as? Int ?? 0) >= 1)
      #expect((issue["check_name"] as? String)?.contains(".") == true)
    }
    let broken = try Self.folder(["Bad.swift": "\u{0}\u{1}", "Good.swift": "let x = 1\n"])
    let empty = try #require(try Self.json(["scan", broken.path, "--format", "gitlab"]) as? [[String: Any]])
    #expect(empty.map { $0["check_name"] as? String } == ["keyward.scan-error.binary"] || empty.count == 1)
    // A built app: the Mach-O file, architecture and address in the description.
    let app = Paths.fixture("Binary/VaultLegacy.app").path
    let binary = try #require(try Self.json(["scan", app, "--format", "gitlab"]) as? [[String: Any]])
    #expect(binary.contains { ($0["description"] as? String)?.contains("0x") == true })
  }

  @Test func sonarQubeGenericIssuesNameTheirRulesAndRanges() throws {
    let report = try #require(try Self.json(["scan", Self.example, "--format", "sonarqube"]) as? [String: Any])
    let issues = try #require(report["issues"] as? [[String: Any]])
    let rules = try #require(report["rules"] as? [[String: Any]])
    #expect(issues.count == Self.exampleFindingCount)
    let ruleIDs = Set(rules.compactMap { $0["id"] as? String })
    for issue in issues {
      #expect(ruleIDs.contains(issue["ruleId"] as? String ?? ""))
      let primary = try #require(issue["primaryLocation"] as? [String: Any])
      let range = try #require(primary["textRange"] as? [String: Any])
      #expect((range["startLine"] as? Int ?? 0) >= 1 && (range["startColumn"] as? Int ?? -1) >= 0)
    }
    for rule in rules {
      #expect(rule["engineId"] as? String == "keyward" && rule["cleanCodeAttribute"] as? String == "TRUSTWORTHY")
      let impact = try #require((rule["impacts"] as? [[String: Any]])?.first)
      #expect(impact["softwareQuality"] as? String == "SECURITY")
    }
    let clean = try Self.folder(["A.swift": "let x = 1\n"])
    let none = try #require(try Self.json(["scan", clean.path, "--format", "sonarqube"]) as? [String: Any])
    #expect((none["issues"] as? [Any])?.isEmpty == true)
  }

  // MARK: Input that used to end the scan

  @Test func anEqualsSignSwiftSyntaxCannotDiagnoseIsReportedNotFatal() throws {
    let root = try Self.folder([
      "Odd.swift": Self.weakAccessibility + "a /**/\u{0B}= b\n", "Good.swift": Self.weakAccessibility,
    ])
    let (status, output) = KeywardCLI.run(["scan", root.path, "--format", "csv"])
    #expect(status == 1)
    #expect(Self.findingPaths(output).contains("Good.swift"))
    #expect(output.standardOutput.contains("'=' must have consistent whitespace on both sides"))
  }

  // MARK: The auditor's page

  @Test func theHTMLReportOrdersRulesBySeverityAndLinksTheirReferences() throws {
    let html = KeywardCLI.run(["scan", Self.example, "--format", "html"]).output.standardOutput
    let marker = "<section class=\"rule\" id=\""
    let ids = html.components(separatedBy: marker).dropFirst().map { String($0.prefix { $0 != "\"" }) }
    #expect(ids.count > 5)
    let severities = try ids.map { try #require(RuleCatalog.standard.rule(withID: $0)).metadata.severity }
    #expect(severities == severities.sorted(by: >), "\(ids)")
    #expect(html.contains("<a href=\"https://cwe.mitre.org/data/definitions/"))
  }
}
