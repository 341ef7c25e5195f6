import Foundation

/// A file written as it is produced that replaces `path` only once it is whole: the bytes go to a
/// temporary file beside it, renamed over `path` by `commit`, so a failed or interrupted run
/// never leaves half a file where the last whole one was. Devices and pipes (`/dev/null`,
/// `/dev/stdout`) are written to directly. Without `commit` the temporary file is removed.
public final class ReplacingFile {
  public struct WriteError: Error, LocalizedError {
    public var reason: String
    public var errorDescription: String? { reason }
  }

  private let path: String
  private let temporary: String
  private let isSpecial: Bool
  private var descriptor: Int32
  private var pending: [UInt8] = []
  private static let flushSize = 1 << 20

  public init(path: String) throws {
    var info = stat()
    isSpecial = stat(path, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG
    self.path = path
    temporary = isSpecial ? path : FixApplier.temporaryPath(beside: path)
    descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o666)
    guard descriptor >= 0 else { throw Self.failure() }
    pending.reserveCapacity(Self.flushSize)
  }

  deinit {
    guard descriptor >= 0 else { return }
    close(descriptor)
    if !isSpecial { unlink(temporary) }
  }

  public func write(_ bytes: some Sequence<UInt8>) throws {
    pending.append(contentsOf: bytes)
    if pending.count >= Self.flushSize { try flush() }
  }

  /// Writes what is pending and puts the file in place of `path`.
  public func commit() throws {
    try flush()
    let closed = close(descriptor)
    descriptor = -1
    guard closed == 0, isSpecial || rename(temporary, path) == 0 else {
      let error = Self.failure()
      if !isSpecial { unlink(temporary) }
      throw error
    }
  }

  private func flush() throws {
    guard FileBytes.writeAll(pending, to: descriptor) else { throw Self.failure() }
    pending.removeAll(keepingCapacity: true)
  }

  private static func failure() -> WriteError { WriteError(reason: String(cString: strerror(errno))) }
}
