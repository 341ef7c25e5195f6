import Foundation
import KeywardCore
import KeywardRules
import Testing

/// The scan engine on odd input: every file that can be scanned is, every one that cannot is
/// reported with a reason, and nothing stops the rest of the scan.
@Suite struct EngineTests {
  static let finding = "let q = [kSecAttrAccessible: kSecAttrAccessibleAlways]"

  func scan(_ root: URL, jobs: Int = 1, maximumFileSize: Int = FileScanner.defaultMaximumFileSize) throws -> ScanResult
  {
    try Scanner(rules: Configuration().configuredRules(from: .standard))
      .scan(ScanRequest(paths: [root.path], jobs: jobs, maximumFileSize: maximumFileSize))
  }

  func write(_ bytes: [UInt8], to url: URL) throws {
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(bytes).write(to: url)
  }

  @Test func oddFilesAreReportedAndTheRestIsScanned() throws {
    let root = Paths.temporaryFolder()
    try write(Array((Self.finding + "\n").utf8), to: root.appendingPathComponent("Good.swift"))
    try write(
      [0x00, 0x01, 0x02, 0xFF, 0x00] + Array(Self.finding.utf8), to: root.appendingPathComponent("Binary.swift"))
    try write(
      Array("// caf".utf8) + [0xE9, 0x0A] + Array(Self.finding.utf8), to: root.appendingPathComponent("Latin.swift"))
    try write([], to: root.appendingPathComponent("Empty.swift"))
    try write(
      [0x00] + Array("GITCRYPT".utf8) + [0x00, 0xC4, 0x58, 0x76], to: root.appendingPathComponent("Keys.swift"))
    try write(Array("\(Self.finding)\nfunc broken( {\n".utf8), to: root.appendingPathComponent("Broken.swift"))
    try FileManager.default.createSymbolicLink(
      atPath: root.appendingPathComponent("Dangling.swift").path, withDestinationPath: "/no/such/file.swift")
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("Folder.swift"), withIntermediateDirectories: true)
    try write(Array((Self.finding + "\n").utf8), to: root.appendingPathComponent("Folder.swift/Inside.swift"))
    try FileManager.default.createSymbolicLink(
      atPath: root.appendingPathComponent("Folder.swift/Loop").path, withDestinationPath: root.path)

