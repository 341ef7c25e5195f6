import Foundation

/// Findings that wait for the whole scan (hand-offs to other files), kept in a spool file until
/// the scan settles them, so that memory does not grow with their number when the report is
/// streamed. Written in the cache's byte format, with each finding's code excerpt, which the
/// cache does not keep.
final class ParkedFindings: @unchecked Sendable {
  private let spool = ByteSpool()
  private let lock = NSLock()
  private var pieces: [Int: ByteSpool.Piece] = [:]

  var isEmpty: Bool { lock.withLock { pieces.isEmpty } }

  func park(_ findings: [Finding], file: Int) {
    var writer = CacheWriter()
    FileOutcome(findings: findings).write(to: &writer)
    writer.array(findings) { out, finding in
      out.optional(finding.excerpt) { out, excerpt in
        out.int(excerpt.firstLine)
        out.array(excerpt.lines) { $0.string($1) }
      }
    }
    let piece = spool.append(writer.bytes)
    lock.withLock { pieces[file] = piece }
  }

  /// The findings parked for `file`, or nil when none were. A spool that cannot be read back
  /// (its temporary file broken under the scan) ends the scan with that error.
  func take(file: Int) throws -> [Finding]? {
    guard let piece = lock.withLock({ pieces.removeValue(forKey: file) }) else { return nil }
    do {
      let bytes = try spool.read(piece)
      var reader = CacheReader(bytes[...])
      var findings = try FileOutcome(from: &reader).findings
      let excerpts = try reader.array { reader throws(CacheFormatError) in
        try reader.optional { reader throws(CacheFormatError) in
          CodeExcerpt(
            firstLine: try reader.int(),
            lines: try reader.array { reader throws(CacheFormatError) in try reader.string() })
        }
      }
      for index in findings.indices where index < excerpts.count { findings[index].excerpt = excerpts[index] }
      return findings
    } catch {
      throw KeptAsideReadError(description: "findings kept aside during the scan could not be read back: \(error)")
    }
  }
}

/// What was kept in a spool file during the scan (waiting findings, call facts) could not be read
/// back; the scan ends with it.
struct KeptAsideReadError: Error, CustomStringConvertible {
  var description: String
}
