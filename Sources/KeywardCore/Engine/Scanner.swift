import Foundation

/// What to scan and how.
public struct ScanRequest: Sendable {
  public var paths: [String]
  public var excludes: [String]
  /// Worker threads; 0 means one per processor.
  public var jobs: Int
  public var maximumFileSize: Int
  /// When not empty, only files matching one of these globs (relative to `configurationFolder`).
  public var includes: [String] = []
  /// The folder of the configuration file: its globs (`configurationExcludes`, `includes`,
  /// `origins`) are relative to it, as `.gitignore`'s are. nil: the scan root. `excludes` (from
  /// the command line) are relative to the scan root.
  public var configurationFolder: String?
  /// The configuration file's `exclude:` globs.
  public var configurationExcludes: [String] = []
  /// Whether paths named in `paths` are excluded too when a glob matches them (`--force-exclude`);
  /// otherwise a path named is scanned whatever the excludes say.
  public var forceExclude = false
  /// When set, only these files (paths relative to the scan root), as for `--changed-since`.
  public var onlyPaths: Set<String>?
  /// A folder for the outcome cache (`--cache`).
  public var cacheFolder: String?
  /// Seconds one file may take before it is given up and reported; nil for no limit.
  public var fileTimeLimit: Double? = ScanRequest.defaultFileTimeLimit
  /// When set, each file's findings go here as the file is done, and the result holds none.
  public var findingSink: (any FindingSink)?
  /// Where code lives, as the configuration says (`origins`), over the built-in rules.
  public var origins = OriginOverrides()
  /// Scan `Pods` and `Carthage` folders (as third-party code) instead of skipping them.
  public var includeThirdParty = false
  /// Which findings count toward `--fail-on`; carried to the result for the reports.
  public var failPolicy = FailPolicy.default
  /// The folder finding paths are relative to; nil: the deepest folder holding all `paths`.
  /// Set when scanning a copy of a tree (the tree of a git revision) whose paths must match the
  /// original's even when some of `paths` are missing from it.
  public var root: String?
  /// Where the scan root stands for the configuration's globs when the tree scanned is a copy
  /// of the one the configuration belongs to; nil: the root itself.
  public var configurationGlobRoot: String?
  /// Lines of code kept before and after each finding in source (`Finding.excerpt`), for the
  /// reports that show them; 0 keeps none.
  public var contextLines = 0
  public static let defaultFileTimeLimit = 60.0
  /// Called as each file is done, with the files done and the total (from any thread), for
  /// progress shown while a long scan runs.
  public var progress: (@Sendable (_ done: Int, _ total: Int) -> Void)?
  /// Whether to list each file's keychain items and LocalAuthentication gates
  /// (`ScanResult.inventory`) besides its findings; the outcome cache is then not used.
  public var takesInventory = false
  /// Runs between listing the files and reading them: lets tests change the tree mid-scan.
  var afterDiscovery: (@Sendable ([DiscoveredFile]) -> Void)?

  public init(
    paths: [String], excludes: [String] = [], jobs: Int = 0, maximumFileSize: Int = FileScanner.defaultMaximumFileSize
  ) {
    self.paths = paths
    self.excludes = excludes
    self.jobs = jobs
    self.maximumFileSize = maximumFileSize
  }
}

/// Runs a scan: discover files, scan them in parallel (one file per worker, largest first), and
/// merge the outcomes in a fixed order so the result never depends on scheduling.
public struct Scanner: Sendable {
  public let rules: [ConfiguredRule]
  public let wrappers: [WrapperMapping]
  public let binaryAnalyzer: (any BinaryAnalyzer)?

  public init(
    rules: [ConfiguredRule], wrappers: [WrapperMapping] = WrapperMapping.builtIn,
    binaryAnalyzer: (any BinaryAnalyzer)? = nil
  ) {
    self.rules = rules
    self.wrappers = wrappers
    self.binaryAnalyzer = binaryAnalyzer
  }

