import Foundation

public struct DiscoveredFile: Sendable, Hashable {
  public enum Kind: Sendable, Hashable { case source, binary }

  public init(absolutePath: String, relativePath: String, size: Int, kind: Kind = .source) {
    self.absolutePath = absolutePath
    self.relativePath = relativePath
    self.size = size
    self.kind = kind
  }

  /// Source files are parsed; binaries (`.ipa`, `.app`, Mach-O) go to the binary analyzer.
  public var kind: Kind

  public var absolutePath: String
  /// Relative to the scan root, with `/` separators.
  public var relativePath: String
  public var size: Int
}

/// A problem with the paths a scan was asked for, before any file is read.
public struct ScanSetupError: Error, CustomStringConvertible, Sendable {
  public var description: String
  public init(_ description: String) { self.description = description }
}

/// Finds the source files under the paths of a scan, skipping build products, dependency
/// folders and user exclusions, following symbolic links without looping.
public struct FileDiscovery {
  public static let skippedFolders: Set<String> = [".build", "DerivedData", "Pods", "Carthage", ".git"]
  public static let sourceExtensions: Set<String> = ["swift", "m", "mm", "h"]

  public let root: String
  public let excludes: [GlobPattern]

  public init(root: String, excludes: [String]) {
    self.root = root
    self.excludes = excludes.map(GlobPattern.init)
  }

  /// The folder finding paths are relative to: the folder scanned, or the deepest folder
  /// holding everything scanned.
  public static func scanRoot(for absolutePaths: [String]) -> String {
    let folders = absolutePaths.map { path -> [String] in
      var isFolder: ObjCBool = false
      let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
      let folder = exists && isFolder.boolValue ? path : (path as NSString).deletingLastPathComponent
      return folder.split(separator: "/").map(String.init)
    }
    guard var common = folders.first else { return FileManager.default.currentDirectoryPath }
    for folder in folders.dropFirst() {
      common = Array(zip(common, folder).prefix { $0 == $1 }.map(\.0))
    }
    return "/" + common.joined(separator: "/")
  }

  public static func absolute(_ path: String) -> String {
    let base = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    return URL(fileURLWithPath: path, relativeTo: base).standardizedFileURL.path
  }

  /// The paths a scan was given, made absolute; a path that does not exist is an error.
  public static func existingAbsolutePaths(_ paths: [String]) throws -> [String] {
    try paths.map { given in
      let path = absolute(given)
      var info = stat()
      guard stat(path, &info) == 0 else { throw ScanSetupError("path does not exist or cannot be read: \(given)") }
      return path
    }
  }

  public func relativePath(of absolutePath: String) -> String {
    let prefix = root.hasSuffix("/") ? root : root + "/"
    if absolutePath.hasPrefix(prefix) { return String(absolutePath.dropFirst(prefix.count)) }
    return absolutePath == root ? (absolutePath as NSString).lastPathComponent : absolutePath
  }

  /// Why reading a file or folder failed, in the system's words ("Permission denied").
  static func reason(_ error: Error) -> String {
    if let cocoa = error as? CocoaError, let underlying = cocoa.userInfo[NSUnderlyingErrorKey] as? NSError,
      underlying.domain == NSPOSIXErrorDomain
    {
      return String(cString: strerror(Int32(underlying.code)))
    }
    return error.localizedDescription
  }

  public func isExcluded(_ relativePath: String) -> Bool {
    excludes.contains { $0.matches(relativePath) }
  }

  /// The files to scan, sorted by path, and the paths that could not be listed.
  public func discover(_ absolutePaths: [String]) -> (files: [DiscoveredFile], issues: [ScanIssue]) {
    var walk = Walk(discovery: self)
    for path in absolutePaths {
      walk.visit(path, explicitlyNamed: true)
    }
    let files = walk.files.sorted { $0.relativePath < $1.relativePath }
    return (files, walk.issues)
  }

  private struct Walk {
    let discovery: FileDiscovery
    var files: [DiscoveredFile] = []
    var issues: [ScanIssue] = []
    var seenFolders: Set<[UInt64]> = []
    var seenFiles: Set<String> = []

    mutating func visit(_ path: String, explicitlyNamed: Bool) {
      let relative = discovery.relativePath(of: path)
      var info = stat()
      guard stat(path, &info) == 0 else {
        var linkInfo = stat()
        let reason = lstat(path, &linkInfo) == 0 ? "broken symbolic link" : String(cString: strerror(errno))
        issues.append(ScanIssue(path: relative, kind: .unreadable, message: "cannot read: \(reason)"))
        return
      }
      let isFolder = (info.st_mode & S_IFMT) == S_IFDIR
      if !explicitlyNamed {
        let name = (path as NSString).lastPathComponent
        if isFolder && FileDiscovery.skippedFolders.contains(name) { return }
        if discovery.isExcluded(relative) { return }
      }
      if isFolder && explicitlyNamed && BinaryTarget.isBundleFolder(path) {
        files.append(DiscoveredFile(absolutePath: path, relativePath: relative, size: 0, kind: .binary))
        return
      }
      if isFolder {
        // A folder reached twice through links is a loop or a duplicate; scan it once.
        guard seenFolders.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted else { return }
        let entries: [String]
        do {
          entries = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
          issues.append(
            ScanIssue(path: relative, kind: .unreadable, message: "cannot list folder: \(FileDiscovery.reason(error))"))
          return
        }
        for entry in entries.sorted() {
          visit((path as NSString).appendingPathComponent(entry), explicitlyNamed: false)
        }
        return
      }
      let fileExtension = (path as NSString).pathExtension
      let isRegular = (info.st_mode & S_IFMT) == S_IFREG
      guard FileDiscovery.sourceExtensions.contains(fileExtension) else {
        guard explicitlyNamed else { return }
        // Only files named on the command line are opened to look for a Mach-O header.
        if isRegular && (BinaryTarget.isArchive(path) || BinaryTarget.looksLikeMachO(path)) {
          files.append(
            DiscoveredFile(absolutePath: path, relativePath: relative, size: Int(info.st_size), kind: .binary))
        } else {
          issues.append(
            ScanIssue(
              path: relative, kind: .unreadable,
              message: "not a file Keyward reads (.swift, .m, .mm, .h source; .ipa, .app or Mach-O app)"))
        }
        return
      }
      guard isRegular else {
        issues.append(ScanIssue(path: relative, kind: .unreadable, message: "not a regular file"))
        return
      }
      guard seenFiles.insert(relative).inserted else { return }
      files.append(DiscoveredFile(absolutePath: path, relativePath: relative, size: Int(info.st_size)))
    }
  }
}
