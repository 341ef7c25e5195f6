/// Stable identities for findings, independent of line numbers, so that a finding keeps its
/// fingerprint when code above it moves.
public enum Fingerprint {
  /// 64-bit FNV-1a, written as 16 hex digits.
  public static func hash(_ parts: [String]) -> String {
    var value = fnvOffsetBasis
    for part in parts {
      mix(part.utf8, into: &value)
      mix(CollectionOfOne(0xFF), into: &value)
    }
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  static let fnvOffsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325

  /// One FNV-1a step per byte.
  @inline(__always)
  static func mix(_ bytes: some Sequence<UInt8>, into value: inout UInt64) {
    for byte in bytes { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
  }

  /// Gives each finding the hash of its identifying `parts` plus how many earlier findings had
  /// the same parts, so identical twins in one file get distinct, stable fingerprints.
  public static func assign(_ findings: [Finding], parts: (Finding) -> [String]) -> [Finding] {
    assign(findings, identities: findings.map(parts))
  }

  /// The same, each finding's identifying parts given beside it (`identities[i]` for `findings[i]`).
  public static func assign(_ findings: [Finding], identities: [[String]]) -> [Finding] {
    var seen: [[String]: Int] = [:]
    return zip(findings, identities).map { finding, identity in
      var finding = finding
      let occurrence = seen[identity, default: 0]
      seen[identity] = occurrence + 1
      finding.fingerprint = hash(identity + [String(occurrence)])
      return finding
    }
  }

  /// A line's text without white space (ASCII white space, which is all source code indents
  /// with), so re-indentation does not change identities.
  public static func normalized(_ line: String) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(line.utf8.count)
    for byte in line.utf8
    where byte != 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D && byte != 0x0B && byte != 0x0C {
      bytes.append(byte)
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
