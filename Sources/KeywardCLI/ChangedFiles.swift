import Foundation
import KeywardCore

/// The files changed since a git revision, for scanning only what a pull request touches.
enum ChangedFiles {
  /// Paths relative to `root` of files changed since `revision` (committed or not) and of new
  /// untracked files.
  static func since(_ revision: String, root: String) throws -> Set<String> {
    // Asked first so that outside a repository the answer is one line, not git's usage.
    guard (try? git(["rev-parse", "--is-inside-work-tree"], in: root)) != nil else {
      throw UsageError("--changed-since needs a git repository, and \(root) is not in one")
    }
    guard (try? git(["rev-parse", "--verify", "--quiet", revision + "^{commit}"], in: root)) != nil else {
      throw UsageError("--changed-since: '\(revision)' is not a revision of the repository at \(root)")
    }
    let changed = try git(["diff", "--name-only", "--relative", revision, "--"], in: root)
    let untracked = try git(["ls-files", "--others", "--exclude-standard"], in: root)
    return Set((changed + "\n" + untracked).split(separator: "\n").map(String.init))
  }

  private static func git(_ arguments: [String], in folder: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["git", "-C", folder] + arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    do {
      try process.run()
    } catch {
      throw UsageError("--changed-since needs git: \(error.localizedDescription)")
    }
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let problem = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      let reason = problem.split(separator: "\n").first.map(String.init) ?? "exit status \(process.terminationStatus)"
      throw UsageError("--changed-since: git \(arguments.first ?? "") failed: \(reason)")
    }
    return text
  }
}
