import ArgumentParser
import Foundation
import KeywardBinary
import KeywardCore
import KeywardReporters
import KeywardRules

/// The options every command that scans takes.
struct ScanOptions: ParsableArguments {
  @Argument(
    help: ArgumentHelp(
      "Folders, source files (.swift, .m, .mm, .h) or built apps (.ipa, .app, Mach-O) to scan (default: the current folder).",
      valueName: "path"))
  var paths: [String] = []

  /// The paths to scan: those given, or the current folder.
  var targets: [String] { paths.isEmpty ? ["."] : paths }

  @OptionGroup var configurationOptions: ConfigurationOptions

  @Option(
    name: .customLong("exclude"),
    help: ArgumentHelp("Skip paths matching this glob (repeatable), e.g. 'Generated/**'.", valueName: "glob"))
  var excludes: [String] = []

  @Flag(
    help:
      "Apply the excludes to paths named on the command line too (for hooks and scripts that pass every changed file)."
  )
  var forceExclude = false

  @Option(help: ArgumentHelp("Files scanned at once (default: one per processor).", valueName: "n"))
  var jobs: Int?

  @Option(
    help: ArgumentHelp(
      "Scan only files changed since this git revision (and new files), e.g. origin/main.", valueName: "revision"))
  var changedSince: String?

  @Option(
    help: ArgumentHelp(
      "Keep results in this folder and rescan only files that changed (or when rules or options change).",
      valueName: "folder"))
  var cache: String?

  @Option(
    help: ArgumentHelp(
      "Give up on a file that takes longer than this many seconds, report it, and go on (default: \(Int(ScanRequest.defaultFileTimeLimit)); 0: no limit).",
      valueName: "seconds"))
  var fileTimeLimit: Double?

  func validate() throws {
    guard (jobs ?? 0) >= 0 else { throw ValidationError("--jobs must be 0 (automatic) or more") }
    guard (fileTimeLimit ?? 0) >= 0 else {
      throw ValidationError("--file-time-limit must be 0 (no limit) or more seconds")
    }
  }

  /// Loads the configuration (unless `configuration` is given), applies the options over it,
  /// and scans. `failOrigins` are the values of `--fail-origin`, which replace the
  /// configuration's `failOrigins`. `contextLines` of code are kept around each finding.
  /// `findingSink`, given the rules that will run, the scan root and which findings count, may
  /// return where findings should go instead of the result.
  func scan(
    _ io: inout CommandOutput, configuration given: Configuration? = nil, failOrigins: [String] = [],
    contextLines: Int = 0, findingSink: (ReportScope) -> (any FindingSink)? = { _ in nil }
  ) throws -> (ScanResult, Configuration) {
    let configuration = try given ?? configurationOptions.load(&io, scanning: targets[0])
    let rules = configuration.configuredRules(from: .standard)
    let scanner = Self.scanner(configuration)
    var request = try request(configuration, failOrigins: failOrigins)
    request.contextLines = contextLines
    request.findingSink = findingSink(ReportScope(rules: rules, root: root, failPolicy: request.failPolicy))
    if let meter = io.progress {
      meter.begin()
      request.progress = { meter.update(done: $0, total: $1) }
    }
    let result = try scanner.scan(request)
    io.progress?.finish()
    for warning in result.warnings { io.warn("warning: \(warning)") }
    if result.filesScanned == 0 {
      // Nothing changed is a normal answer for a pull request; nothing to read at all is not.
      if let changedSince {
        io.warn("note: no file changed since \(changedSince) is one Keyward reads; nothing to scan")
        return (result, configuration)
      }
      if !result.excludedNamedPaths.isEmpty {
        io.warn("note: every path named is excluded (--force-exclude); nothing to scan")
        return (result, configuration)
      }
      throw UsageError(Self.noFilesMessage(targets, errors: result.errors))
    }
    if let note = Self.skippedFoldersNote(result.skippedFolders) { io.warn(note) }
    return (result, configuration)
  }

  /// The folder finding paths are relative to, as the scanner will find it (so that a sink can
  /// print absolute paths).
  var root: String { FileDiscovery.scanRoot(for: targets.map(FileDiscovery.absolute)) }

  static func scanner(_ configuration: Configuration) -> KeywardCore.Scanner {
    Scanner(
      rules: configuration.configuredRules(from: .standard), wrappers: configuration.wrappers,
      binaryAnalyzer: AppAnalyzer())
  }

  /// The scan of the paths as these options and `configuration` say, findings going into the
  /// result, without progress.
  func request(_ configuration: Configuration, failOrigins: [String] = []) throws -> ScanRequest {
    var request = ScanRequest(paths: targets, excludes: excludes, jobs: jobs ?? 0)
    request.configurationExcludes = configuration.excludes
    request.configurationFolder = configuration.folder
    request.forceExclude = forceExclude
    request.includes = configuration.includes
    request.cacheFolder = cache
    request.origins = OriginOverrides(configuration.origins)
    request.includeThirdParty = configuration.includeThirdParty
    request.failPolicy =
      (failOrigins.isEmpty ? nil : FailPolicy(values: failOrigins)) ?? configuration.failPolicy ?? .default
    let timeLimit = fileTimeLimit ?? ScanRequest.defaultFileTimeLimit
    request.fileTimeLimit = timeLimit > 0 ? timeLimit : nil
    if let changedSince {
      request.onlyPaths = try ChangedFiles.since(changedSince, root: root)
    }
    return request
  }

  /// Why a scan that read nothing fails (exit 2), as SwiftLint's "no lintable files".
  static func noFilesMessage(_ paths: [String], errors: [ScanIssue]) -> String {
    let named = paths.count == 1 ? paths[0] : paths.joined(separator: ", ")
    var message =
      "no file to analyse in \(named): Keyward reads Swift and Objective-C sources (.swift, .m, .mm, .h) and built apps (.ipa, .app, Mach-O)"
    for error in errors.prefix(3) { message += "\n  \(error.path): \(error.message)" }
    return message
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
  @Option(
    help: ArgumentHelp(
      "Configuration file (default: .keyward.yml in the scanned or current folder, or a parent).", valueName: "file"))
  var config: String?

  @Option(help: "Rule profile, over the configuration file's (default: standard).")
  var profile: Profile?

  /// The configuration for scanning `path`, with `--profile` applied; warnings go to stderr.
  func load(_ io: inout CommandOutput, scanning path: String = ".") throws -> Configuration {
    var configuration = try ScanCommand.loadConfiguration(explicit: config, scanning: path)
    if let profile { configuration.profile = profile }
    for warning in configuration.warnings { io.warn("warning: \(warning)") }
    return configuration
  }
}
