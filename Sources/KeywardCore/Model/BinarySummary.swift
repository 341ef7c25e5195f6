import Foundation

/// The bundle of an app that ships a Mach-O file: the app itself, one of its extensions, or a
/// framework or library embedded in it, with what its Info.plist says.
public struct ShippingBundle: Codable, Sendable, Hashable {
  public enum Kind: String, Codable, Sendable, CaseIterable {
    case app
    case appExtension = "app-extension"
    case framework
    /// A bare `.dylib` in the app's Frameworks folder: it has no Info.plist.
    case library

    /// "app extension".
    public var label: String { self == .appExtension ? "app extension" : rawValue }
  }

  public var kind: Kind
  /// `CFBundleName`, else the executable's name.
  public var name: String
  public var identifier: String?
  /// `CFBundleShortVersionString`, else `CFBundleVersion`.
  public var version: String?

  public init(kind: Kind, name: String, identifier: String? = nil, version: String? = nil) {
    self.kind = kind
    self.name = name
    self.identifier = identifier
    self.version = version
  }

  /// Code the app's team did not write: embedded frameworks and libraries.
  public var isEmbedded: Bool { kind == .framework || kind == .library }

  /// "framework AdsKit 7.4.1 (com.vendor.adskit)".
  public var description: String {
    [kind.label, name, version].compactMap { $0 }.joined(separator: " ") + (identifier.map { " (\($0))" } ?? "")
  }
}

/// Where in a built app a finding is: the Mach-O file inside the scanned bundle, the
/// architecture, and the instruction or slot address (absent for whole-file findings).
public struct BinarySite: Codable, Sendable, Hashable {
  /// The Mach-O file, relative to the scanned path ("Payload/App.app/App"; empty for a bare file).
  public var file: String
  public var architecture: String?
  public var address: UInt64?
  /// The bundle that ships the file; nil for a bare Mach-O file.
  public var bundle: ShippingBundle?

  public init(file: String, architecture: String? = nil, address: UInt64? = nil, bundle: ShippingBundle? = nil) {
    self.file = file
    self.architecture = architecture
    self.address = address
    self.bundle = bundle
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
    /// The bundle that ships the file; nil for a bare Mach-O file.
    public var bundle: ShippingBundle?
    /// What the file's code signature grants; nil when it is not signed with entitlements.
    public var entitlements: SigningEntitlements?

    public init(
      path: String, architectures: [Architecture], bundle: ShippingBundle? = nil,
      entitlements: SigningEntitlements? = nil
    ) {
      self.path = path
      self.architectures = architectures
      self.bundle = bundle
      self.entitlements = entitlements
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

/// The entitlements of a code signature that decide how the app's data is kept: the default
/// file protection class and the keychain access groups.
public struct SigningEntitlements: Codable, Sendable, Hashable {
  /// `application-identifier`: the team prefix and the bundle id, the app's own keychain group.
  public var applicationIdentifier: String?
  /// `com.apple.developer.default-data-protection` (`NSFileProtectionComplete`...).
  public var defaultDataProtection: String?
  /// `keychain-access-groups`, in the order signed.
  public var keychainAccessGroups: [String]

  public init(applicationIdentifier: String?, defaultDataProtection: String?, keychainAccessGroups: [String]) {
    self.applicationIdentifier = applicationIdentifier
    self.defaultDataProtection = defaultDataProtection
    self.keychainAccessGroups = keychainAccessGroups
  }

  /// The keychain groups other than the app's own: other apps and extensions of the team that
  /// list them read and write the same items.
  public var sharedKeychainAccessGroups: [String] {
    keychainAccessGroups.filter { $0 != applicationIdentifier }
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
