/// Finds which of many byte strings occur in a buffer, in one pass that skips most bytes
/// (Wu–Manber with two-byte blocks): a table says, for the two bytes ending a window as long as
/// the shortest token, how far the window can move before a token could end there; only where it
/// cannot move are tokens compared. The per-rule prefilters of a scan share one search, so each
/// file is read once whatever the number of rules and tokens.
public struct TokenSearch: Sendable {
  public let tokens: [[UInt8]]
  /// The length of the shortest token of two bytes or more: the window.
  private let window: Int
  /// For each two-byte block (first byte * 256 + second), how far the window may move when the
  /// block ends it. At most `window - 1`, which fits a byte only up to 256: longer windows are cut.
  private let shift: [UInt8]
  /// For each block, the tokens whose first `window` bytes end with it.
  private let candidates: [[Int]]
  /// Tokens of one byte, found by a plain search.
  private let singleBytes: [(index: Int, byte: UInt8)]

  public init(tokens: [String]) {
    self.init(tokens: tokens.map { Array($0.utf8) })
  }

  public init(tokens: [[UInt8]]) {
    self.tokens = Array(Set(tokens.filter { !$0.isEmpty })).sorted { $0.lexicographicallyPrecedes($1) }
    let long = self.tokens.enumerated().filter { $0.element.count >= 2 }
    let window = min(long.map(\.element.count).min() ?? 2, 256)
    var shift = [UInt8](repeating: UInt8(window - 1), count: 65536)
    var candidates = [[Int]](repeating: [], count: 65536)
    for (index, token) in long {
      for end in 1..<window {
        let block = Int(token[end - 1]) << 8 | Int(token[end])
        shift[block] = min(shift[block], UInt8(window - 1 - end))
      }
      candidates[Int(token[window - 2]) << 8 | Int(token[window - 1])].append(index)
    }
    self.window = window
    self.shift = shift
    self.candidates = candidates
    self.singleBytes = self.tokens.enumerated().filter { $0.element.count == 1 }.map { ($0.offset, $0.element[0]) }
  }

  /// The indices (into `tokens`) of the tokens found in `bytes`.
  public func found(in bytes: [UInt8]) -> Set<Int> {
    var result = Set<Int>()
    for (index, byte) in singleBytes where bytes.contains(byte) { result.insert(index) }
    let count = bytes.count
    guard count >= window else { return result }
    bytes.withUnsafeBufferPointer { buffer in
      shift.withUnsafeBufferPointer { shift in
        var end = window - 1
        while end < count {
          let block = Int(buffer[end - 1]) << 8 | Int(buffer[end])
          let distance = Int(shift[block])
          if distance > 0 {
            end += distance
            continue
          }
          let start = end - (window - 1)
          for candidate in candidates[block] where !result.contains(candidate) {
            let token = tokens[candidate]
            if start + token.count <= count && matches(token, buffer, at: start) { result.insert(candidate) }
          }
          end += 1
        }
      }
    }
    return result
  }

  private func matches(_ token: [UInt8], _ buffer: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
    var offset = 0
    while offset < token.count {
      if buffer[start + offset] != token[offset] { return false }
      offset += 1
    }
    return true
  }
}
