import ArgumentParser
import Foundation
import KeywardCore
import KeywardRules

struct FixCommand: KeywardCommand {
  static let configuration = CommandConfiguration(
    commandName: "fix",
    abstract: "Apply the safe fixes of the findings (e.g. .biometryAny → .biometryCurrentSet).",
    discussion: """
      Only fixes marked safe are applied, never to suppressed findings, never to files with syntax \
      errors; a result that would not parse is refused; files are replaced atomically with their \
      permissions kept. Running it twice changes nothing the second time.
      """)

  @OptionGroup var scanOptions: ScanOptions

  @Flag(
    help:
      "Also apply safe fixes that change what the app does (.biometryAny → .biometryCurrentSet makes an item unreadable after a new fingerprint or face is enrolled; the app then needs a recovery path)."
  )
  var includeBehaviorChanges = false

  @Flag(help: "Print the changes as a unified diff instead of writing them; exit 1 when there are changes to make.")
  var dryRun = false

  func execute(_ io: inout CommandOutput) throws -> Int32 {
    let configuration = try scanOptions.configurationOptions.load(&io, scanning: scanOptions.targets[0])
    let absolute = try FileDiscovery.existingAbsolutePaths(scanOptions.targets)
    let root = FileDiscovery.scanRoot(for: absolute)
    var discovery = FileDiscovery(
      root: root, excludes: scanOptions.excludes,
      anchoredExcludes: configuration.excludes.map {
        GlobPattern($0).anchored(to: configuration.folder.flatMap { GlobAnchor(folder: $0, root: root) })
      })
    discovery.forceExclude = scanOptions.forceExclude
    let found = discovery.discover(absolute)
    let files = found.files
    if files.isEmpty {
      guard !found.excludedNamed.isEmpty else {
        throw UsageError(ScanOptions.noFilesMessage(scanOptions.targets, errors: found.issues))
      }
      io.warn("note: every path named is excluded (--force-exclude); nothing to fix")
      return ExitStatus.clean
    }
    let scanner = FileScanner(
      rules: configuration.configuredRules(from: .standard), wrappers: configuration.wrappers,
      knownRuleIDs: Set(RuleCatalog.standard.ids))
    let applier = FixApplier(scanner: scanner)
    var fixedFiles = 0
    var fixedCount = 0
    var withheld = 0
    // Built apps have nothing to fix in place.
    for file in files where file.kind == .source {
      let result = applier.fix(file, dryRun: dryRun, includeBehaviorChanges: includeBehaviorChanges)
      withheld += result.withheld.count
      switch result.status {
      case .fixed(let count):
        fixedFiles += 1
        fixedCount += count
        if dryRun { io.emit(result.diff) }
      case .skipped(let reason):
        io.warn("\(result.path): \(reason)")
      case .nothingToFix:
        break
      }
    }
    let verb = dryRun ? "Would fix" : "Fixed"
    io.warn("\(verb) \(fixedCount) finding(s) in \(fixedFiles) file(s).")
    if withheld > 0 {
      io.warn(
        "Left \(withheld) fix(es) that change behaviour (e.g. .biometryCurrentSet: items become unreadable when enrollment changes, so the app needs a recovery path); review them and apply with --include-behavior-changes."
      )
    }
    // A dry run is a check: fixes waiting fail it, as `swift format lint` does.
    return dryRun && fixedCount > 0 ? ExitStatus.findings : ExitStatus.clean
  }
}
