/// A file's bytes with the table of line starts, for turning byte offsets into the positions
/// people and tools read. Line breaks are `\n`, `\r\n` and a lone `\r`.
public struct SourceText: Sendable {
  public let bytes: [UInt8]
  public let lineStarts: [Int]

  public init(bytes: [UInt8]) {
    self.bytes = bytes
    var starts = [0]
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\n") {
        starts.append(index + 1)
      } else if byte == UInt8(ascii: "\r") {
        if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") { index += 1 }
        starts.append(index + 1)
      }
      index += 1
    }
    self.lineStarts = starts
  }

  public var hasByteOrderMark: Bool { bytes.starts(with: [0xEF, 0xBB, 0xBF]) }

  /// The 0-based index of the line holding `offset`.
  public func lineIndex(of offset: Int) -> Int {
    var low = 0
    var high = lineStarts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
    }
    return low
  }

  public func position(of offset: Int) -> SourcePosition {
    let clamped = max(0, min(offset, bytes.count))
    let line = lineIndex(of: clamped)
    // A byte-order mark is invisible in editors: columns on the first line start after it.
    let start = line == 0 && hasByteOrderMark ? min(3, clamped) : lineStarts[line]
    var utf16 = 0
    for byte in bytes[start..<clamped] {
      // Lead bytes start a scalar; scalars of four bytes take two UTF-16 units.
      if byte & 0xC0 != 0x80 { utf16 += byte >= 0xF0 ? 2 : 1 }
    }
    return SourcePosition(line: line + 1, column: clamped - start + 1, utf16Column: utf16 + 1, offset: clamped)
  }

  /// The text of the 0-based line `index`, without its line break.
  public func lineText(_ index: Int) -> String {
    guard index < lineStarts.count else { return "" }
    let start = index == 0 && hasByteOrderMark ? min(3, bytes.count) : lineStarts[index]
    var end = index + 1 < lineStarts.count ? lineStarts[index + 1] : bytes.count
    while end > start, bytes[end - 1] == UInt8(ascii: "\n") || bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
    return String(decoding: bytes[start..<end], as: UTF8.self)
  }

  public func text(from start: Int, to end: Int) -> String {
    let lower = max(0, min(start, bytes.count))
    let upper = max(lower, min(end, bytes.count))
    return String(decoding: bytes[lower..<upper], as: UTF8.self)
  }

  /// Whether the bytes look like binary data rather than text: a NUL in the first 8 KiB.
  public static func looksBinary(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { buffer in
      let limit = min(8192, buffer.count)
      var index = 0
      // Eight bytes at a time: a word holds a zero byte when this classic bit trick says so.
      while index + 8 <= limit {
        let word = buffer.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        if (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 != 0 { return true }
        index += 8
      }
      return buffer[index..<limit].contains(0)
    }
  }

  /// Whether the bytes are a file git-crypt keeps encrypted in a locked checkout (it starts with
  /// `\0GITCRYPT\0`).
  public static func isGitCryptEncrypted(_ bytes: [UInt8]) -> Bool {
    bytes.starts(with: [0] + Array("GITCRYPT".utf8) + [0])
  }

  /// The offset of the first byte that is not part of well-formed UTF-8, if any.
  public static func firstInvalidUTF8Offset(_ bytes: [UInt8]) -> Int? {
    bytes.withUnsafeBytes { firstInvalidUTF8Offset(in: $0) }
  }

  /// The bytes with every byte that is not part of well-formed UTF-8 replaced by `?`, one for
  /// one, so offsets stay those of the file (a Latin-1 `©` in an old header comment), with how
  /// many were replaced and where the first was; nil when the bytes are valid UTF-8.
  public static func replacingInvalidUTF8(_ bytes: [UInt8]) -> (bytes: [UInt8], replaced: Int, first: Int)? {
    guard let first = firstInvalidUTF8Offset(bytes) else { return nil }
    var repaired = bytes
    var replaced = 0
    var index = first
    while index < repaired.count {
      let invalid = repaired.withUnsafeBytes { buffer in
        firstInvalidUTF8Offset(in: UnsafeRawBufferPointer(rebasing: buffer[index...]))
      }
      guard let offset = invalid else { break }
      repaired[index + offset] = UInt8(ascii: "?")
      replaced += 1
      index += offset + 1
    }
    return (repaired, replaced, first)
  }

  private static func firstInvalidUTF8Offset(in bytes: UnsafeRawBufferPointer) -> Int? {
    var index = 0
    let count = bytes.count
    while index < count {
      // Source code is mostly ASCII: skip eight bytes at a time while no high bit is set.
      if index + 8 <= count,
        bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
      {
        index += 8
        continue
      }
      let lead = bytes[index]
      if lead < 0x80 {
        index += 1
        continue
      }
      let length: Int
      var minimum: UInt32
      var scalar: UInt32
      switch lead {
      case 0xC2...0xDF: (length, minimum, scalar) = (2, 0x80, UInt32(lead & 0x1F))
      case 0xE0...0xEF: (length, minimum, scalar) = (3, 0x800, UInt32(lead & 0x0F))
      case 0xF0...0xF4: (length, minimum, scalar) = (4, 0x10000, UInt32(lead & 0x07))
      default: return index
      }
      guard index + length <= count else { return index }
      for continuation in bytes[(index + 1)..<(index + length)] {
        guard continuation & 0xC0 == 0x80 else { return index }
        scalar = scalar << 6 | UInt32(continuation & 0x3F)
      }
      if scalar < minimum || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) { return index }
      minimum = 0
      index += length
    }
    return nil
  }
}
