import Foundation
import KeywardCLI
import KeywardCore
import KeywardRules
import Testing
import ZIPFoundation

@testable import KeywardBinary

/// Built apps: the fixtures in Fixtures/Binary are real Mach-O files (see build.sh there).
@Suite struct BinaryTests {
  static func fixture(_ name: String) -> URL { Paths.fixture("Binary/" + name) }

  static func scan(_ paths: [URL], rules: [ConfiguredRule]? = nil) throws -> ScanResult {
    try KeywardCore.Scanner(
      rules: rules ?? Configuration().configuredRules(from: .standard), binaryAnalyzer: AppAnalyzer()
    ).scan(ScanRequest(paths: paths.map(\.path)))
  }

  struct BinaryExample: Sendable, CustomTestStringConvertible {
    let ruleID: String
    let fixture: String
    let flagged: Bool
    var testDescription: String { "\(ruleID) \(flagged ? "flags" : "passes") \(fixture)" }
  }

  static let examples: [BinaryExample] = allRules.filter { $0.language == .binary }.flatMap { rule in
    rule.examples.flagged.map { BinaryExample(ruleID: rule.metadata.id, fixture: $0.code, flagged: true) }
      + rule.examples.clean.map { BinaryExample(ruleID: rule.metadata.id, fixture: $0.code, flagged: false) }
  }

  @Test(arguments: examples)
  func everyBinaryRuleFlagsAndPassesItsFixtures(_ example: BinaryExample) throws {
    let rule = try #require(RuleCatalog.standard.rule(withID: example.ruleID))
    let configured = ConfiguredRule(
      rule: rule, options: RuleOptions(specs: rule.options, overrides: [:]), severity: rule.metadata.severity)
    let result = try Self.scan([Self.fixture(example.fixture)], rules: [configured])
    #expect(result.errors.isEmpty, "\(result.errors)")
    #expect(result.findings.isEmpty != example.flagged, "\(result.findings.map(\.message))")
    for finding in result.findings {
      #expect(finding.location.binary != nil && finding.message.hasSuffix("."))
    }
  }

  @Test func everyBinaryRuleHasFlaggedAndCleanFixtures() {
    let binaryRules = allRules.filter { $0.language == .binary }
    #expect(binaryRules.count == 5)
    for rule in binaryRules {
      #expect(!rule.examples.flagged.isEmpty && !rule.examples.clean.isEmpty, "\(rule.metadata.id)")
    }
  }

