import Foundation

/// Plain search for one byte string, for the places that look for a literal in a file's bytes
/// (project and settings files, a rule's last look before a file is parsed for it). Many
/// strings at once over every file is `TokenSearch`'s job.
public enum ByteSearch {
  /// Where `needle` first occurs in `buffer` at or after `start`. The C library's `memchr`
  /// finds each candidate first byte many bytes at a time: a project file runs to megabytes.
  public static func firstIndex(of needle: [UInt8], in buffer: UnsafeBufferPointer<UInt8>, from start: Int = 0)
    -> Int?
  {
    guard let first = needle.first, start >= 0, let base = buffer.baseAddress, buffer.count - start >= needle.count
    else { return nil }
    return needle.withUnsafeBytes { needleBytes in
      let last = buffer.count - needle.count
      var position = start
      while position <= last {
        guard let hit = memchr(base + position, Int32(first), last - position + 1) else { return nil }
        let index = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
        if memcmp(base + index, needleBytes.baseAddress!, needle.count) == 0 { return index }
        position = index + 1
      }
      return nil
    }
  }

  /// Whether `needle` occurs in `bytes`.
  public static func contains(_ needle: [UInt8], in bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBufferPointer { firstIndex(of: needle, in: $0) != nil }
  }

  /// Whether any of `needles` occurs in `bytes`.
  public static func containsAny(_ needles: [String], in bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBufferPointer { buffer in needles.contains { firstIndex(of: Array($0.utf8), in: buffer) != nil } }
  }
}
