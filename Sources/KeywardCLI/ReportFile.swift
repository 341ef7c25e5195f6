import Foundation
import KeywardCore

/// Writes a report to a file as it is produced. A regular file is replaced atomically (a
/// temporary file beside it, renamed at the end), so a failed run never leaves half a report
/// where the last whole one was; devices and pipes (`/dev/null`, `/dev/stdout`) are written to.
enum ReportFile {
  struct WriteError: Error, LocalizedError {
    var reason: String
    var errorDescription: String? { reason }
  }

  static func write(to path: String, _ produce: ((String) throws -> Void) throws -> Void) throws {
    var info = stat()
    let isSpecial = stat(path, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG
    let temporary = isSpecial ? path : FixApplier.temporaryPath(beside: path)
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o666)
    guard descriptor >= 0 else { throw failure() }
    do {
      var pending: [UInt8] = []
      pending.reserveCapacity(1 << 20)
      try produce { piece in
        pending.append(contentsOf: piece.utf8)
        if pending.count >= 1 << 20 {
          try writeAll(pending, to: descriptor)
          pending.removeAll(keepingCapacity: true)
        }
      }
      try writeAll(pending, to: descriptor)
      guard close(descriptor) == 0 else { throw failure() }
      if !isSpecial && rename(temporary, path) != 0 { throw failure() }
    } catch {
      close(descriptor)
      if !isSpecial { unlink(temporary) }
      throw error
    }
  }

  private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) throws {
    guard FileBytes.writeAll(bytes, to: descriptor) else { throw failure() }
  }

  private static func failure() -> WriteError { WriteError(reason: String(cString: strerror(errno))) }
}
