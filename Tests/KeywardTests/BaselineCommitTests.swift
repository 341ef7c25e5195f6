import Foundation
import KeywardCLI
import KeywardCore
import Testing

/// `keyward scan --baseline-commit REV`: findings already present at REV are suppressed as by a
/// baseline, so only new ones count.
@Suite struct BaselineCommitTests {
  static let weak = "let q = [kSecAttrAccessible: kSecAttrAccessibleAlways]\n"
  static let alsoWeak = "let r = [kSecAttrAccessible: kSecAttrAccessibleAlwaysThisDeviceOnly]\n"

  /// Each finding's path and, after a space, its suppression ("baseline" or ""), sorted, from
  /// the CSV report.
  static func rows(_ output: CommandOutput) -> [String] {
    let lines = output.standardOutput.split(whereSeparator: \.isNewline)
    let header = lines.first?.split(separator: ",") ?? []
    // Counted from the end: the quoted message before it may hold commas.
    let fromEnd = header.count - (header.firstIndex(of: "suppressed") ?? 8)
    return lines.dropFirst().map { line in
      let columns = line.split(separator: ",", omittingEmptySubsequences: false)
      return "\(columns[3]) \(columns[columns.count - fromEnd])"
    }.sorted()
  }

  @Test func onlyFindingsNewSinceTheCommitCount() throws {
    let repository = try GitRepository(files: ["Old.swift": Self.weak])
    let root = repository.root.path
    // Nothing new since HEAD: the finding already there does not fail the scan.
    let unchanged = KeywardCLI.run(["scan", root, "--baseline-commit", "HEAD", "--format", "csv"])
    #expect(unchanged.status == 0, "\(unchanged.output.standardError)")
    #expect(Self.rows(unchanged.output) == ["Old.swift baseline"])
    #expect(KeywardCLI.run(["scan", root]).status == 1, "without the option it still fails")

    // A second weak finding, in a new file and in the old one: those two count.
    try repository.write("New.swift", Self.weak)
    try repository.write("Old.swift", "// moved down\n" + Self.weak + Self.alsoWeak)
    let status = try repository.git("status", "--porcelain")
    let added = KeywardCLI.run(["scan", root, "--baseline-commit", "HEAD", "--format", "json"])
    #expect(added.status == 1)
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(added.output.standardOutput.utf8)) as? [String: Any])
    let findings = try #require(report["findings"] as? [[String: Any]])
    let active = findings.filter { $0["suppression"] is NSNull }.map {
      (($0["location"] as? [String: Any])?["path"] as? String ?? "", ($0["snippet"] as? String) ?? "")
    }
    #expect(active.map(\.0).sorted() == ["New.swift", "Old.swift"])
    #expect(active.contains { $0 == ("Old.swift", String(Self.alsoWeak.dropLast())) })
    let suppressed = findings.compactMap { $0["suppression"] as? [String: Any] }
    #expect(suppressed.count == 1)
    #expect(suppressed.first?["kind"] as? String == "baseline")
    #expect(suppressed.first?["justification"] as? String == "already present at HEAD")
    // The repository is left as it was: no worktree, no index change.
    #expect(try repository.git("status", "--porcelain") == status)
    #expect(try repository.git("worktree", "list").split(separator: "\n").count == 1)

    // Committed, the changes are no longer new; against the commit before, they still are.
    try repository.commitAll("second")
    let committed = KeywardCLI.run(["scan", root, "--baseline-commit", "HEAD", "--format", "csv"])
    #expect(committed.status == 0)
    #expect(Self.rows(committed.output) == ["New.swift baseline", "Old.swift baseline", "Old.swift baseline"])
    let before = KeywardCLI.run(["scan", root, "--baseline-commit", "HEAD~1", "--format", "csv"])
    #expect(before.status == 1)
    #expect(Self.rows(before.output) == ["New.swift ", "Old.swift ", "Old.swift baseline"])
  }

  /// Paths are relative to the scan root, which maps to the same folder in the commit's tree:
  /// a subfolder, files, and a folder the commit did not have all keep their findings' identity.
  /// The configuration's globs, relative to its own folder (the repository's top here), select
  /// the same files in both trees.
  @Test func aSubfolderOfTheRepositoryMatchesItsOwnPastFindings() throws {
    let repository = try GitRepository(files: [
      "App/Sources/Old.swift": Self.weak, "Lib/L.swift": Self.weak, ".keyward.yml": "include: [\"App/**\"]\n",
    ])
    try repository.write("App/Sources/New.swift", Self.weak)
    try repository.write("App/Fresh/F.swift", Self.weak)
    let app = repository.root.appendingPathComponent("App").path
    let scan = KeywardCLI.run(["scan", app, "--baseline-commit", "HEAD", "--format", "csv"])
    #expect(scan.status == 1)
    #expect(Self.rows(scan.output) == ["Fresh/F.swift ", "Sources/New.swift ", "Sources/Old.swift baseline"])

    // Files named one by one, one of them in a folder the commit did not have: the root stays
    // their common folder at the commit.
    let old = repository.root.appendingPathComponent("App/Sources/Old.swift").path
    let new = repository.root.appendingPathComponent("App/Fresh/F.swift").path
    let files = KeywardCLI.run(["scan", new, old, "--baseline-commit", "HEAD", "--format", "csv"])
    #expect(Self.rows(files.output) == ["Fresh/F.swift ", "Sources/Old.swift baseline"])
    let fresh = repository.root.appendingPathComponent("App/Fresh").path
    #expect(KeywardCLI.run(["scan", fresh, "--baseline-commit", "HEAD"]).status == 1)
    #expect(KeywardCLI.run(["scan", old, "--baseline-commit", "HEAD"]).status == 0)
  }

  @Test func outsideARepositoryOrWithAnUnknownRevisionItSaysSoInOneLine() throws {
    let folder = try Paths.tree(["A.swift": Self.weak])
    let outside = KeywardCLI.run(["scan", folder.path, "--baseline-commit", "HEAD"])
    #expect(outside.status == 2)
    #expect(
      outside.output.standardError
        == "keyward: error: --baseline-commit needs a git repository, and \(folder.path) is not in one\n")
    let repository = try GitRepository(files: ["A.swift": Self.weak])
    let unknown = KeywardCLI.run(["scan", repository.root.path, "--baseline-commit", "no-such-revision"])
    #expect(unknown.status == 2)
    #expect(
      unknown.output.standardError
        == "keyward: error: --baseline-commit: 'no-such-revision' is not a revision of the repository at \(repository.root.path)\n"
    )
    #expect(unknown.output.standardOutput.isEmpty)
  }

  @Test func aBaselineFileAndABaselineCommitTogetherEachSuppressTheirOwn() throws {
    let repository = try GitRepository(files: ["Old.swift": Self.weak])
    try repository.write("New.swift", Self.weak)
    let baseline = Paths.temporaryFolder().appendingPathComponent("baseline.json").path
    let root = repository.root.path
    #expect(KeywardCLI.run(["baseline", "create", baseline, root]).status == 0)
    try repository.write("Newer.swift", Self.weak)
    let scan = KeywardCLI.run([
      "scan", root, "--baseline", baseline, "--baseline-commit", "HEAD", "--format", "html", "--fail-on", "none",
    ])
    let html = scan.output.standardOutput
    #expect(html.contains("Newer.swift:1:30"))
    #expect(!html.contains("<code>New.swift:1:30") && !html.contains("<code>Old.swift:1:30"))
    #expect(html.contains("2 suppressed"))
    let head = try repository.git("rev-parse", "HEAD").trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(
      html.contains(
        "<tr><th>Baseline</th><td>findings in <code>\(baseline)</code> and findings already present at <code>HEAD</code> (<code>\(head)</code>) are suppressed; only new findings are listed</td></tr>"
      ))
  }
}
