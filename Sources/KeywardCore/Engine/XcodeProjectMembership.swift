import Foundation

/// The source files an Xcode project compiles, read from its `project.pbxproj`: the files its
/// targets' build phases name, and the folders it keeps in sync with the disk (Xcode 16's
/// synchronized groups), whose every file it builds. A source file in the project's folder that
/// none of its projects compiles ships in no app (a file left behind when another replaced it).
public struct XcodeProjectMembership: Sendable {
  /// Absolute paths of the files some target builds.
  /// Kept as the paths' hash values: a scan of many apps keeps every project it read, and the
  /// paths themselves ran to a megabyte a project. A collision can only make a file count as
  /// built, which judges nothing.
  private(set) var builtFiles: Set<Int> = []
  /// Absolute paths of folders whose every file some target builds.
  private(set) var builtFolders: [String] = []

  /// `path` made absolute and standardized, as the project's paths are.
  static func standardized(_ path: String) -> String {
    joined(FileManager.default.currentDirectoryPath, path)
  }

  /// Whether the project builds the file at `path` (absolute, standardized).
  public func builds(_ path: String) -> Bool {
    builtFiles.contains(path.hashValue) || builtFolders.contains { path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
  }

  /// The membership of the project at `projectFolder` (`App.xcodeproj`), or nil when its
  /// `project.pbxproj` cannot be read or understood: then nothing is judged.
  public static func read(projectFolder: String) -> XcodeProjectMembership? {
    let path = (projectFolder as NSString).appendingPathComponent("project.pbxproj")
    guard let bytes = try? FileBytes.read(path), bytes.count < 64 << 20,
      let project = ProjectFileReader.read(bytes), let root = project.objects[project.rootObject],
      let mainGroup = root.mainGroup
    else { return nil }
    let sourceRoot = joined(standardized(projectFolder), "..")
    var resolver = PathResolver(objects: project.objects, sourceRoot: sourceRoot)
    resolver.walk(mainGroup, under: sourceRoot, depth: 0)
    var membership = XcodeProjectMembership()
    membership.builtFolders = resolver.synchronizedFolders
    for object in project.objects.values where object.isa == "PBXBuildFile" {
      if let reference = object.fileRef, let file = resolver.paths[reference] {
        membership.builtFiles.insert(file.hashValue)
      }
    }
    return membership
  }

  /// Works out each file reference's path from the group tree (`sourceTree` `<group>` is the
  /// enclosing group's folder, `SOURCE_ROOT` the project's folder).
  private struct PathResolver {
    let objects: [String: ProjectFileReader.Object]
    let sourceRoot: String
    var paths: [String: String] = [:]
    var synchronizedFolders: [String] = []

    mutating func walk(_ id: String, under parent: String, depth: Int) {
      guard depth < 64, let object = objects[id], let own = resolve(object, parent: parent) else { return }
      switch object.isa {
      case "PBXGroup", "PBXVariantGroup", "XCVersionGroup":
        for child in object.children { walk(child, under: own, depth: depth + 1) }
      case "PBXFileSystemSynchronizedRootGroup":
        synchronizedFolders.append(own)
      case "PBXFileReference":
        paths[id] = own
      default:
        return
      }
    }

    private func resolve(_ object: ProjectFileReader.Object, parent: String) -> String? {
      let base: String
      switch object.sourceTree ?? "<group>" {
      case "<group>": base = parent
      case "SOURCE_ROOT": base = sourceRoot
      case "<absolute>": base = ""
      default: return nil
      }
      guard let path = object.path else { return base }
      return XcodeProjectMembership.joined(base, path)
    }
  }

  /// `base` and `path` joined, `.` and `..` components resolved, without Foundation's path
  /// functions (thousands of files per project).
  static func joined(_ base: String, _ path: String) -> String {
    var components = path.hasPrefix("/") ? [] : base.split(separator: "/", omittingEmptySubsequences: true)
    for component in path.split(separator: "/", omittingEmptySubsequences: true) {
      if component == "." { continue }
      if component == ".." {
        if !components.isEmpty { components.removeLast() }
        continue
      }
      components.append(component)
    }
    return "/" + components.joined(separator: "/")
  }
}

/// Reads what `XcodeProjectMembership` needs from a `project.pbxproj`, an old-style (OpenStep)
/// property list: the root object and, for each object, its `isa`, `fileRef`, `path`,
/// `sourceTree`, `children` and `mainGroup`. Everything else (build settings are most of a
/// project) is skipped byte by byte, never turned into strings.
enum ProjectFileReader {
  struct Object {
    var isa = ""
    var fileRef: String?
    var path: String?
    var sourceTree: String?
    var children: [String] = []
    var mainGroup: String?
  }

