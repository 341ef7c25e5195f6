import Foundation

/// A problem with the paths a scan was asked for, before any file is read.
public struct ScanSetupError: Error, CustomStringConvertible, Sendable {
  public var description: String
  public init(_ description: String) { self.description = description }
}

/// Finds the source files under the paths of a scan, skipping build products, dependency
/// folders and user exclusions, following symbolic links without looping and reading a file
/// reached by several paths (links) once. Each file gets the origin its path says.
public struct FileDiscovery {
  public static let skippedFolders: Set<String> = [".build", "DerivedData", "Pods", "Carthage", ".git"]
  /// Dependency folders among the skipped ones: their skipping is reported (`Result.skippedFolders`)
  /// and `includeThirdParty` scans them.
  public static let thirdPartyFolders: Set<String> = ["Pods", "Carthage"]
  public static let sourceExtensions: Set<String> = ["swift", "m", "mm", "h"]
  /// Endings of folders that hold resources and never code Xcode compiles: asset catalogs and
  /// sticker packs (`Assets.xcassets`, one folder per image or colour, often half an app's
  /// folders). Skipped like build folders, without a note.
  public static let resourceFolderSuffixes = [".xcassets", ".xcstickers"]

  /// The size of the file at `path` in bytes, 0 when it cannot be looked at.
  public static func size(of path: String) -> Int {
    var info = stat()
    return stat(path, &info) == 0 ? Int(info.st_size) : 0
  }

  public let root: String
  public let excludes: [GlobPattern]
  public let origins: OriginOverrides
  /// Whether `Pods` and `Carthage` folders are scanned (as third-party code) rather than skipped.
  public let includeThirdParty: Bool

  /// Whether a path named on the command line is skipped when an exclusion matches it
  /// (`--force-exclude`, for hooks that pass every changed file).
  public var forceExclude = false

  /// `excludes` match from the root; `anchoredExcludes` (a configuration file's) as anchored.
  public init(
    root: String, excludes: [String], origins: OriginOverrides = OriginOverrides(), includeThirdParty: Bool = false,
    anchoredExcludes: [GlobPattern] = []
  ) {
    self.root = root
    self.excludes = excludes.map(GlobPattern.init) + anchoredExcludes
    self.origins = origins
    self.includeThirdParty = includeThirdParty
  }

  /// What discovery found.
  public struct Result: Sendable {
    /// The files to scan, sorted by path (none when `onFile` took them).
    public var files: [DiscoveredFile]
    /// The paths that could not be listed or read.
    public var issues: [ScanIssue]
    /// Dependency folders (`Pods`, `Carthage`) passed over, relative to the root, sorted.
    public var skippedFolders: [String]
    /// Paths named that an exclusion matched (`forceExclude`), relative to the root.
    public var excludedNamed: [String] = []
    /// Info.plist and InfoPlist.strings files, Xcode projects' `project.pbxproj` and
    /// `.xcconfig` files met on the way, relative to the root: where an app declares its usage
    /// descriptions.
    public var settingsFiles: [String] = []
  }

