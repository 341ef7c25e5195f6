import Foundation

/// Finds which of many byte strings occur in a buffer, in one pass that skips most bytes
/// (Wu–Manber with two-byte blocks): a table says, for the two bytes ending a window as long as
/// the shortest token, how far the window can move before a token could end there; only where it
/// cannot move are tokens compared. The tables are indexed by a 12-bit hash of the block (a
/// slot), which keeps them in the processor's first-level cache (a table per block, 64 KiB, was
/// not, and its reads were most of the search); blocks that share a slot share the smaller
/// shift, which on source code costs about 1% more steps. The per-rule prefilters of a scan
/// share one search, so each file is read once whatever the number of rules and tokens.
public struct TokenSearch: Sendable {
  public let tokens: [[UInt8]]
  /// The length of the shortest token of two bytes or more: the window.
  private let window: Int
  /// For each slot of two-byte blocks (`slot(_:_:)`), how far the window may move when a block
  /// of the slot ends it. At most `window - 1`, which fits a byte only up to 256: longer windows
  /// are cut.
  private let shift: [UInt8]
  /// For each slot, the tokens whose first `window` bytes end with a block of it: the indices
  /// `candidates[candidateStarts[slot] ..< candidateStarts[slot + 1]]`. Flat tables, so that
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
    var shift = [UInt8](repeating: UInt8(window - 1), count: Self.slots)
    // Counted, then summed into where each slot's candidates start, then filled in token order:
    // no list per slot (a scan builds this once, but even a small scan pays for it).
    var starts = [Int32](repeating: 0, count: Self.slots + 1)
    func lastSlot(_ token: [UInt8]) -> Int { Self.slot(token[window - 2], token[window - 1]) }
    for (_, token) in long {
      for end in 1..<window {
        let slot = Self.slot(token[end - 1], token[end])
        shift[slot] = min(shift[slot], UInt8(window - 1 - end))
      }
      starts[lastSlot(token) + 1] += 1
    }
    for slot in 1...Self.slots { starts[slot] += starts[slot - 1] }
    var next = starts
    var candidates = [Int32](repeating: 0, count: long.count)
    for (index, token) in long {
      let slot = lastSlot(token)
      candidates[Int(next[slot])] = Int32(index)
      next[slot] += 1
    }
    self.window = window
    self.shift = shift
    self.candidateStarts = starts
    self.candidates = candidates
    self.tokenBytes = self.tokens.flatMap { $0 }
    self.tokenStarts = self.tokens.reduce(into: [0]) { $0.append($0.last! + $1.count) }
    self.singleBytes = self.tokens.enumerated().filter { $0.element.count == 1 }.map { ($0.offset, $0.element[0]) }
  }

  private static let slots = 4096

  /// The shift table's slot for the block of bytes `first`, `second`.
  @inline(__always)
  private static func slot(_ first: UInt8, _ second: UInt8) -> Int { (Int(first) << 6 ^ Int(second)) & (slots - 1) }

  /// The indices (into `tokens`) of the tokens found in `bytes`.
  public func found(in bytes: [UInt8]) -> Set<Int> { search(bytes, stoppingAtFirst: false) }

  /// Whether any token occurs in `bytes`; the search ends at the first one found.
  public func containsAny(in bytes: [UInt8]) -> Bool { !search(bytes, stoppingAtFirst: true).isEmpty }

  private func search(_ bytes: [UInt8], stoppingAtFirst: Bool) -> Set<Int> {
    var result = Set<Int>()
    for (index, byte) in singleBytes where bytes.contains(byte) {
      result.insert(index)
      if stoppingAtFirst { return result }
    }
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
                  /// Compares the tokens that may start where a window ending at `end` starts;
                  /// true when the search is to stop.
                  @inline(__always)
                  func compare(endingAt end: Int, slot: Int) -> Bool {
                    let start = end &- (window &- 1)
                    for position in Int(starts[slot])..<Int(starts[slot &+ 1]) {
                      let candidate = Int(candidates[position])
                      guard !seen[candidate] else { continue }
                      let tokenStart = tokenStarts[candidate]
                      let length = tokenStarts[candidate &+ 1] &- tokenStart
                      guard start &+ length <= count else { continue }
                      var offset = 0
                      while offset < length && buffer[start &+ offset] == tokenBytes[tokenStart &+ offset] {
                        offset &+= 1
                      }
                      if offset == length {
                        seen[candidate] = true
                        if stoppingAtFirst { return true }
                      }
                    }
                    return false
                  }
                  /// Moves the window ending at `end` on by one step; true when the search is to stop.
                  @inline(__always)
                  func step(_ end: inout Int) -> Bool {
                    let slot = Self.slot(buffer[end &- 1], buffer[end])
                    let distance = Int(shift[slot])
                    if distance > 0 {
                      end &+= distance
                      return false
                    }
                    let stops = compare(endingAt: end, slot: slot)
                    end &+= 1
                    return stops
                  }
                  // Two windows move through the two halves at once: each step waits on the
                  // table read of the one before, and two chains of reads overlap where one
                  // could not. Every token start has one window end, in one half.
                  var first = window - 1
                  var second = max(count / 2, first)
                  let middle = second
                  while first < middle && second < count {
                    if step(&first) || step(&second) { return }
                  }
                  while first < middle { if step(&first) { return } }
                  while second < count { if step(&second) { return } }
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
