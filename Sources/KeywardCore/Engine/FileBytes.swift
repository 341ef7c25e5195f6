import Foundation

/// Why a file could not be read, in the system's words ("No such file or directory").
public struct FileReadError: Error, CustomStringConvertible, Sendable {
  public var description: String
  /// The file's size, when the read stopped because it is over the size it was allowed.
  public var tooLargeSize: Int?

  public init(description: String, tooLargeSize: Int? = nil) {
    self.description = description
    self.tooLargeSize = tooLargeSize
  }
}

/// Reads whole files and writes buffers with POSIX calls: one copy into the array, and `errno`'s
/// own message when reading fails (Foundation's messages lose the reason).
public enum FileBytes {
  /// A file over `maximumSize` bytes is not read: the error gives its size (`tooLargeSize`).
  public static func read(_ path: String, maximumSize: Int = .max) throws(FileReadError) -> [UInt8] {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { throw failure() }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { throw failure() }
    guard (info.st_mode & S_IFMT) != S_IFDIR else { throw FileReadError(description: "is a folder") }
    guard info.st_size <= maximumSize else {
      throw FileReadError(description: "\(info.st_size) bytes", tooLargeSize: Int(info.st_size))
    }
    // Straight into the array's storage, for the size the file had when opened; a file that
    // grew since is read on in chunks.
    let expected = max(0, Int(info.st_size))
    var failed: Int32 = 0
    var bytes = [UInt8](unsafeUninitializedCapacity: expected) { buffer, initialized in
      initialized = 0
      while initialized < buffer.count {
        let count = Foundation.read(descriptor, buffer.baseAddress! + initialized, buffer.count - initialized)
        if count < 0 && errno == EINTR { continue }
        if count < 0 { failed = errno }
        if count <= 0 { break }
        initialized += count
      }
    }
    if failed != 0 { throw FileReadError(description: String(cString: strerror(failed))) }
    if bytes.count < expected { return bytes }
    return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1 << 16) { chunk throws(FileReadError) in
      while true {
        let count = Foundation.read(descriptor, chunk.baseAddress, chunk.count)
        if count < 0 {
          if errno == EINTR { continue }
          throw failure()
        }
        if count == 0 { return bytes }
        bytes.append(contentsOf: chunk[0..<count])
      }
    }
  }

  /// Reads `length` bytes at `offset` of an open file (`pread`, safe from any thread); a file
  /// that ends sooner is an error.
  public static func read(_ descriptor: Int32, offset: Int, length: Int) throws(FileReadError) -> [UInt8] {
    var failed: Int32 = 0
    let bytes = [UInt8](unsafeUninitializedCapacity: length) { buffer, filled in
      filled = 0
      while filled < length {
        let count = pread(descriptor, buffer.baseAddress! + filled, length - filled, off_t(offset + filled))
        if count < 0 && errno == EINTR { continue }
        if count < 0 { failed = errno }
        if count <= 0 { break }
        filled += count
      }
    }
    if failed != 0 { throw FileReadError(description: String(cString: strerror(failed))) }
    guard bytes.count == length else { throw FileReadError(description: "the file ends sooner than expected") }
    return bytes
  }

  /// Writes all of `bytes` to `descriptor`, at `offset` (`pwrite`) or at its current position,
  /// going on after interruptions; false when a write fails (`errno` says why).
  public static func writeAll(_ bytes: [UInt8], to descriptor: Int32, at offset: Int? = nil) -> Bool {
    var written = 0
    while written < bytes.count {
      let count = bytes.withUnsafeBytes { buffer in
        let start = buffer.baseAddress! + written
        if let offset { return pwrite(descriptor, start, buffer.count - written, off_t(offset + written)) }
        return Foundation.write(descriptor, start, buffer.count - written)
      }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return false }
      written += count
    }
    return true
  }

  private static func failure() -> FileReadError { FileReadError(description: String(cString: strerror(errno))) }
}
