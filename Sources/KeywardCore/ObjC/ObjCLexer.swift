/// A token of Objective-C (or C, C++) source. Comments are dropped; string and character
/// literals are single tokens, so nothing inside them is ever read as code.
public struct ObjCToken: Sendable, Hashable {
  public enum Kind: Sendable, Hashable { case identifier, number, string, character, punctuation, directive, comment }

  public var kind: Kind
  /// Byte offsets in the file.
  public var start: Int
  public var end: Int
  /// The token's text; for strings, the contents between the quotes.
  public var text: String

  public init(kind: Kind, start: Int, end: Int, text: String) {
    self.kind = kind
    self.start = start
    self.end = end
    self.text = text
  }
}

/// Splits Objective-C source into tokens. It knows comments (`//`, `/* */`), string literals
/// (`"…"`, `@"…"`, `L"…"`, `u8"…"`, C++ raw `R"d(…)d"`), character literals, preprocessor lines
/// (with `\` continuations) and numbers; everything else is an identifier or punctuation.
public struct ObjCLexer {
  let bytes: [UInt8]

  public init(bytes: [UInt8]) { self.bytes = bytes }

  private static let twoByteOperators: Set<[UInt8]> = Set(
    ["<<", ">>", "||", "&&", "->", "::", "==", "!="].map { Array($0.utf8) })

  public func tokens() -> [ObjCToken] { tokens(in: 0..<bytes.count, directives: true) }

  /// The comments of the file, for suppression directives.
  public func comments() -> [ObjCToken] {
    tokens(in: 0..<bytes.count, directives: true, keepComments: true).filter { $0.kind == .comment }
  }

