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
    // Most strings need no escaping: append them whole.
    guard needsEscaping(text) else {
      out += "\""
      out += text
      out += "\""
      return
    }
    var bytes: [UInt8] = []
    writeString(text, into: &bytes)
    out += String(decoding: bytes, as: UTF8.self)
  }

  static func needsEscaping(_ text: String) -> Bool {
    let special = { (byte: UInt8) in byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") }
    // Native strings are contiguous UTF-8; reading the buffer is several times faster than
    // iterating the view, and reports escape-check every string they print.
    return text.utf8.withContiguousStorageIfAvailable { $0.contains(where: special) }
      ?? text.utf8.contains(where: special)
  }

  static func writeString(_ text: String, into bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "\""))
    guard needsEscaping(text) else {
      bytes.append(contentsOf: text.utf8)
      bytes.append(UInt8(ascii: "\""))
      return
    }
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): bytes += Array("\\\"".utf8)
      case UInt8(ascii: "\\"): bytes += Array("\\\\".utf8)
      case UInt8(ascii: "\n"): bytes += Array("\\n".utf8)
      case UInt8(ascii: "\r"): bytes += Array("\\r".utf8)
      case UInt8(ascii: "\t"): bytes += Array("\\t".utf8)
      case 0..<0x20:
        let hex = String(byte, radix: 16)
        bytes += Array(("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
      default: bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }
}
