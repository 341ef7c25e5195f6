import Foundation

/// Decides from a file's bytes, before parsing, whether a rule can possibly report anything.
/// Most files of an app never mention the keychain, so most files are never parsed.
public struct Prefilter: Sendable, Hashable {
  public let tokens: [[UInt8]]

  public init(tokens: [String]) {
    self.tokens = Array(Set(tokens.filter { !$0.isEmpty })).sorted().map { Array($0.utf8) }
  }

  public func matches(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { buffer in
      tokens.contains { token in Self.contains(buffer, token) }
    }
  }

  /// Finds `needle` by jumping between occurrences of its first byte with `memchr`, which
  /// scans many bytes per instruction, and comparing the rest with `memcmp`.
  static func contains(_ haystack: UnsafeRawBufferPointer, _ needle: [UInt8]) -> Bool {
    guard let base = haystack.baseAddress, let first = needle.first, haystack.count >= needle.count else {
      return false
    }
    return needle.withUnsafeBytes { needleBuffer in
      let needleBase = needleBuffer.baseAddress!
      let lastStart = haystack.count - needle.count
      var offset = 0
      while offset <= lastStart {
        guard let hit = memchr(base + offset, Int32(first), lastStart - offset + 1) else { return false }
        let hitOffset = base.distance(to: UnsafeRawPointer(hit))
        if memcmp(hit, needleBase, needle.count) == 0 { return true }
        offset = hitOffset + 1
      }
      return false
    }
  }
}