  public func scan(_ request: ScanRequest) throws -> ScanResult {
    let absolutePaths = try FileDiscovery.existingAbsolutePaths(request.paths)
    let root = request.root ?? FileDiscovery.scanRoot(for: absolutePaths)
    let anchor = request.configurationFolder.flatMap {
      GlobAnchor(folder: FileDiscovery.absolute($0), root: request.configurationGlobRoot ?? root)
    }
    var discovery = FileDiscovery(
      root: root, excludes: request.excludes, origins: request.origins.anchored(to: anchor),
      includeThirdParty: request.includeThirdParty,
      anchoredExcludes: request.configurationExcludes.map { GlobPattern($0).anchored(to: anchor) })
    discovery.forceExclude = request.forceExclude
    let includes = request.includes.map { GlobPattern($0).anchored(to: anchor) }
    let cache = request.cacheFolder.flatMap { folder in request.takesInventory ? nil : folder }.map {
      ScanCache(
        folder: $0,
        ruleset: ScanCache.ruleset(rules: rules, wrappers: wrappers, maximumFileSize: request.maximumFileSize))
    }
    let projectWords = ProjectWords()
    let scanner = {
      var configured = FileScanner(rules: rules, wrappers: wrappers, maximumFileSize: request.maximumFileSize)
      configured.cache = cache
      configured.projectWords = projectWords
      configured.binaryAnalyzer = binaryAnalyzer
      configured.contextLines = request.contextLines
      return request.takesInventory ? configured.takingInventory() : configured
    }()
    let limit = request.fileTimeLimit
    let sink = request.findingSink
    let progress = LateTotal()
    let report = request.progress
    let parked = ParkedFindings()
    let reaches = SpooledReaches()
    let libraryFiles = LibraryFiles()
    let kept = KeptOutcomes()
    @Sendable func work(_ file: DiscoveredFile, _ index: Int) {
      var outcome = scanner.scan(file)
      if let report { progress.step(report) }
      reaches.keep(&outcome.facts, file: index)
      if outcome.hasUnsettledFindings {
        reaches.noteWaiting(outcome.findings)
        libraryFiles.note(file, outcome.findings)
      }
      // A file whose findings wait for the other files is handed over when all are scanned;
      // meanwhile, with a streamed report, its findings wait on disk.
      if let sink {
        if outcome.hasUnsettledFindings {
          parked.park(outcome.findings, file: index)
        } else {
          sink.take(Self.inReportOrder(outcome.findings), file: index)
        }
        outcome.findings = []
      }
      kept.keep(outcome, at: index)
    }
    @Sendable func givenUp(_ file: DiscoveredFile, _ index: Int) {
      let issue = ScanIssue(
        path: file.relativePath, kind: .timeLimit,
        message: "given up: scanning took longer than the \(Self.seconds(limit!))-second limit for one file")
      kept.keep(FileOutcome(issues: [issue]), at: index)
    }
    let found: FileDiscovery.Result
    let files: [DiscoveredFile]
    let discovered: [DiscoveredFile]
    // Listing the files overlaps reading them unless something needs the whole list first (a
    // selection, several paths, a test's hook); files are then read in the order they are found
    // rather than largest first.
    if absolutePaths.count == 1 && includes.isEmpty && request.onlyPaths == nil && request.afterDiscovery == nil {
      let listed = ListedFiles()
      var result: FileDiscovery.Result?
      ParallelWork.mapWhileListing(
        jobs: request.jobs, timeLimit: limit, onTimeout: { givenUp(listed[$0], $0) },
        list: { add in
          result = discovery.discover(absolutePaths) { file in
            listed.append(file)
            if report != nil { progress.grow() }
            add()
          }
        }
      ) { work(listed[$0], $0) }
      found = result!
      files = listed.all
      discovered = files
    } else {
      found = discovery.discover(absolutePaths)
      discovered = found.files
      files = found.files.filter { file in
        (includes.isEmpty || GlobPattern.anyMatches(includes, file.relativePath))
          && (request.onlyPaths?.contains(file.relativePath) ?? true)
      }
      request.afterDiscovery?(files)
      progress.total = files.count
      // Largest first; a file the walk did not measure is measured here.
      let sizes = files.map {
        $0.size != DiscoveredFile.unknownSize ? $0.size : FileDiscovery.size(of: $0.absolutePath)
      }
      let order = files.indices.sorted { sizes[$0] > sizes[$1] }
      ParallelWork.map(
        count: files.count, jobs: request.jobs, timeLimit: limit,
        onTimeout: { givenUp(files[order[$0]], order[$0]) }
      ) { work(files[order[$0]], order[$0]) }
    }
    let discoveryIssues = found.issues
    // The outcomes that hold anything, by file index (most files of an app hold nothing a rule
    // reads: they are not kept, so memory does not grow with them); merged in file order, each
    // file's findings released as they are copied, so that a large result is held about once.
    var byFile = kept.all
    let order = byFile.keys.sorted()
    // A partial scan with hand-offs waiting also reads the files it left out (and so collects
    // every file's facts itself, in discovery order).
    let partial = files.count < discovered.count && reaches.anyWaitsOnFacts
    // A partial scan reads the other files' relays only later: it keeps every reach.
    try reaches.restore(
      into: &byFile, relays: order.flatMap { byFile[$0]!.facts.relays }, everything: partial)
    var facts = CallFacts()
    if partial {
      facts = Self.callFacts(of: discovered, selected: files, outcomes: byFile, scanner: scanner, jobs: request.jobs)
    } else {
      for index in order { facts.append(byFile[index]!.facts) }
    }
    // A scan of some of the files does not know what the others call.
    let settler = HandOffSettler(
      facts: facts, rules: rules,
      faceIDUsage: { FaceIDUsage.read(found.settingsFiles.map { (root as NSString).appendingPathComponent($0) }) },
      libraryFiles: libraryFiles.all, projectWords: files.count == discovered.count ? projectWords : nil)
    var findings: [Finding] = []
    findings.reserveCapacity(byFile.values.reduce(0) { $0 + $1.findings.count })
    var issues = discoveryIssues
    var parsed = 0
    var binaries: [BinarySummary] = []
    var inventory = FileInventory()
    var givenUp: Set<Int> = []
    for index in order {
      guard var outcome = byFile.removeValue(forKey: index) else { continue }
      if let waiting = try parked.take(file: index) { outcome.findings = waiting }
      if outcome.hasUnsettledFindings {
        outcome.findings = settler.settle(outcome.findings)
        if let sink {
          sink.take(Self.inReportOrder(outcome.findings), file: index)
          outcome.findings = []
        }
      }
      if outcome.issues.contains(where: { $0.kind == .timeLimit }) { givenUp.insert(index) }
      findings += outcome.findings
      issues += outcome.issues
      binaries += outcome.binaries
      if let taken = outcome.inventory {
        inventory.keychainItems += taken.keychainItems
        inventory.gates += taken.gates
      }
      parsed += outcome.parsed ? 1 : 0
    }
    sink?.finish(givenUp: givenUp)
    var warnings = cache?.warnings ?? []
    do {
      try cache?.save()
    } catch {
      warnings.append("the cache could not be saved: \(error.localizedDescription)")
    }
    var result = ScanResult(
      root: root, warnings: warnings, findings: Self.inReportOrder(findings),
      errors: issues.sorted(by: ScanIssue.reportOrder),
      rules: rules, filesScanned: files.count, filesParsed: parsed, binaries: binaries,
      skippedFolders: found.skippedFolders, failPolicy: request.failPolicy)
    result.excludedNamedPaths = found.excludedNamed
    result.inventory = inventory
    return result
  }

