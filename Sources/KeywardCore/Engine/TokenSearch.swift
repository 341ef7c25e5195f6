/// Finds which of many byte strings occur in a buffer, in one pass: a table of the first two
/// bytes of every token says where a match can start, and only there are tokens compared.
/// The per-rule prefilters of a scan share one search, so each file is read once whatever the
/// number of rules and tokens.
public struct TokenSearch: Sendable {
  public let tokens: [[UInt8]]
  /// For each two-byte prefix (first byte * 256 + second), the tokens starting with it.
  private let byPrefix: [[Int]]
  /// Tokens of a single byte, by that byte.
  private let single: [[Int]]
  /// Whether any token starts with a two-byte prefix, or is a single byte: checked per byte.
  private let prefixMayMatch: [Bool]
  private let singleMayMatch: [Bool]

  public init(tokens: [String]) {
    self.init(tokens: tokens.map { Array($0.utf8) })
  }

  public init(tokens: [[UInt8]]) {
    self.tokens = Array(Set(tokens.filter { !$0.isEmpty })).sorted { $0.lexicographicallyPrecedes($1) }
    var byPrefix = [[Int]](repeating: [], count: 65536)
    var single = [[Int]](repeating: [], count: 256)
    for (index, token) in self.tokens.enumerated() {
      if token.count == 1 {
        single[Int(token[0])].append(index)
      } else {
        byPrefix[Int(token[0]) << 8 | Int(token[1])].append(index)
      }
    }
    self.byPrefix = byPrefix
    self.single = single
    self.prefixMayMatch = byPrefix.map { !$0.isEmpty }
    self.singleMayMatch = single.map { !$0.isEmpty }
  }

  /// The indices (into `tokens`) of the tokens found in `bytes`.
  public func found(in bytes: [UInt8]) -> Set<Int> {
    var result = Set<Int>()
    let count = bytes.count
    guard count > 0 else { return result }
    bytes.withUnsafeBufferPointer { buffer in
      prefixMayMatch.withUnsafeBufferPointer { prefixes in
        singleMayMatch.withUnsafeBufferPointer { singles in
          var index = 0
          while index < count {
            let first = Int(buffer[index])
            if singles[first] { result.formUnion(single[first]) }
            if index + 1 < count {
              let prefix = first << 8 | Int(buffer[index + 1])
              if prefixes[prefix] {
                for candidate in byPrefix[prefix] where !result.contains(candidate) {
                  let token = tokens[candidate]
                  if index + token.count <= count && matches(token, buffer, at: index) { result.insert(candidate) }
                }
              }
            }
            index += 1
          }
        }
      }
    }
    return result
  }

  private func matches(_ token: [UInt8], _ buffer: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
    var offset = 2
    while offset < token.count {
      if buffer[start + offset] != token[offset] { return false }
      offset += 1
    }
    return true
  }
}
