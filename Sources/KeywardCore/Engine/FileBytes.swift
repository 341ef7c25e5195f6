import Foundation

/// Why a file could not be read, in the system's words ("No such file or directory").
public struct FileReadError: Error, CustomStringConvertible, Sendable {
  public var description: String
}

/// Reads whole files with POSIX calls: one copy into the array, and `errno`'s own message when
/// it fails (Foundation's messages lose the reason).
public enum FileBytes {
  public static func read(_ path: String) throws(FileReadError) -> [UInt8] {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { throw failure() }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { throw failure() }
    guard (info.st_mode & S_IFMT) != S_IFDIR else { throw FileReadError(description: "is a folder") }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(Int(info.st_size))
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw failure()
      }
      if count == 0 { return bytes }
      bytes.append(contentsOf: chunk[0..<count])
    }
  }

  private static func failure() -> FileReadError { FileReadError(description: String(cString: strerror(errno))) }
}
