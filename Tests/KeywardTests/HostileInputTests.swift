import Foundation
import KeywardCLI
import KeywardReporters
import KeywardRules
import Testing

@testable import KeywardCore

/// Hostile trees: whatever happens to some files, the rest are scanned, the failures are listed,
/// and every report format stays complete and valid.
@Suite struct HostileInputTests {
  static let finding = EngineTests.finding + "\n"

  static func scanner() -> KeywardCore.Scanner {
    KeywardCore.Scanner(rules: Configuration().configuredRules(from: .standard))
  }

  func write(_ text: String, to url: URL) throws {
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
  }

  @Test func aFiftyMegabyteFileIsReportedAndSkipped() throws {
    let root = Paths.temporaryFolder()
    try write(Self.finding, to: root.appendingPathComponent("Small.swift"))
    let big = root.appendingPathComponent("Huge.swift")
    let chunk = Data(String(repeating: "// filler line for a huge generated file\n", count: 25_000).utf8)
    try #require(FileManager.default.createFile(atPath: big.path, contents: nil))
    let handle = try FileHandle(forWritingTo: big)
    while try handle.offset() < 50_000_000 { handle.write(chunk) }
    handle.write(Data(Self.finding.utf8))
    try handle.close()

    let result = try Self.scanner().scan(ScanRequest(paths: [root.path]))
    #expect(result.findings.map(\.location.path) == ["Small.swift"])
    let issue = try #require(result.errors.first)
    #expect(result.errors.count == 1 && issue.path == "Huge.swift" && issue.kind == .tooLarge)
    #expect(issue.message.contains("16777216-byte limit"))
  }

