import Foundation

/// Where in a built app a finding is: the Mach-O file inside the scanned bundle, the
/// architecture, and the instruction or slot address (absent for whole-file findings).
public struct BinarySite: Codable, Sendable, Hashable {
  /// The Mach-O file, relative to the scanned path ("Payload/App.app/App"; empty for a bare file).
  public var file: String
  public var architecture: String?
  public var address: UInt64?

  public init(file: String, architecture: String? = nil, address: UInt64? = nil) {
    self.file = file
    self.architecture = architecture
    self.address = address
  }

  /// "Payload/App.app/App (arm64, 0x100004010)"; the address only with one architecture.
  public var description: String {
    let details = [architecture, address.map { "0x" + String($0, radix: 16) }].compactMap { $0 }
    let name = file.isEmpty ? "" : file
    guard !details.isEmpty else { return name }
    return (name.isEmpty ? "" : name + " ") + "(" + details.joined(separator: ", ") + ")"
  }
}

/// What a built app is made of, as the report lists it: the `otool -L` view of every Mach-O
/// file, and the Info.plist facts the rules use.
public struct BinarySummary: Codable, Sendable, Hashable {
  public struct Architecture: Codable, Sendable, Hashable {
    public var name: String
    public var encrypted: Bool
    public var linkedLibraries: [String]

    public init(name: String, encrypted: Bool, linkedLibraries: [String]) {
      self.name = name
      self.encrypted = encrypted
      self.linkedLibraries = linkedLibraries
    }
  }

  public struct File: Codable, Sendable, Hashable {
    public var path: String
    public var architectures: [Architecture]

    public init(path: String, architectures: [Architecture]) {
      self.path = path
      self.architectures = architectures
    }
  }

  /// The scanned path, relative to the scan root.
  public var path: String
  public var bundleIdentifier: String?
  public var files: [File]

  public init(path: String, bundleIdentifier: String?, files: [File]) {
    self.path = path
    self.bundleIdentifier = bundleIdentifier
    self.files = files
  }
}

/// Reads built apps for the engine. KeywardCore knows only this shape; the Mach-O and zip
/// reader lives in KeywardBinary, and the CLI connects the two.
public protocol BinaryAnalyzer: Sendable {
  /// Scans the app, bundle or Mach-O file with the `binary.*` rules among `rules`.
  func analyze(_ file: DiscoveredFile, rules: [ConfiguredRule]) -> FileOutcome
}

/// The shapes of built apps: `.ipa` archives, `.app` folders, and Mach-O files (thin or
/// universal), told by their first bytes.
public enum BinaryTarget {
  public static func isBundleFolder(_ path: String) -> Bool { path.hasSuffix(".app") }
  public static func isArchive(_ path: String) -> Bool { path.lowercased().hasSuffix(".ipa") }

  /// Whether the file starts with a Mach-O magic number. Java class files share the universal
  /// magic; their next field is a version (45 or more), not an architecture count.
  public static func looksLikeMachO(_ path: String) -> Bool {
    guard let handle = fopen(path, "rb") else { return false }
    defer { fclose(handle) }
    var prefix = [UInt8](repeating: 0, count: 8)
    guard fread(&prefix, 1, 8, handle) == 8 else { return false }
    return looksLikeMachO(prefix)
  }

  public static func looksLikeMachO(_ prefix: [UInt8]) -> Bool {
    guard prefix.count >= 8 else { return false }
    let head = Array(prefix[0..<4])
    if head == [0xCF, 0xFA, 0xED, 0xFE] || head == [0xCE, 0xFA, 0xED, 0xFE] { return true }
    guard head == [0xCA, 0xFE, 0xBA, 0xBE] || head == [0xCA, 0xFE, 0xBA, 0xBF] else { return false }
    let count = Int(prefix[4]) << 24 | Int(prefix[5]) << 16 | Int(prefix[6]) << 8 | Int(prefix[7])
    return count > 0 && count < 32
  }
}
