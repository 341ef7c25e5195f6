import Foundation
import KeywardCLI
import KeywardCore
import KeywardRules
import Testing

@testable import KeywardBinary

/// What binary findings say beyond a symbol's name: who shipped the code, whether code uses what
/// the file imports, what the signature grants, and x86_64 and arm64e code. Fixtures: build.sh.
@Suite struct BinaryEvidenceTests {
  static func fixture(_ name: String) -> URL { Paths.fixture("Binary/" + name) }

  static func findings(_ name: String, rule: String? = nil) throws -> [Finding] {
    let result = try KeywardCore.Scanner(
      rules: Configuration(profile: .strict).configuredRules(from: .standard), binaryAnalyzer: AppAnalyzer()
    ).scan(ScanRequest(paths: [fixture(name).path]))
    #expect(result.errors.isEmpty, "\(result.errors)")
    return result.findings.filter { rule == nil || $0.ruleId == rule }
  }

  static func images(_ name: String) throws -> [MachOImage] {
    try MachOFile.images(FileBytes.read(fixture(name).path))
  }

  static func json(_ arguments: [String]) throws -> [String: Any] {
    let output = KeywardCLI.run(arguments + ["--format", "json"]).output.standardOutput
    return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
  }

  // MARK: Who shipped it

  @Test func everyFindingNamesTheBundleThatShipsIt() throws {
    let findings = try Self.findings("VaultFamily.app")
    let bundles = Dictionary(grouping: findings) { $0.location.binary?.bundle?.name ?? "none" }
    #expect(Set(bundles.keys) == ["VaultFamily", "VaultWidget", "AdsKit"])
    let ads = try #require(bundles["AdsKit"]?.first?.location.binary?.bundle)
    #expect(ads == ShippingBundle(kind: .framework, name: "AdsKit", identifier: "com.vendor.adskit", version: "7.4.1"))
    let widget = try #require(bundles["VaultWidget"]?.first?.location.binary?.bundle)
    #expect(widget.kind == .appExtension && widget.identifier == "com.example.vaultfamily.widget")
    #expect(bundles["VaultFamily"]?.first?.location.binary?.bundle?.kind == .app)
    // Embedded frameworks are third-party code: reported, counted only when asked.
    for finding in findings {
      #expect((finding.origin == .thirdParty) == (finding.location.binary?.bundle?.kind == .framework))
    }
  }

  @Test func embeddedFrameworkFindingsFailAScanOnlyWhenThirdPartyCodeIsCounted() throws {
    // Leave only the vendor framework's finding.
    let root = Paths.temporaryFolder()
    let config = root.appendingPathComponent("keyward.yml")
    try """
    rules:
      binary.weak_biometric_acl:
        enabled: false
      binary.weak_default_data_protection:
        enabled: false
    """.write(to: config, atomically: true, encoding: .utf8)
    let scan = ["scan", Self.fixture("VaultFamily.app").path, "--config", config.path, "--fail-on", "low"]
    let byDefault = KeywardCLI.run(scan)
    #expect(byDefault.status == 0)
    #expect(byDefault.output.standardOutput.contains("1 in third-party code is shown for information"))
    #expect(KeywardCLI.run(scan + ["--fail-origin", "third-party"]).status == 1)
  }

  @Test func everyReportFormatNamesTheShippingBundle() throws {
    let app = Self.fixture("VaultFamily.app").path
    let report = try Self.json(["scan", app])
    let findings = try #require(report["findings"] as? [[String: Any]])
    let ads = try #require(
      findings.first {
        (($0["location"] as? [String: Any])?["binary"] as? [String: Any])?["file"] as? String
          == "Frameworks/AdsKit.framework/AdsKit"
      })
    #expect(ads["origin"] as? String == "third-party")
    let bundle = ((ads["location"] as? [String: Any])?["binary"] as? [String: Any])?["bundle"] as? [String: Any]
    #expect(bundle?["kind"] as? String == "framework" && bundle?["version"] as? String == "7.4.1")