  static func read(_ bytes: [UInt8]) -> (rootObject: String, objects: [String: Object])? {
    bytes.withUnsafeBufferPointer { buffer in
      var reader = Reader(bytes: buffer)
      return reader.project()
    }
  }

  private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    var offset = 0

    /// `{ …; objects = { ID = { … }; … }; rootObject = ID; }`
    mutating func project() -> (rootObject: String, objects: [String: Object])? {
      guard expect("{") else { return nil }
      var objects: [String: Object] = [:]
      var root: String?
      while true {
        skipSpace()
        guard offset < bytes.count else { return nil }
        if bytes[offset] == UInt8(ascii: "}") { break }
        guard let key = word(), expect("=") else { return nil }
        switch key {
        case "objects":
          guard let read = objectTable() else { return nil }
          objects = read
        case "rootObject":
          root = word()
        default:
          guard skipValue(depth: 0) else { return nil }
        }
        guard expect(";") else { return nil }
      }
      return root.map { ($0, objects) }
    }

    private mutating func objectTable() -> [String: Object]? {
      guard expect("{") else { return nil }
      var objects: [String: Object] = [:]
      while true {
        skipSpace()
        guard offset < bytes.count else { return nil }
        if bytes[offset] == UInt8(ascii: "}") {
          offset += 1
          return objects
        }
        guard let id = word(), expect("="), expect("{") else { return nil }
        var object = Object()
        while true {
          skipSpace()
          guard offset < bytes.count else { return nil }
          if bytes[offset] == UInt8(ascii: "}") {
            offset += 1
            break
          }
          guard let key = keyName(), expect("=") else { return nil }
          switch key {
          case .isa: object.isa = word() ?? ""
          case .fileRef: object.fileRef = word()
          case .path: object.path = word()
          case .sourceTree: object.sourceTree = word()
          case .mainGroup: object.mainGroup = word()
          case .children:
            guard let list = words() else { return nil }
            object.children = list
          case .other:
            guard skipValue(depth: 0) else { return nil }
          }
          guard expect(";") else { return nil }
        }
        guard expect(";") else { return nil }
        // Build settings, phases and targets name no file: only these are kept.
        if Self.kept.contains(object.isa) { objects[id] = object }
      }
    }

    enum Key { case isa, fileRef, path, sourceTree, mainGroup, children, other }

    static let kept: Set<String> = [
      "PBXProject", "PBXBuildFile", "PBXFileReference", "PBXGroup", "PBXVariantGroup", "XCVersionGroup",
      "PBXFileSystemSynchronizedRootGroup",
    ]

    static let keys: [(bytes: [UInt8], key: Key)] = [
      (Array("isa".utf8), .isa), (Array("fileRef".utf8), .fileRef), (Array("path".utf8), .path),
      (Array("sourceTree".utf8), .sourceTree), (Array("mainGroup".utf8), .mainGroup),
      (Array("children".utf8), .children),
    ]