  /// Tokens of a byte range (a `#define` body), with offsets in the whole file.
  public func tokens(in range: Range<Int>, directives: Bool, keepComments: Bool = false) -> [ObjCToken] {
    var result: [ObjCToken] = []
    var index = range.lowerBound
    let end = range.upperBound
    var atLineStart = true
    while index < end {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
        atLineStart = true
        index += 1
        continue
      }
      if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == 0x0C || byte == 0x0B {
        index += 1
        continue
      }
      if byte == UInt8(ascii: "\\"), index + 1 < end,
        bytes[index + 1] == UInt8(ascii: "\n") || bytes[index + 1] == UInt8(ascii: "\r")
      {
        index += 2
        continue
      }
      if byte == UInt8(ascii: "/"), index + 1 < end, bytes[index + 1] == UInt8(ascii: "/") {
        let stop = endOfLine(from: index, limit: end)
        if keepComments { result.append(token(.comment, index, stop)) }
        index = stop
        continue
      }
      if byte == UInt8(ascii: "/"), index + 1 < end, bytes[index + 1] == UInt8(ascii: "*") {
        let stop = endOfBlockComment(from: index + 2, limit: end)
        if keepComments { result.append(token(.comment, index, stop)) }
        index = stop
        continue
      }
      let wasLineStart = atLineStart
      atLineStart = false
      if directives, wasLineStart, byte == UInt8(ascii: "#") {
        let stop = endOfLine(from: index, limit: end)
        result.append(token(.directive, index, stop))
        index = stop
        continue
      }
      if let stop = stringEnd(at: index, limit: end) {
        result.append(stringToken(index, stop))
        index = stop
        continue
      }
      if byte == UInt8(ascii: "'") {
        let stop = quotedEnd(from: index + 1, quote: byte, limit: end)
        result.append(token(.character, index, stop))
        index = stop
        continue
      }
      if isDigit(byte) || (byte == UInt8(ascii: ".") && index + 1 < end && isDigit(bytes[index + 1])) {
        var stop = index + 1
        while stop < end {
          let next = bytes[stop]
          if isIdentifierByte(next) || next == UInt8(ascii: ".") || next == UInt8(ascii: "'") {
            stop += 1
          } else if (next == UInt8(ascii: "+") || next == UInt8(ascii: "-")),
            [UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "p"), UInt8(ascii: "P")].contains(bytes[stop - 1])
          {
            stop += 1
          } else {
            break
          }
        }
        result.append(token(.number, index, stop))
        index = stop
        continue
      }
      if isIdentifierByte(byte) {
        var stop = index + 1
        while stop < end, isIdentifierByte(bytes[stop]) { stop += 1 }
        result.append(token(.identifier, index, stop))
        index = stop
        continue
      }
      // Two-character operators that matter to flag expressions and comparisons; everything
      // else is one byte.
      if index + 1 < end {
        let pair = [byte, bytes[index + 1]]
        if Self.twoByteOperators.contains(pair) {
          result.append(token(.punctuation, index, index + 2))
          index += 2
          continue
        }
      }
      result.append(token(.punctuation, index, index + 1))
      index += 1
    }
    return result
  }

  private func token(_ kind: ObjCToken.Kind, _ start: Int, _ end: Int) -> ObjCToken {
    ObjCToken(kind: kind, start: start, end: end, text: String(decoding: bytes[start..<end], as: UTF8.self))
  }

  /// A string literal token; its text is the contents, without prefix and quotes.
  private func stringToken(_ start: Int, _ end: Int) -> ObjCToken {
    var open = start
    while open < end, bytes[open] != UInt8(ascii: "\"") { open += 1 }
    let close = max(open + 1, end - 1)
    let contents =
      open + 1 <= close && close <= bytes.count ? String(decoding: bytes[(open + 1)..<close], as: UTF8.self) : ""
    return ObjCToken(kind: .string, start: start, end: end, text: contents)
  }

  /// The end of a string literal starting at `index` (with any prefix), or nil if none starts there.
  private func stringEnd(at index: Int, limit: Int) -> Int? {
    var quote = index
    var isRaw = false
    while quote < limit, quote - index < 3 {
      let byte = bytes[quote]
      if byte == UInt8(ascii: "\"") { break }
      guard
        [
          UInt8(ascii: "@"), UInt8(ascii: "L"), UInt8(ascii: "u"), UInt8(ascii: "U"), UInt8(ascii: "8"),
          UInt8(ascii: "R"),
        ]
        .contains(byte)
      else { return nil }
      if byte == UInt8(ascii: "R") { isRaw = true }
      quote += 1
    }
    guard quote < limit, bytes[quote] == UInt8(ascii: "\"") else { return nil }
    // A prefix must not be the tail of an identifier (`FOOL"x"` is not a wide string).
    if quote > index, index > 0, isIdentifierByte(bytes[index - 1]) { return nil }
    if isRaw { return rawStringEnd(from: quote + 1, limit: limit) }
    return quotedEnd(from: quote + 1, quote: UInt8(ascii: "\""), limit: limit)
  }

  private func quotedEnd(from start: Int, quote: UInt8, limit: Int) -> Int {
    var index = start
    while index < limit {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\\") {
        index += 2
        continue
      }
      if byte == quote { return index + 1 }
      // An unterminated literal ends at the line break.
      if byte == UInt8(ascii: "\n") { return index }
      index += 1
    }
    return limit
  }

  /// `R"delimiter( ... )delimiter"`.
  private func rawStringEnd(from start: Int, limit: Int) -> Int {
    var open = start
    while open < limit, bytes[open] != UInt8(ascii: "(") { open += 1 }
    let closing = [UInt8(ascii: ")")] + Array(bytes[start..<min(open, limit)]) + [UInt8(ascii: "\"")]
    var index = open + 1
    while index + closing.count <= limit {
      if Array(bytes[index..<(index + closing.count)]) == closing { return index + closing.count }
      index += 1
    }
    return limit
  }

  private func endOfLine(from start: Int, limit: Int) -> Int {
    var index = start
    while index < limit {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\\"), index + 1 < limit,
        bytes[index + 1] == UInt8(ascii: "\n") || bytes[index + 1] == UInt8(ascii: "\r")
      {
        index += 2
        continue
      }
      if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { return index }
      index += 1
    }
    return limit
  }

  private func endOfBlockComment(from start: Int, limit: Int) -> Int {
    var index = start
    while index + 1 < limit {
      if bytes[index] == UInt8(ascii: "*"), bytes[index + 1] == UInt8(ascii: "/") { return index + 2 }
      index += 1
    }
    return limit
  }

  private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

  private func isIdentifierByte(_ byte: UInt8) -> Bool {
    isDigit(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
      || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || byte == UInt8(ascii: "_")
      || byte == UInt8(ascii: "$") || byte >= 0x80
  }
}