  /// The call facts of every discovered file, in discovery order: the selected files' from
  /// their outcomes, the others' read for the purpose. So a partial scan settles its hand-offs
  /// against the whole tree, as a whole scan would.
  private static func callFacts(
    of discovered: [DiscoveredFile], selected: [DiscoveredFile], outcomes: [Int: FileOutcome], scanner: FileScanner,
    jobs: Int
  ) -> CallFacts {
    let selectedIndex = Dictionary(selected.indices.map { (selected[$0].relativePath, $0) }) { first, _ in first }
    let others = discovered.filter { selectedIndex[$0.relativePath] == nil }
    let read = ParallelWork.map(count: others.count, jobs: jobs) { scanner.callFacts(of: others[$0]) }
    var readByPath = Dictionary(zip(others.map(\.relativePath), read)) { first, _ in first }
    var facts = CallFacts()
    for file in discovered {
      if let index = selectedIndex[file.relativePath] {
        if let outcome = outcomes[index] { facts.append(outcome.facts) }
      } else if let read = readByPath.removeValue(forKey: file.relativePath) {
        facts.append(read)
      }
    }
    return facts
  }

  /// Files are scanned in path order and each file's findings come sorted, so the merged list
  /// is nearly always in report order already: checking is cheaper than sorting a copy.
  static func inReportOrder(_ findings: [Finding]) -> [Finding] {
    let sorted = zip(findings, findings.dropFirst()).allSatisfy { !Finding.reportOrder($1, $0) }
    return sorted ? findings : findings.sorted(by: Finding.reportOrder)
  }

