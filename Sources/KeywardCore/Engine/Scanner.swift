import Foundation

/// What to scan and how.
public struct ScanRequest: Sendable {
  public var paths: [String]
  public var excludes: [String]
  /// Worker threads; 0 means one per processor.
  public var jobs: Int
  public var maximumFileSize: Int
  /// When not empty, only files matching one of these globs.
  public var includes: [String] = []
  /// When set, only these files (paths relative to the scan root), as for `--changed-since`.
  public var onlyPaths: Set<String>?
  /// A folder for the outcome cache (`--cache`).
  public var cacheFolder: String?

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

  public init(rules: [ConfiguredRule], wrappers: [WrapperMapping] = WrapperMapping.builtIn) {
    self.rules = rules
    self.wrappers = wrappers
  }

  public func scan(_ request: ScanRequest) throws -> ScanResult {
    let absolutePaths = try FileDiscovery.existingAbsolutePaths(request.paths)
    let root = FileDiscovery.scanRoot(for: absolutePaths)
    let discovery = FileDiscovery(root: root, excludes: request.excludes)
    let (discovered, discoveryIssues) = discovery.discover(absolutePaths)
    let includes = request.includes.map(GlobPattern.init)
    let files = discovered.filter { file in
      (includes.isEmpty || includes.contains { $0.matches(file.relativePath) })
        && (request.onlyPaths?.contains(file.relativePath) ?? true)
    }
    let cache = request.cacheFolder.map {
      ScanCache(
        folder: $0,
        ruleset: ScanCache.ruleset(rules: rules, wrappers: wrappers, maximumFileSize: request.maximumFileSize))
    }
    let scanner = {
      var configured = FileScanner(rules: rules, wrappers: wrappers, maximumFileSize: request.maximumFileSize)
      configured.cache = cache
      return configured
    }()
    let order = files.indices.sorted { files[$0].size > files[$1].size }
    let outcomes = ParallelWork.map(count: files.count, jobs: request.jobs) { position in
      let index = order[position]
      return (index, scanner.scan(files[index]))
    }
    var findings: [Finding] = []
    var issues = discoveryIssues
    var parsed = 0
    for (_, outcome) in outcomes.sorted(by: { $0.0 < $1.0 }) {
      findings += outcome.findings
      issues += outcome.issues
      parsed += outcome.parsed ? 1 : 0
    }
    var warnings = cache?.warnings ?? []
    do {
      try cache?.save()
    } catch {
      warnings.append("the cache could not be saved: \(error.localizedDescription)")
    }
    return ScanResult(
      root: root, warnings: warnings, findings: findings.sorted(by: Finding.reportOrder),
      errors: issues.sorted(by: ScanIssue.reportOrder),
      rules: rules, filesScanned: files.count, filesParsed: parsed)
  }
}

/// Runs work items on a fixed number of threads with large stacks (deeply nested code makes
/// deep syntax trees, and visitors recurse).
public enum ParallelWork {
  public static let stackSize = 64 * 1024 * 1024

  public static func map<T: Sendable>(count: Int, jobs: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
    let workers = max(1, min(jobs > 0 ? jobs : ProcessInfo.processInfo.activeProcessorCount, count))
    let state = SharedState<T>(count: count)
    let finished = DispatchSemaphore(value: 0)
    for _ in 0..<workers {
      let thread = Thread {
        while let index = state.nextIndex() {
          state.store(body(index), at: index)
        }
        finished.signal()
      }
      thread.stackSize = stackSize
      thread.start()
    }
    for _ in 0..<workers { finished.wait() }
    return state.results()
  }

  private final class SharedState<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private let count: Int
    private var slots: [T?]

    init(count: Int) {
      self.count = count
      self.slots = Array(repeating: nil, count: count)
    }

    func nextIndex() -> Int? {
      lock.lock()
      defer { lock.unlock() }
      guard next < count else { return nil }
      next += 1
      return next - 1
    }

    func store(_ value: T, at index: Int) {
      lock.lock()
      slots[index] = value
      lock.unlock()
    }

    func results() -> [T] {
      lock.lock()
      defer { lock.unlock() }
      return slots.map { $0! }
    }
  }
}
