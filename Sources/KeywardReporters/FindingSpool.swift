import Foundation
import KeywardCore

/// A finding sink that prints each file's findings as the file is done, on the worker that
/// scanned it, and keeps only the printed bytes: in an unlinked temporary file when one can be
/// made (so memory does not grow with the number of findings, and nothing is left behind if the
/// process dies), in memory otherwise. At the end it hands the files back in path order, all
/// findings or, for reports grouped by rule, one rule's at a time.
public final class FindingSpool: FindingSink, @unchecked Sendable {
  private struct Chunk {
    /// The file's printed findings; by rule id when grouped by rule, under "" otherwise.
    var pieces: [String: ByteSpool.Piece]
    var counts: FindingCounts
    var firstActiveRule: String?
  }

  private let prepare: @Sendable ([Finding]) -> [Finding]
  private let print: @Sendable ([Finding]) -> [UInt8]
  private let groupsByRule: Bool
  private let lock = NSLock()
  private let storage: ByteSpool
  private var chunks: [Int: Chunk] = [:]
  private var finished = false
  private var total = FindingCounts()
  private var firstRule: String?

  /// `prepare` runs first on each file's findings (a baseline marking some as suppressed), and
  /// `print` turns them into one piece of the report; with `groupsByRule`, it prints each
  /// rule's active findings as a piece of their own.
  public convenience init(
    prepare: @escaping @Sendable ([Finding]) -> [Finding] = { $0 }, groupsByRule: Bool = false,
    print: @escaping @Sendable ([Finding]) -> [UInt8]
  ) {
    self.init(prepare: prepare, groupsByRule: groupsByRule, print: print, inMemory: false)
  }

  /// `inMemory` skips the temporary file, as when none can be made.
  init(
    prepare: @escaping @Sendable ([Finding]) -> [Finding], groupsByRule: Bool = false,
    print: @escaping @Sendable ([Finding]) -> [UInt8], inMemory: Bool
  ) {
    self.prepare = prepare
    self.print = print
    self.groupsByRule = groupsByRule
    storage = ByteSpool(inMemory: inMemory)
  }

  public func take(_ findings: [Finding], file: Int) {
    guard !findings.isEmpty else { return }
    let prepared = prepare(findings)
    var pieces: [String: ByteSpool.Piece] = [:]
    if groupsByRule {
      for (rule, ruleFindings) in Dictionary(grouping: prepared.filter(\.isActive), by: \.ruleId) {
        pieces[rule] = storage.append(print(ruleFindings))
      }
    } else {
      pieces[""] = storage.append(print(prepared))
    }
    let chunk = Chunk(
      pieces: pieces, counts: FindingCounts(prepared), firstActiveRule: prepared.first(where: \.isActive)?.ruleId)
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

  /// Hands each file's printed findings to `output` in path order, `separator` between files:
  /// all of them, or when grouped by rule, those of `rule`.
  public func write(separator: String, rule: String? = nil, to output: (String) throws -> Void) throws {
    lock.lock()
    defer { lock.unlock() }
    var written = 0
    for file in chunks.keys.sorted() {
      guard let piece = chunks[file]!.pieces[rule ?? ""] else { continue }
      if written > 0 { try output(separator) }
      written += 1
      let bytes: [UInt8]
      do {
        bytes = try storage.read(piece)
      } catch {
        throw ReadError(reason: error.description)
      }
      try output(String(decoding: bytes, as: UTF8.self))
    }
  }

  struct ReadError: Error, LocalizedError {
    var reason: String
    var errorDescription: String? { "the findings kept in a temporary file could not be read back: \(reason)" }
  }
}
