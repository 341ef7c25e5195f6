/// A malformed or truncated binary, with what was wrong.
public struct BinaryFormatError: Error, CustomStringConvertible, Sendable {
  public var description: String
  public init(_ description: String) { self.description = description }
}

/// Bounds-checked reads from a byte array: every read of a hostile file either succeeds inside
/// the bytes or throws, never traps.
struct ByteView {
  let bytes: [UInt8]
  /// Where this view starts in `bytes` (a slice of a universal file).
  let base: Int
  let count: Int

  init(_ bytes: [UInt8], base: Int = 0, count: Int? = nil) {
    self.bytes = bytes
    self.base = base
    self.count = count ?? (bytes.count - base)
  }

  func check(_ offset: Int, _ length: Int, _ what: String) throws(BinaryFormatError) {
    guard offset >= 0, length >= 0, offset <= count, length <= count - offset else {
      throw BinaryFormatError("truncated: \(what) at byte \(offset) runs past the end (\(count) bytes)")
    }
  }

  func u32(_ offset: Int, bigEndian: Bool = false, _ what: String = "a field") throws(BinaryFormatError) -> UInt32 {
    try check(offset, 4, what)
    var value: UInt32 = 0
    for index in 0..<4 {
      let byte = UInt32(bytes[base + offset + (bigEndian ? index : 3 - index)])
      value = value << 8 | byte
    }
    return value
  }

  func u64(_ offset: Int, _ what: String = "a field") throws(BinaryFormatError) -> UInt64 {
    let low = try u32(offset, bigEndian: false, what)
    let high = try u32(offset + 4, bigEndian: false, what)
    return UInt64(high) << 32 | UInt64(low)
  }

  func u16(_ offset: Int) throws(BinaryFormatError) -> UInt16 {
    try check(offset, 2, "a field")
    return UInt16(bytes[base + offset]) | UInt16(bytes[base + offset + 1]) << 8
  }

  func u8(_ offset: Int) throws(BinaryFormatError) -> UInt8 {
    try check(offset, 1, "a field")
    return bytes[base + offset]
  }

  /// A NUL-terminated string starting at `offset`, at most `limit` bytes, ending early at the
  /// view's end.
  func cString(_ offset: Int, limit: Int = 4096) -> String? {
    guard offset >= 0, offset < count else { return nil }
    let end = min(count, offset + limit)
    var cursor = offset
    while cursor < end && bytes[base + cursor] != 0 { cursor += 1 }
    return String(decoding: bytes[(base + offset)..<(base + cursor)], as: UTF8.self)
  }

  /// A fixed 16-byte name field (segment and section names).
  func fixedName(_ offset: Int) throws(BinaryFormatError) -> String {
    try check(offset, 16, "a name")
    let field = bytes[(base + offset)..<(base + offset + 16)]
    return String(decoding: field.prefix { $0 != 0 }, as: UTF8.self)
  }

  func slice(_ offset: Int, _ length: Int) throws(BinaryFormatError) -> ArraySlice<UInt8> {
    try check(offset, length, "a section")
    return bytes[(base + offset)..<(base + offset + length)]
  }
}
