import Foundation
import KeywardCLI
import KeywardCore
import Testing

@testable import KeywardReporters

/// The auditor's page, driven through the command line: the scan record at the top, the code
/// around each finding, and the filter by where code lives.
@Suite struct HTMLReportTests {
  static let weak = "let q = [kSecAttrAccessible: kSecAttrAccessibleAlways]\n"

  static func html(_ arguments: [String]) -> String {
    KeywardCLI.run(["scan"] + arguments + ["--format", "html", "--fail-on", "none"]).output.standardOutput
  }

  /// The text of the scan record's row `name`, tags and all.
  static func recordRow(_ html: String, _ name: String) -> String? {
    guard let row = html.range(of: "<tr><th>\(name)</th><td>") else { return nil }
    return String(html[row.upperBound...].prefix { $0 != "\n" }.components(separatedBy: "</td></tr>")[0])
  }

  // MARK: The scan record

  @Test func theScanRecordSaysWhatWhenAtWhichCommitAndWithWhichSettings() throws {
    let repository = try GitRepository(files: [
      "App/A.swift": Self.weak, ".keyward.yml": "exclude: [\"App/Generated/**\"]\n",
    ])
    let config = repository.root.appendingPathComponent(".keyward.yml").path
    let scanned = repository.root.appendingPathComponent("App").path
    let html = Self.html([scanned, "--profile", "strict", "--config", config])
    // At the top: after the summary, before the rules.
    let record = try #require(html.range(of: "<h2>Scan record</h2>"))
    #expect(record.lowerBound < html.range(of: "<h2>By rule</h2>")!.lowerBound)
    #expect(Self.recordRow(html, "Scanned")?.hasPrefix("<code>\(scanned)</code>") == true)
    let date = try #require(Self.recordRow(html, "Date"))
    #expect(date.wholeMatch(of: /<time>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ<\/time>/) != nil, "\(date)")
    #expect(Self.recordRow(html, "Git commit") == "<code>\(repository.head)</code> (no uncommitted changes)")
    #expect(Self.recordRow(html, "Keyward") == KeywardVersion.current)
    #expect(Self.recordRow(html, "Profile") == "strict")
    // The digest is that of `keyward config print` with the same file and profile, byte for byte.
    let printed = KeywardCLI.run(["config", "print", "--config", config, "--profile", "strict"]).output.standardOutput
    let configuration = try #require(Self.recordRow(html, "Configuration"))
    #expect(configuration.hasPrefix("<code>\(config)</code><br>"))
    #expect(configuration.contains("<code class=\"digest\">\(SHA256.hex(printed.utf8))</code>"))
    #expect(Self.recordRow(html, "Baseline") == nil)

    // A change anywhere under the scanned folder, an untracked file included, is said.
    try Self.weak.write(
      to: repository.root.appendingPathComponent("App/New.swift"), atomically: true, encoding: .utf8)
    #expect(
      Self.recordRow(Self.html([scanned]), "Git commit")
        == "<code>\(repository.head)</code> (with uncommitted changes)")
  }

  @Test func outsideARepositoryTheRecordSaysSoAndNamesTheDefaults() throws {
    let root = try Paths.tree(["A.swift": Self.weak])
    let html = Self.html([root.path])
    #expect(Self.recordRow(html, "Git commit") == "none (not in a git repository)")
    #expect(Self.recordRow(html, "Configuration")?.hasPrefix("defaults (no configuration file)<br>") == true)
    #expect(Self.recordRow(html, "Profile") == "standard")
  }

  /// The record is for the page: the machine-read formats stay as they were, record or not.
  @Test func jsonAndSARIFDoNotChangeWithARecord() throws {
    var result = ReporterFormatTests.result
    let plain = try [JSONReporter().render(result), SARIFReporter().render(result)]
    result.record = ScanRecord(
      paths: ["."], date: Date(timeIntervalSince1970: 0), profile: .standard, configurationDigest: "00")
    #expect(try [JSONReporter().render(result), SARIFReporter().render(result)] == plain)
    #expect(try HTMLReporter().render(result).contains("<time>1970-01-01T00:00:00Z</time>"))
    for format in ReportFormat.allCases { #expect(format.printsScanRecord == (format == .html), "\(format)") }
  }

  @Test func theDateComesFromSourceDateEpochWhenSet() {
    let now = Date(timeIntervalSince1970: 1_000)
    #expect(ScanRecord.date(environment: [:], now: now) == now)
    #expect(ScanRecord.date(environment: ["SOURCE_DATE_EPOCH": "1700000000"], now: now).timeIntervalSince1970 == 1.7e9)
    #expect(ScanRecord.date(environment: ["SOURCE_DATE_EPOCH": "soon"], now: now) == now)
    #expect(ScanRecord.timestamp(Date(timeIntervalSince1970: 1_700_000_000)) == "2023-11-14T22:13:20Z")
  }

  @Test func sha256MatchesTheStandardsVectors() {
    #expect(SHA256.hex("".utf8) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(SHA256.hex("abc".utf8) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    // 55, 56 and 64 bytes: the padding's edges.
    #expect(
      SHA256.hex(Array(repeating: UInt8(ascii: "a"), count: 55))
        == "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318")
    #expect(
      SHA256.hex(Array(repeating: UInt8(ascii: "a"), count: 56))
        == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
    #expect(
      SHA256.hex(Array(repeating: UInt8(ascii: "a"), count: 64))
        == "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
  }

  // MARK: The code around each finding

  @Test func eachFindingShowsTwoLinesAroundItsOwnNumbered() throws {
    let lines = (1...9).map { "// line \($0)" }
    var middle = lines
    middle[4] = Self.weak.dropLast() + " // line 5"
    let root = try Paths.tree([
      "Middle.swift": middle.joined(separator: "\n") + "\n", "Top.swift": Self.weak + "// after\n",
    ])
    let html = Self.html([root.path])
    let middleCode = try #require(Self.code(html, after: "Middle.swift:5:30"))
    #expect(
      middleCode == [
        "<span class=\"line\">3</span>// line 3", "<span class=\"line\">4</span>// line 4",
        "<span class=\"line hit\">5</span>let q = [kSecAttrAccessible: <mark>kSecAttrAccessibleAlways</mark>] // line 5",
        "<span class=\"line\">6</span>// line 6", "<span class=\"line\">7</span>// line 7",
      ])
    // At the top of a file there is nothing before; at its end, no empty line after the last.
    let topCode = try #require(Self.code(html, after: "Top.swift:1:30"))
    #expect(topCode.count == 2)
    #expect(topCode[0].hasPrefix("<span class=\"line hit\">1</span>"))
    #expect(topCode[1] == "<span class=\"line\">2</span>// after")
  }

  /// The lines of the code block of the finding at `place`.
  static func code(_ html: String, after place: String) -> [String]? {
    guard let finding = html.range(of: "<code>\(place)</code>"),
      let start = html.range(of: "<pre class=\"code\">", range: finding.upperBound..<html.endIndex),
      let end = html.range(of: "</pre>", range: start.upperBound..<html.endIndex)
    else { return nil }
    return html[start.upperBound..<end.lowerBound].components(separatedBy: "\n")
  }

  @Test func aFindingOverSeveralLinesIsMarkedOnEachOfThem() {
    let position = { (line: Int, column: Int) in
      SourcePosition(line: line, column: column, utf16Column: column, offset: 0)
    }
    let finding = Finding(
      ruleId: "r", severity: .high, confidence: .high, message: "m",
      location: SourceLocation(path: "A.swift", start: position(2, 5), end: position(4, 3)), snippet: "let a = f(",
      tags: [], fingerprint: "")
    var excerpted = finding
    excerpted.excerpt = CodeExcerpt(firstLine: 1, lines: ["// one", "let a = f(", "", "  x)", "// five"])
    #expect(
      HTMLReporter.code(excerpted) == "<pre class=\"code\"><span class=\"line\">1</span>// one\n"
        + "<span class=\"line hit\">2</span>let <mark>a = f(</mark>\n<span class=\"line hit\">3</span>\n"
        + "<span class=\"line hit\">4</span><mark>  </mark>x)\n<span class=\"line\">5</span>// five</pre>")
    // Without the lines around it (a report made from a result read back), its own line alone.
    #expect(
      HTMLReporter.code(finding) == "<pre class=\"code\"><span class=\"line hit\">2</span>let <mark>a = f(</mark></pre>"
    )
  }

  @Test func linesAroundFindingsAreKeptOnlyWhenAskedForAndAlsoFromTheCache() throws {
    let root = try Paths.tree(["A.swift": "// one\n" + Self.weak + "// three\n"])
    let cache = Paths.temporaryFolder().path
    let scanner = Scanner(rules: Configuration().configuredRules(from: .standard))
    var request = ScanRequest(paths: [root.path])
    #expect(try scanner.scan(request).findings.allSatisfy { $0.excerpt == nil })
    request.contextLines = 2
    request.cacheFolder = cache
    let expected = CodeExcerpt(firstLine: 1, lines: ["// one", String(Self.weak.dropLast()), "// three"])
    for run in ["first run", "from the cache"] {
      let findings = try scanner.scan(request).findings
      #expect(!findings.isEmpty)
      #expect(findings.allSatisfy { $0.excerpt == expected }, "\(run)")
    }
  }

  @Test func findingsInABuiltAppShowNoCode() {
    let html = Self.html([BinaryTests.fixture("VaultLegacy.app").path])
    #expect(html.contains("<article class=\"finding"))
    #expect(!html.contains("<pre class=\"code\">"))
  }

  // MARK: The filter by where code lives

  @Test func findingsCanBeShownAndHiddenByWhereTheirCodeLives() throws {
    let root = try Paths.tree([
      "Sources/A.swift": Self.weak,
      "Tests/ATests.swift": Self.weak + Self.weak.replacingOccurrences(of: "q", with: "r"),
      "Vendor/Lib/B.swift": Self.weak,
    ])
    let html = Self.html([root.path])
    for (origin, label) in [("app", "app code (1)"), ("test", "tests (2)"), ("third-party", "third-party code (1)")] {
      #expect(html.contains("<input type=\"checkbox\" id=\"show-\(origin)\" checked> \(label)</label>"), "\(origin)")
      #expect(html.contains("body:has(#show-\(origin):not(:checked)) .finding.origin-\(origin){display:none}"))
    }
    #expect(!html.contains("show-sample") && !html.contains("show-generated"))
    #expect(html.components(separatedBy: "<article class=\"finding origin-test\">").count == 3)
    #expect(html.contains("<article class=\"finding origin-third-party\">"))
    // A rule hides when nothing of it is left to show.
    #expect(html.contains(".rule:is(body:has(#show-app:not(:checked)) *,:not(:has(.origin-app)))"))
    // Still self-contained, and without script.
    #expect(!html.contains("<script") && !html.contains("src=") && !html.contains("<link"))

    // Code in one place only: nothing to filter.
    let appOnly = Self.html([try Paths.tree(["A.swift": Self.weak]).path])
    #expect(appOnly.contains("<article class=\"finding origin-app\">"))
    #expect(!appOnly.contains("<form class=\"filter\">") && !appOnly.contains(":has("))
  }
}

/// A temporary git repository holding `files`, committed.
struct GitRepository {
  let root: URL

  init(files: [String: String]) throws {
    root = try Paths.tree(files)
    try git("init", "-q")
    try commitAll("first")
  }

  @discardableResult
  func git(_ arguments: String...) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments =
      [
        "git", "-C", root.path, "-c", "user.name=Test", "-c", "user.email=test@example.com", "-c",
        "commit.gpgsign=false",
      ]
      + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "git \(arguments)")
    return text
  }

  func commitAll(_ message: String) throws {
    try git("add", "-A")
    try git("commit", "-q", "-m", message)
  }

  var head: String { (try? git("rev-parse", "HEAD").trimmingCharacters(in: .whitespacesAndNewlines)) ?? "" }

  func write(_ path: String, _ text: String) throws {
    let url = root.appendingPathComponent(path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try text.write(to: url, atomically: true, encoding: .utf8)
  }
}
