import Foundation

/// The source files an Xcode project compiles, read from its `project.pbxproj`: the files its
/// targets' build phases name, and the folders it keeps in sync with the disk (Xcode 16's
/// synchronized groups), whose every file it builds. A source file in the project's folder that
/// none of its projects compiles ships in no app (a file left behind when another replaced it).
public struct XcodeProjectMembership: Sendable {
  /// Absolute paths of the files some target builds.
  private(set) var builtFiles: Set<String> = []
  /// Absolute paths of folders whose every file some target builds.
  private(set) var builtFolders: [String] = []

  /// `path` made absolute and standardized, as the project's paths are.
  static func standardized(_ path: String) -> String {
    let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    return (absolute as NSString).standardizingPath
  }

  /// Whether the project builds the file at `path` (absolute, standardized).
  public func builds(_ path: String) -> Bool {
    builtFiles.contains(path) || builtFolders.contains { path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
  }

  /// The membership of the project at `projectFolder` (`App.xcodeproj`), or nil when its
  /// `project.pbxproj` cannot be read or understood: then nothing is judged.
  public static func read(projectFolder: String) -> XcodeProjectMembership? {
    let path = (projectFolder as NSString).appendingPathComponent("project.pbxproj")
    guard let bytes = try? FileBytes.read(path), bytes.count < 64 << 20,
      case .dictionary(let root)? = OldStylePropertyList.parse(bytes),
      case .dictionary(let objects)? = root["objects"], case .string(let projectID)? = root["rootObject"],
      case .dictionary(let project)? = objects[projectID], case .string(let mainGroup)? = project["mainGroup"]
    else { return nil }
    let sourceRoot = (standardized(projectFolder) as NSString).deletingLastPathComponent
    var resolver = PathResolver(objects: objects, sourceRoot: sourceRoot)
    resolver.walk(mainGroup, under: sourceRoot, depth: 0)
    var membership = XcodeProjectMembership()
    membership.builtFolders = resolver.synchronizedFolders
    for case .dictionary(let object) in objects.values {
      guard object["isa"] == .string("PBXBuildFile"), case .string(let reference)? = object["fileRef"],
        let file = resolver.paths[reference]
      else { continue }
      membership.builtFiles.insert(file)
    }
    return membership
  }

  /// Works out each file reference's path from the group tree (`sourceTree` `<group>` is the
  /// enclosing group's folder, `SOURCE_ROOT` the project's folder).
  private struct PathResolver {
    let objects: [String: OldStylePropertyList]
    let sourceRoot: String
    var paths: [String: String] = [:]
    var synchronizedFolders: [String] = []

    mutating func walk(_ id: String, under parent: String, depth: Int) {
      guard depth < 64, case .dictionary(let object)? = objects[id], case .string(let isa)? = object["isa"],
        let own = resolve(object, parent: parent)
      else { return }
      switch isa {
      case "PBXGroup", "PBXVariantGroup", "XCVersionGroup":
        guard case .array(let children)? = object["children"] else { return }
        for case .string(let child) in children { walk(child, under: own, depth: depth + 1) }
      case "PBXFileSystemSynchronizedRootGroup":
        synchronizedFolders.append(own)
      case "PBXFileReference":
        paths[id] = own
      default:
        return
      }
    }

    private func resolve(_ object: [String: OldStylePropertyList], parent: String) -> String? {
      let path: String? = if case .string(let value)? = object["path"] { value } else { nil }
      let tree: String = if case .string(let value)? = object["sourceTree"] { value } else { "<group>" }
      let base: String
      switch tree {
      case "<group>": base = parent
      case "SOURCE_ROOT": base = sourceRoot
      case "<absolute>": base = "/"
      default: return nil
      }
      guard let path else { return base }
      return ((base as NSString).appendingPathComponent(path) as NSString).standardizingPath
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

/// An old-style (OpenStep) property list, as `project.pbxproj` is written: dictionaries
/// `{ key = value; }`, arrays `( a, b, )` and strings, quoted or not.
enum OldStylePropertyList: Sendable, Equatable {
  case string(String)
  case array([OldStylePropertyList])
  case dictionary([String: OldStylePropertyList])

  /// The value the bytes hold, or nil when they are not a property list this reads.
  static func parse(_ bytes: [UInt8]) -> OldStylePropertyList? {
    var parser = Parser(bytes: bytes)
    return parser.value(depth: 0)
  }

  private struct Parser {
    let bytes: [UInt8]
    var offset = 0

    mutating func value(depth: Int) -> OldStylePropertyList? {
      guard depth < 256 else { return nil }
      skipSpaceAndComments()
      guard offset < bytes.count else { return nil }
      switch bytes[offset] {
      case UInt8(ascii: "{"):
        offset += 1
        var entries: [String: OldStylePropertyList] = [:]
        while true {
          skipSpaceAndComments()
          guard offset < bytes.count else { return nil }
          if bytes[offset] == UInt8(ascii: "}") {
            offset += 1
            return .dictionary(entries)
          }
          guard case .string(let key)? = value(depth: depth + 1), expect("="),
            let entry = value(depth: depth + 1), expect(";")
          else { return nil }
          entries[key] = entry
        }
      case UInt8(ascii: "("):
        offset += 1
        var elements: [OldStylePropertyList] = []
        while true {
          skipSpaceAndComments()
          guard offset < bytes.count else { return nil }
          if bytes[offset] == UInt8(ascii: ")") {
            offset += 1
            return .array(elements)
          }
          guard let element = value(depth: depth + 1) else { return nil }
          elements.append(element)
          skipSpaceAndComments()
          if offset < bytes.count, bytes[offset] == UInt8(ascii: ",") { offset += 1 }
        }
      case UInt8(ascii: "\""):
        return quoted()
      default:
        return unquoted()
      }
    }

    private mutating func expect(_ character: Unicode.Scalar) -> Bool {
      skipSpaceAndComments()
      guard offset < bytes.count, bytes[offset] == UInt8(ascii: character) else { return false }
      offset += 1
      return true
    }

    private mutating func quoted() -> OldStylePropertyList? {
      offset += 1
      var text: [UInt8] = []
      while offset < bytes.count {
        let byte = bytes[offset]
        offset += 1
        if byte == UInt8(ascii: "\"") { return .string(String(decoding: text, as: UTF8.self)) }
        if byte == UInt8(ascii: "\\"), offset < bytes.count {
          let escaped = bytes[offset]
          offset += 1
          switch escaped {
          case UInt8(ascii: "n"): text.append(UInt8(ascii: "\n"))
          case UInt8(ascii: "t"): text.append(UInt8(ascii: "\t"))
          default: text.append(escaped)
          }
          continue
        }
        text.append(byte)
      }
      return nil
    }

    private mutating func unquoted() -> OldStylePropertyList? {
      let start = offset
      while offset < bytes.count, Self.isWordByte(bytes[offset]) { offset += 1 }
      guard offset > start else { return nil }
      return .string(String(decoding: bytes[start..<offset], as: UTF8.self))
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"):
        return true
      default:
        return "_$+/:.-<>".utf8.contains(byte) || byte >= 0x80
      }
    }

    private mutating func skipSpaceAndComments() {
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
