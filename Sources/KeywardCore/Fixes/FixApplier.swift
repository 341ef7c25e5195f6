import Foundation
import SwiftParser

/// What fixing one file did.
public struct FileFix: Sendable {
  public enum Status: Sendable, Equatable {
    case fixed(count: Int)
    case nothingToFix
    case skipped(reason: String)
  }

  public var path: String
  public var status: Status
  /// The unified diff of the change (also for dry runs).
  public var diff: String
  /// Fixes that change behaviour, left out because they were not asked for.
  public var withheld: [Fix] = []
}

/// Applies the safe fixes of a file's findings. A file is never damaged: files with syntax
/// errors are left alone, a result that does not parse is refused, a file changed since it was
/// read is left alone, and the new contents replace the old in one rename of a temporary file
/// that has the original's permissions.
public struct FixApplier: Sendable {
  public let scanner: FileScanner

  public init(scanner: FileScanner) { self.scanner = scanner }

  /// Fixes that change behaviour (`Fix.changesBehavior`) are applied only with
  /// `includeBehaviorChanges`; the diff of those applied says what they change.
  public func fix(_ file: DiscoveredFile, dryRun: Bool, includeBehaviorChanges: Bool = false) -> FileFix {
    let path = file.relativePath
    let url = URL(fileURLWithPath: file.absolutePath)
    guard let original = try? FileBytes.read(url.path) else {
      return FileFix(path: path, status: .skipped(reason: "cannot be read"), diff: "")
    }
    var outcome = scanner.scan(bytes: original, path: path)
    // A value passed to a function is fixed only where this file shows that it takes effect;
    // calls into other files are left alone.
    outcome.findings = HandOffSettler(facts: outcome.facts, rules: scanner.rules).settle(outcome.findings)
    if let problem = outcome.issues.first {
      return FileFix(path: path, status: .skipped(reason: "not fixed: \(problem.message)"), diff: "")
    }
    let safe = outcome.findings.filter(\.isActive).compactMap(\.fix).filter(\.safe)
    let fixes = safe.filter { includeBehaviorChanges || !$0.changesBehavior }
    let withheld = includeBehaviorChanges ? [] : safe.filter(\.changesBehavior)
    let edits = Self.nonOverlapping(fixes.flatMap(\.edits))
    guard !edits.isEmpty else {
      return FileFix(path: path, status: .nothingToFix, diff: "", withheld: withheld)
    }
    let fixed = Self.apply(edits, to: original)
    if SourceLanguage(pathExtension: url.pathExtension) == .swift {
      let tree = fixed.withUnsafeBufferPointer { Parser.parse(source: $0) }
      if tree.hasError {
        return FileFix(path: path, status: .skipped(reason: "refused: the fixed file would not parse"), diff: "")
      }
    }
    // Said before the file's diff (patch tools skip text before `---`).
    let notes = Set(fixes.compactMap(\.behaviorChange)).sorted().map { "# \(path): changes behaviour: \($0)\n" }
    let diff = notes.joined() + UnifiedDiff.make(path: path, old: original, new: fixed)
    if dryRun { return FileFix(path: path, status: .fixed(count: edits.count), diff: diff, withheld: withheld) }
    do {
      try Self.replace(url, expecting: original, with: fixed)
    } catch let error as FixError {
      return FileFix(path: path, status: .skipped(reason: error.reason), diff: "")
    } catch {
      return FileFix(path: path, status: .skipped(reason: "not written: \(error.localizedDescription)"), diff: "")
    }
    return FileFix(path: path, status: .fixed(count: edits.count), diff: diff, withheld: withheld)
  }

  struct FixError: Error { var reason: String }

  /// The hidden file that is written, then renamed over `path`: `.NAME.keyward-UUID`, which no
  /// scan reads as source (its extension is `keyward-UUID`).
  public static func temporaryPath(beside path: String) -> String {
    let folder = (path as NSString).deletingLastPathComponent
    let name = ".\((path as NSString).lastPathComponent).keyward-\(UUID().uuidString)"
    return folder.isEmpty ? name : (folder as NSString).appendingPathComponent(name)
  }

  /// Writes `contents` to a temporary file beside `url` with its permissions, then renames it
  /// over `url` if the file still holds `expected`.
  /// `writeTemporary` is replaceable so tests can interrupt the write.
  public static func replace(
    _ url: URL, expecting expected: [UInt8], with contents: [UInt8],
    writeTemporary: (URL, [UInt8]) throws -> Void = { try Data($1).write(to: $0) }
  ) throws {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    let temporary = URL(fileURLWithPath: temporaryPath(beside: url.path))
    defer { try? FileManager.default.removeItem(at: temporary) }
    try writeTemporary(temporary, contents)
    if let permissions = attributes[.posixPermissions] {
      try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: temporary.path)
    }
    guard let current = try? FileBytes.read(url.path), current == expected else {
      throw FixError(reason: "left alone: the file changed while it was being fixed")
    }
    guard rename(temporary.path, url.path) == 0 else {
      throw FixError(reason: "not written: \(String(cString: strerror(errno)))")
    }
  }

  /// Edits sorted by position, dropping any that overlaps an earlier one (and duplicates).
  public static func nonOverlapping(_ edits: [TextEdit]) -> [TextEdit] {
    var result: [TextEdit] = []
    for edit in edits.sorted(by: { ($0.start, $0.end) < ($1.start, $1.end) }) {
      if let last = result.last, edit.start < last.end || edit == last { continue }
      result.append(edit)
    }
    return result
  }

  /// The bytes with `edits` (sorted, not overlapping) made.
  public static func apply(_ edits: [TextEdit], to bytes: [UInt8]) -> [UInt8] {
    var result = bytes
    for edit in edits.reversed() {
      result.replaceSubrange(edit.start..<edit.end, with: Array(edit.replacement.utf8))
    }
    return result
  }
}

/// A unified diff of two versions of a file, three lines of context.
public enum UnifiedDiff {
  public static func make(path: String, old: [UInt8], new: [UInt8]) -> String {
    let before = lines(old)
    let after = lines(new)
    guard before != after else { return "" }
    var out = "--- a/\(path)\n+++ b/\(path)\n"
    guard before.count == after.count else {
      out += "@@ -1,\(before.count) +1,\(after.count) @@\n"
      out += before.map { "-" + $0 + "\n" }.joined() + after.map { "+" + $0 + "\n" }.joined()
      return out
    }
    let changed = before.indices.filter { before[$0] != after[$0] }
    var hunks: [ClosedRange<Int>] = []
    for line in changed {
      let range = max(0, line - 3)...min(before.count - 1, line + 3)
      if let last = hunks.last, range.lowerBound <= last.upperBound + 1 {
        hunks[hunks.count - 1] = last.lowerBound...range.upperBound
      } else {
        hunks.append(range)
      }
    }
    for hunk in hunks {
      out += "@@ -\(hunk.lowerBound + 1),\(hunk.count) +\(hunk.lowerBound + 1),\(hunk.count) @@\n"
      for line in hunk {
        if before[line] == after[line] {
          out += " " + before[line] + "\n"
        } else {
          out += "-" + before[line] + "\n" + "+" + after[line] + "\n"
        }
      }
    }
    return out
  }

  static func lines(_ bytes: [UInt8]) -> [String] {
    let text = SourceText(bytes: bytes)
    return text.lineStarts.indices.map(text.lineText)
  }
}
