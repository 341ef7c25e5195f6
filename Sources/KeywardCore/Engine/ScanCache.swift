import Foundation

/// Remembers what scanning each file produced, across runs. An entry is keyed by the file's path
/// and contents; the whole cache by everything that decides findings (tool build, rules,
/// severities, options, wrappers). A cache that is damaged or from a newer Keyward is ignored
/// with a warning, so it can never hide a finding.
///
/// The file holds a header (magic, format version, ruleset, the table's length), a table of the
/// entries (key, offset, length), then the entries in the byte format of `CacheCoding.swift`.
/// Memory does not grow with the cache: loading reads only the table, an entry is read and
/// decoded when its file is looked up (on the worker scanning it), new entries wait in a
/// `ByteSpool`, and saving copies entries one at a time into the new file.
public final class ScanCache: @unchecked Sendable {
  static let formatVersion = 15
  static let fileName = "keyward-cache.bin"
  static let magic = Array("KEYWARD-CACHE\n".utf8)

  /// Where an entry's bytes are: in the cache file this run started from, or in this run's spool.
  private enum Stored {
    case previous(offset: Int, length: Int)
    case spooled(ByteSpool.Piece)

    var length: Int {
      switch self {
      case .previous(_, let length): length
      case .spooled(let piece): piece.length
      }
    }
  }

  public let path: String
  let ruleset: String
  private let lock = NSLock()
  /// The cache file this run started from, open for reading its entries; -1 when there is none.
  /// Both are set once, so workers read them without the lock.
  private let previousFile: Int32
  private let previous: [String: Stored]
  private var current: [String: Stored] = [:]
  private let spool = ByteSpool()
  /// Whether this run stored anything new, so that an unchanged cache is not written again.
  private var changed = false
  /// Why the stored cache was not used, if it was not.
  public private(set) var warnings: [String] = []

  public init(folder: String, ruleset: String) {
    let path = (folder as NSString).appendingPathComponent(Self.fileName)
    self.path = path
    self.ruleset = ruleset
    var warnings: [String] = []
    (previousFile, previous) = Self.openPrevious(path, ruleset: ruleset) { warnings.append($0) }
    self.warnings = warnings
  }

  /// The cache file at `path`, open, and its entries; (-1, none) when it is missing, from an
  /// older format or another ruleset, or cannot be used (`warn` says why).
  private static func openPrevious(
    _ path: String, ruleset: String, warn: (String) -> Void
  ) -> (Int32, [String: Stored]) {
    let file = open(path, O_RDONLY)
    guard file >= 0 else { return (-1, [:]) }
    do {
      if let table = try readTable(file, ruleset: ruleset) { return (file, table) }
    } catch let error as NewerCacheError {
      warn(
        "\(path): cache version \(error.version) is from a newer Keyward and was ignored; every file is scanned again")
    } catch {
      warn("\(path): damaged cache ignored; every file is scanned again")
    }
    close(file)
    return (-1, [:])
  }

  deinit {
    if previousFile >= 0 { close(previousFile) }
  }

  private struct NewerCacheError: Error { let version: Int }

  /// The entries of an open cache file, or nil when it is an older format or another ruleset's
  /// (both are simply replaced). Throws when the file is damaged or from a newer Keyward.
  private static func readTable(_ file: Int32, ruleset: String) throws -> [String: Stored]? {
    var info = stat()
    guard fstat(file, &info) == 0 else { throw CacheFormatError() }
    let size = Int(info.st_size)
    let head = try FileBytes.read(file, offset: 0, length: min(size, 4096))
    guard head.starts(with: magic) else { throw CacheFormatError() }
    var reader = CacheReader(head[magic.count...])
    let version = try reader.int()
    guard version <= formatVersion else { throw NewerCacheError(version: version) }
    guard version == formatVersion, try reader.string() == ruleset else { return nil }
    let tableLength = try reader.int()
    let tableStart = reader.position
    guard tableLength >= 0, tableLength <= size - tableStart else { throw CacheFormatError() }
    let table = try FileBytes.read(file, offset: tableStart, length: tableLength)
    let dataStart = tableStart + tableLength
    var entries: [String: Stored] = [:]
    var tableReader = CacheReader(table[...])
    for _ in 0..<(try tableReader.count()) {
      let key = try tableReader.string()
      let offset = try tableReader.int()
      let length = try tableReader.int()
      guard offset >= 0, length >= 0, length <= size - dataStart - offset else { throw CacheFormatError() }
      entries[key] = .previous(offset: dataStart + offset, length: length)
    }
    guard tableReader.isAtEnd else { throw CacheFormatError() }
    return entries
  }

