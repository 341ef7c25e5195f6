import Foundation

/// Runs git for the options that read a repository (`--changed-since`, `--baseline-commit`) and
/// for the scan record (the commit scanned).
enum Git {
  /// git's standard output for `arguments`, run in `folder`. A failure is a one-line usage error
  /// naming `option`, the command-line option that needed git.
  static func run(
    _ arguments: [String], in folder: String, for option: String, environment: [String: String] = [:]
  ) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["git", "-C", folder] + arguments
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, given in given }
    }
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    do {
      try process.run()
    } catch {
      throw UsageError("\(option) needs git: \(error.localizedDescription)")
    }
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let problem = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      let reason = problem.split(separator: "\n").first.map(String.init) ?? "exit status \(process.terminationStatus)"
      throw UsageError("\(option): git \(arguments.first ?? "") failed: \(reason)")
    }
    return text
  }

  /// The commit `revision` names in the repository holding `folder`, in full. Outside a
  /// repository, or for a revision the repository does not have, a one-line usage error.
  static func commit(_ revision: String, in folder: String, for option: String) throws -> String {
    // Asked first so that outside a repository the answer is one line, not git's usage.
    guard (try? run(["rev-parse", "--is-inside-work-tree"], in: folder, for: option)) != nil else {
      throw UsageError("\(option) needs a git repository, and \(folder) is not in one")
    }
    guard
      let commit = try? run(["rev-parse", "--verify", "--quiet", revision + "^{commit}"], in: folder, for: option)
        .trimmingCharacters(in: .whitespacesAndNewlines), !commit.isEmpty
    else {
      throw UsageError("\(option): '\(revision)' is not a revision of the repository at \(folder)")
    }
    return commit
  }

  /// The commit checked out where `folder` lies and whether the files under `folder` differ from
  /// it (untracked files included); nil outside a repository, before the first commit, or
  /// without git.
  static func state(of folder: String) -> (commit: String, hasUncommittedChanges: Bool)? {
    guard
      let commit = try? run(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], in: folder, for: "git")
        .trimmingCharacters(in: .whitespacesAndNewlines), !commit.isEmpty
    else { return nil }
    // Without optional locks: a scan only reads, even while an editor or another git runs.
    let status = try? run(
      ["status", "--porcelain", "--", "."], in: folder, for: "git", environment: ["GIT_OPTIONAL_LOCKS": "0"])
    return (commit, status.map { !$0.isEmpty } ?? true)
  }
}