  @Test func filesDeletedOrReplacedDuringTheScanAreReported() throws {
    let root = Paths.temporaryFolder()
    for name in ["Deleted.swift", "Replaced.swift", "Locked.swift", "Good.swift"] {
      try write(Self.finding, to: root.appendingPathComponent(name))
    }
    var request = ScanRequest(paths: [root.path], jobs: 2)
    request.afterDiscovery = { files in
      #expect(files.count == 4)
      let manager = FileManager.default
      try? manager.removeItem(at: root.appendingPathComponent("Deleted.swift"))
      // A folder where a file was: unreadable even for root, who ignores permissions.
      try? manager.removeItem(at: root.appendingPathComponent("Replaced.swift"))
      try? manager.createDirectory(
        at: root.appendingPathComponent("Replaced.swift"), withIntermediateDirectories: false)
      chmod(root.appendingPathComponent("Locked.swift").path, 0)
    }
    let result = try Self.scanner().scan(request)
    let issues = Dictionary(uniqueKeysWithValues: result.errors.map { ($0.path, $0) })
    #expect(issues["Deleted.swift"]?.kind == .unreadable)
    #expect(
      issues["Deleted.swift"]?.message.contains("No such file") == true, "\(issues["Deleted.swift"]?.message ?? "")")
    #expect(issues["Replaced.swift"]?.kind == .unreadable)
    // Root reads a file with no permissions; anyone else gets "Permission denied".
    if geteuid() == 0 {
      #expect(issues["Locked.swift"] == nil && result.findings.contains { $0.location.path == "Locked.swift" })
    } else {
      #expect(issues["Locked.swift"]?.message.contains("Permission denied") == true)
    }
    #expect(result.findings.contains { $0.location.path == "Good.swift" })
  }

  @Test func pathsWithSpacesAndNonASCIIAreKeptExactly() throws {
    let root = Paths.temporaryFolder()
    let relative = "Mes Sources/Écran d’accueil/Coffre 🔐.swift"
    try write(Self.finding, to: root.appendingPathComponent(relative))
    let result = try Self.scanner().scan(ScanRequest(paths: [root.path]))
    #expect(result.findings.map(\.location.path) == [relative])

    let json = try JSONSerialization.jsonObject(with: Data(try JSONReporter().render(result).utf8)) as? [String: Any]
    let first = (json?["findings"] as? [[String: Any]])?.first
    #expect((first?["location"] as? [String: Any])?["path"] as? String == relative)
    let sarif = try SARIFReporter().render(result)
    #expect(sarif.contains("Mes%20Sources/%C3%89cran%20d%E2%80%99accueil/Coffre%20%F0%9F%94%90.swift"))
    #expect(URL(string: SARIFReporter.uri(for: relative))?.path == relative)
  }

  /// A tree with one file of each kind that cannot be scanned, and findings elsewhere.
  static func brokenTree() throws -> URL {
    let root = Paths.temporaryFolder()
    let files: [(String, [UInt8])] = [
      ("App/Good.swift", Array(finding.utf8)),
      ("App/Binary.swift", [0, 1, 2, 0xFF, 0, 0x41]),
      ("App/Latin1.swift", Array("let café = 1\n".utf8.map { $0 == 0xC3 ? 0xE9 : $0 }.filter { $0 != 0xA9 })),
      ("App/Broken.swift", Array("\(finding)func broken( {\n".utf8)),
      ("App/CRLF.swift", Array("// ü\n\(finding)".replacingOccurrences(of: "\n", with: "\r\n").utf8)),
      ("App/Bracket.swift", Array((finding + String(repeating: "[", count: 40)).utf8)),
      (
        "App/Legacy.m",
        Array("NSDictionary *q = @{(__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleAlways};\n".utf8)
      ),
    ]
    for (path, bytes) in files {
      let url = root.appendingPathComponent(path)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(bytes).write(to: url)
    }
    try FileManager.default.createSymbolicLink(
      atPath: root.appendingPathComponent("App/Gone.swift").path, withDestinationPath: "/no/such/file.swift")
    return root
  }

  @Test func everyReportIsCompleteAndValidWhenSomeFilesFail() throws {
    let root = try Self.brokenTree()
    let result = try Self.scanner().scan(ScanRequest(paths: [root.path]))
    let failed = Set(result.errors.map(\.path))
    #expect(
      failed.isSuperset(of: [
        "App/Binary.swift", "App/Latin1.swift", "App/Broken.swift", "App/Bracket.swift", "App/Gone.swift",
      ]))
    #expect(
      Set(result.findings.map(\.location.path)) == [
        "App/Good.swift", "App/Broken.swift", "App/CRLF.swift", "App/Legacy.m",
      ])
    let crlf = try #require(result.findings.first { $0.location.path == "App/CRLF.swift" })
    #expect(crlf.location.start.line == 2 && crlf.location.start.column == 30)

    let json = try JSONSerialization.jsonObject(with: Data(try JSONReporter().render(result).utf8)) as? [String: Any]
    #expect((json?["findings"] as? [Any])?.count == result.findings.count)
    #expect(Set(((json?["errors"] as? [[String: Any]]) ?? []).compactMap { $0["path"] as? String }) == failed)

    let sarif = try JSONSerialization.jsonObject(with: Data(try SARIFReporter().render(result).utf8)) as? [String: Any]
    let run = (sarif?["runs"] as? [[String: Any]])?.first
    #expect((run?["results"] as? [Any])?.count == result.findings.count)
    let invocation = (run?["invocations"] as? [[String: Any]])?.first
    #expect((invocation?["toolExecutionNotifications"] as? [Any])?.count == result.errors.count)

    for format in ReportFormat.allCases {
      let text = try format.reporter().render(result)
      for path in failed where format != .sarif {
        #expect(
          text.contains(path) || text.contains(path.replacingOccurrences(of: "/", with: "\\/")),
          "\(format) lacks \(path)")
      }
    }
  }

  @Test func theSameTreeGivesByteIdenticalJSONForAnyWorkerCount() throws {
    let root = try Self.brokenTree()
    try FileManager.default.copyItem(
      at: Paths.packageRoot.appendingPathComponent("Examples/VaultApp"), to: root.appendingPathComponent("VaultApp"))
    func json(jobs: Int) throws -> String {
      try JSONReporter().render(try Self.scanner().scan(ScanRequest(paths: [root.path], jobs: jobs)))
    }
    let reference = try json(jobs: 1)
    for jobs in [1, 2, 3, 8] { #expect(try json(jobs: jobs) == reference) }
  }

  @Test func aWorkItemOverTheTimeLimitIsGivenUpAndTheRestComplete() {
    let started = Date()
    let results = ParallelWork.map(count: 6, jobs: 2, timeLimit: 0.3, onTimeout: { -$0 }) { index in
      if index == 2 { Thread.sleep(forTimeInterval: 3) }
      return index
    }
    #expect(results == [0, 1, -2, 3, 4, 5])
    #expect(Date().timeIntervalSince(started) < 2.5)
    #expect(KeywardCore.Scanner.seconds(60) == "60" && Scanner.seconds(0.5) == "0.5")
  }

  @Test func theTimeLimitOptionIsValidated() {
    let example = Paths.packageRoot.appendingPathComponent("Examples/VaultApp").path
    #expect(KeywardCLI.run(["scan", example, "--file-time-limit", "-1"]).status == 2)
    #expect(KeywardCLI.run(["scan", example, "--file-time-limit", "0", "--fail-on", "none"]).status == 0)
  }
}
