/// A JSON document built in code and printed with sorted keys and two-space indentation, so
/// output is byte-identical from run to run. Printing is done here rather than by Foundation's
/// encoder, which is slow on large reports and keeps the whole document in memory twice.
public indirect enum JSONValue: Equatable, Sendable {
  case object([String: JSONValue])
  case array([JSONValue])
  case string(String)
  case int(Int)
  case bool(Bool)
  case null
  /// JSON already printed at the indentation where it will stand (see `rendered(indent:)`).
  case raw(String)

  /// The document as text, ending with a line break.
  public func rendered() -> String {
    var out = ""
    write(into: &out, indent: 0)
    return out + "\n"
  }

  /// The value printed as it stands at `indent` spaces inside a larger document.
  public func rendered(indent: Int) -> String {
    var out = ""
    write(into: &out, indent: indent)
    return out
  }

  private func write(into out: inout String, indent: Int) {
    switch self {
    case .object(let members):
      guard !members.isEmpty else { return out += "{}" }
      out += "{\n"
      let keys = members.keys.sorted()
      for (position, key) in keys.enumerated() {
        out += String(repeating: " ", count: indent + 2)
        Self.writeString(key, into: &out)
        out += ": "
        members[key]!.write(into: &out, indent: indent + 2)
        out += position + 1 < keys.count ? ",\n" : "\n"
      }
      out += String(repeating: " ", count: indent) + "}"
    case .array(let items):
      guard !items.isEmpty else { return out += "[]" }
      out += "[\n"
      for (position, item) in items.enumerated() {
        out += String(repeating: " ", count: indent + 2)
        item.write(into: &out, indent: indent + 2)
        out += position + 1 < items.count ? ",\n" : "\n"
      }
      out += String(repeating: " ", count: indent) + "]"
    case .string(let text): Self.writeString(text, into: &out)
    case .int(let number): out += String(number)
    case .bool(let flag): out += flag ? "true" : "false"
    case .null: out += "null"
    case .raw(let text): out += text
    }
  }

  static func writeString(_ text: String, into out: inout String) {
    out += "\""
    var plainStart = text.unicodeScalars.startIndex
    var index = plainStart
    let scalars = text.unicodeScalars
    while index < scalars.endIndex {
      let scalar = scalars[index]
      let escape: String? =
        switch scalar {
        case "\"": "\\\""
        case "\\": "\\\\"
        case "\n": "\\n"
        case "\r": "\\r"
        case "\t": "\\t"
        default:
          scalar.value < 0x20
            ? "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
              + String(scalar.value, radix: 16) : nil
        }
      if let escape {
        out.unicodeScalars.append(contentsOf: scalars[plainStart..<index])
        out += escape
        plainStart = scalars.index(after: index)
      }
      index = scalars.index(after: index)
    }
    out.unicodeScalars.append(contentsOf: scalars[plainStart..<scalars.endIndex])
    out += "\""
  }
}
