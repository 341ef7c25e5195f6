import Foundation

/// The source files an Xcode project compiles, read from its `project.pbxproj`: the files its
/// targets' build phases name, and the folders it keeps in sync with the disk (Xcode 16's
/// synchronized groups), whose every file it builds. A source file in the project's folder that
/// none of its projects compiles ships in no app (a file left behind when another replaced it).
public struct XcodeProjectMembership: Sendable {
  /// The files some target builds, as their absolute paths' hashes (`pathHash`): a scan of many
  /// apps keeps every project it read, and the paths themselves ran to a megabyte a project. A
  /// collision can only make a file count as built, which judges nothing.
  private(set) var builtFiles: Set<UInt64> = []
  /// Absolute paths of folders whose every file some target builds.
  private(set) var builtFolders: [String] = []

  /// `path` made absolute and standardized, as the project's paths are.
  static func standardized(_ path: String) -> String {
    joined(FileManager.default.currentDirectoryPath, path)
  }

  /// Whether the project builds the file at `path` (absolute, standardized).
  public func builds(_ path: String) -> Bool {
    builtFiles.contains(Self.pathHash(path.utf8))
      || builtFolders.contains { path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
  }

  /// The membership of the project at `projectFolder` (`App.xcodeproj`), or nil when its
  /// `project.pbxproj` cannot be read or understood: then nothing is judged.
  public static func read(projectFolder: String) -> XcodeProjectMembership? {
    let path = (projectFolder as NSString).appendingPathComponent("project.pbxproj")
    guard let bytes = try? FileBytes.read(path), bytes.count < 64 << 20,
      let project = ProjectFileReader.read(bytes), let root = project.objects[project.rootObject],
      let mainGroup = root.mainGroup
    else { return nil }
    let sourceRoot = components(of: "..", under: components(of: standardized(projectFolder), under: []))
    var resolver = PathResolver(objects: project.objects, sourceRoot: sourceRoot)
    resolver.walk(mainGroup, under: sourceRoot, folded: folded(sourceRoot), depth: 0)
    var membership = XcodeProjectMembership()
    membership.builtFolders = resolver.synchronizedFolders
    for object in project.objects.values where object.isa == "PBXBuildFile" {
      if let reference = object.fileRef, let file = resolver.pathHashes[reference] {
        membership.builtFiles.insert(file)
      }
    }
    return membership
  }

  /// Works out each file reference's path from the group tree (`sourceTree` `<group>` is the
  /// enclosing group's folder, `SOURCE_ROOT` the project's folder). Groups pass their folder on
  /// as components and as the hash of its path so far; a file named plainly in its group (most
  /// are) extends that hash with its name, and is never made into a path.
  private struct PathResolver {
    let objects: [String: ProjectFileReader.Object]
    let sourceRoot: [Substring]
    var pathHashes: [String: UInt64] = [:]
    var synchronizedFolders: [String] = []

    mutating func walk(_ id: String, under parent: [Substring], folded parentFold: UInt64, depth: Int) {
      guard depth < 64, let object = objects[id] else { return }
      if object.isa == "PBXFileReference", let name = Self.plainName(object) {
        pathHashes[id] = XcodeProjectMembership.folded(name, after: parentFold)
        return
      }
      guard let own = resolve(object, parent: parent) else { return }
      switch object.isa {
      case "PBXGroup", "PBXVariantGroup", "XCVersionGroup":
        let fold = XcodeProjectMembership.folded(own)
        for child in object.children { walk(child, under: own, folded: fold, depth: depth + 1) }
      case "PBXFileSystemSynchronizedRootGroup":
        synchronizedFolders.append(XcodeProjectMembership.path(of: own))
      case "PBXFileReference":
        pathHashes[id] = own.isEmpty ? XcodeProjectMembership.pathHash("/".utf8) : XcodeProjectMembership.folded(own)
      default:
        return
      }
    }

    /// The path of an object in its group's folder when it is one plain name (no `/`, not `.`
    /// or `..`).
    private static func plainName(_ object: ProjectFileReader.Object) -> Substring? {
      guard object.sourceTree ?? "<group>" == "<group>", let path = object.path, !path.isEmpty, path != ".",
        path != "..", !path.utf8.contains(UInt8(ascii: "/"))
      else { return nil }
      return path[...]
    }

    private func resolve(_ object: ProjectFileReader.Object, parent: [Substring]) -> [Substring]? {
      let base: [Substring]
      switch object.sourceTree ?? "<group>" {
      case "<group>": base = parent
      case "SOURCE_ROOT": base = sourceRoot
      case "<absolute>": base = []
      default: return nil
      }
      guard let path = object.path else { return base }
      return XcodeProjectMembership.components(of: path, under: base)
    }
  }

  /// The components of `path` read from the folder `base` (components too), `.` and `..`
  /// resolved, without Foundation's path functions (thousands of files per project).
  static func components(of path: String, under base: [Substring]) -> [Substring] {
    var components = path.hasPrefix("/") ? [] : base
    for component in path.split(separator: "/", omittingEmptySubsequences: true) {
      if component == "." { continue }
      if component == ".." {
        if !components.isEmpty { components.removeLast() }
        continue
      }
      components.append(component)
    }
    return components
  }

  static func path(of components: [Substring]) -> String { "/" + components.joined(separator: "/") }

  /// `base` and `path` joined, `.` and `..` components resolved.
  static func joined(_ base: String, _ path: String) -> String {
    self.path(of: components(of: path, under: base.split(separator: "/", omittingEmptySubsequences: true)))
  }

  /// The hash of a path's bytes (64-bit FNV-1a), which can be extended one component at a time.
  static func pathHash(_ bytes: some Sequence<UInt8>, from start: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64 {
    var hash = start
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    return hash
  }

  /// The hash of `path(of: components)` for components that are not empty (the path `/` is the
  /// hash of its one byte).
  static func folded(_ components: [Substring]) -> UInt64 {
    components.reduce(pathHash([])) { folded($1, after: $0) }
  }

  /// `folded` extended by `/` and `component`.
  static func folded(_ component: Substring, after folded: UInt64) -> UInt64 {
    pathHash(component.utf8, from: pathHash(CollectionOfOne(UInt8(ascii: "/")), from: folded))
  }
}

/// The Xcode projects in a folder and the folders around it, which together decide what is built
/// below it. Their `project.pbxproj` files are read when a file with findings first asks: most
/// files never do, and a project runs to megabytes.
public final class XcodeProjectScope: @unchecked Sendable, Hashable {
  private let projectFolders: [String]
  private let outer: XcodeProjectScope?
  private let lock = NSLock()
  /// Nil until read; then nil inside when a project could not be read.
  private var memberships: [XcodeProjectMembership]??

  private init(projectFolders: [String], outer: XcodeProjectScope?) {
    self.projectFolders = projectFolders
    self.outer = outer
  }

  /// The scope below `folder`, given its entries and the scope around it: a package manifest or
  /// podspec there leaves the folder to SwiftPM or CocoaPods (nothing judged), an Xcode project
  /// there joins the ones around.
  static func below(folder: String, entryNames: [String], outer: XcodeProjectScope?) -> XcodeProjectScope? {
    if entryNames.contains(where: { $0 == "Package.swift" || $0.hasSuffix(".podspec") }) { return nil }
    let projects = entryNames.filter { $0.hasSuffix(".xcodeproj") }
    guard !projects.isEmpty else { return outer }
    return XcodeProjectScope(
      projectFolders: projects.map { (folder as NSString).appendingPathComponent($0) }, outer: outer)
  }

  /// Whether no project of the scope builds the file at `path`; false when one cannot be read.
  func buildsNothing(at path: String) -> Bool {
    guard let own = readMemberships() else { return false }
    if own.contains(where: { $0.builds(path) }) { return false }
    return outer?.buildsNothing(at: path) ?? true
  }

  private func readMemberships() -> [XcodeProjectMembership]? {
    lock.lock()
    defer { lock.unlock() }
    if let memberships { return memberships }
    var read: [XcodeProjectMembership]? = []
    for folder in projectFolders {
      guard let membership = XcodeProjectMembership.read(projectFolder: folder) else {
        read = nil
        break
      }
      read?.append(membership)
    }
    memberships = .some(read)
    return read
  }

  /// The same projects around the same folders, read or not.
  public static func == (lhs: XcodeProjectScope, rhs: XcodeProjectScope) -> Bool {
    lhs === rhs || (lhs.projectFolders == rhs.projectFolders && lhs.outer == rhs.outer)
  }
  public func hash(into hasher: inout Hasher) { hasher.combine(projectFolders) }
}