    let result = try scan(root)
    // A Latin-1 byte in a comment is read as `?`: the rest of the file is scanned, and said so.
    #expect(
      result.findings.map(\.location.path) == [
        "Broken.swift", "Folder.swift/Inside.swift", "Good.swift", "Latin.swift",
      ])
    #expect(result.findings.last?.location.start.line == 2)
    #expect(result.errors.first { $0.path == "Latin.swift" }?.message.contains("read as `?`") == true)
    let issues = Dictionary(uniqueKeysWithValues: result.errors.map { ($0.path, $0.kind) })
    #expect(
      issues == [
        "Binary.swift": .binary, "Latin.swift": .encoding, "Broken.swift": .parse, "Dangling.swift": .unreadable,
        "Keys.swift": .binary,
      ])
    #expect(result.errors.first { $0.path == "Dangling.swift" }?.message.contains("broken symbolic link") == true)
    #expect(result.errors.first { $0.path == "Keys.swift" }?.message.contains("git-crypt unlock") == true)
    #expect(result.errors.first { $0.path == "Binary.swift" }?.message.contains("git-crypt") == false)
  }

  @Test func filesOverTheSizeLimitAreReportedNotRead() throws {
    let root = Paths.temporaryFolder()
    try write(Array((Self.finding + "\n").utf8), to: root.appendingPathComponent("Small.swift"))
    try write(
      Array((String(repeating: "// filler\n", count: 100) + Self.finding).utf8),
      to: root.appendingPathComponent("Big.swift"))
    let result = try scan(root, maximumFileSize: 200)
    #expect(result.findings.map(\.location.path) == ["Small.swift"])
    #expect(result.errors.map(\.kind) == [.tooLarge])
    #expect(result.errors.first?.message.contains("200-byte limit") == true)
  }

  @Test func filesThatCannotMatchAreNotParsed() throws {
    let root = Paths.temporaryFolder()
    try write(Array("struct A {}\n".utf8), to: root.appendingPathComponent("A.swift"))
    try write(Array("struct B {}\n".utf8), to: root.appendingPathComponent("B.swift"))
    try write(Array((Self.finding + "\n").utf8), to: root.appendingPathComponent("C.swift"))
    let result = try scan(root)
    #expect(result.filesScanned == 3)
    #expect(result.filesParsed == 1)
  }

  @Test(arguments: [
    ("\n", [UInt8]()), ("\r\n", []), ("\r", []), ("\n", [0xEF, 0xBB, 0xBF]),
  ])
  func lineEndingsAndByteOrderMarkKeepColumnsExact(_ lineBreak: String, _ prefix: [UInt8]) throws {
    let code = "let x = 1" + lineBreak + "  " + Self.finding + lineBreak
    let outcome = FileScanner(rules: Configuration().configuredRules(from: .standard))
      .scan(bytes: prefix + Array(code.utf8), path: "A.swift")
    let finding = try #require(outcome.findings.first)
    #expect(finding.location.start.line == 2)
    #expect(finding.location.start.column == 32)
    #expect(finding.snippet == "  " + Self.finding)
    let firstLine = FileScanner(rules: Configuration().configuredRules(from: .standard))
      .scan(bytes: prefix + Array((Self.finding + lineBreak).utf8), path: "A.swift")
    #expect(firstLine.findings.first?.location.start.column == 30)
    #expect(firstLine.findings.first?.location.start.utf16Column == 30)
  }

  @Test func pathsAreRelativeToTheScanRoot() throws {
    let root = Paths.temporaryFolder()
    try write(Array((Self.finding + "\n").utf8), to: root.appendingPathComponent("App/Sources/A.swift"))
    try write(Array((Self.finding + "\n").utf8), to: root.appendingPathComponent("Kit/B.swift"))
    let scanner = Scanner(rules: Configuration().configuredRules(from: .standard))
    let folder = try scanner.scan(ScanRequest(paths: [root.appendingPathComponent("App").path]))
    #expect(folder.findings.map(\.location.path) == ["Sources/A.swift"])
    let two = try scanner.scan(
      ScanRequest(paths: [root.appendingPathComponent("App").path, root.appendingPathComponent("Kit/B.swift").path]))
    #expect(two.findings.map(\.location.path) == ["App/Sources/A.swift", "Kit/B.swift"])
    let file = try scanner.scan(ScanRequest(paths: [root.appendingPathComponent("Kit/B.swift").path]))
    #expect(file.findings.map(\.location.path) == ["B.swift"])
  }

  @Test func fingerprintsSurviveLinesMovingAndTellTwinsApart() {
    let rules = Configuration().configuredRules(from: .standard)
    let code = "\(Self.finding)\n\(Self.finding)\n"
    let before = FileScanner(rules: rules).scan(bytes: Array(code.utf8), path: "A.swift").findings
    let moved = FileScanner(rules: rules).scan(bytes: Array(("// a new comment\n\n" + code).utf8), path: "A.swift")
      .findings
    #expect(before.count == 2)
    #expect(Set(before.map(\.fingerprint)).count == 2)
    #expect(before.map(\.fingerprint) == moved.map(\.fingerprint))
    let otherFile = FileScanner(rules: rules).scan(bytes: Array(code.utf8), path: "B.swift").findings
    #expect(Set(otherFile.map(\.fingerprint)).isDisjoint(with: before.map(\.fingerprint)))
  }

  @Test func globPatternsFollowGitignoreConventions() {
    #expect(GlobPattern("Generated/**").matches("Generated/A.swift"))
    #expect(GlobPattern("Generated/**").matches("Generated/Deep/A.swift"))
    #expect(!GlobPattern("Generated/**").matches("App/Generated/A.swift"))
    #expect(GlobPattern("**/Generated/*.swift").matches("App/Generated/A.swift"))
    #expect(GlobPattern("Tests").matches("App/Tests/A.swift"))
    #expect(GlobPattern("*.generated.swift").matches("App/Model.generated.swift"))
    #expect(!GlobPattern("*.generated.swift").matches("App/Model.swift"))
    #expect(GlobPattern("./App/*.swift").matches("App/A.swift"))
    #expect(GlobPattern("App/**/Keys.swift").matches("App/Keys.swift"))
    #expect(GlobPattern("App/**/Keys.swift").matches("App/A/B/Keys.swift"))
    #expect(!GlobPattern("App/**/Keys.swift").matches("App/A/B/Keys.swift.orig"))
    #expect(GlobPattern("Gen?rated/[AB].swift").matches("Generated/B.swift"))
    #expect(!GlobPattern("Gen?rated/[AB].swift").matches("Generated/C.swift"))
    #expect(!GlobPattern("App/Tests").matches("App/TestsMore/A.swift"))
    #expect(!GlobPattern("Tests").matches("App/MyTests/A.swift"))
    let patterns = ["Vendor/**", "*.pb.swift"].map(GlobPattern.init)
    #expect(GlobPattern.anyMatches(patterns, "Vendor/Lib/A.swift"))
    #expect(GlobPattern.anyMatches(patterns, "App/Model.pb.swift"))
    #expect(!GlobPattern.anyMatches(patterns, "App/Model.swift"))
    #expect(!GlobPattern.anyMatches([], "App/Model.swift"))
  }

  /// swift-syntax's parser takes exponential time (and, at 10,000, overflows the stack) on runs
  /// of `[`; such files are reported and skipped, and the scan goes on.
  @Test func pathologicalBracketRunsAreSkippedNotParsed() throws {
    let root = Paths.temporaryFolder()
    let finding = Self.finding + "\n"
    try write(
      Array(
        (finding + "let x = " + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)).utf8),
      to: root.appendingPathComponent("Brackets.swift"))
    try write(
      Array((finding + "// [[[[[[[[[[[[[[[[[[[[[[[[[[[[\nlet s = \"[[[[[[[[[[[[[[[[[[[[[[[[[\"\n").utf8),
      to: root.appendingPathComponent("InComments.swift"))
    try write(
      Array(
        (finding + "let deep = " + String(repeating: "(", count: 10_000) + String(repeating: ")", count: 10_000)).utf8),
      to: root.appendingPathComponent("Parens.swift"))
    try write(Array(finding.utf8), to: root.appendingPathComponent("Good.swift"))
    let result = try scan(root)
    #expect(result.findings.map(\.location.path) == ["Good.swift", "InComments.swift", "Parens.swift"])
    let issue = try #require(result.errors.first { $0.path == "Brackets.swift" })
    #expect(issue.message.contains("not parsed") && issue.line == 2)
    #expect(result.filesScanned == 4 && result.filesParsed == 3)
    #expect(ParserHazards.excessiveBracketRun(in: Array("let a: [[[String]]] = [[[\"x\"]]]".utf8)) == nil)
    #expect(ParserHazards.excessiveBracketRun(in: Array(("x = " + String(repeating: "[ ", count: 17)).utf8)) == 4)
  }

  @Test func tokenSearchFindsExactlyWhatANaiveSearchFinds() {
    var generator = SystemRandomNumberGenerator()
    let alphabet = Array("abkSec:".utf8)
    // Short tokens exercise one-byte tokens and small windows; long ones, windows that skip.
    for lengths in [1...4, 3...9] {
      for _ in 0..<300 {
        let tokens = (0..<Int.random(in: 1...6, using: &generator)).map { _ in
          String(
            decoding: (0..<Int.random(in: lengths, using: &generator)).map { _ in alphabet.randomElement()! },
            as: UTF8.self)
        }
        let text = (0..<Int.random(in: 0...60, using: &generator)).map { _ in alphabet.randomElement()! }
        let search = TokenSearch(tokens: tokens)
        let found = Set(search.found(in: text).map { String(decoding: search.tokens[$0], as: UTF8.self) })
        let expected = Set(tokens.filter { String(decoding: text, as: UTF8.self).contains($0) })
        #expect(found == expected, "\(tokens) in \(String(decoding: text, as: UTF8.self))")
        #expect(search.containsAny(in: text) == !expected.isEmpty)
      }
    }
  }

  @Test func byteSearchFindsTheFirstOccurrenceAtOrAfterTheStart() {
    var generator = SystemRandomNumberGenerator()
    let alphabet = Array("aab;".utf8)
    for _ in 0..<500 {
      let needle = (0..<Int.random(in: 0...4, using: &generator)).map { _ in alphabet.randomElement()! }
      let text = (0..<Int.random(in: 0...40, using: &generator)).map { _ in alphabet.randomElement()! }
      let start = Int.random(in: 0...(text.count + 1), using: &generator)
      let expected =
        needle.isEmpty || start > text.count
        ? nil
        : (start..<max(start, text.count - needle.count + 1)).first { Array(text[$0..<($0 + needle.count)]) == needle }
      let found = text.withUnsafeBufferPointer { ByteSearch.firstIndex(of: needle, in: $0, from: start) }
      #expect(found == expected, "\(needle) in \(text) from \(start)")
    }
  }

  @Test func utf8ValidationFindsTheFirstBadByte() {
    #expect(SourceText.firstInvalidUTF8Offset(Array("plain ascii, é, 🔑, ключ".utf8)) == nil)
    #expect(SourceText.firstInvalidUTF8Offset([0x61, 0xC3, 0x28]) == 1)
    #expect(SourceText.firstInvalidUTF8Offset([0x61, 0xE2, 0x82]) == 1)
    #expect(SourceText.firstInvalidUTF8Offset([0xED, 0xA0, 0x80]) == 0)  // a UTF-16 surrogate
    #expect(SourceText.firstInvalidUTF8Offset([0xC0, 0xAF]) == 0)  // an overlong form
  }
}
