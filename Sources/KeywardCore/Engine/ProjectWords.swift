import Foundation

/// The words of the Swift files a scan reads as shipped code (the scanner leaves tests and samples
/// out), except the names functions and types are declared with (`func name`, `class Name`),
/// kept as a Bloom filter. A name missing from it appears in no code, comment or string that
/// ships but its own declarations: an internal function of that name is called from nowhere
/// (`HandOff.unlessNamedInProject`), and nothing makes or calls into an internal type of that
/// name (`HandOff.unlessTypeNamedInProject`). A name it holds may be another word's collision,
/// which only keeps a finding that might have been set aside. Beside the words, it keeps the
/// names of the plain protocols the files declare (`declaresPlainProtocol`).
public final class ProjectWords: @unchecked Sendable {
  /// 2^21 bits (256 KiB), one per word: a project of 200,000 distinct words sets about a tenth
  /// of them, so a name it never met is taken for a word about one time in ten.
  private static let bitCount = 1 << 21
  private var bits = [UInt64](repeating: 0, count: ProjectWords.bitCount / 64)
  /// The names of the plain protocols the files declare (`forEachWord`): few, so 2^16 bits.
  private var protocolBits = [UInt64](repeating: 0, count: 1 << 10)
  private let lock = NSLock()

  public init() {}

  /// Adds the words of one file's text. Hashes are gathered in a small buffer and set under
  /// the lock a batch at a time, so that workers rarely wait on each other.
  public func add(_ bytes: [UInt8]) {
    withUnsafeTemporaryAllocation(of: UInt64.self, capacity: Self.batch) { batch in
      var gathered = 0
      Self.forEachWord(in: bytes) { hash in
        batch[gathered] = hash
        gathered += 1
        if gathered == Self.batch {
          setBits(of: batch[...])
          gathered = 0
        }
      } declaringPlainProtocol: { hash in
        // Rare enough to take the lock for each.
        lock.withLock {
          let bit = Int(hash & UInt64(protocolBits.count * 64 - 1))
          protocolBits[bit >> 6] |= 1 << UInt64(bit & 63)
        }
      }
      setBits(of: batch[..<gathered])
    }
  }

  private static let batch = 2048

  private func setBits(of hashes: Slice<UnsafeMutableBufferPointer<UInt64>>) {
    guard !hashes.isEmpty else { return }
    lock.withLock {
      bits.withUnsafeMutableBufferPointer { bits in
        for hash in hashes {
          let bit = Self.bit(hash)
          bits[bit >> 6] |= 1 << UInt64(bit & 63)
        }
      }
    }
  }

  /// Words shorter than this are not kept; a name that short always counts as found.
  static let shortestName = 5

  /// Whether `name` may be a word of the files added (other than a declared function's name).
  public func contains(_ name: String) -> Bool {
    guard name.utf8.count >= Self.shortestName else { return true }
    let hash = Self.hash(name.utf8)
    let bit = Self.bit(hash)
    return lock.withLock { bits[bit >> 6] & (1 << UInt64(bit & 63)) != 0 }
  }

  /// Whether some file added declares a protocol of this name that neither inherits another
  /// (but `AnyObject`, `class` or `Sendable`) nor is `@objc`: only the project's own code calls
  /// its requirements, and by their names.
  public func declaresPlainProtocol(_ name: String) -> Bool {
    let bit = Int(Self.hash(name.utf8) & UInt64(protocolBits.count * 64 - 1))
    return lock.withLock { protocolBits[bit >> 6] & (1 << UInt64(bit & 63)) != 0 }
  }

  private static func bit(_ hash: UInt64) -> Int { Int(hash & UInt64(bitCount - 1)) }

