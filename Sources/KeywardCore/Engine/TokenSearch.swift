import Foundation

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
  /// For each block, the tokens whose first `window` bytes end with it: the indices
  /// `candidates[candidateStarts[block] ..< candidateStarts[block + 1]]`. Flat tables, so that
  /// the search loop touches no array that would be retained and released at every match.
  private let candidateStarts: [Int32]
  private let candidates: [Int32]
  /// Every token's bytes one after another; token `i` is `tokenBytes[tokenStarts[i] ..<
  /// tokenStarts[i + 1]]`.
  private let tokenBytes: [UInt8]
  private let tokenStarts: [Int]
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
    var byBlock = [[Int32]](repeating: [], count: 65536)
    for (index, token) in long {
      for end in 1..<window {
        let block = Int(token[end - 1]) << 8 | Int(token[end])
        shift[block] = min(shift[block], UInt8(window - 1 - end))
      }
      byBlock[Int(token[window - 2]) << 8 | Int(token[window - 1])].append(Int32(index))
    }
    self.window = window
    self.shift = shift
    var starts: [Int32] = [0]
    starts.reserveCapacity(65537)
    for list in byBlock { starts.append(starts.last! + Int32(list.count)) }
    self.candidateStarts = starts
    self.candidates = byBlock.flatMap { $0 }
    self.tokenBytes = self.tokens.flatMap { $0 }
    self.tokenStarts = self.tokens.reduce(into: [0]) { $0.append($0.last! + $1.count) }
    self.singleBytes = self.tokens.enumerated().filter { $0.element.count == 1 }.map { ($0.offset, $0.element[0]) }
  }

  /// The indices (into `tokens`) of the tokens found in `bytes`.
  public func found(in bytes: [UInt8]) -> Set<Int> {
    var result = Set<Int>()
    for (index, byte) in singleBytes where bytes.contains(byte) { result.insert(index) }
    let count = bytes.count
    guard count >= window else { return result }
    let window = self.window
    withUnsafeTemporaryAllocation(of: Bool.self, capacity: tokens.count) { seen in
      seen.initialize(repeating: false)
      bytes.withUnsafeBufferPointer { buffer in
        shift.withUnsafeBufferPointer { shift in
          candidateStarts.withUnsafeBufferPointer { starts in
            candidates.withUnsafeBufferPointer { candidates in
              tokenBytes.withUnsafeBufferPointer { tokenBytes in
                tokenStarts.withUnsafeBufferPointer { tokenStarts in
                  var end = window - 1
                  while end < count {
                    let block = Int(buffer[end - 1]) << 8 | Int(buffer[end])
                    let distance = Int(shift[block])
                    if distance > 0 {
                      end += distance
                      continue
                    }
                    let start = end - (window - 1)
                    for slot in Int(starts[block])..<Int(starts[block + 1]) {
                      let candidate = Int(candidates[slot])
                      guard !seen[candidate] else { continue }
                      let tokenStart = tokenStarts[candidate]
                      let length = tokenStarts[candidate + 1] - tokenStart
                      guard start &+ length <= count else { continue }
                      var offset = 0
                      while offset < length && buffer[start &+ offset] == tokenBytes[tokenStart &+ offset] {
                        offset &+= 1
                      }
                      if offset == length { seen[candidate] = true }
                    }
                    end += 1
                  }
                }
              }
            }
          }
        }
      }
      for index in seen.indices where seen[index] { result.insert(index) }
    }
    return result
  }
}
