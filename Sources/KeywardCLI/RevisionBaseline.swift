import Foundation
import KeywardCore

/// The findings the scanned paths had at a git revision (`--baseline-commit`), to report only
/// those that are new since: the revision's files under the scan root are written to a
/// temporary folder (through a temporary index, so the repository, its index and its working
/// tree are left as they are) and scanned as the working tree is, with the same configuration
/// and options. Finding paths are relative to the scan root in both trees, so fingerprints match.
enum RevisionBaseline {
  static let option = "--baseline-commit"

  /// The commit `revision` names and the findings `request` gives on that commit's files.
  static func findings(
    at revision: String, request: ScanRequest, scanner: KeywardCore.Scanner
  ) throws -> (commit: String, findings: [Finding]) {
    let targets = try FileDiscovery.existingAbsolutePaths(request.paths)
    let root = request.root ?? FileDiscovery.scanRoot(for: targets)
    let commit = try Git.commit(revision, in: root, for: option)
    // Where the scan root lies in the repository ("" at its top, else "App/Sources/").
    let prefix = try Git.run(["rev-parse", "--show-prefix"], in: root, for: option)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let top = try Git.run(["rev-parse", "--show-toplevel"], in: root, for: option)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    // The scan root did not exist at that commit: every finding is new.
    let tree = prefix.isEmpty ? commit + "^{tree}" : commit + ":" + String(prefix.dropLast())
    let kind = try? Git.run(["cat-file", "-t", tree], in: root, for: option)
    guard kind?.trimmingCharacters(in: .whitespacesAndNewlines) == "tree" else { return (commit, []) }
    let temporary = FileManager.default.temporaryDirectory
      .appendingPathComponent("keyward-baseline-\(UUID().uuidString)").path
    do {
      try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
    } catch {
      throw UsageError("\(option): cannot make a temporary folder: \(error.localizedDescription)")
    }
    defer { try? FileManager.default.removeItem(atPath: temporary) }
    let checkout = temporary + "/tree"
    let index = ["GIT_INDEX_FILE": temporary + "/index"]
    if prefix.isEmpty {
      _ = try Git.run(["read-tree", tree], in: top, for: option, environment: index)
    } else {
      _ = try Git.run(["read-tree", "--prefix=" + prefix, tree], in: top, for: option, environment: index)
    }
    _ = try Git.run(
      ["checkout-index", "--all", "--prefix=" + checkout + "/"], in: top, for: option, environment: index)

    // Each path scanned, at the same place under the copy of the root; those the commit did not
    // have are left out.
    let copiedRoot = checkout + (prefix.isEmpty ? "" : "/" + String(prefix.dropLast()))
    let rootPrefix = root.hasSuffix("/") ? root : root + "/"
    let copies = targets.compactMap { target -> String? in
      let copy = target == root ? copiedRoot : copiedRoot + "/" + target.dropFirst(rootPrefix.count)
      return FileManager.default.fileExists(atPath: copy) ? copy : nil
    }
    guard !copies.isEmpty else { return (commit, []) }
    var copied = request
    copied.paths = copies
    copied.root = copiedRoot
    copied.configurationGlobRoot = root
    copied.cacheFolder = nil
    copied.findingSink = nil
    copied.progress = nil
    copied.contextLines = 0
    return (commit, try scanner.scan(copied).findings)
  }
}