  @Test func machOImagesListLibrariesImportsAndArchitectures() throws {
    let mixed = try MachOFile.images(FileBytes.read(Self.fixture("VaultMixed").path))
    #expect(mixed.map(\.architecture) == ["arm64"])
    let image = try #require(mixed.first)
    #expect(
      image.libraries.map(\.path).contains(
        "/System/Library/Frameworks/LocalAuthentication.framework/LocalAuthentication"))
    #expect(image.importedSymbols.contains("_SecAccessControlCreateWithFlags"))
    #expect(image.stubTargets.values.contains("_SecAccessControlCreateWithFlags"))
    #expect(!image.isEncrypted)
    let universal = try MachOFile.images(FileBytes.read(Self.fixture("VaultLegacy.app/VaultLegacy").path))
    #expect(universal.map(\.architecture) == ["arm64", "x86_64"])
  }

  /// The flags and protection of each call in src/WeakACL.m, recovered from the instructions.
  @Test func flagsArgumentsAreRecoveredFromArm64Code() throws {
    let image = try #require(try MachOFile.images(FileBytes.read(Self.fixture("VaultMixed").path)).first)
    let calls = ARM64Calls.calls(to: "_SecAccessControlCreateWithFlags", in: image, arguments: 3)
    let flags = calls.map { $0.arguments[2] }
    // Four functions, and main's inlined copies of them.
    #expect(Set(flags) == [.constant(0x2), .constant(0x4012), .constant(0x8), .unknown])
    #expect(flags.filter { $0 == .constant(0x2) }.count == 2)
    #expect(
      calls.filter { $0.arguments[1] == .symbolValue("_kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly") }.count >= 4)
    #expect(AccessControlFlag.decode(0x4012).map(\.name) == ["biometryAny", "devicePasscode", "or"])
  }

  @Test func movkOrrAndRegisterCopiesAreFollowed() {
    // movz w9, #0x2; movk w9, #0x4000, lsl #16 → mov w2, w9; orr w3, wzr, #0x3; bl (not decoded here)
    let code: [UInt32] = [0x5280_0049, 0x72A8_0009, 0x2A09_03E2, 0x3200_07E3]
    let bytes = code.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> ($0 * 8)) } }
    let image = MachOImage(architecture: "arm64", is64Bit: true, view: ByteView(bytes))
    let tracker = ARM64Calls.Tracker(code: .init(bytes: bytes[...], address: 0x1000), image: image)
    #expect(tracker.argument(register: 2, before: 4) == .constant(0x4000_0002))
    #expect(tracker.argument(register: 3, before: 4) == .constant(0x3))
    #expect(tracker.argument(register: 4, before: 4) == .unknown)
  }

  @Test func scanningAnAppListsLinkedLibrariesInTheReport() throws {
    let (status, output) = KeywardCLI.run(["scan", Self.fixture("VaultSecure.ipa").path, "--format", "json"])
    #expect(status == 0)
    let json = try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any]
    let binary = try #require((json?["binaries"] as? [[String: Any]])?.first)
    #expect(binary["bundleIdentifier"] as? String == "com.example.vaultsecure")
    let file = try #require((binary["files"] as? [[String: Any]])?.first)
    #expect(file["path"] as? String == "Payload/VaultSecure.app/VaultSecure")
    let libraries = (file["architectures"] as? [[String: Any]])?.first?["linkedLibraries"] as? [String]
    #expect(libraries?.contains("/System/Library/Frameworks/Security.framework/Security") == true)

    let text = KeywardCLI.run(["scan", Self.fixture("VaultMixed").path]).output.standardOutput
    #expect(text.contains("VaultMixed: (arm64, 0x"))
    #expect(
      text.contains(
        "flags 0x4012 (biometryAny | devicePasscode | or) for `kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly`"))
  }

  /// A built app has no lines: no format may invent `:1:1` for it, each names the Mach-O file
  /// inside instead, and Xcode's absolute paths point at the app that was scanned.
  @Test func everyFormatPlacesFindingsInABuiltAppWithoutLines() throws {
    let app = Self.fixture("VaultLegacy.app").path
    let inside = "Frameworks/VaultKit.framework/VaultKit (arm64, 0x"
    for format in ["text", "markdown", "html", "xcode", "github", "csv"] {
      let (status, output) = KeywardCLI.run(["scan", app, "--format", format])
      let report = output.standardOutput
      #expect(status == 1, "\(format)")
      #expect(!report.contains(":1:1"), "\(format) gives a built app a line")
      #expect(report.contains(inside), "\(format) does not say where in the app")
    }
    let xcode = KeywardCLI.run(["scan", app, "--format", "xcode"]).output.standardOutput
    for line in xcode.split(separator: "\n") {
      let path = String(line.prefix { $0 != ":" })
      #expect(FileManager.default.fileExists(atPath: path), "Xcode is pointed at \(path), which does not exist")
    }
    let csv = KeywardCLI.run(["scan", app, "--format", "csv"]).output.standardOutput
    #expect(csv.contains(",VaultLegacy.app,,,"), "a built app's row has no line or column")
  }

  /// Every prefix and many byte flips of every fixture: a clear error or a result, never a crash.
  @Test func truncatedAndCorruptedMachOFilesGiveErrorsNotCrashes() throws {
    for name in ["VaultMixed", "VaultLegacy.app/VaultLegacy", "VaultLegacy.app/Frameworks/VaultKit.framework/VaultKit"]
    {
      let bytes = try FileBytes.read(Self.fixture(name).path)
      var cuts = Array(stride(from: 0, to: min(bytes.count, 4096), by: 7)) + [bytes.count / 2, bytes.count - 1]
      cuts += Array(stride(from: 4096, to: bytes.count, by: 997))
      for cut in cuts {
        let prefix = Array(bytes.prefix(cut))
        if let images = try? MachOFile.images(prefix) {
          for image in images { _ = ARM64Calls.calls(to: "_SecAccessControlCreateWithFlags", in: image, arguments: 3) }
        }
      }
      var random = SystemRandomNumberGenerator()
      for _ in 0..<300 {
        var damaged = bytes
        for _ in 0..<4 {
          damaged[Int.random(in: 0..<min(4096, damaged.count), using: &random)] = UInt8.random(
            in: 0...255, using: &random)
        }
        if let images = try? MachOFile.images(damaged) {
          for image in images { _ = ARM64Calls.calls(to: "_SecAccessControlCreateWithFlags", in: image, arguments: 3) }
        }
      }
    }
    #expect(throws: BinaryFormatError.self) { try MachOFile.images([0xCF, 0xFA, 0xED, 0xFE, 0x0C, 0, 0, 1]) }
    // A Java class file shares the universal magic: not taken for Mach-O.
    #expect(!BinaryTarget.looksLikeMachO([0xCA, 0xFE, 0xBA, 0xBE, 0x00, 0x00, 0x00, 0x34]))
  }

  @Test func brokenAppsAreReportedAndTheRestOfTheScanCompletes() throws {
    let root = Paths.temporaryFolder()
    let bytes = try FileBytes.read(Self.fixture("VaultMixed").path)
    try Data(bytes.prefix(300)).write(to: root.appendingPathComponent("Truncated"))
    try Data("PK\u{3}\u{4} not really a zip".utf8).write(to: root.appendingPathComponent("Fake.ipa"))
    try FileManager.default.copyItem(at: Self.fixture("VaultMixed"), to: root.appendingPathComponent("Good"))
    let result = try Self.scan(["Truncated", "Fake.ipa", "Good"].map { root.appendingPathComponent($0) })
    #expect(Set(result.errors.map(\.path)) == ["Truncated", "Fake.ipa"])
    #expect(result.errors.allSatisfy { $0.message.hasPrefix("not analysed: ") })
    #expect(result.errors.first { $0.path == "Truncated" }?.message.contains("truncated") == true)
    #expect(Set(result.findings.map(\.location.path)) == ["Good"])
  }

  @Test func archivesRefuseEscapingPathsAndOversizedEntries() throws {
    let root = Paths.temporaryFolder()
    let ipa = root.appendingPathComponent("Evil.ipa")
    let archive = try Archive(url: ipa, accessMode: .create)
    let executable = try FileBytes.read(Self.fixture("VaultMixed").path)
    func add(_ path: String, _ bytes: [UInt8]) throws {
      try archive.addEntry(
        with: path, type: .file, uncompressedSize: Int64(bytes.count), compressionMethod: .deflate
      ) { position, size in Data(bytes[Int(position)..<Int(position) + size]) }
    }
    try add("Payload/Evil.app/Evil", executable)
    try add("../../escape.txt", Array("outside".utf8))
    try add("Payload/Evil.app/Frameworks/Huge.dylib", [UInt8](repeating: 0, count: 300_000))
    var analyzer = AppAnalyzer()
    analyzer.loader.maximumEntrySize = 200_000
    let file = DiscoveredFile(absolutePath: ipa.path, relativePath: "Evil.ipa", size: 1, kind: .binary)
    let rules = Configuration().configuredRules(from: .standard)
    let outcome = analyzer.analyze(file, rules: rules)
    let messages = outcome.issues.map(\.message)
    #expect(messages.contains { $0.contains("../../escape.txt") && $0.contains("leaves the archive") })
    #expect(messages.contains { $0.contains("Huge.dylib") && $0.contains("over the limit") })
    // The executable (found by name: no Info.plist) is still analysed.
    #expect(outcome.findings.contains { $0.ruleId == "binary.weak_biometric_acl" })
    #expect(
      !FileManager.default.fileExists(
        atPath: root.deletingLastPathComponent().appendingPathComponent("escape.txt").path))
  }
}
