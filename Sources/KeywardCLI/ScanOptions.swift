import ArgumentParser
import Foundation
import KeywardBinary
import KeywardCore
import KeywardReporters
import KeywardRules

/// The options every command that scans takes.
struct ScanOptions: ParsableArguments {
  @Argument(help: "Folders or source files to scan (.swift, .m, .mm, .h).")
  var paths: [String] = []

  @OptionGroup var configurationOptions: ConfigurationOptions

  @Option(name: .customLong("exclude"), help: "Skip paths matching this glob (repeatable), e.g. 'Generated/**'.")
  var excludes: [String] = []

  @Option(help: "Files scanned at once (default: one per processor).")
  var jobs: Int = 0

  @Option(help: "Scan only files changed since this git revision (and new files), e.g. origin/main.")
  var changedSince: String?

  @Option(help: "Keep results in this folder and rescan only files that changed (or when rules or options change).")
  var cache: String?

  @Option(help: "Give up on a file that takes longer than this many seconds, report it, and go on (0: no limit).")
  var fileTimeLimit: Double = ScanRequest.defaultFileTimeLimit

  func validate() throws {
    guard !paths.isEmpty else { throw ValidationError("give at least one folder or source file to scan") }
    guard jobs >= 0 else { throw ValidationError("--jobs must be 0 (automatic) or more") }
    guard fileTimeLimit >= 0 else { throw ValidationError("--file-time-limit must be 0 (no limit) or more seconds") }
  }

  /// Loads the configuration, applies the options over it, and scans. `failOrigins` are the
  /// values of `--fail-origin`, which replace the configuration's `failOrigins`. `findingSink`,
  /// given the rules that will run, the scan root and which findings count, may return where
  /// findings should go instead of the result.
  func scan(
    _ io: inout CommandOutput, failOrigins: [String] = [],
    findingSink: (ReportScope) -> (any FindingSink)? = { _ in nil }
  ) throws -> (ScanResult, Configuration) {
    let configuration = try configurationOptions.load(&io, scanning: paths[0])
    let rules = configuration.configuredRules(from: .standard)
    let scanner = Scanner(rules: rules, wrappers: configuration.wrappers, binaryAnalyzer: AppAnalyzer())
    var request = ScanRequest(paths: paths, excludes: configuration.excludes + excludes, jobs: jobs)
    request.includes = configuration.includes
    request.cacheFolder = cache
    request.origins = OriginOverrides(configuration.origins)
    request.includeThirdParty = configuration.includeThirdParty
    request.failPolicy =
      (failOrigins.isEmpty ? nil : FailPolicy(values: failOrigins)) ?? configuration.failPolicy ?? .default
    // The root the scanner will find, so that a sink can print absolute paths.
    let root = FileDiscovery.scanRoot(for: paths.map(FileDiscovery.absolute))
    request.findingSink = findingSink(ReportScope(rules: rules, root: root, failPolicy: request.failPolicy))
    request.fileTimeLimit = fileTimeLimit > 0 ? fileTimeLimit : nil
    if let changedSince {
      request.onlyPaths = try ChangedFiles.since(changedSince, root: root)
    }
    let result = try scanner.scan(request)
    for warning in result.warnings { io.warn("warning: \(warning)") }
    if let note = Self.skippedFoldersNote(result.skippedFolders) { io.warn(note) }
    return (result, configuration)
  }

  /// Said once per scan: dependency folders are not lost silently.
  static func skippedFoldersNote(_ folders: [String]) -> String? {
    guard !folders.isEmpty else { return nil }
    let shown = folders.prefix(3).joined(separator: ", ") + (folders.count > 3 ? " and \(folders.count - 3) more" : "")
    return
      "note: skipped third-party code in \(shown); to scan it, name the folder (keyward scan \(folders[0])) or set `includeThirdParty: true` in .keyward.yml"
  }
}

extension Profile: ExpressibleByArgument {}

/// `--config` and `--profile`, and loading the configuration they select.
struct ConfigurationOptions: ParsableArguments {
  @Option(help: "Configuration file (default: .keyward.yml in the scanned folder, or here, or a parent).")
  var config: String?

  @Option(help: "Rule profile: essential, standard (default) or strict. Overrides the configuration file.")
  var profile: Profile?

  /// The configuration for scanning `path`, with `--profile` applied; warnings go to stderr.
  func load(_ io: inout CommandOutput, scanning path: String = ".") throws -> Configuration {
    var configuration = try ScanCommand.loadConfiguration(explicit: config, scanning: path)
    if let profile { configuration.profile = profile }
    for warning in configuration.warnings { io.warn("warning: \(warning)") }
    return configuration
  }
}
