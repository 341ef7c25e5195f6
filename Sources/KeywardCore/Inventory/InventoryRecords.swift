/// What `keyward inventory` lists: the keychain items and keys the scanned code writes, its
/// LocalAuthentication gates and the frameworks its built apps link. Facts, not findings: an
/// auditor's record of what was checked.
public struct Inventory: Sendable {
  /// The absolute folder that paths are relative to.
  public var root: String
  public var keychainItems: [KeychainItemRecord]
  public var gates: [AuthenticationGateRecord]
  public var binaries: [BinaryInventoryRecord]
  /// Files that could not be read completely; the rest of the run went on.
  public var errors: [ScanIssue]
  public var filesScanned: Int

  public init(
    root: String, keychainItems: [KeychainItemRecord], gates: [AuthenticationGateRecord],
    binaries: [BinaryInventoryRecord], errors: [ScanIssue], filesScanned: Int
  ) {
    self.root = root
    self.keychainItems = keychainItems.sorted { $0.place < $1.place }
    self.gates = gates.sorted { $0.place < $1.place }
    self.binaries = binaries.sorted { $0.path < $1.path }
    self.errors = errors.sorted(by: ScanIssue.reportOrder)
    self.filesScanned = filesScanned
  }
}

/// A place in a source file: path relative to the scan root, line and UTF-8 column (1-based).
public struct InventoryPlace: Codable, Sendable, Hashable, Comparable {
  public var path: String
  public var line: Int
  public var column: Int

  public init(path: String, line: Int, column: Int) {
    self.path = path
    self.line = line
    self.column = column
  }

  public static func < (lhs: InventoryPlace, rhs: InventoryPlace) -> Bool {
    (lhs.path, lhs.line, lhs.column) < (rhs.path, rhs.line, rhs.column)
  }
}

/// The source language of a record.
public enum InventoryLanguage: String, Codable, Sendable {
  case swift
  case objectiveC = "objective-c"
}

/// A boolean attribute as the code sets it (`kSecAttrSynchronizable`,
/// `kSecUseDataProtectionKeychain`): nil in a record when the code does not set it.
public enum AttributeSetting: String, Codable, Sendable {
  case `true`, `false`
  /// Set to true on some paths and false on others (`sync ? true : false`).
  case conditional
  /// Set to a value whose constant Keyward cannot tell (a parameter from another file).
  case unresolved
}

/// `kSecAttrAccessControl` of an item or key: the protection class and the
/// `SecAccessControlCreateFlags` given to `SecAccessControlCreateWithFlags`, when they can be
/// followed from the item to that call.
public struct AccessControlRecord: Codable, Sendable, Hashable {
  /// `kSecAttrAccessible…` classes given as the protection (several when it depends on a path).
  public var protection: [String]
  /// Flag names (`biometryCurrentSet`, `privateKeyUsage`, `or`…), sorted.
  public var flags: [String]
  /// Whether the access control was followed to its `SecAccessControlCreateWithFlags` call; when
  /// false, the item has one but its protection and flags are not known from this file.
  public var resolved: Bool

  public init(protection: [String], flags: [String], resolved: Bool) {
    self.protection = protection
    self.flags = flags
    self.resolved = resolved
  }
}

/// One keychain item or key the code writes: a `SecItemAdd`, the attributes of a
/// `SecItemUpdate`, a key generated with `SecKeyCreateRandomKey`/`SecKeyGeneratePair`, or an item
/// configured through a keychain wrapper library.
public struct KeychainItemRecord: Codable, Sendable, Hashable {
  public enum Kind: String, Codable, Sendable { case item, key }

  public var place: InventoryPlace
  public var language: InventoryLanguage
  public var kind: Kind
  /// The call that writes it: `SecItemAdd`, `SecItemUpdate`, `SecKeyCreateRandomKey`, or the
  /// wrapper's method (`accessibility`, `set`).
  public var call: String
  /// `kSecClassGenericPassword`, `kSecClassInternetPassword`, `kSecClassKey`…
  public var itemClass: String?
  /// `kSecAttrKeyTypeECSECPrimeRandom`, `kSecAttrKeyTypeRSA`.
  public var keyType: String?
  public var keySizeInBits: Int?
  /// `kSecAttrTokenIDSecureEnclave` for keys made in the Secure Enclave.
  public var tokenID: String?
  /// Constant `kSecAttrService`, `kSecAttrAccount`, `kSecAttrApplicationTag`,
  /// `kSecAttrAccessGroup` values (nil when not set or not a constant).
  public var service: String?
  public var account: String?
  public var applicationTag: String?
  public var accessGroup: String?
  /// `kSecAttrAccessible` classes it may be stored with; empty when the code sets none (the
  /// system default, `kSecAttrAccessibleWhenUnlocked`, applies).
  public var accessibility: [String]
  public var accessControl: AccessControlRecord?
  public var synchronizable: AttributeSetting?
  /// `kSecUseDataProtectionKeychain` (macOS: the iOS-style keychain).
  public var dataProtectionKeychain: AttributeSetting?
  /// The keychain wrapper library it is written through (`KeychainAccess`, `Valet`…).
  public var wrapper: String?
  /// Whether every attribute of the item is seen: its dictionary starts in this file as a
  /// literal or an empty dictionary, so an attribute not listed is not set. False when the
  /// dictionary comes from elsewhere (a parameter, another function's result) or the item is
  /// written through a wrapper (whose own defaults apply to what the call does not set).
  public var attributesComplete = true
  public var origin: CodeOrigin
  public var buildCondition: BuildCondition?

