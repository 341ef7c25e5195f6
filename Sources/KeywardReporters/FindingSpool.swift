import Foundation
import KeywardCore

/// A finding sink that prints each file's findings as the file is done, on the worker that
/// scanned it, and keeps only the printed bytes: in an unlinked temporary file when one can be
/// made (so memory does not grow with the number of findings, and nothing is left behind if the
/// process dies), in memory otherwise. At the end it hands the files back in path order.
public final class FindingSpool: FindingSink, @unchecked Sendable {
  private struct Chunk {
    var piece: ByteSpool.Piece
    var counts: FindingCounts
    var firstActiveRule: String?
  }

  private let prepare: @Sendable ([Finding]) -> [Finding]
  private let print: @Sendable ([Finding]) -> [UInt8]
  private let lock = NSLock()
  private let storage: ByteSpool
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
    storage = ByteSpool(inMemory: inMemory)
  }

  public func take(_ findings: [Finding], file: Int) {
    guard !findings.isEmpty else { return }
    let prepared = prepare(findings)
    let chunk = Chunk(
      piece: storage.append(print(prepared)), counts: FindingCounts(prepared),
      firstActiveRule: prepared.first(where: \.isActive)?.ruleId)
    lock.lock()
    defer { lock.unlock() }
    guard !finished else { return }
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
      guard let bytes = try? storage.read(chunk.piece) else { throw ReadError() }
      try output(String(decoding: bytes, as: UTF8.self))
    }
  }

  struct ReadError: Error, LocalizedError {
    var errorDescription: String? { "the findings kept in a temporary file could not be read back" }
  }
}