  /// The hash of one word: its length, its first eight bytes and, when longer, its last eight.
  /// Enough to tell the names of a project apart; two words it confuses only keep a finding.
  private static func hash(_ word: String.UTF8View) -> UInt64 {
    let bytes = Array(word)
    return bytes.withUnsafeBytes { raw in
      var padded = [UInt8](repeating: 0, count: 8)
      for index in 0..<min(8, bytes.count) { padded[index] = bytes[index] }
      let first = padded.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
      let last = bytes.count > 8 ? raw.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self) : nil
      return hash(length: bytes.count, first: first, last: last)
    }
  }

  @inline(__always)
  private static func hash(length: Int, first: UInt64, last: UInt64?) -> UInt64 {
    var hash = (UInt64(truncatingIfNeeded: length) &* 0x9e37_79b9_7f4a_7c15) ^ first
    if let last { hash = mixed(hash) ^ last }
    return mixed(hash)
  }

  @inline(__always)
  private static func mixed(_ hash: UInt64) -> UInt64 {
    let spread = (hash ^ (hash >> 29)) &* 0xbf58_476d_1ce4_e5b9
    return spread ^ (spread >> 32)
  }

  /// Calls `body` with the hash of each word (a run of ASCII letters, digits, `_` and non-ASCII
  /// bytes), leaving out the word right after `func`, `class`, `struct`, `enum` or `actor` when
  /// only white space parts them: the name a function or type is declared with (`class func`
  /// declares the word after `func`); and a word followed by `.swift`, a file's name. Eight
  /// bytes are classified at a time into one bit each; words are then found from where those
  /// bits start and how far they run, with no branch per byte, which keeps this at a fraction
  /// of the cost of reading the file. `declaringPlainProtocol` gets the hash of each name a
  /// plain protocol is declared with (`plainProtocolName`).
  @inline(__always)
  public static func forEachWord(
    in bytes: [UInt8], _ body: (UInt64) -> Void, declaringPlainProtocol: (UInt64) -> Void = { _ in }
  ) {
    let count = bytes.count
    let blocks = (count + 63) / 64
    bytes.withUnsafeBytes { raw in
      withUnsafeTemporaryAllocation(of: UInt64.self, capacity: blocks + 1) { masks in
        for block in 0..<blocks { masks[block] = wordBits(raw, from: block &* 64, count: count) }
        masks[blocks] = 0
        var previousEnd = 0
        var previousDeclares = false
        var carry: UInt64 = 0
        for block in 0..<blocks {
          let mask = masks[block]
          var starts = mask & ~((mask << 1) | carry)
          carry = mask >> 63
          while starts != 0 {
            let bit = starts.trailingZeroBitCount
            starts &= starts &- 1
            let start = block &* 64 &+ bit
            // How far the word runs: through this block's bits, and on through the next blocks'.
            var length = (~(mask >> UInt64(bit))).trailingZeroBitCount
            if length == 64 &- bit {
              var next = block &+ 1
              while true {
                let run = (~masks[next]).trailingZeroBitCount
                length &+= run
                if run < 64 { break }
                next &+= 1
              }
            }
            length = min(length, count &- start)
            let end = start &+ length
            var first: UInt64 = 0
            if start &+ 8 <= count {
              first = raw.loadUnaligned(fromByteOffset: start, as: UInt64.self)
              if length < 8 { first &= (1 << UInt64(8 &* length)) &- 1 }
            } else {
              for offset in 0..<min(8, length) { first |= UInt64(raw[start &+ offset]) << UInt64(8 &* offset) }
            }
            let declares = isDeclaringKeyword(length: length, first: first)
            // "protocol", little-endian.
            if length == 8 && first == 0x6c6f_636f_746f_7270, let name = plainProtocolName(raw, keyword: start) {
              declaringPlainProtocol(hash(name.utf8))
            }
            let declaredName =
              previousDeclares && !declares && (previousEnd..<start).allSatisfy { isWhiteSpace(raw[$0]) }
            previousDeclares = declares
            previousEnd = end
            // Names this short are used somewhere in any project: never worth a bit.
            if declaredName || declares || length < Self.shortestName || isSwiftFileName(raw, end: end) { continue }
            let last = length > 8 ? raw.loadUnaligned(fromByteOffset: end &- 8, as: UInt64.self) : nil
            body(hash(length: length, first: first, last: last))
          }
        }
      }
    }
  }

  /// The name after the `protocol` keyword at `keyword` when the declaration is plain: `protocol
  /// Name {`, or with only `AnyObject`, `class` or `Sendable` after a colon; and no `@objc` in the
  /// bytes just before it (the runtime may call an `@objc` protocol's requirements). Like the
  /// words, this reads bytes, not syntax: a comment spelling out such a declaration counts too.
  private static func plainProtocolName(_ raw: UnsafeRawBufferPointer, keyword: Int) -> String? {
    var index = keyword + 8
    func skipWhiteSpace() { while index < raw.count, isWhiteSpace(raw[index]) { index += 1 } }
    func word() -> String? {
      let start = index
      while index < raw.count, raw[index] < 0x80, isWordByte(raw[index]) { index += 1 }
      return index > start ? String(decoding: UnsafeRawBufferPointer(rebasing: raw[start..<index]), as: UTF8.self) : nil
    }
    guard index < raw.count, isWhiteSpace(raw[index]) else { return nil }
    skipWhiteSpace()
    guard let name = word() else { return nil }
    skipWhiteSpace()
    if index < raw.count, raw[index] == UInt8(ascii: ":") {
      repeat {
        index += 1
        skipWhiteSpace()
        guard let inherited = word(), ["AnyObject", "class", "Sendable"].contains(inherited) else { return nil }
        skipWhiteSpace()
      } while index < raw.count && (raw[index] == UInt8(ascii: ",") || raw[index] == UInt8(ascii: "&"))
    }
    guard index < raw.count, raw[index] == UInt8(ascii: "{") else { return nil }
    let before = UnsafeRawBufferPointer(rebasing: raw[max(0, keyword - 64)..<keyword])
    guard String(decoding: before, as: UTF8.self).range(of: "@objc") == nil else { return nil }
    return name
  }

  /// Whether `.swift` follows the word ending at `end`: a file's name (`//  LegacyStore.swift`,
  /// the first line Xcode writes in a new file), not a use of the type it is named for.
  @inline(__always)
  private static func isSwiftFileName(_ raw: UnsafeRawBufferPointer, end: Int) -> Bool {
    guard end &+ 6 <= raw.count, raw[end] == 0x2E else { return false }
    let suffix = raw.loadUnaligned(fromByteOffset: end &- 2, as: UInt64.self) >> 16
    guard suffix & 0xFFFF_FFFF_FFFF == 0x74_6669_7773_2E else { return false }  // ".swift"
    return end &+ 6 == raw.count || !isWordByte(raw[end &+ 6])
  }

  /// Whether the word of `length` bytes starting with the bytes `first` (little-endian, only
  /// the word's own) is `func`, `enum`, `class`, `actor` or `struct`.
  @inline(__always)
  private static func isDeclaringKeyword(length: Int, first: UInt64) -> Bool {
    switch length {
    case 4: first == 0x636e_7566 || first == 0x6d75_6e65  // "func", "enum"
    case 5: first == 0x73_7361_6c63 || first == 0x72_6f74_6361  // "class", "actor"
    case 6: first == 0x7463_7572_7473  // "struct"
    default: false
    }
  }

  /// One bit per byte of the 64 from `start` (fewer at the end): set where `isWordByte` holds.
  @inline(__always)
  private static func wordBits(_ raw: UnsafeRawBufferPointer, from start: Int, count: Int) -> UInt64 {
    var mask: UInt64 = 0
    guard start &+ 64 <= count else {
      for offset in 0..<(count &- start) where isWordByte(raw[start &+ offset]) { mask |= 1 << UInt64(offset) }
      return mask
    }
    for lane in 0..<8 {
      let eight = raw.loadUnaligned(fromByteOffset: start &+ 8 &* lane, as: UInt64.self)
      mask |= laneBits(wordBytes(eight)) << UInt64(8 &* lane)
    }
    return mask
  }

  private static func isWordByte(_ byte: UInt8) -> Bool {
    byte >= 0x80 || byte == 0x5F || (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
      || (0x61...0x7A).contains(byte)
  }

  /// For eight bytes at once: the top bit of each byte set where `isWordByte` holds.
  @inline(__always)
  private static func wordBytes(_ bytes: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let high: UInt64 = 0x8080_8080_8080_8080
    let ascii = bytes & ~high
    // Top bit set where `low ... high` holds the byte (bytes below 0x80, so nothing borrows).
    func within(_ value: UInt64, _ low: UInt64, _ high: UInt64) -> UInt64 {
      ((value | 0x8080_8080_8080_8080) &- ones &* low) & ((ones &* (high + 0x80)) &- value) & 0x8080_8080_8080_8080
    }
    let letter = within(ascii | ones &* 0x20, 0x61, 0x7A)
    let digit = within(ascii, 0x30, 0x39)
    let underscore = within(ascii, 0x5F, 0x5F)
    return ((letter | digit | underscore) & ~bytes) | (bytes & high)
  }

  /// The top bits of eight bytes gathered into the low eight bits, first byte lowest.
  @inline(__always)
  private static func laneBits(_ tops: UInt64) -> UInt64 { ((tops >> 7) &* 0x0102_0408_1020_4080) >> 56 }

  private static func isWhiteSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }
}
