/// Stable identities for findings, independent of line numbers, so that a finding keeps its
/// fingerprint when code above it moves.
public enum Fingerprint {
  /// 64-bit FNV-1a, written as 16 hex digits.
  public static func hash(_ parts: [String]) -> String {
    var value: UInt64 = 0xcbf2_9ce4_8422_2325
    for part in parts {
      for byte in part.utf8 {
        value ^= UInt64(byte)
        value = value &* 0x0000_0100_0000_01b3
      }
      value ^= 0xFF
      value = value &* 0x0000_0100_0000_01b3
    }
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// Gives each finding the hash of its identifying `parts` plus how many earlier findings had
  /// the same parts, so identical twins in one file get distinct, stable fingerprints.
  public static func assign(_ findings: [Finding], parts: (Finding) -> [String]) -> [Finding] {
    var seen: [[String]: Int] = [:]
    return findings.map { finding in
      var finding = finding
      let identity = parts(finding)
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
