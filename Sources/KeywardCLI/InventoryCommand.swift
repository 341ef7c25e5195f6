import ArgumentParser
import Foundation
import KeywardBinary
import KeywardCore
import KeywardReporters
import KeywardRules

/// `keyward inventory`: what the code writes to the keychain, where it asks for Face ID, Touch
/// ID or the passcode, and what its built apps link; an auditor's record of what was checked.
struct InventoryCommand: KeywardCommand {
  static let configuration = CommandConfiguration(
    commandName: "inventory",
    abstract:
      "List the keychain items and keys the code writes, its LocalAuthentication prompts and the frameworks its built apps link.",
    discussion: """
      For each item or key: where it is written, its class or key type, service/account or \
      application tag, accessibility, access-control flags, synchronizable, data-protection \
      keychain, the wrapper library if any, and whether the code is app, test, sample, \
      third-party or generated. For each evaluatePolicy: its policy and whether it is \
      keychain-bound or event-bound. As JSON, or as a CycloneDX 1.6 bill of materials with \
      cryptographic assets. Files that cannot be read are listed under errors; the run goes on. \
      Exit status: 0, or 2 for a usage or configuration error.
      """)

  enum Format: String, ExpressibleByArgument, CaseIterable {
    case json, cyclonedx
  }

  @Argument(
    help: ArgumentHelp(
      "Folders, source files (.swift, .m, .mm, .h) or built apps (.ipa, .app, Mach-O) (default: the current folder).",
      valueName: "path"))
  var paths: [String] = []

  @Option(help: "Output format.")
  var format: Format = .json

  @Option(help: ArgumentHelp("Write the inventory to this file instead of standard output.", valueName: "file"))
  var output: String?

  @Option(
    help: ArgumentHelp(
      "Configuration file (default: .keyward.yml in the scanned or current folder, or a parent).", valueName: "file"))
  var config: String?

  @Option(
    name: .customLong("exclude"),
    help: ArgumentHelp("Skip paths matching this glob (repeatable), e.g. 'Generated/**'.", valueName: "glob"))
  var excludes: [String] = []

  @Option(help: ArgumentHelp("Files read at once (default: one per processor).", valueName: "n"))
  var jobs: Int?

  func validate() throws {
    guard (jobs ?? 0) >= 0 else { throw ValidationError("--jobs must be 0 (automatic) or more") }
  }

  func execute(_ io: inout CommandOutput) throws -> Int32 {
    let targets = paths.isEmpty ? ["."] : paths
    let configuration = try ScanCommand.loadConfiguration(explicit: config, scanning: targets[0])
    for warning in configuration.warnings { io.warn("warning: \(warning)") }
    var request = ScanRequest(paths: targets, excludes: excludes, jobs: jobs ?? 0)
    request.configurationExcludes = configuration.excludes
    request.configurationFolder = configuration.folder
    request.includes = configuration.includes
    request.origins = OriginOverrides(configuration.origins)
    request.includeThirdParty = configuration.includeThirdParty
    let inventory = try Inventory.take(request, with: Self.scanner(configuration))
    if inventory.filesScanned == 0 {
      throw UsageError(ScanOptions.noFilesMessage(targets, errors: inventory.errors))
    }
    let text =
      switch format {
      case .json: InventoryJSONReporter().render(inventory)
      case .cyclonedx:
        CycloneDXReporter(timestamp: ScanRecord.date(environment: ProcessInfo.processInfo.environment))
          .render(inventory)
      }
    if let output {
      do {
        try ReportFile.write(to: output) { write in try write(text) }
      } catch {
        throw UsageError("cannot write the inventory to \(output): \(error.localizedDescription)")
      }
      io.warn(
        "\(inventory.keychainItems.count) keychain item(s) and key(s), \(inventory.gates.count) LocalAuthentication gate(s), \(inventory.binaries.count) built app(s), \(inventory.errors.count) file error(s); inventory written to \(output)"
      )
    } else {
      io.emit(text)
    }
    return ExitStatus.clean
  }

  /// The rule that settles, across files, whether a gate whose context leaves its file is
  /// event-bound; run with the configuration's options whatever its profile says.
  /// The scanner an inventory takes: it runs only the rule that settles gates across files.
  static func scanner(_ configuration: Configuration) -> KeywardCore.Scanner {
    Scanner(rules: [gateRule(configuration)], wrappers: configuration.wrappers, binaryAnalyzer: AppAnalyzer())
  }

  static func gateRule(_ configuration: Configuration) -> ConfiguredRule {
    let rule = EventBoundBiometricAuth.self
    return ConfiguredRule(
      rule: rule,
      options: RuleOptions(
        specs: rule.options, overrides: configuration.rules[rule.metadata.id]?.options ?? [:],
        profile: configuration.profile),
      severity: rule.metadata.severity, wrappers: configuration.wrappers)
  }
}
