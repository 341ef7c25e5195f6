import Foundation

/// Remembers what scanning each file produced, across runs. An entry is keyed by the file's path
/// and contents; the whole cache by everything that decides findings (tool version, rules,
/// severities, options, wrappers). A cache that is damaged or from a newer Keyward is ignored
/// with a warning, so it can never hide a finding.
public final class ScanCache: @unchecked Sendable {
  static let formatVersion = 1
  static let fileName = "keyward-cache.json"

  private struct Stored: Codable {
    var version: Int
    var ruleset: String
    var entries: [String: FileOutcome]
  }

  public let path: String
  let ruleset: String
  private let lock = NSLock()
  private var previous: [String: FileOutcome] = [:]
  private var current: [String: FileOutcome] = [:]
  /// Whether this run stored anything new, so that an unchanged cache is not written again.
  private var changed = false
  /// Why the stored cache was not used, if it was not.
  public private(set) var warnings: [String] = []

  public init(folder: String, ruleset: String) {
    self.path = (folder as NSString).appendingPathComponent(Self.fileName)
    self.ruleset = ruleset
    guard let data = FileManager.default.contents(atPath: path) else { return }
    struct Header: Decodable { var version: Int? }
    guard let version = (try? JSONDecoder().decode(Header.self, from: data))?.version else {
      warnings.append("\(path): damaged cache ignored; every file is scanned again")
      return
    }
    guard version <= Self.formatVersion else {
      warnings.append(
        "\(path): cache version \(version) is from a newer Keyward and was ignored; every file is scanned again")
      return
    }
    guard let stored = try? JSONDecoder().decode(Stored.self, from: data) else {
      warnings.append("\(path): damaged cache ignored; every file is scanned again")
      return
    }
    if stored.ruleset == ruleset { previous = stored.entries }
  }

  /// The key of a file: its path and contents (128 bits of FNV-1a, two seeds).
  static func key(path: String, bytes: [UInt8]) -> String {
    func fnv(_ seed: UInt64) -> UInt64 {
      var value = seed
      for byte in path.utf8 { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
      value = (value ^ 0xFF) &* 0x0000_0100_0000_01b3
      for byte in bytes { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
      return value
    }
    return String(fnv(0xcbf2_9ce4_8422_2325), radix: 16) + "-" + String(fnv(0x8422_2325_cbf2_9ce4), radix: 16)
  }

  func outcome(forKey key: String) -> FileOutcome? {
    lock.lock()
    defer { lock.unlock() }
    guard let found = previous[key] else { return nil }
    current[key] = found
    return found
  }

  func store(_ outcome: FileOutcome, forKey key: String) {
    lock.lock()
    current[key] = outcome
    changed = true
    lock.unlock()
  }

  /// Writes the entries of this run (others are dropped), atomically; nothing when every file
  /// was found in the cache as it is.
  public func save() throws {
    lock.lock()
    if !changed && current.count == previous.count {
      lock.unlock()
      return
    }
    let stored = Stored(version: Self.formatVersion, ruleset: ruleset, entries: current)
    lock.unlock()
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try JSONEncoder().encode(stored).write(to: URL(fileURLWithPath: path), options: .atomic)
  }

  /// What decides a scan's findings, as one string.
  public static func ruleset(rules: [ConfiguredRule], wrappers: [WrapperMapping], maximumFileSize: Int) -> String {
    var parts = ["keyward \(KeywardVersion.current)", "max \(maximumFileSize)"]
    for rule in rules {
      parts.append("\(rule.metadata.id) \(rule.severity.rawValue) \(rule.options.canonicalDescription)")
    }
    parts.append(String(describing: wrappers))
    return Fingerprint.hash(parts) + Fingerprint.hash(parts.reversed())
  }
}
