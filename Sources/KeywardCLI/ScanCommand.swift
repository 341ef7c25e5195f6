import ArgumentParser
import Foundation
import KeywardCore
import KeywardReporters
import KeywardRules

/// The lowest severity that makes `scan` exit 1, or `none`.
enum FailThreshold: ExpressibleByArgument, Equatable {
  case severity(Severity)
  case never

  init?(argument: String) {
    if argument == "none" {
      self = .never
    } else if let severity = Severity(rawValue: argument) {
      self = .severity(severity)
    } else {
      return nil
    }
  }

  static var allValueStrings: [String] { Severity.allCases.reversed().map(\.rawValue) + ["none"] }

  /// As written on the command line, for help's "(default: low)".
  var defaultValueDescription: String {
    switch self {
    case .never: "none"
    case .severity(let severity): severity.rawValue
    }
  }
}

extension ReportFormat: ExpressibleByArgument {}

/// `--color`: colour in the text report.
enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
  case auto, always, never
}

struct ScanCommand: KeywardCommand {
  static let configuration = CommandConfiguration(
    commandName: "scan", abstract: "Scan sources for keychain and biometric-authentication weaknesses.")

  @OptionGroup var scanOptions: ScanOptions

  @Option(help: "Report format.")
  var format: ReportFormat = .text

  @Option(
    help: ArgumentHelp(
      "Colour the text report (auto: on a terminal, unless NO_COLOR is set).", valueName: "when"))
  var color: ColorChoice = .auto

  @Option(help: ArgumentHelp("Write the report to this file instead of standard output.", valueName: "file"))
  var output: String?

  @Option(
    name: .customLong("fail-on"),
    help: ArgumentHelp(
      "Exit 1 when a finding that counts is at least this severe (none: never).", valueName: "severity"))
  var failOn: FailThreshold = .severity(.low)

  @Option(
    name: .customLong("fail-origin"),
    help: ArgumentHelp(
      "Also count findings in this code toward --fail-on (repeatable or comma-separated): test, sample, third-party, generated, or all (every finding, DEBUG- and simulator-only code too). App code always counts.",
      valueName: "origin"))
  var failOrigins: [String] = []

  @Option(
    help: ArgumentHelp(
      "Report only findings that are not in this baseline (see `keyward baseline create`).", valueName: "file"))
  var baseline: String?

  @Option(
    name: .customLong("baseline-commit"),
    help: ArgumentHelp(
      "Report only findings that are new since this git revision (e.g. origin/main): the paths are also scanned as they were at that commit, with the same configuration and options, and findings already there are marked suppressed by the baseline, as with --baseline, so they do not count toward --fail-on.",
      valueName: "revision"))
  var baselineCommit: String?

  @Flag(
    help: ArgumentHelp(
      "Add, for each MASTG test the rules check (MASTG-TEST-0266, 0268, 0270, 0299), whether the app passes and the places that show it: a section of the text and HTML reports, an `evidence` array in JSON, run properties in SARIF. Reads the paths a second time to list what the code does right."
    ))
  var evidence = false

  /// For build systems that need a command to produce a file (the build-tool plugin): a Swift
  /// file holding only a comment, so it compiles to nothing and is never bundled as a resource.
  @Option(help: .hidden)
  var stamp: String?

  func validate() throws {
    var invalid = ""
    guard FailPolicy(values: failOrigins, invalid: { invalid = $0 }) != nil else {
      throw ValidationError(
        "--fail-origin: '\(invalid)' is not an origin; valid values: \(FailPolicy.valueNames.joined(separator: ", "))")
    }
  }