    /// An object's key, told apart by its bytes: most keys are skipped with their values, and
    /// making a string of each cost more than the rest of the reading.
    private mutating func keyName() -> Key? {
      skipSpace()
      guard offset < bytes.count, bytes[offset] != UInt8(ascii: "\"") else {
        return word() == nil ? nil : .other
      }
      let start = offset
      while offset < bytes.count, Self.isWordByte(bytes[offset]) { offset += 1 }
      guard offset > start else { return nil }
      let length = offset - start
      for (name, key) in Self.keys where name.count == length {
        if name.withUnsafeBufferPointer({ memcmp($0.baseAddress!, bytes.baseAddress! + start, length) == 0 }) {
          return key
        }
      }
      return .other
    }

    /// `( a, b, )` of strings.
    private mutating func words() -> [String]? {
      guard expect("(") else { return nil }
      var list: [String] = []
      while true {
        skipSpace()
        guard offset < bytes.count else { return nil }
        if bytes[offset] == UInt8(ascii: ")") {
          offset += 1
          return list
        }
        guard let element = word() else { return nil }
        list.append(element)
        skipSpace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ",") { offset += 1 }
      }
    }

    /// A quoted or unquoted string.
    private mutating func word() -> String? {
      skipSpace()
      guard offset < bytes.count else { return nil }
      if bytes[offset] == UInt8(ascii: "\"") {
        offset += 1
        var text: [UInt8] = []
        while offset < bytes.count {
          let byte = bytes[offset]
          offset += 1
          if byte == UInt8(ascii: "\"") { return String(decoding: text, as: UTF8.self) }
          if byte == UInt8(ascii: "\\"), offset < bytes.count {
            let escaped = bytes[offset]
            offset += 1
            text.append(escaped == UInt8(ascii: "n") ? UInt8(ascii: "\n") : escaped)
            continue
          }
          text.append(byte)
        }
        return nil
      }
      let start = offset
      while offset < bytes.count, Self.isWordByte(bytes[offset]) { offset += 1 }
      guard offset > start else { return nil }
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
    }

    /// Passes over a value of any kind without keeping it.
    private mutating func skipValue(depth: Int) -> Bool {
      guard depth < 256 else { return false }
      skipSpace()
      guard offset < bytes.count else { return false }
      switch bytes[offset] {
      case UInt8(ascii: "{"), UInt8(ascii: "("):
        let close = bytes[offset] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: ")")
        offset += 1
        while true {
          skipSpace()
          guard offset < bytes.count else { return false }
          let byte = bytes[offset]
          if byte == close {
            offset += 1
            return true
          }
          if byte == UInt8(ascii: ";") || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "=") {
            offset += 1
            continue
          }
          guard skipValue(depth: depth + 1) else { return false }
        }
      case UInt8(ascii: "\""):
        offset += 1
        while offset < bytes.count {
          let byte = bytes[offset]
          offset += 1
          if byte == UInt8(ascii: "\"") { return true }
          if byte == UInt8(ascii: "\\") { offset += 1 }
        }
        return false
      default:
        let start = offset
        while offset < bytes.count, Self.isWordByte(bytes[offset]) { offset += 1 }
        return offset > start
      }
    }

    private mutating func expect(_ character: Unicode.Scalar) -> Bool {
      skipSpace()
      guard offset < bytes.count, bytes[offset] == UInt8(ascii: character) else { return false }
      offset += 1
      return true
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"):
        return true
      default:
        return byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte == UInt8(ascii: "+")
          || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".")
          || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte >= 0x80
      }
    }

    /// Spaces, line breaks and `/* … */` / `// …` comments.
    private mutating func skipSpace() {
      while offset < bytes.count {
        let byte = bytes[offset]
        if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
          || byte == UInt8(ascii: "\r")
        {
          offset += 1
        } else if byte == UInt8(ascii: "/"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "*") {
          offset += 2
          while offset + 1 < bytes.count,
            !(bytes[offset] == UInt8(ascii: "*") && bytes[offset + 1] == UInt8(ascii: "/"))
          {
            offset += 1
          }
          offset += 2
        } else if byte == UInt8(ascii: "/"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "/") {
          while offset < bytes.count, bytes[offset] != UInt8(ascii: "\n") { offset += 1 }
        } else {
          return
        }
      }
    }
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
