/// Input that the Swift parser cannot handle in reasonable time. swift-syntax 603's lookahead
/// for inline array types takes time exponential in a run of consecutive `[` (20 take 0.3 s, 25
/// take 10 s, 10,000 overflow the stack), so a file with a longer run than any real code has is
/// reported and not parsed. Comments and string literals are skipped: a `[[[[` there is harmless.
public enum ParserHazards {
  public static let maximumBracketRun = 16

  /// The byte offset where a too-long run of `[` starts, if the file has one.
  public static func excessiveBracketRun(in bytes: [UInt8]) -> Int? {
    var index = 0
    var runLength = 0
    var runStart = 0
    let count = bytes.count
    func at(_ offset: Int) -> UInt8? { offset < count ? bytes[offset] : nil }
    while index < count {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "["):
        if runLength == 0 { runStart = index }
        runLength += 1
        if runLength > maximumBracketRun { return runStart }
        index += 1
        continue
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
        index += 1
        continue
      case UInt8(ascii: "/") where at(index + 1) == UInt8(ascii: "/"):
        while index < count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
      case UInt8(ascii: "/") where at(index + 1) == UInt8(ascii: "*"):
        var depth = 0
        while index < count {
          if bytes[index] == UInt8(ascii: "/") && at(index + 1) == UInt8(ascii: "*") {
            depth += 1
            index += 2
          } else if bytes[index] == UInt8(ascii: "*") && at(index + 1) == UInt8(ascii: "/") {
            depth -= 1
            index += 2
            if depth == 0 { break }
          } else {
            index += 1
          }
        }
      case UInt8(ascii: "\""):
        let multiline = at(index + 1) == UInt8(ascii: "\"") && at(index + 2) == UInt8(ascii: "\"")
        index += multiline ? 3 : 1
        while index < count {
          let current = bytes[index]
          if current == UInt8(ascii: "\\") {
            index += 2
            continue
          }
          if current == UInt8(ascii: "\"") {
            if !multiline {
              index += 1
              break
            }
            if at(index + 1) == UInt8(ascii: "\"") && at(index + 2) == UInt8(ascii: "\"") {
              index += 3
              break
            }
          }
          if current == UInt8(ascii: "\n") && !multiline { break }
          index += 1
        }
      default:
        index += 1
      }
      runLength = 0
    }
    return nil
  }
}
