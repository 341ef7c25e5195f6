import Foundation

/// Blocks of bytes kept out of memory until they are wanted again: appended from any thread to
/// an unlinked temporary file (nothing is left behind if the process dies), or kept in memory
/// when no such file can be made or a write fails (a full disk), so nothing is ever lost.
public final class ByteSpool: @unchecked Sendable {
  /// Where one appended block is.
  public struct Piece: Sendable {
    fileprivate let inFile: Bool
    fileprivate let offset: Int
    public let length: Int
  }

  private let lock = NSLock()
  /// Closed only in `deinit`, so writers and readers use it outside the lock.
  private let descriptor: Int32
  private var fileLength = 0
  private var memory: [UInt8] = []

  /// `inMemory` skips the temporary file, as when none can be made.
  public init(inMemory: Bool = false) {
    descriptor = inMemory ? -1 : Self.makeTemporaryFile()
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
  }

  public func append(_ bytes: [UInt8]) -> Piece {
    // Reserve a place under the lock and write outside it, so writers never wait on each
    // other's writes.
    let reserved: Int? = lock.withLock {
      guard descriptor >= 0 else { return nil }
      defer { fileLength += bytes.count }
      return fileLength
    }
    if let reserved, FileBytes.writeAll(bytes, to: descriptor, at: reserved) {
      return Piece(inFile: true, offset: reserved, length: bytes.count)
    }
    return lock.withLock {
      defer { memory += bytes }
      return Piece(inFile: false, offset: memory.count, length: bytes.count)
    }
  }

  public func read(_ piece: Piece) throws(FileReadError) -> [UInt8] {
    guard piece.inFile else {
      return lock.withLock { Array(memory[piece.offset..<piece.offset + piece.length]) }
    }
    return try FileBytes.read(descriptor, offset: piece.offset, length: piece.length)
  }

  private static func makeTemporaryFile() -> Int32 {
    var template = Array(
      (NSTemporaryDirectory() as NSString).appendingPathComponent("keyward-spool-XXXXXX").utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else { return -1 }
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    return descriptor
  }
}