  /// The folder finding paths are relative to: the folder scanned, or the deepest folder
  /// holding everything scanned. A named `.app` bundle is one file to the scan, so it is held
  /// by its parent, as a named `.ipa` is.
  public static func scanRoot(for absolutePaths: [String]) -> String {
    let folders = absolutePaths.map { path -> [String] in
      var isFolder: ObjCBool = false
      let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
      let isScannedFolder = exists && isFolder.boolValue && !BinaryTarget.isBundleFolder(path)
      let folder = isScannedFolder ? path : (path as NSString).deletingLastPathComponent
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

  /// The paths a scan was given, made absolute. A path that does not exist refuses the whole
  /// run (a typo in CI must not pass as a clean scan of the other paths); every missing path is
  /// named in the one error.
  public static func existingAbsolutePaths(_ paths: [String]) throws -> [String] {
    var missing: [String] = []
    let absolutePaths = paths.map { given in
      let path = absolute(given)
      var info = stat()
      if stat(path, &info) != 0 { missing.append(given) }
      return path
    }
    guard missing.isEmpty else {
      let plural = missing.count == 1 ? "path does not exist or cannot be read" : "paths do not exist or cannot be read"
      throw ScanSetupError("\(plural): \(missing.joined(separator: ", ")); nothing was scanned")
    }
    return absolutePaths
  }

  public func relativePath(of absolutePath: String) -> String {
    let prefix = root.hasSuffix("/") ? root : root + "/"
    if absolutePath.hasPrefix(prefix) { return String(absolutePath.dropFirst(prefix.count)) }
    return absolutePath == root ? (absolutePath as NSString).lastPathComponent : absolutePath
  }

  public func isExcluded(_ relativePath: String) -> Bool {
    GlobPattern.anyMatches(excludes, relativePath)
  }

  /// The files to scan, sorted by path, the paths that could not be listed, and the dependency
  /// folders passed over.
  /// - Parameter onFile: called with each file as it is found, instead of listing it in the
  ///   result. Under one path named, files come in path order (by relative path, as `<` orders
  ///   them), so a caller can start on them before the walk ends.
  public func discover(_ absolutePaths: [String], onFile: ((DiscoveredFile) -> Void)? = nil) -> Result {
    var walk = Walk(discovery: self)
    walk.onFile = onFile
    for path in absolutePaths {
      walk.visitNamed(path)
    }
    let files = walk.files.sorted { $0.relativePath < $1.relativePath }
    return Result(
      files: files, issues: walk.issues, skippedFolders: Set(walk.skipped).sorted(), excludedNamed: walk.excludedNamed,
      settingsFiles: walk.settingsFiles.sorted())
  }

  /// The origin of a file at `relativePath`: configured, else by its path; third-party inside a
  /// path named on the command line that lies in a dependency folder.
  /// The origin of a file at `relativePath` when something other than its path decides it: the
  /// configuration, or a path named on the command line that lies in a dependency folder.
  func givenOrigin(of relativePath: String, namedInDependency: Bool) -> (CodeOrigin?, configured: Bool) {
    if !origins.isEmpty, let configured = origins.origin(of: relativePath) { return (configured, true) }
    return (namedInDependency ? .thirdParty : nil, false)
  }

  private struct Walk {
    let discovery: FileDiscovery
    var files: [DiscoveredFile] = []
    var issues: [ScanIssue] = []
    var skipped: [String] = []
    var excludedNamed: [String] = []
    var settingsFiles: [String] = []
    var seenFolders: Set<[UInt64]> = []
    /// Files by device and inode: one reached through links (or hard links) is read once.
    var seenFiles: Set<[UInt64]> = []
    /// Whether the path named on the command line being walked lies in a dependency folder.
    var namedInDependency = false
    /// The innermost library repository being walked (`LibraryLayout`).
    var library: LibraryLayout?
    /// Whether the folders being walked describe a library apps link.
    var packaging = LibraryPackaging()
    /// Whether the folder being walked lies in Tuist's shared manifest code
    /// (`Tuist/ProjectDescriptionHelpers`), where a project's Info.plist keys are often declared.
    var inProjectHelpers = false
    /// What the nearest project manifest above says the code is built for.
    var projectPlatform = ProjectPlatform.unspecified
    /// The Xcode projects whose folders hold the folder being walked, when they alone decide
    /// what is built there (no package manifest or podspec nearer): nil when nothing is judged.
    var xcodeProjects: XcodeProjectScope?
    /// Whether a folder walked above holds a project manifest (`isInsideScannedProject`).
    var insideProject = false
    /// What the folders of the folder being walked say of where its code lives.
    var folderOrigin: CodeOrigin?
    /// The name of the folder being walked, for the next one down (`.build` before `checkouts`).
    var folderName: Substring?

    /// The exclusions that apply under the path named being walked.
    var excludes: [GlobPattern] = []
    var onFile: ((DiscoveredFile) -> Void)?

    mutating func take(_ file: DiscoveredFile) {
      // A caller taking files as they come keeps them: a second list would double what a large
      // tree's scan holds.
      if let onFile { onFile(file) } else { files.append(file) }
    }

    func isExcluded(_ relativePath: String) -> Bool { GlobPattern.anyMatches(excludes, relativePath) }

    /// A path named on the command line: it is scanned whatever its name or the exclusions that
    /// cover it say (`keyward scan Examples/App` with `Examples/**` excluded), and exclusions
    /// inside it still apply. With `forceExclude`, an exclusion that covers it leaves it out.
    mutating func visitNamed(_ path: String) {
      namedInDependency = PathOrigin.isInsideDependencyFolder(path)
      let relative = discovery.relativePath(of: path)
      // The scan root's own path, from itself, is empty (anchored globs still see where it is).
      let own = path == discovery.root ? "" : relative
      if discovery.forceExclude {
        if GlobPattern.anyMatches(discovery.excludes, own) {
          excludedNamed.append(relative)
          return
        }
        excludes = discovery.excludes
      } else {
        excludes = discovery.excludes.filter { !$0.matches(own) }
      }
      visit(path, relative: relative, name: nil, type: nil)
    }

    private func file(_ path: String, relative: String, size: Int, kind: DiscoveredFile.Kind) -> DiscoveredFile {
      let (origin, configured) = discovery.givenOrigin(of: relative, namedInDependency: namedInDependency)
      var found = DiscoveredFile(
        absolutePath: path, relativePath: relative, size: size, kind: kind, origin: origin,
        originIsConfigured: configured, library: library, projectPlatform: projectPlatform,
        shipsInLibrary: packaging.shipsLibrary)
      found.xcodeProjects = xcodeProjects
      found.isInsideScannedProject = insideProject
      found.folderOrigin = folderOrigin
      return found
    }

    /// `name` is nil for paths named on the command line; `type` is the folder listing's
    /// `d_type` when it knows one, which saves a `stat` for files that are not sources.
    /// `folder`, when given, is the open folder holding `name`: the entry is looked at relative
    /// to it, which spares the system walking the whole path again for every file.
    /// `listed`, for an entry its folder's listing says is a regular file, is the file's identity
    /// there (the folder's device and the entry's inode): a source file is then taken without a
    /// `stat`, its size left for the read to check.
    private mutating func visit(
      _ path: String, relative: String, name: String?, type: UInt8?, folder: Int32? = nil, listed: [UInt64]? = nil
    ) {
      let explicitlyNamed = name == nil
      // With the listing's type, the name is judged before the `stat`; otherwise after it.
      let typeKnown = type == UInt8(DT_REG) || type == UInt8(DT_DIR)
      if let name, typeKnown, skipsEntry(named: name, isFolder: type == UInt8(DT_DIR), relative: relative) { return }
      if type == UInt8(DT_REG), let listed {
        // The same file reached again (through a link): the first path in walk order stays.
        guard !isExcluded(relative), seenFiles.insert(listed).inserted else { return }
        take(file(path, relative: relative, size: DiscoveredFile.unknownSize, kind: .source))
        return
      }
      var info = stat()
      let status = if let folder, let name { fstatat(folder, name, &info, 0) } else { stat(path, &info) }
      guard status == 0 else {
        let reason = String(cString: strerror(errno))
        var linkInfo = stat()
        if explicitlyNamed || !isExcluded(relative) {
          let why =
            lstat(path, &linkInfo) == 0 && (linkInfo.st_mode & S_IFMT) == S_IFLNK ? "broken symbolic link" : reason
          issues.append(ScanIssue(path: relative, kind: .unreadable, message: "cannot read: \(why)"))
        }
        return
      }
      let isFolder = (info.st_mode & S_IFMT) == S_IFDIR
      if let name,
        (!typeKnown && skipsEntry(named: name, isFolder: isFolder, relative: relative))
          || isExcluded(relative)
      {
        return
      }
      if isFolder && explicitlyNamed && BinaryTarget.isBundleFolder(path) {
        take(file(path, relative: relative, size: 0, kind: .binary))
        return
      }
      if isFolder {
        // A folder reached twice through links is a loop or a duplicate; scan it once.
        guard seenFolders.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted else { return }
        visitEntries(of: path, relative: relative, device: UInt64(info.st_dev))
        return
      }
      let isRegular = (info.st_mode & S_IFMT) == S_IFREG
      // Entries that are not sources were passed over above. A path named on the command line
      // may be a built app: only such paths are opened to look for a Mach-O header.
      if explicitlyNamed && !FileDiscovery.sourceExtensions.contains(FileDiscovery.pathExtension(path)) {
        if isRegular && (BinaryTarget.isArchive(path) || BinaryTarget.looksLikeMachO(path)) {
          take(file(path, relative: relative, size: Int(info.st_size), kind: .binary))
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
      // The same file reached again (through a link): the first path in walk order stays.
      guard seenFiles.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted else { return }
      take(file(path, relative: relative, size: Int(info.st_size), kind: .source))
    }

    /// Lists a folder with `opendir`/`readdir` (Foundation's listing costs a `stat` and several
    /// string conversions per entry) and visits its entries in name order.
    private mutating func visitEntries(of folder: String, relative: String, device: UInt64) {
      guard let stream = opendir(folder) else {
        issues.append(
          ScanIssue(
            path: relative, kind: .unreadable, message: "cannot list folder: \(String(cString: strerror(errno)))"))
        return
      }
      var entries: [(name: String, type: UInt8, inode: UInt64)] = []
      while let entry = readdir(stream) {
        let name = withUnsafePointer(to: &entry.pointee.d_name) {
          String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
        }
        if name == "." || name == ".." { continue }
        entries.append((name, entry.pointee.d_type, UInt64(entry.pointee.d_ino)))
      }
      // Kept open while its entries are visited, which are looked at relative to it.
      defer { closedir(stream) }
      let folderDescriptor = dirfd(stream)
      let descriptor: Int32? = folderDescriptor >= 0 ? folderDescriptor : nil
      let prefix = folder.hasSuffix("/") ? folder : folder + "/"
      let relativePrefix = relative.isEmpty || folder == discovery.root ? "" : relative + "/"
      let names = entries.map(\.name)
      let outerLibrary = library
      if let layout = LibraryLayout.read(folder: folder, relativePrefix: relativePrefix, entryNames: names) {
        library = layout
      }
      let outerPackaging = packaging
      packaging = packaging.entering(folder: folder, entryNames: names)
      let outerInProjectHelpers = inProjectHelpers
      inProjectHelpers =
        inProjectHelpers || relative == "ProjectDescriptionHelpers" || relative.hasSuffix("/ProjectDescriptionHelpers")
      let outerPlatform = projectPlatform
      let declared = ProjectPlatform.declared(inFolder: folder, entryNames: names)
      let outerProjects = xcodeProjects
      xcodeProjects = XcodeProjectScope.below(folder: folder, entryNames: names, outer: outerProjects)
      let outerInsideProject = insideProject
      insideProject = insideProject || names.contains(where: FileDiscovery.isProjectManifest)
      let outerFolderOrigin = folderOrigin
      let outerFolderName = folderName
      // One folder more than the walk above: only its own name is judged.
      if !relativePrefix.isEmpty {
        let name = relative.lastIndex(of: "/").map { relative[relative.index(after: $0)...] } ?? relative[...]
        folderOrigin = PathOrigin.origin(ofFolder: name, after: folderName, below: folderOrigin)
        folderName = name
      }
      defer {
        folderName = outerFolderName
        insideProject = outerInsideProject
        folderOrigin = outerFolderOrigin
        library = outerLibrary
        packaging = outerPackaging
        inProjectHelpers = outerInProjectHelpers
        projectPlatform = outerPlatform
        xcodeProjects = outerProjects
      }
      // A folder sorts as its name followed by `/`, so that the walk meets files in the order
      // of their relative paths. An entry of unknown type (a link) is looked at to tell.
      func sortKey(_ entry: (name: String, type: UInt8, inode: UInt64)) -> String {
        var isFolder = entry.type == UInt8(DT_DIR)
        if entry.type == UInt8(DT_UNKNOWN) || entry.type == UInt8(DT_LNK) {
          var info = stat()
          let status =
            if let descriptor { fstatat(descriptor, entry.name, &info, 0) } else { stat(prefix + entry.name, &info) }
          isFolder = status == 0 && (info.st_mode & S_IFMT) == S_IFDIR
        }
        return isFolder ? entry.name + "/" : entry.name
      }
      let ordered = entries.map { (entry: $0, key: sortKey($0)) }.sorted { $0.key < $1.key }.map(\.entry)
      for entry in ordered {
        projectPlatform = ProjectPlatform.of(entry: entry.name, declared: declared, outer: outerPlatform)
        let known = entry.type == UInt8(DT_UNKNOWN) || entry.type == UInt8(DT_LNK) ? nil : entry.type
        visit(
          prefix + entry.name, relative: relativePrefix + entry.name, name: entry.name, type: known,
          folder: descriptor, listed: [device, entry.inode])
      }
    }

    /// Whether a folder entry is passed over by its name alone: a build or dependency folder, or
    /// a file that is not source. Exclusions, on the relative path, are checked apart. Skipped
    /// dependency folders are remembered, to be reported once.
    mutating func skipsEntry(named name: String, isFolder: Bool, relative: String) -> Bool {
      guard isFolder else {
        if FileDiscovery.isSettingsFile(name) || (inProjectHelpers && name.hasSuffix(".swift")), !isExcluded(relative) {
          settingsFiles.append(relative)
        }
        return !FileDiscovery.sourceExtensions.contains(FileDiscovery.pathExtension(name))
      }
      if FileDiscovery.resourceFolderSuffixes.contains(where: name.hasSuffix) { return true }
      guard FileDiscovery.skippedFolders.contains(name) else { return false }
      guard FileDiscovery.thirdPartyFolders.contains(name) else { return true }
      if discovery.includeThirdParty { return false }
      if !isExcluded(relative) { skipped.append(relative) }
      return true
    }
  }

  /// `Info.plist` (or `App-Info.plist`) and its localized strings (`InfoPlist.strings`, or
  /// `AppPlist.strings` for an Info.plist named `App.plist`, or a string catalog
  /// `InfoPlist.xcstrings`), `project.pbxproj`, `*.xcconfig`, and the manifests projects are
  /// generated from (Tuist's `Project.swift`, XcodeGen's `project.yml`), which declare the
  /// Info.plist's keys.
  static func isSettingsFile(_ name: String) -> Bool {
    name == "Info.plist" || name.hasSuffix("-Info.plist") || name.hasSuffix("Plist.strings")
      || name.hasSuffix("Plist.xcstrings") || name == "project.pbxproj" || name.hasSuffix(".xcconfig")
      || name == "Project.swift" || name == "project.yml" || name == "project.yaml"
  }

  /// A project or package manifest's name: the folder holding it holds the project's code.
  static func isProjectManifest(_ name: String) -> Bool {
    name.hasSuffix(".xcodeproj") || name.hasSuffix(".xcworkspace") || name.hasSuffix(".podspec")
      || ["Package.swift", "Project.swift", "project.yml", "project.yaml"].contains(name)
  }

  /// The extension of a file name or path, without the dot ("" when there is none), as
  /// `NSString.pathExtension` reads it but without bridging.
  public static func pathExtension(_ name: String) -> String {
    let utf8 = name.utf8
    guard let dot = utf8.lastIndex(of: UInt8(ascii: ".")) else { return "" }
    if let slash = utf8.lastIndex(of: UInt8(ascii: "/")), slash > dot { return "" }
    // A leading dot (".swift") names a hidden file, not an extension, as NSString reads it.
    if dot == utf8.startIndex || utf8[utf8.index(before: dot)] == UInt8(ascii: "/") { return "" }
    return String(name[utf8.index(after: dot)...])
  }
}