  public init(place: InventoryPlace, language: InventoryLanguage, kind: Kind, call: String, origin: CodeOrigin = .app) {
    self.place = place
    self.language = language
    self.kind = kind
    self.call = call
    self.accessibility = []
    self.origin = origin
  }
}

/// One LocalAuthentication prompt (`evaluatePolicy`) and what it protects.
public struct AuthenticationGateRecord: Codable, Sendable, Hashable {
  public enum Binding: String, Codable, Sendable {
    /// The evaluated context opens a keychain item or key protected by an access control: the
    /// Secure Enclave checks the authentication.
    case keychainBound = "keychain-bound"
    /// Only the boolean result depends on the prompt.
    case eventBound = "event-bound"
    /// The context reaches the keychain, but the items there have no access control.
    case contextToUnprotectedItems = "context-to-unprotected-items"
    /// The context leaves the scanned code (a function no scanned file declares).
    case undetermined
  }

  public var place: InventoryPlace
  public var language: InventoryLanguage
  /// `LAPolicy` case names (`deviceOwnerAuthenticationWithBiometrics`); empty when not known.
  public var policies: [String]
  public var binding: Binding
  /// How the binding was decided, for the cases that need saying (the function the context is
  /// handed to, the wrapper it goes through).
  public var bindingNote: String?
  public var origin: CodeOrigin
  public var buildCondition: BuildCondition?

  public init(
    place: InventoryPlace, language: InventoryLanguage, policies: [String], binding: Binding,
    bindingNote: String? = nil, origin: CodeOrigin = .app
  ) {
    self.place = place
    self.language = language
    self.policies = policies
    self.binding = binding
    self.bindingNote = bindingNote
    self.origin = origin
  }

  /// Where the context leaves the file, while the gate waits for the whole scan to settle its
  /// binding.
  var pending: PendingBinding?

  enum PendingBinding: Codable, Sendable, Hashable {
    /// Handed to this function (its signature), declared in another file.
    case handedOff(String)
    /// Kept in this property, which code in other files can read.
    case keptIn(String)
  }

  private enum CodingKeys: String, CodingKey {
    case place, language, policies, binding, bindingNote, origin, buildCondition
  }
}

/// A built app, bundle or Mach-O file scanned: each Mach-O file with the frameworks it links.
public struct BinaryInventoryRecord: Codable, Sendable, Hashable {
  public struct File: Codable, Sendable, Hashable {
    /// The Mach-O file, relative to the scanned path (empty for a bare Mach-O file).
    public var path: String
    public var bundle: ShippingBundle?
    public var architectures: [String]
    /// Framework names (`Security`, `LocalAuthentication`), from all architectures, sorted.
    public var frameworks: [String]
    /// Every linked library's install name, as `otool -L` shows it, sorted.
    public var linkedLibraries: [String]
  }

  /// The scanned path, relative to the scan root.
  public var path: String
  public var bundleIdentifier: String?
  public var files: [File]

  public init(_ summary: BinarySummary) {
    path = summary.path
    bundleIdentifier = summary.bundleIdentifier
    files = summary.files.map { file in
      let libraries = Set(file.architectures.flatMap(\.linkedLibraries)).sorted()
      return File(
        path: file.path, bundle: file.bundle, architectures: file.architectures.map(\.name),
        frameworks: Set(libraries.compactMap(Self.frameworkName)).sorted(), linkedLibraries: libraries)
    }
  }

  /// `Security` for `/System/Library/Frameworks/Security.framework/Security` (and
  /// `@rpath/Name.framework/Name`); nil for plain libraries (`/usr/lib/libSystem.B.dylib`).
  static func frameworkName(_ installName: String) -> String? {
    guard let folder = installName.split(separator: "/").first(where: { $0.hasSuffix(".framework") }) else {
      return nil
    }
    return String(folder.dropLast(".framework".count))
  }
}

/// The inventory facts of one source file, as the file scanner collects them.
public struct FileInventory: Codable, Sendable {
  public var keychainItems: [KeychainItemRecord] = []
  public var gates: [AuthenticationGateRecord] = []

  public init(keychainItems: [KeychainItemRecord] = [], gates: [AuthenticationGateRecord] = []) {
    self.keychainItems = keychainItems
    self.gates = gates
  }

  var isEmpty: Bool { keychainItems.isEmpty && gates.isEmpty }
}
