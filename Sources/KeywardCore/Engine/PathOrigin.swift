/// Where a file's code lives, judged from its path relative to the scan root (so scanning
/// `Examples/VaultApp` itself makes its files app code, and scanning the repository makes them
/// samples). Folder names are compared ignoring ASCII case; name suffixes (`AppTests`,
/// `KeychainDemo`) need their capital letter, so `Contests` or `Latests` are not tests.
///
/// When folders of several kinds hold a file, the outermost decides (`Pods/X/Tests/...` is
/// third-party), except that third-party anywhere wins: a dependency's tests are not yours.
public enum PathOrigin {
  /// Folders of dependency managers. Also judged on the absolute path of a path named on the
  /// command line, so that `keyward scan App/Pods` reports third-party code.
  static let dependencyFolders: Set<String> = ["pods", "carthage", "node_modules"]
  /// Folders whose `checkouts` child holds SwiftPM dependencies.
  static let checkoutParents: Set<String> = [".build", "sourcepackages"]

  static let thirdPartyFolders: Set<String> = [
    "vendor", "vendors", "vendored", "thirdparty", "third-party", "third_party", "3rdparty",
  ]
  static let thirdPartySuffixes = [".framework", ".xcframework"]

  static let testFolders: Set<String> = [
    "test", "tests", "uitests", "xctests", "testhelpers", "testsupport", "testutilities", "mocks", "specs",
  ]
  static let testSuffixes = ["Tests", "Specs", "Mocks"]

  static let sampleFolders: Set<String> = [
    "example", "examples", "sample", "samples", "demo", "demos", "playground", "playgrounds",
  ]
  static let sampleSuffixes = ["Example", "Examples", "Demo", "Demos", "Sample", "Samples", ".playground"]

  static let generatedFolders: Set<String> = ["generated"]
  /// File names of generated code: SwiftGen, Sourcery, R.swift, protobuf and gRPC outputs.
  static let generatedFileSuffixes = [
    ".generated.swift", "+Generated.swift", ".pb.swift", ".grpc.swift", ".pbobjc.h", ".pbobjc.m", ".pb.h", ".pb.m",
  ]

  /// The origin of a file at `relativePath` (with `/` separators), from its folders and name.
  public static func origin(of relativePath: String) -> CodeOrigin {
    let (folder, name) = split(relativePath)
    return origin(ofFolder: folder) ?? fileOrigin(name)
  }

  /// A relative path's folder part (empty at the root) and file name.
  static func split(_ relativePath: String) -> (folder: Substring, name: Substring) {
    guard let slash = relativePath.lastIndex(of: "/") else { return ("", relativePath[...]) }
    return (relativePath[..<slash], relativePath[relativePath.index(after: slash)...])
  }

  /// What a folder path says of the files in it, or nil when their names decide.
  public static func origin(ofFolder folderPath: Substring) -> CodeOrigin? {
    var found: CodeOrigin?
    var previous: Substring?
    for folder in folderPath.split(separator: "/") {
      found = origin(ofFolder: folder, after: previous, below: found)
      if found == .thirdParty { return found }
      previous = folder
    }
    return found
  }

  /// What a path says one folder deeper, below folders that said `outer`: the outermost that
  /// says something decides, and third-party anywhere wins. Walks take it a folder at a time.
  static func origin(ofFolder folder: Substring, after previous: Substring?, below outer: CodeOrigin?) -> CodeOrigin? {
    if outer == .thirdParty || isThirdParty(folder, after: previous) { return .thirdParty }
    return outer ?? folderOrigin(folder)
  }

  /// Whether an absolute path lies inside a dependency manager's folder (`Pods`, `Carthage`,
  /// `node_modules`, `.build/checkouts`, `SourcePackages/checkouts`).
  public static func isInsideDependencyFolder(_ absolutePath: String) -> Bool {
    var previous: Substring?
    for part in absolutePath.split(separator: "/") {
      if isDependencyFolder(part, after: previous) { return true }
      previous = part
    }
    return false
  }

