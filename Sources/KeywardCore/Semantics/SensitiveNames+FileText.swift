import Foundation
import SwiftSyntax

/// What a whole file's text says of secrets' names, read from its bytes in one pass.
extension SensitiveNames {
  /// Whether any pattern can be named in a file at all: its bytes, ASCII letters lowercased and
  /// `_`, `-` and spaces dropped, contain one (as names are compared in `matches`). A file that
  /// fails this holds no name of a secret, so rules that need one need not parse it.
  public static func mayAppear(in bytes: [UInt8], patterns: [String]) -> Bool {
    guard let search = foldedPatternSearches.search(for: patterns) else { return true }
    return search.containsAny(in: joinedFold(bytes))
  }

  /// `bytes` with ASCII letters lowercased and `_`, `-` and spaces left out (`folded(_:)`'s
  /// `joined`), written straight into the result: it runs over whole files.
  static func joinedFold(_ bytes: some Collection<UInt8>) -> [UInt8] {
    let underscore = UInt8(ascii: "_")
    return [UInt8](unsafeUninitializedCapacity: bytes.count) { output, count in
      count = 0
      for byte in bytes {
        let lowered = folded(byte)
        guard lowered != underscore else { continue }
        output[count] = lowered
        count += 1
      }
    }
  }

  /// One search per list of patterns (a scan has one), over their folded forms; nil for a list
  /// with a pattern that folds to nothing, which every file may hold.
  private static let foldedPatternSearches = FoldedPatternSearches()

  private final class FoldedPatternSearches: @unchecked Sendable {
    private var searches: [[String]: TokenSearch?] = [:]
    private let lock = NSLock()

    func search(for patterns: [String]) -> TokenSearch? {
      lock.withLock {
        if let known = searches[patterns] { return known }
        let folded = patterns.map { SensitiveNames.joinedFold($0.utf8) }
        let search = folded.contains(where: \.isEmpty) ? nil : TokenSearch(tokens: folded)
        searches[patterns] = .some(search)
        return search
      }
    }
  }

  /// Where a file's text holds a pattern (the offset of each occurrence, in order; letters
  /// lowercased, `-` and spaces read as `_`, and also with the underscores left out, as names are
  /// compared in `isNamed`), found in one pass over its bytes: a rule asking of every argument in
  /// a file whether it may name a secret answers from these instead of reading each one's tokens.
  /// Comments count too; they only make a rule look closer.
  public struct NamedSites {
    let starts: [Int]

    public init(in tree: SourceFileSyntax, patterns: [String]) {
      let needles = patterns.map { Array($0.lowercased().utf8) }.filter { !$0.isEmpty }
      let underscore = UInt8(ascii: "_")
      var folded: [UInt8] = []
      var joined: [UInt8] = []
      var joinedOffsets: [Int] = []
      tree.syntaxTextBytes.withUnsafeBufferPointer { bytes in
        folded.reserveCapacity(bytes.count)
        for (offset, byte) in bytes.enumerated() {
          let lowered = SensitiveNames.folded(byte)
          folded.append(lowered)
          if lowered != underscore {
            joined.append(lowered)
            joinedOffsets.append(offset)
          }
        }
      }
      var starts: Set<Int> = []
      for (text, offsets) in [(folded, nil), (joined, joinedOffsets)] as [([UInt8], [Int]?)] {
        text.withUnsafeBufferPointer { buffer in
          for needle in needles {
            var from = 0
            while let found = ByteSearch.firstIndex(of: needle, in: buffer, from: from) {
              starts.insert(offsets?[found] ?? found)
              from = found + 1
            }
          }
        }
      }
      self.starts = starts.sorted()
    }

    /// Whether a pattern occurs within `node`.
    public func occur(in node: some SyntaxProtocol) -> Bool {
      let lower = node.positionAfterSkippingLeadingTrivia.utf8Offset
      var low = 0
      var high = starts.count
      while low < high {
        let middle = (low + high) / 2
        if starts[middle] < lower { low = middle + 1 } else { high = middle }
      }
      return low < starts.count && starts[low] < node.endPositionBeforeTrailingTrivia.utf8Offset
    }
  }
}
