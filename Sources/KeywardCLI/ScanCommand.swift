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
}

extension ReportFormat: ExpressibleByArgument {}
extension Profile: ExpressibleByArgument {}

struct ScanCommand: KeywardCommand {
  static let configuration = CommandConfiguration(
    commandName: "scan", abstract: "Scan Swift sources for keychain and biometric-authentication weaknesses.")

  @Argument(help: "Folders or .swift files to scan.")
  var paths: [String] = []

  @Option(help: "Report format: \(ReportFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
  var format: ReportFormat = .text

  @Option(help: "Write the report to this file instead of standard output.")
  var output: String?

  @Option(help: "Configuration file (default: .keyward.yml in the scanned folder or a parent).")
  var config: String?

  @Option(help: "Rule profile: essential, standard (default) or strict. Overrides the configuration file.")
  var profile: Profile?

  @Option(
    name: .customLong("fail-on"),
    help: "Exit 1 when a finding is at least this severe: critical, high, medium, low, info, or none.")
  var failOn: FailThreshold = .severity(.low)

  @Option(name: .customLong("exclude"), help: "Skip paths matching this glob (repeatable), e.g. 'Generated/**'.")
  var excludes: [String] = []

  @Option(help: "Files scanned at once (default: one per processor).")
  var jobs: Int = 0

  func validate() throws {
    guard !paths.isEmpty else { throw ValidationError("give at least one folder or .swift file to scan") }
    guard jobs >= 0 else { throw ValidationError("--jobs must be 0 (automatic) or more") }
  }

  func execute(_ io: inout CommandOutput) throws -> Int32 {
    var configuration = try Self.loadConfiguration(explicit: config, scanning: paths[0])
    if let profile { configuration.profile = profile }
    for warning in configuration.warnings { io.warn("warning: \(warning)") }
    let scanner = Scanner(rules: configuration.configuredRules(from: .standard), wrappers: configuration.wrappers)
    let result = try scanner.scan(ScanRequest(paths: paths, excludes: configuration.excludes + excludes, jobs: jobs))
    let useColor =
      format == .text && output == nil && io.isTerminal && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    let report = try format.reporter(useColor: useColor).render(result)
    if let output {
      do {
        try report.write(toFile: output, atomically: true, encoding: .utf8)
      } catch {
        throw UsageError("cannot write the report to \(output): \(error.localizedDescription)")
      }
      io.warn(
        "\(result.activeFindings.count) finding(s), \(result.errors.count) scan error(s); report written to \(output)")
    } else {
      io.standardOutput += report
    }
    return Self.exitStatus(result, threshold: failOn)
  }

  static func exitStatus(_ result: ScanResult, threshold: FailThreshold) -> Int32 {
    guard case .severity(let minimum) = threshold else { return ExitStatus.clean }
    return result.activeFindings.contains { $0.severity >= minimum } ? ExitStatus.findings : ExitStatus.clean
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
