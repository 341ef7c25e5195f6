import Foundation

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
        guard let closed = closes("}") else { return nil }
        if closed { break }
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
      // One kept object (a file, its build entry, a group) per 250 to 350 bytes of a project:
      // growing the table from empty rehashed it a dozen times.
      objects.reserveCapacity(bytes.count / 256)
      while true {
        guard let closed = closes("}") else { return nil }
        if closed { return objects }
        guard let id = word(), expect("="), expect("{") else { return nil }
        var object = Object()
        while true {
          guard let closed = closes("}") else { return nil }
          if closed { break }
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
      guard let range = unquoted() else { return nil }
      let start = range.lowerBound
      let length = range.count
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
        guard let closed = closes(")") else { return nil }
        if closed { return list }
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
      guard let range = unquoted() else { return nil }
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// The bytes of an unquoted string, passed over; nil when none starts here.
    private mutating func unquoted() -> Range<Int>? {
      let start = offset
      while offset < bytes.count, Self.isWordByte(bytes[offset]) { offset += 1 }
      return offset > start ? start..<offset : nil
    }

    /// Whether the next byte closes the dictionary or list being read (`}`, `)`), passing over
    /// it; nil at the end of the bytes, which a complete project file never reaches there.
    private mutating func closes(_ closer: Unicode.Scalar) -> Bool? {
      skipSpace()
      guard offset < bytes.count else { return nil }
      guard bytes[offset] == UInt8(ascii: closer) else { return false }
      offset += 1
      return true
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
        return unquoted() != nil
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
