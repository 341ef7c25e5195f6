import Foundation
import KeywardCLI
import KeywardCore
import KeywardRules
import Testing

/// `keyward config init/print`, `include:` and `--changed-since`.
@Suite struct ConfigCommandTests {
  static let weak = "let a = SecAccessControlCreateWithFlags(nil, p, .biometryAny, nil)\n"

  @Test func theStarterFileLoadsCleanlyAndThePrintedConfigurationReadsBack() throws {
    let root = Paths.temporaryFolder()
    let starter = root.appendingPathComponent(".keyward.yml")
    #expect(KeywardCLI.run(["config", "init", "--path", starter.path]).status == 0)
    let loaded = try ConfigLoader(catalog: .standard).load(path: starter.path)
    #expect(loaded.warnings.isEmpty)
    #expect(KeywardCLI.run(["config", "init", "--path", starter.path]).status == 2)

    let printed = KeywardCLI.run(["config", "print", "--config", starter.path, "--profile", "strict"]).output
      .standardOutput
    for id in RuleCatalog.standard.ids { #expect(printed.contains("  \(id):")) }
    let copy = root.appendingPathComponent("printed.yml")
    try printed.write(to: copy, atomically: true, encoding: .utf8)
    let reread = try ConfigLoader(catalog: .standard).load(path: copy.path)
    #expect(reread.warnings.isEmpty)
    #expect(reread.profile == .strict)
    let again = KeywardCLI.run(["config", "print", "--config", copy.path]).output.standardOutput
    #expect(again.split(separator: "\n").dropFirst() == printed.split(separator: "\n").dropFirst())
  }

  @Test func includeGlobsLimitTheScan() throws {
    let root = Paths.temporaryFolder()
    for name in ["App/A.swift", "Tests/B.swift"] {
      let url = root.appendingPathComponent(name)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Self.weak.write(to: url, atomically: true, encoding: .utf8)
    }
    try "include: [\"App/**\"]\n".write(
      to: root.appendingPathComponent(".keyward.yml"), atomically: true, encoding: .utf8)
    let output = KeywardCLI.run(["scan", root.path]).output.standardOutput
    #expect(output.contains("App/A.swift") && !output.contains("Tests/B.swift"))
  }

  @Test func changedSinceScansOnlyChangedAndNewFiles() throws {
    let root = Paths.temporaryFolder()
    func git(_ arguments: String...) throws {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments =
        ["git", "-C", root.path, "-c", "user.name=Test", "-c", "user.email=test@example.com"] + arguments
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      process.waitUntilExit()
      #expect(process.terminationStatus == 0, "git \(arguments)")
    }
    try git("init", "-q")
    for name in ["Old.swift", "Changed.swift"] {
      try Self.weak.write(to: root.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
    try git("add", ".")
    try git("commit", "-q", "-m", "first")
    try ("// edited\n" + Self.weak).write(
      to: root.appendingPathComponent("Changed.swift"), atomically: true, encoding: .utf8)
    try Self.weak.write(to: root.appendingPathComponent("New.swift"), atomically: true, encoding: .utf8)
    let (_, output) = KeywardCLI.run(["scan", root.path, "--changed-since", "HEAD", "--format", "csv"])
    let paths = output.standardOutput.split(separator: "\r\n").dropFirst().map { $0.split(separator: ",")[3] }
    #expect(Set(paths) == ["Changed.swift", "New.swift"])
    let bad = KeywardCLI.run(["scan", root.path, "--changed-since", "no-such-revision"])
    #expect(bad.status == 2)
    #expect(
      bad.output.standardError.contains("--changed-since: 'no-such-revision' is not a revision of the repository"))
  }
}