  /// The key of a file: its path and contents (128 bits of FNV-1a, two seeds).
  static func key(path: String, bytes: [UInt8]) -> String {
    func fnv(_ seed: UInt64) -> UInt64 {
      var value = seed
      Fingerprint.mix(path.utf8, into: &value)
      Fingerprint.mix(CollectionOfOne(0xFF), into: &value)
      Fingerprint.mix(bytes, into: &value)
      return value
    }
    return String(fnv(Fingerprint.fnvOffsetBasis), radix: 16) + "-" + String(fnv(0x8422_2325_cbf2_9ce4), radix: 16)
  }

  /// The stored outcome of a file, or nil when there is none or it cannot be read or decoded
  /// (the file is then scanned again).
  func outcome(forKey key: String) -> FileOutcome? {
    guard let found = previous[key], let bytes = try? read(found) else { return nil }
    var reader = CacheReader(bytes[...])
    guard let outcome = try? FileOutcome(from: &reader), reader.isAtEnd else { return nil }
    lock.withLock { current[key] = found }
    return outcome
  }

  func store(_ outcome: FileOutcome, forKey key: String) {
    var writer = CacheWriter()
    outcome.write(to: &writer)
    let piece = spool.append(writer.bytes)
    lock.withLock {
      current[key] = .spooled(piece)
      changed = true
    }
  }

  private func read(_ stored: Stored) throws(FileReadError) -> [UInt8] {
    switch stored {
    case .previous(let offset, let length): try FileBytes.read(previousFile, offset: offset, length: length)
    case .spooled(let piece): try spool.read(piece)
    }
  }

  /// Writes the entries of this run (others are dropped) to a new file that then replaces the
  /// old one, so a reader never sees half a cache; nothing when every file was found in the
  /// cache as it is.
  public func save() throws {
    let (entries, unchanged) = lock.withLock { (current, !changed && current.count == previous.count) }
    if unchanged { return }
    let keys = entries.keys.sorted()
    var table = CacheWriter()
    table.int(keys.count)
    var offset = 0
    for key in keys {
      let length = entries[key]!.length
      table.string(key)
      table.int(offset)
      table.int(length)
      offset += length
    }
    var header = CacheWriter(bytes: Self.magic)
    header.int(Self.formatVersion)
    header.string(ruleset)
    header.int(table.bytes.count)

    let folder = (path as NSString).deletingLastPathComponent
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let output = try ReplacingFile(path: path)
    try output.write(header.bytes + table.bytes)
    for key in keys { try output.write(read(entries[key]!)) }
    try output.commit()
  }

  /// What decides a scan's findings, as one string.
  static func ruleset(
    rules: [ConfiguredRule], wrappers: [WrapperMapping], maximumFileSize: Int, build: String = EngineBuild.identity
  ) -> String {
    var parts = [build, "max \(maximumFileSize)"]
    for rule in rules {
      parts.append("\(rule.metadata.id) \(rule.severity.rawValue) \(rule.options.canonicalDescription)")
    }
    // Wrappers by their canonical text: `String(describing:)` of their dictionaries changes
    // order from one process to the next, which made every run miss the cache.
    parts += wrappers.map(\.canonicalDescription)
    return Fingerprint.hash(parts) + Fingerprint.hash(parts.reversed())
  }
}