  static func isDependencyFolder(_ folder: Substring, after previous: Substring?) -> Bool {
    let lower = folder.lowercased()
    if dependencyFolders.contains(lower) { return true }
    return lower == "checkouts" && previous.map { checkoutParents.contains($0.lowercased()) } == true
  }

  static func isThirdParty(_ folder: Substring, after previous: Substring?) -> Bool {
    if isDependencyFolder(folder, after: previous) || thirdPartyFolders.contains(folder.lowercased()) { return true }
    return thirdPartySuffixes.contains { folder.lowercased().hasSuffix($0) }
  }

  static func folderOrigin(_ folder: Substring) -> CodeOrigin? {
    let lower = folder.lowercased()
    if testFolders.contains(lower) || testSuffixes.contains(where: folder.hasSuffix) { return .test }
    if sampleFolders.contains(lower) || lower.hasSuffix(".playground")
      || sampleSuffixes.contains(where: folder.hasSuffix) || lower.hasSuffix("-example") || lower.hasSuffix("_example")
    {
      return .sample
    }
    if generatedFolders.contains(lower) { return .generated }
    return nil
  }

  /// `KeychainTests.swift`, `MockKeychain.swift`, `KeychainMock.m`, `Strings.generated.swift`.
  /// `*Test.swift` and `*Spec.swift` are left to the contents (`import XCTest`, `import Quick`):
  /// `SpeedTest.swift` or `DeviceSpec.swift` may well ship.
  static func fileOrigin(_ name: Substring) -> CodeOrigin {
    // On the name's bytes: this runs for every file a scan reads.
    let bytes = Array(name.utf8)
    if generatedFileSuffixBytes.contains(where: { bytes.count >= $0.count && bytes.suffix($0.count) == $0[...] }) {
      return .generated
    }
    // The stem: the first part between dots that is not empty (`.hidden.swift` has `hidden`).
    let dot = UInt8(ascii: ".")
    let rest = bytes.drop { $0 == dot }
    let stem = rest.isEmpty ? bytes[...] : rest.prefix { $0 != dot }
    if stem.count >= 5 && stem.suffix(5).elementsEqual("Tests".utf8) { return .test }
    let mock = Array("Mock".utf8)
    if stem.count >= mock.count,
      (stem.startIndex...(stem.endIndex - mock.count)).contains(where: { stem[$0..<($0 + mock.count)] == mock[...] })
    {
      return .test
    }
    return .app
  }

  private static let generatedFileSuffixBytes = generatedFileSuffixes.map { Array($0.utf8) }
}

/// `.keyward.yml`'s `origins`: globs (as `exclude` takes them) that say where code lives, over the
/// built-in rules of `PathOrigin` and the file's contents. When several match, the first of app,
/// test, sample, generated, third-party wins.
public struct OriginOverrides: Sendable {
  public private(set) var patterns: [(CodeOrigin, [GlobPattern])] = []

  public init(_ globs: [CodeOrigin: [String]] = [:]) {
    let order: [CodeOrigin] = [.app, .test, .sample, .generated, .thirdParty]
    patterns = order.compactMap { origin in
      guard let list = globs[origin], !list.isEmpty else { return nil }
      return (origin, list.map(GlobPattern.init))
    }
  }

  public var isEmpty: Bool { patterns.isEmpty }

  /// These globs, relative to `anchor`'s folder rather than the scan root.
  public func anchored(to anchor: GlobAnchor?) -> OriginOverrides {
    var copy = self
    copy.patterns = patterns.map { ($0.0, $0.1.map { $0.anchored(to: anchor) }) }
    return copy
  }

  /// The configured origin of a path, if a glob matches it.
  public func origin(of relativePath: String) -> CodeOrigin? {
    patterns.first { GlobPattern.anyMatches($0.1, relativePath) }?.0
  }
}