  /// "30" rather than "30.0"; fractions as given.
  static func seconds(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }
}

/// Counts files done across workers and passes the count on, with the total known so far
/// (it grows while files are still being listed).
private final class LateTotal: @unchecked Sendable {
  private let lock = NSLock()
  private var done = 0
  private var listed = 0

  var total: Int {
    get { lock.withLock { listed } }
    set { lock.withLock { listed = newValue } }
  }

  func grow() { lock.withLock { listed += 1 } }

  func step(_ report: @Sendable (Int, Int) -> Void) {
    let (now, total) = lock.withLock {
      done += 1
      return (done, max(done, listed))
    }
    report(now, total)
  }
}

/// The files of a published library's own code whose findings wait on the app's Face ID usage
/// declaration, noted as they are scanned: asking every file whether it is library code would
/// work out every path's origin, which only files with findings need.
private final class LibraryFiles: @unchecked Sendable {
  private let lock = NSLock()
  private var paths: Set<String> = []

  func note(_ file: DiscoveredFile, _ findings: [Finding]) {
    guard findings.contains(where: { $0.handOff?.unlessFaceIDUsageIsDeclared == true }), file.isLibraryCode else {
      return
    }
    lock.withLock { _ = paths.insert(file.relativePath) }
  }

  var all: Set<String> { lock.withLock { paths } }
}

/// Each file's outcome when it holds anything (findings, issues, facts, a parse, an inventory),
/// by file index, as the workers finish them. The first kept for a file stays: a file given up
/// for its time limit keeps that outcome when its stuck worker finishes later.
private final class KeptOutcomes: @unchecked Sendable {
  private let lock = NSLock()
  private var outcomes: [Int: FileOutcome] = [:]

  func keep(_ outcome: FileOutcome, at index: Int) {
    guard !outcome.isEmpty else { return }
    lock.withLock {
      if outcomes[index] == nil { outcomes[index] = outcome }
    }
  }

  var all: [Int: FileOutcome] { lock.withLock { outcomes } }
}

/// The files listed so far, read by the workers while the listing goes on.
private final class ListedFiles: @unchecked Sendable {
  private let lock = NSLock()
  private var files: [DiscoveredFile] = []

  func append(_ file: DiscoveredFile) { lock.withLock { files.append(file) } }
  subscript(index: Int) -> DiscoveredFile { lock.withLock { files[index] } }
  var all: [DiscoveredFile] { lock.withLock { files } }
}
