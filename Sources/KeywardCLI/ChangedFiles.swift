import Foundation
import KeywardCore

/// The files changed since a git revision, for scanning only what a pull request touches.
enum ChangedFiles {
  /// Paths relative to `root` of files changed since `revision` (committed or not) and of new
  /// untracked files.
  static func since(_ revision: String, root: String) throws -> Set<String> {
    let option = "--changed-since"
    _ = try Git.commit(revision, in: root, for: option)
    let changed = try Git.run(["diff", "--name-only", "--relative", revision, "--"], in: root, for: option)
    let untracked = try Git.run(["ls-files", "--others", "--exclude-standard"], in: root, for: option)
    return Set((changed + "\n" + untracked).split(separator: "\n").map(String.init))
  }
}