    let sarif = KeywardCLI.run(["scan", app, "--format", "sarif"]).output.standardOutput
    #expect(
      sarif.contains("\"identifier\" : \"com.vendor.adskit\"")
        || sarif.contains("\"identifier\": \"com.vendor.adskit\""))

    let text = KeywardCLI.run(["scan", app]).output.standardOutput
    #expect(text.contains("[third-party, framework AdsKit 7.4.1 (com.vendor.adskit)]"))
    #expect(text.contains("[app extension VaultWidget 3.2 (com.example.vaultfamily.widget)]"))
    #expect(text.contains("Frameworks/AdsKit.framework/AdsKit: shipped by framework AdsKit 7.4.1"))

    let csv = KeywardCLI.run(["scan", app, "--format", "csv"]).output.standardOutput
    #expect(csv.contains(",third-party,,framework AdsKit 7.4.1 (com.vendor.adskit)\r\n"))
  }

  // MARK: Used, not just referenced

  @Test func aConstantLoadedByCodeIsToldFromOneOnlyImported() throws {
    let legacy = try Self.findings("VaultLegacy.app", rule: "binary.weak_keychain_accessibility")
    #expect(legacy.count == 2)
    for finding in legacy {
      #expect(finding.confidence == .high && finding.message.hasPrefix("Code in this Mach-O file loads"))
      #expect(finding.location.binary?.address != nil && finding.location.start.offset > 0)
    }
    // The app stores its token with SecItemAdd in the function that loads the constant; the
    // framework only returns it.
    let app = try #require(legacy.first { $0.location.binary?.file == "VaultLegacy" })
    #expect(app.message.contains("`kSecAttrAccessibleAlways` in a function that calls `SecItemAdd`"))
    let kit = try #require(legacy.first { $0.location.binary?.file != "VaultLegacy" })
    #expect(kit.message.contains("loads `kSecAttrAccessibleAlwaysThisDeviceOnly`:"))
    let ads = try #require(
      try Self.findings("VaultFamily.app", rule: "binary.weak_keychain_accessibility").first)
    #expect(ads.confidence == .low && ads.message.contains("no code in it was seen loading the constant"))

    // The slot load the rule names is the instruction the disassembler shows (adrp + ldr).
    let image = try #require(try Self.images("VaultLegacy.app/VaultLegacy").first)
    let slots = Set(image.pointerSlots.filter { $0.value == "_kSecAttrAccessibleAlways" }.keys)
    let loads = CodeReferences.references(to: slots, in: image)
    #expect(loads.count == 1)
    #expect(legacy.contains { $0.location.binary?.address == loads.values.first })
  }

  @Test func encryptedCodeIsNotClaimedAsUnused() throws {
    // Mark the arm64 image of VaultLegacy's framework as FairPlay-encrypted (cryptid 1).
    var bytes = try FileBytes.read(Self.fixture("VaultLegacy.app/Frameworks/VaultKit.framework/VaultKit").path)
    let image = try #require(try MachOFile.images(bytes).first)
    #expect(!image.isEncrypted)
    let command = try #require(Self.loadCommand(0x2C, in: bytes))
    bytes[command + 16] = 1
    let root = Paths.temporaryFolder()
    let path = root.appendingPathComponent("VaultKit")
    try Data(bytes).write(to: path)
    let result = try KeywardCore.Scanner(
      rules: Configuration().configuredRules(from: .standard), binaryAnalyzer: AppAnalyzer()
    ).scan(ScanRequest(paths: [path.path]))
    let finding = try #require(result.findings.first { $0.ruleId == "binary.weak_keychain_accessibility" })
    #expect(finding.confidence == .medium && finding.message.contains("encrypted with FairPlay"))
    #expect(result.binaries.first?.files.first?.architectures.first?.encrypted == true)
  }

  @Test func evaluatePolicyConfidenceFollowsTheKeychainCallsAndTheCall() throws {
    let rule = "binary.event_bound_biometric_auth"
    let flag = try #require(try Self.findings("VaultFlag", rule: rule).first)
    #expect(flag.confidence == .high && flag.message.contains("makes no keychain call at all"))
    #expect(flag.message.hasPrefix("Code in this Mach-O file calls"))
    let legacy = try #require(try Self.findings("VaultLegacy.app", rule: rule).first)
    #expect(legacy.confidence == .medium && legacy.message.contains("calls `SecItemAdd` but never"))
    let decoy = try #require(try Self.findings("VaultDecoy", rule: rule).first)
    #expect(decoy.confidence == .low && decoy.message.contains("no code in it was seen calling it"))
  }

  // MARK: Entitlements

  @Test func entitlementsAreReadFromTheCodeSignature() throws {
    let app = try #require(try Self.images("VaultFamily.app/VaultFamily").first?.entitlements)
    #expect(app.defaultDataProtection == "NSFileProtectionCompleteUntilFirstUserAuthentication")
    #expect(app.applicationIdentifier == "ABCDE12345.com.example.vaultfamily")
    #expect(app.sharedKeychainAccessGroups == ["ABCDE12345.com.example.shared"])
    let widget = try #require(try Self.images("VaultFamily.app/PlugIns/VaultWidget.appex/VaultWidget").first)
    #expect(widget.entitlements?.defaultDataProtection == "NSFileProtectionComplete")
    #expect(widget.entitlements?.sharedKeychainAccessGroups == [])
    #expect(try Self.images("VaultMixed").first?.entitlements == nil)

    let findings = try Self.findings("VaultFamily.app", rule: "binary.weak_default_data_protection")
    #expect(findings.map { $0.location.binary?.file } == ["VaultFamily"])
    #expect(findings.first?.message.contains("`NSFileProtectionCompleteUntilFirstUserAuthentication`") == true)

    let report = try Self.json(["scan", Self.fixture("VaultFamily.app").path])
    let files = try #require((report["binaries"] as? [[String: Any]])?.first?["files"] as? [[String: Any]])
    let main = try #require(files.first { $0["path"] as? String == "VaultFamily" })
    let entitlements = try #require(main["entitlements"] as? [String: Any])
    #expect(entitlements["sharedKeychainAccessGroups"] as? [String] == ["ABCDE12345.com.example.shared"])
  }

  @Test func damagedSignaturesReadAsNoEntitlements() throws {
    let bytes = try FileBytes.read(Self.fixture("VaultFamily.app/VaultFamily").path)
    let command = try #require(Self.loadCommand(0x1D, in: bytes))
    let offset = Int(bytes[command + 8]) | Int(bytes[command + 9]) << 8 | Int(bytes[command + 10]) << 16
    for damage in [0, 4, 8, 12, 16, 20, 28, 32] {
      var damaged = bytes
      damaged[offset + damage] ^= 0xFF
      _ = try MachOFile.images(damaged)
    }
    var wrongMagic = bytes
    wrongMagic[offset] = 0
    #expect(try MachOFile.images(wrongMagic).first?.entitlements == nil)
  }

  // MARK: x86_64 and arm64e

  @Test func x86_64AndArm64eCallSitesGiveTheSameFlagsAsArm64() throws {
    let universal = try Self.images("VaultMixedUniversal")
    #expect(universal.map(\.architecture) == ["x86_64", "arm64e"])
    let arm64 = try #require(try Self.images("VaultMixed").first)
    let expected = Set(
      CallSites.calls(to: "_SecAccessControlCreateWithFlags", in: arm64, arguments: 3).map { $0.arguments[2] })
    #expect(expected == [.constant(0x2), .constant(0x4012), .constant(0x8), .unknown])
    for image in universal {
      let calls = CallSites.calls(to: "_SecAccessControlCreateWithFlags", in: image, arguments: 3)
      #expect(Set(calls.map { $0.arguments[2] }) == expected, "\(image.architecture)")
      #expect(calls.contains { $0.arguments[1] == .symbolValue("_kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly") })
    }
    let arm64e = try #require(universal.last)
    #expect(arm64e.section("__TEXT", "__auth_stubs") != nil && arm64e.section("__DATA_CONST", "__auth_got") != nil)
  }

  @Test func flagsPickedByABranchAreEachConsidered() throws {
    let images = try Self.images("VaultBranch")
    #expect(images.map(\.architecture) == ["arm64", "x86_64"])
    for image in images {
      let flags = CallSites.calls(to: "_SecAccessControlCreateWithFlags", in: image, arguments: 3).map {
        $0.arguments[2]
      }
      #expect(flags.contains(.choice([0x1, 0x8])), "\(image.architecture): \(flags)")
    }
    let arm64 = CallSites.calls(to: "_SecAccessControlCreateWithFlags", in: images[0], arguments: 3)
    #expect(arm64.contains { $0.arguments[2] == .choice([0x8, 0x18]) })

    let findings = try Self.findings("VaultBranch", rule: "binary.weak_biometric_acl")
    #expect(Set(findings.compactMap { $0.location.binary?.architecture }) == ["arm64", "x86_64"])
    for finding in findings {
      #expect(finding.confidence == .medium)
      #expect(finding.message.contains("0x1 (userPresence) or 0x8 (biometryCurrentSet), picked by a branch"))
      #expect(finding.message.contains(": the weak flag is chosen on at least one path, and `.userPresence` accepts"))
    }
  }

  @Test func macAppsAreReadFromTheirContentsFolder() throws {
    let findings = try Self.findings("VaultMac.app")
    let files = Set(findings.compactMap { $0.location.binary?.file })
    #expect(
      files == [
        "Contents/MacOS/VaultMac", "Contents/Frameworks/VaultKit.framework/Versions/A/VaultKit",
      ])
    let acl = findings.filter { $0.ruleId == "binary.weak_biometric_acl" }
    #expect(!acl.isEmpty && acl.allSatisfy { $0.location.binary?.architecture == "x86_64" })
    #expect(acl.first?.location.binary?.bundle?.version == "1.4")
    let kit = try #require(findings.first { $0.ruleId == "binary.weak_keychain_accessibility" })
    #expect(kit.origin == .thirdParty && kit.location.binary?.bundle?.version == "2.0")
    #expect(kit.confidence == .high)
    // Macs have no Face ID: the usage description is not asked for.
    #expect(!findings.contains { $0.ruleId == "binary.missing_faceid_usage_description" })
  }

  @Test func x86_64InstructionsDecodeWithTheirLengths() throws {
    // mov edx, 2; xor edi, edi; mov rax, [rip+0x10]; mov rsi, [rax]; mov ecx, r8d; cmove rdx, rax
    let code: [UInt8] = [
      0xBA, 0x02, 0, 0, 0, 0x31, 0xFF, 0x48, 0x8B, 0x05, 0x10, 0, 0, 0, 0x48, 0x8B, 0x30, 0x44, 0x89, 0xC1, 0x48,
      0x0F, 0x44, 0xD0,
    ]
    var lengths: [Int] = []
    var index = 0
    while index < code.count, let instruction = X86Instruction(code[...], at: index) {
      lengths.append(instruction.length)
      index += instruction.length
    }
    #expect(lengths == [5, 2, 7, 3, 3, 4])
    #expect(X86Instruction([0x0F, 0x0B][...], at: 0)?.length == 2)
    #expect(X86Instruction([0xBA, 0x02][...], at: 0) == nil)
  }

  @Test func aRetainedConstantIsFollowedThroughTheRetain() {
    // adrp x8, page; ldr x8, [x8, #16]; ldr x0, [x8]; bl retain; mov x19, x0; mov x1, x19
    let code: [UInt32] = [0xD000_0008, 0xF940_0908, 0xF940_0100, 0x9400_03FD, 0xAA00_03F3, 0xAA13_03E1]
    let bytes = code.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> ($0 * 8)) } }
    var image = MachOImage(architecture: "arm64", is64Bit: true, view: ByteView(bytes))
    image.pointerSlots[0x3010] = "_kSecAttrAccessibleWhenUnlocked"
    for (callee, expected) in [
      ("_objc_retain", ArgumentValue.symbolValue("_kSecAttrAccessibleWhenUnlocked")), ("_SecItemAdd", .unknown),
    ] {
      image.stubTargets[0x2000] = callee
      let tracker = ARM64Calls.Tracker(code: .init(bytes: bytes[...], address: 0x1000), image: image)
      #expect(tracker.argument(register: 1, before: 6) == expected, "\(callee)")
    }
  }

  @Test func x86_64ComparesKeepAndMultipliesClobberRegisters() {
    func call(at offset: Int) -> [UInt8] {
      let displacement = UInt32(truncatingIfNeeded: 0x2000 - (0x1000 + offset + 5))
      return [0xE8] + (0..<4).map { UInt8(truncatingIfNeeded: displacement >> ($0 * 8)) }
    }
    // mov edx, 1; cmp rdx, 5; test edx, 1; call F; mov edx, 8; mul rcx; call F
    var code: [UInt8] = [0xBA, 0x01, 0, 0, 0, 0x48, 0x83, 0xFA, 0x05, 0xF7, 0xC2, 0x01, 0, 0, 0]
    code += call(at: code.count)
    code += [0xBA, 0x08, 0, 0, 0, 0x48, 0xF7, 0xE1]
    code += call(at: code.count)
    var image = MachOImage(architecture: "x86_64", is64Bit: true, view: ByteView(code))
    image.stubTargets[0x2000] = "_F"
    var pass = X86Calls.Pass(image: image, symbol: "_F", arguments: 3)
    pass.run(code[...], address: 0x1000, fileOffset: 0)
    #expect(pass.sites.map { $0.arguments[2] } == [.constant(1), .unknown])
  }

  // MARK: Rule ids

  @Test func theFormerRuleIDStillWorksEverywhereAnIDIsAccepted() throws {
    let old = "binary.accessible_always"
    let new = "binary.weak_keychain_accessibility"
    #expect(RuleCatalog.standard.rule(withID: old)?.metadata.id == new)
    let explained = KeywardCLI.run(["explain", old])
    #expect(explained.status == 0 && explained.output.standardOutput.contains("| ID | `\(new)` |"))

    let root = Paths.temporaryFolder()
    let config = root.appendingPathComponent("keyward.yml")
    try "rules:\n  \(old):\n    enabled: false\n".write(to: config, atomically: true, encoding: .utf8)
    let app = Self.fixture("VaultLegacy.app").path
    let configured = try Self.json(["scan", app, "--config", config.path])
    let ids = (configured["findings"] as? [[String: Any]])?.compactMap { $0["ruleId"] as? String } ?? []
    #expect(!ids.isEmpty && !ids.contains(new))

    // A baseline written with the former id accepts the finding.
    let findings = try Self.findings("VaultLegacy.app", rule: new)
    var baseline = Baseline(findings: findings)
    for index in baseline.findings.indices { baseline.findings[index].ruleId = old }
    #expect(baseline.apply(to: findings).allSatisfy { !$0.isActive })

    // A suppression comment naming the former id names a known rule.
    let source = try Paths.tree(["A.swift": "let a = 1 // keyward:ignore \(old) -- renamed\n"])
    let scanned = try KeywardCore.Scanner(rules: Configuration().configuredRules(from: .standard))
      .scan(ScanRequest(paths: [source.path]))
    #expect(!scanned.findings.contains { $0.ruleId == "keyward.unknown_rule" })
    #expect(scanned.findings.contains { $0.ruleId == "keyward.unused_suppression" && $0.message.contains(new) })
  }

  @Test func binaryFingerprintsDoNotDependOnTheMessage() throws {
    let finding = try #require(try Self.findings("VaultMixed", rule: "binary.weak_biometric_acl").first)
    var reworded = finding
    reworded.message = "reworded"
    let fingerprints = AppAnalyzer.fingerprinted([(finding, "flags 0x2"), (reworded, "flags 0x2")])
    #expect(fingerprints[0].fingerprint != fingerprints[1].fingerprint)  // the second is a twin
    let alone = AppAnalyzer.fingerprinted([(reworded, "flags 0x2")])
    #expect(alone[0].fingerprint == AppAnalyzer.fingerprinted([(finding, "flags 0x2")])[0].fingerprint)
    #expect(alone[0].fingerprint != AppAnalyzer.fingerprinted([(finding, "flags 0x8")])[0].fingerprint)
  }

  /// The byte offset of the first load command `command` of a thin 64-bit Mach-O file.
  static func loadCommand(_ command: UInt32, in bytes: [UInt8]) -> Int? {
    func u32(_ at: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (UInt32($1) * 8) } }
    var offset = 32
    for _ in 0..<u32(16) {
      if u32(offset) == command { return offset }
      offset += Int(u32(offset + 4))
    }
    return nil
  }
}