  func execute(_ io: inout CommandOutput) throws -> Int32 {
    // Read the baseline first: a bad one is an error before any work is done.
    let fileMatcher = try baseline.map { try Baseline.load(path: $0).matcher }
    let configuration = try scanOptions.configurationOptions.load(&io, scanning: scanOptions.targets[0])
    var commitMatcher: Baseline.Matcher?
    var record = format.printsScanRecord ? Self.record(scanOptions, configuration: configuration) : nil
    record?.baselineFile = baseline
    if let baselineCommit {
      let (commit, findings) = try RevisionBaseline.findings(
        at: baselineCommit, request: try scanOptions.request(configuration, failOrigins: failOrigins),
        scanner: ScanOptions.scanner(configuration))
      commitMatcher = Baseline(findings: findings).matcher(justification: "already present at \(baselineCommit)")
      record?.baselineRevision = baselineCommit
      record?.baselineCommit = commit
    }
    // Findings in the baseline file, then those present at the baseline commit, are suppressed.
    let accept = Self.accepting([fileMatcher, commitMatcher].compactMap { $0 })
    let useColor: Bool
    switch color {
    case .always: useColor = format == .text
    case .never: useColor = false
    case .auto:
      useColor =
        format == .text && output == nil && io.isTerminal
        && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
    }
    var reporter = format.reporter(useColor: useColor)
    if format == .xcode, case .severity(let threshold) = failOn {
      // Errors only for what fails the scan: with --fail-on none, a build sees warnings.
      reporter = XcodeReporter(errorThreshold: threshold)
    }
    // Formats that can print findings file by file do so during the scan, so that memory does
    // not grow with the number of findings.
    // Evidence is judged from every finding, so those reports are written whole.
    let streaming = evidence ? nil : reporter as? any StreamingReporter
    var spool: FindingSpool?
    var (result, _) = try scanOptions.scan(
      &io, configuration: configuration, failOrigins: failOrigins, contextLines: format.contextLines
    ) { scope in
      spool = streaming?.spool(scope: scope) { findings in
        accept?(findings) ?? findings
      }
      return spool
    }
    result.record = record
    // Streamed findings had the baseline applied file by file, in the spool.
    if let accept, spool == nil { result.findings = accept(result.findings) }
    if evidence, result.filesScanned > 0 {
      let inventory = try Inventory.take(
        try scanOptions.request(configuration, failOrigins: failOrigins), with: InventoryCommand.scanner(configuration))
      result.evidence = TestEvidence.assess(result, inventory: inventory)
    }
    let counts = spool?.counts ?? result.counts
    let writeReport = { (write: (String) throws -> Void) throws in
      if let streaming, let spool {
        try streaming.write(result, spooled: spool, to: write)
      } else {
        try reporter.write(result, to: write)
      }
    }
    if let output {
      do {
        try ReportFile.write(to: output, writeReport)
      } catch {
        throw UsageError("cannot write the report to \(output): \(error.localizedDescription)")
      }
      io.warn("\(counts.activeTotal) finding(s), \(result.errors.count) scan error(s); report written to \(output)")
    } else {
      try writeReport { io.emit($0) }
    }
    if let stamp {
      let summary = "// Keyward scanned this target: \(counts.activeTotal) finding(s).\n"
      try? summary.write(toFile: stamp, atomically: true, encoding: .utf8)
    }
    return Self.exitStatus(counts, threshold: failOn, policy: result.failPolicy)
  }

  /// 1 when a finding that counts (by where its code lives) is at least as severe as the threshold.
  static func exitStatus(_ counts: FindingCounts, threshold: FailThreshold, policy: FailPolicy) -> Int32 {
    guard case .severity(let minimum) = threshold else { return ExitStatus.clean }
    return counts.hasCounted(atLeast: minimum, policy: policy) ? ExitStatus.findings : ExitStatus.clean
  }

  /// Marks the findings each baseline accepts, in turn; nil when there is no baseline.
  static func accepting(_ matchers: [Baseline.Matcher]) -> (@Sendable ([Finding]) -> [Finding])? {
    guard !matchers.isEmpty else { return nil }
    return { findings in matchers.reduce(findings) { $1.apply(to: $0) } }
  }

  /// What the scan is made from, for the reports that print it: the paths as given, the time,
  /// the commit checked out where the scan root lies, and the configuration's digest.
  static func record(_ options: ScanOptions, configuration: Configuration) -> ScanRecord {
    var record = ScanRecord(
      paths: options.targets, date: ScanRecord.date(environment: ProcessInfo.processInfo.environment),
      profile: configuration.profile,
      configurationDigest: SHA256.hex(ConfigurationText.printed(configuration).utf8),
      configurationFile: configuration.source)
    if let state = Git.state(of: options.root) {
      record.commit = state.commit
      record.hasUncommittedChanges = state.hasUncommittedChanges
    }
    return record
  }

  /// The configuration named with `--config`, or `.keyward.yml` found from the scanned path.
  static func loadConfiguration(explicit: String?, scanning path: String) throws -> Configuration {
    let loader = ConfigLoader(catalog: .standard)
    if let explicit { return try loader.load(path: explicit) }
    let start = FileDiscovery.absolute(path)
    var isFolder: ObjCBool = false
    _ = FileManager.default.fileExists(atPath: start, isDirectory: &isFolder)
    let folder = isFolder.boolValue ? start : (start as NSString).deletingLastPathComponent
    guard let found = ConfigLoader.discover(from: folder) else { return Configuration() }
    return try loader.load(path: found)
  }
}

struct BaselineCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "baseline", abstract: "Record today's findings so that scans report only new ones.",
    subcommands: [CreateBaseline.self])
}

struct CreateBaseline: KeywardCommand {
  static let configuration = CommandConfiguration(
    commandName: "create", abstract: "Scan PATH... and write its findings to FILE as a baseline.")

  @Argument(help: "The baseline file to write (JSON).")
  var file: String

  @OptionGroup var scanOptions: ScanOptions

  func execute(_ io: inout CommandOutput) throws -> Int32 {
    let (result, _) = try scanOptions.scan(&io)
    let baseline = Baseline(findings: result.findings)
    do {
      try baseline.write(to: file)
    } catch {
      throw UsageError("cannot write the baseline to \(file): \(error.localizedDescription)")
    }
    io.print("Baseline of \(baseline.findings.count) finding(s) written to \(file).")
    return ExitStatus.clean
  }
}
