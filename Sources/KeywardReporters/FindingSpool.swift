import Foundation
import KeywardCore

/// A finding sink that prints each file's findings as the file is done, on the worker that
/// scanned it, and keeps only the printed bytes: in an unlinked temporary file when one can be
/// made (so memory does not grow with the number of findings, and nothing is left behind if the
/// process dies), in memory otherwise. At the end it hands the files back in path order.
public final class FindingSpool: FindingSink, @unchecked Sendable {
  private struct Chunk {
    var inFile: Bool
    var offset: Int
    var length: Int
    var counts: FindingCounts
    var firstActiveRule: String?
  }

  private let prepare: @Sendable ([Finding]) -> [Finding]
  private let print: @Sendable ([Finding]) -> [UInt8]
  private let lock = NSLock()
  /// Closed only in `deinit`, so workers may write to it outside the lock.
  private let descriptor: Int32
  private var fileLength = 0
  private var memory: [UInt8] = []
  private var chunks: [Int: Chunk] = [:]
  private var finished = false
  private var total = FindingCounts()
  private var firstRule: String?

  /// `prepare` runs first on each file's findings (a baseline marking some as suppressed), and
  /// `print` turns them into one piece of the report.
  public convenience init(
    prepare: @escaping @Sendable ([Finding]) -> [Finding] = { $0 },
    print: @escaping @Sendable ([Finding]) -> [UInt8]
  ) {
    self.init(prepare: prepare, print: print, inMemory: false)
  }

  /// `inMemory` skips the temporary file, as when none can be made.
  init(
    prepare: @escaping @Sendable ([Finding]) -> [Finding], print: @escaping @Sendable ([Finding]) -> [UInt8],
    inMemory: Bool
  ) {
    self.prepare = prepare
    self.print = print
    descriptor = inMemory ? -1 : Self.makeTemporaryFile()
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
  }

  public func take(_ findings: [Finding], file: Int) {
    guard !findings.isEmpty else { return }
    let prepared = prepare(findings)
    let bytes = print(prepared)
    var chunk = Chunk(
      inFile: false, offset: 0, length: bytes.count, counts: FindingCounts(prepared),
      firstActiveRule: prepared.first(where: \.isActive)?.ruleId)
    // Reserve a place under the lock and write outside it, so workers never wait on each
    // other's writes.
    let reserved: Int? = lock.withLock {
      guard !finished, descriptor >= 0 else { return nil }
      defer { fileLength += bytes.count }
      return fileLength
    }
    let written = reserved.map { FileBytes.writeAll(bytes, to: descriptor, at: $0) } ?? false
    lock.lock()
    defer { lock.unlock() }
    guard !finished else { return }
    if written, let reserved {
      chunk.inFile = true
      chunk.offset = reserved
    } else {
      // No temporary file, or it failed (a full disk): memory still gives a complete report.
      chunk.offset = memory.count
      memory += bytes
    }
    chunks[file] = chunk
  }

  public func finish(givenUp: Set<Int>) {
    lock.lock()
    defer { lock.unlock() }
    finished = true
    for file in givenUp { chunks[file] = nil }
    total = chunks.values.reduce(into: FindingCounts()) { $0.add($1.counts) }
    firstRule = chunks.keys.sorted().lazy.compactMap { self.chunks[$0]!.firstActiveRule }.first
  }

  /// The rule of the first active finding in path order; known once the scan has finished.
  public var firstActiveRule: String? {
    lock.lock()
    defer { lock.unlock() }
    return firstRule
  }

  /// The findings taken, counted after `prepare`; complete once the scan has finished.
  public var counts: FindingCounts {
    lock.lock()
    defer { lock.unlock() }
    return total
  }

  public var isEmpty: Bool {
    lock.lock()
    defer { lock.unlock() }
    return chunks.isEmpty
  }

  /// Hands each file's printed findings to `output` in path order, `separator` between files.
  public func write(separator: String, to output: (String) throws -> Void) throws {
    lock.lock()
    defer { lock.unlock() }
    for (position, file) in chunks.keys.sorted().enumerated() {
      let chunk = chunks[file]!
      if position > 0 { try output(separator) }
      if chunk.inFile {
        let bytes = try Self.read(descriptor, offset: chunk.offset, length: chunk.length)
        try output(String(decoding: bytes, as: UTF8.self))
      } else {
        try output(String(decoding: memory[chunk.offset..<chunk.offset + chunk.length], as: UTF8.self))
      }
    }
  }

  private static func makeTemporaryFile() -> Int32 {
    var template = Array(
      (NSTemporaryDirectory() as NSString).appendingPathComponent("keyward-findings-XXXXXX").utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else { return -1 }
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    return descriptor
  }

  struct ReadError: Error, LocalizedError {
    var errorDescription: String? { "the findings kept in a temporary file could not be read back" }
  }

  private static func read(_ descriptor: Int32, offset: Int, length: Int) throws -> [UInt8] {
    var filled = 0
    let bytes = [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
      while filled < length {
        let got = pread(descriptor, buffer.baseAddress! + filled, length - filled, off_t(offset + filled))
        if got < 0 && errno == EINTR { continue }
        guard got > 0 else { break }
        filled += got
      }
      count = filled
    }
    guard filled == length else { throw ReadError() }
    return bytes
  }
}
