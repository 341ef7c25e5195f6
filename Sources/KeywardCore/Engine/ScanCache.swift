import Foundation

/// Remembers what scanning each file produced, across runs. An entry is keyed by the file's path
/// and contents; the whole cache by everything that decides findings (tool version, rules,
/// severities, options, wrappers). A cache that is damaged or from a newer Keyward is ignored
/// with a warning, so it can never hide a finding.
///
/// The file holds a header (magic, format version, ruleset) and one entry per file in the byte
/// format of `CacheCoding.swift`. Loading only locates the entries; each is decoded when its file
/// is looked up, on the worker that scans it.
public final class ScanCache: @unchecked Sendable {
  static let formatVersion = 2
  static let fileName = "keyward-cache.bin"
  static let magic = Array("KEYWARD-CACHE\n".utf8)

  public let path: String
  let ruleset: String
  private let lock = NSLock()
  /// The stored entries, still encoded: slices of the file as read.
  private var previous: [String: ArraySlice<UInt8>] = [:]
  private var current: [String: ArraySlice<UInt8>] = [:]
  /// Whether this run stored anything new, so that an unchanged cache is not written again.
  private var changed = false
  /// Why the stored cache was not used, if it was not.
  public private(set) var warnings: [String] = []

  public init(folder: String, ruleset: String) {
    self.path = (folder as NSString).appendingPathComponent(Self.fileName)
    self.ruleset = ruleset
    guard let bytes = try? FileBytes.read(path) else { return }
    let damaged = "\(path): damaged cache ignored; every file is scanned again"
    guard bytes.starts(with: Self.magic) else {
      warnings.append(damaged)
      return
    }
    var reader = CacheReader(bytes[Self.magic.count...])
    do {
      let version = try reader.int()
      guard version <= Self.formatVersion else {
        warnings.append(
          "\(path): cache version \(version) is from a newer Keyward and was ignored; every file is scanned again")
        return
      }
      guard version == Self.formatVersion, try reader.string() == ruleset else { return }
      var entries: [String: ArraySlice<UInt8>] = [:]
      for _ in 0..<(try reader.count()) {
        let key = try reader.string()
        let length = try reader.count()
        entries[key] = bytes[reader.position..<(reader.position + length)]
        reader.position += length
      }
      guard reader.isAtEnd else { throw CacheFormatError() }
      previous = entries
    } catch {
      warnings.append(damaged)
    }
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

  /// The stored outcome of a file, or nil when there is none or it cannot be decoded (the file
  /// is then scanned again).
  func outcome(forKey key: String) -> FileOutcome? {
    lock.lock()
    let found = previous[key]
    lock.unlock()
    guard let found else { return nil }
    var reader = CacheReader(found)
    guard let outcome = try? FileOutcome(from: &reader), reader.isAtEnd else { return nil }
    lock.lock()
    current[key] = found
    lock.unlock()
    return outcome
  }

  func store(_ outcome: FileOutcome, forKey key: String) {
    var writer = CacheWriter()
    outcome.write(to: &writer)
    lock.lock()
    current[key] = writer.bytes[...]
    changed = true
    lock.unlock()
  }

  /// Writes the entries of this run (others are dropped), atomically; nothing when every file
  /// was found in the cache as it is.
  public func save() throws {
    lock.lock()
    let entries = current
    let unchanged = !changed && current.count == previous.count
    lock.unlock()
    if unchanged { return }
    var out = CacheWriter(bytes: Self.magic)
    out.int(Self.formatVersion)
    out.string(ruleset)
    out.int(entries.count)
    for key in entries.keys.sorted() {
      out.string(key)
      out.int(entries[key]!.count)
      out.bytes += entries[key]!
    }
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(out.bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
  }

  /// What decides a scan's findings, as one string.
  public static func ruleset(rules: [ConfiguredRule], wrappers: [WrapperMapping], maximumFileSize: Int) -> String {
    var parts = ["keyward \(KeywardVersion.current)", "max \(maximumFileSize)"]
    for rule in rules {
      parts.append("\(rule.metadata.id) \(rule.severity.rawValue) \(rule.options.canonicalDescription)")
    }
    // Wrappers by their canonical text: `String(describing:)` of their dictionaries changes
    // order from one process to the next, which made every run miss the cache.
    parts += wrappers.map(\.canonicalDescription)
    return Fingerprint.hash(parts) + Fingerprint.hash(parts.reversed())
  }
}
