/// Plain search for one byte string, for the places that look for a literal in a file's bytes
/// (project and settings files, a rule's last look before a file is parsed for it). Many
/// strings at once over every file is `TokenSearch`'s job.
public enum ByteSearch {
  /// Where `needle` first occurs in `buffer` at or after `start`.
  public static func firstIndex(of needle: [UInt8], in buffer: UnsafeBufferPointer<UInt8>, from start: Int = 0)
    -> Int?
  {
    guard let first = needle.first, buffer.count >= needle.count else { return nil }
    var position = start
    let last = buffer.count - needle.count
    while position <= last {
      if buffer[position] == first {
        var offset = 1
        while offset < needle.count && buffer[position + offset] == needle[offset] { offset += 1 }
        if offset == needle.count { return position }
      }
      position += 1
    }
    return nil
  }

  public static func contains(_ needle: [UInt8], in bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBufferPointer { firstIndex(of: needle, in: $0) != nil }
  }

  /// Whether any of `needles` occurs in `bytes`.
  public static func containsAny(_ needles: [String], in bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBufferPointer { buffer in needles.contains { firstIndex(of: Array($0.utf8), in: buffer) != nil } }
  }
}
