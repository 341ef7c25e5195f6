import Foundation
import KeywardCLI
import KeywardCore
import KeywardRules
import Testing

/// A rule whose fix breaks the code, to show that broken results are refused.
struct BreakingFixRule: Rule {
  static let metadata = WeakBiometricACL.metadata
  static let examples = RuleExamples(flagged: [], clean: [])
  static func prefilterTokens(options: RuleOptions) -> [String] { ["let"] }
  static func check(_ context: RuleContext) {
    guard let token = context.tree.firstToken(viewMode: .sourceAccurate) else { return }
    context.report(
      token, message: "test",
      fix: Fix(description: "break it", safe: true, edits: [context.replacement(of: token, with: "let (")]))
  }
}

/// `keyward fix`: it changes what it should, and can never damage a file.
@Suite struct FixTests {
  static let weak = "let a = SecAccessControlCreateWithFlags(nil, p, .biometryAny, nil)"

  func write(_ text: String, _ name: String = "A.swift", in root: URL) throws -> URL {
    let url = root.appendingPathComponent(name)
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url
  }

  @Test func dryRunShowsADiffAndChangesNothing() throws {
    let root = Paths.temporaryFolder()
    let file = try write(Self.weak + "\n", in: root)
    let (status, output) = KeywardCLI.run(["fix", root.path, "--dry-run", "--include-behavior-changes"])
    // Fixes waiting: a dry run fails, so it serves as a check in CI.
    #expect(status == 1)
    #expect(output.standardOutput.contains("-" + Self.weak))
    #expect(
      output.standardOutput.contains("+let a = SecAccessControlCreateWithFlags(nil, p, .biometryCurrentSet, nil)"))
    #expect(try String(contentsOf: file, encoding: .utf8) == Self.weak + "\n")
  }

  /// A deprecated case is renamed unless the `switch` already handles the new name: then the
  /// rename would repeat that pattern, and the finding says to remove the dead case instead.
  @Test func aRenameThatWouldRepeatACaseIsNotOffered() throws {
    let root = Paths.temporaryFolder()
    let lone =
      "import LocalAuthentication\nfunc f(_ c: LAError.Code) { switch c { case .touchIDLockout: break\n default: break } }\n"
    let repeated =
      "import LocalAuthentication\nfunc f(_ c: LAError.Code) { switch c { case .biometryLockout: break\n case .touchIDLockout: break\n default: break } }\n"
    let loneFile = try write(lone, "Lone.swift", in: root)
    let repeatedFile = try write(repeated, "Repeated.swift", in: root)
    #expect(KeywardCLI.run(["fix", root.path]).status == 0)
    #expect(
      try String(contentsOf: loneFile, encoding: .utf8) == lone.replacingOccurrences(of: "touchID", with: "biometry"))
    #expect(try String(contentsOf: repeatedFile, encoding: .utf8) == repeated)
    let scan = KeywardCLI.run(["scan", repeatedFile.path, "--format", "text", "--fail-on", "none"])
    #expect(scan.output.standardOutput.contains("which this `switch` already handles"))
  }

  @Test func fixingIsIdempotentAndKeepsPermissionsAndLineEndings() throws {
    let root = Paths.temporaryFolder()
    let file = try write(
      "// header\r\n" + Self.weak + "\r\nlet q = [kSecAttrAccessible: kSecAttrAccessibleAlways]\r\n", in: root)
    try FileManager.default.setAttributes([.posixPermissions: 0o750], ofItemAtPath: file.path)
    #expect(KeywardCLI.run(["fix", root.path, "--include-behavior-changes"]).status == 0)
    let fixed = try String(contentsOf: file, encoding: .utf8)
    #expect(
      fixed
        == "// header\r\nlet a = SecAccessControlCreateWithFlags(nil, p, .biometryCurrentSet, nil)\r\nlet q = [kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlock]\r\n"
    )
    let permissions = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
    #expect(permissions == 0o750)
    let again = KeywardCLI.run(["fix", root.path, "--include-behavior-changes"])
    #expect(again.output.standardError.contains("Fixed 0 finding(s) in 0 file(s)."))
    #expect(try String(contentsOf: file, encoding: .utf8) == fixed)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.contains("keyward-") }
    #expect(leftovers.isEmpty)
  }

  @Test func unsafeSuppressedAndBrokenFilesAreLeftAlone() throws {
    let root = Paths.temporaryFolder()
    let unsafe = "let b = SecAccessControlCreateWithFlags(nil, p, .userPresence, nil)\n"
    let suppressed = Self.weak + " // keyward:ignore swift.weak_biometric_acl -- accepted\n"
    let files = [
      try write(unsafe, "Unsafe.swift", in: root), try write(suppressed, "Suppressed.swift", in: root),
      try write("func broken( {\n" + Self.weak + "\n", "Broken.swift", in: root),
    ]
    let before = try files.map { try String(contentsOf: $0, encoding: .utf8) }
    let (status, output) = KeywardCLI.run(["fix", root.path])
    #expect(status == 0)
    #expect(try files.map { try String(contentsOf: $0, encoding: .utf8) } == before)
    #expect(output.standardError.contains("Broken.swift: not fixed: syntax error"))
  }

  @Test func aResultThatWouldNotParseIsRefused() throws {
    let root = Paths.temporaryFolder()
    let file = try write("let x = 1\n", in: root)
    let rule = ConfiguredRule(rule: BreakingFixRule.self, options: RuleOptions(specs: []), severity: .high)
    let discovered = DiscoveredFile(absolutePath: file.path, relativePath: "A.swift", size: 10)
    let result = FixApplier(scanner: FileScanner(rules: [rule])).fix(discovered, dryRun: false)
    #expect(result.status == .skipped(reason: "refused: the fixed file would not parse"))
    #expect(try String(contentsOf: file, encoding: .utf8) == "let x = 1\n")
  }

  @Test func aFileChangedDuringTheFixIsLeftAlone() throws {
    let root = Paths.temporaryFolder()
    let file = try write("changed by someone else\n", in: root)
    #expect(throws: (any Error).self) {
      try FixApplier.replace(file, expecting: Array("what was read\n".utf8), with: Array("fixed\n".utf8))
    }
    #expect(try String(contentsOf: file, encoding: .utf8) == "changed by someone else\n")
  }

  struct DiskFull: Error {}

  @Test func aWriteInterruptedHalfwayLeavesTheOriginal() throws {
    let root = Paths.temporaryFolder()
    let file = try write(Self.weak + "\n", in: root)
    #expect(throws: DiskFull.self) {
      try FixApplier.replace(file, expecting: Array((Self.weak + "\n").utf8), with: Array("fixed\n".utf8)) {
        temporary, contents in
        try Data(contents.prefix(3)).write(to: temporary)
        throw DiskFull()
      }
    }
    #expect(try String(contentsOf: file, encoding: .utf8) == Self.weak + "\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["A.swift"])
  }

  /// The real thing: `keyward fix` killed at random moments leaves each file either as it was or
  /// completely fixed.
  @Test func aFixKilledAtAnyMomentLeavesEachFileWholeOrFixed() throws {
    let keyward = try #require(Paths.builtExecutable("keyward"), "keyward was not built")
    let original = (0..<400).map { "let q\($0) = [kSecAttrAccessible: kSecAttrAccessibleAlways]\n" }.joined()
    let fixed = original.replacingOccurrences(
      of: "kSecAttrAccessibleAlways", with: "kSecAttrAccessibleAfterFirstUnlock")
    var outcomes: Set<String> = []
    for attempt in 0..<10 {
      let root = Paths.temporaryFolder()
      let files = try (0..<3).map { try write(original, "F\($0).swift", in: root) }
      let process = Process()
      process.executableURL = URL(fileURLWithPath: keyward)
      process.arguments = ["fix", root.path]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      // The last run is not killed: it shows what a finished fix looks like.
      if attempt < 9 {
        Thread.sleep(forTimeInterval: Double(attempt) * 0.2)
        kill(process.processIdentifier, SIGKILL)
      }
      process.waitUntilExit()
      for file in files {
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text == original || text == fixed, "attempt \(attempt): \(file.lastPathComponent) damaged")
        outcomes.insert(text == original ? "original" : "fixed")
      }
    }
    #expect(outcomes == ["original", "fixed"])
  }
}
