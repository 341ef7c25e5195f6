import Foundation
import KeywardCore
import KeywardRules
import Testing

@testable import KeywardBinary

/// Keyward on real Xcode-built apps: the OWASP MASTG demo apps (`demos/ios/*/MASTG-DEMO-*/MASTestApp`
/// of OWASP/owasp-mastg, each copied to `MASTG-DEMO-NNNN/MASTestApp`) and the iOS crackme IPAs
/// (`crackmes/UnCrackable-Level1.ipa`, `...Level2.ipa`), kept outside the repository in
/// `$KEYWARD_MASTG_DIR` (default /work/mastg). Without them these tests are skipped, and say so.
@Suite struct MASTGDemoAppTests {
  static let folder = URL(
    fileURLWithPath: ProcessInfo.processInfo.environment["KEYWARD_MASTG_DIR"] ?? "/work/mastg")
  static let isPresent = FileManager.default.fileExists(
    atPath: folder.appendingPathComponent("MASTG-DEMO-0041/MASTestApp").path)

  static func scan(_ relative: String) throws -> ScanResult {
    try KeywardCore.Scanner(
      rules: Configuration(profile: .strict).configuredRules(from: .standard), binaryAnalyzer: AppAnalyzer()
    ).scan(ScanRequest(paths: [folder.appendingPathComponent(relative).path]))
  }

  static func demo(_ number: String) throws -> [Finding] {
    let result = try scan("MASTG-DEMO-\(number)/MASTestApp")
    #expect(result.errors.isEmpty, "\(result.errors)")
    return result.findings
  }

  @Test(.enabled(if: isPresent, "the MASTG demo apps are not in $KEYWARD_MASTG_DIR (or /work/mastg)"))
  func biometricsGuardingOnlyABooleanIsEventBound() throws {
    // MASTG-DEMO-0041: evaluatePolicy, and no keychain call anywhere.
    let findings = try Self.demo("0041")
    #expect(findings.map(\.ruleId) == ["binary.event_bound_biometric_auth"])
    #expect(findings.first?.confidence == .high)
    #expect(findings.first?.message.contains("makes no keychain call at all") == true)
  }

  @Test(.enabled(if: isPresent, "the MASTG demo apps are not in $KEYWARD_MASTG_DIR (or /work/mastg)"))
  func accessControlFlagsAreRecoveredFromSwiftCode() throws {
    // MASTG-DEMO-0043 stores its token with .userPresence, MASTG-DEMO-0045 with .biometryAny.
    let presence = try Self.demo("0043")
    #expect(presence.map(\.ruleId) == ["binary.weak_biometric_acl"])
    #expect(presence.first?.message.contains("flags 0x1 (userPresence) for `kSecAttrAccessibleWhenUnlocked`") == true)
    #expect(presence.first?.message.contains("device passcode") == true)
    let any = try Self.demo("0045")
    #expect(any.map(\.ruleId) == ["binary.weak_biometric_acl"])
    #expect(any.first?.message.contains("flags 0x2 (biometryAny)") == true)
  }

  @Test(.enabled(if: isPresent, "the MASTG demo apps are not in $KEYWARD_MASTG_DIR (or /work/mastg)"))
  func demosOfOtherWeaknessesHaveNoFindings() throws {
    // Cryptography, storage and resilience demos use neither LocalAuthentication nor weak
    // keychain classes: any finding would be a false positive.
    let others = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter {
      $0.hasPrefix("MASTG-DEMO-") && !["MASTG-DEMO-0041", "MASTG-DEMO-0043", "MASTG-DEMO-0045"].contains($0)
    }
    #expect(!others.isEmpty)
    for demo in others.sorted() {
      let result = try Self.scan(demo + "/MASTestApp")
      #expect(result.errors.isEmpty, "\(demo): \(result.errors)")
      #expect(result.findings.isEmpty, "\(demo): \(result.findings.map(\.message))")
    }
  }

  @Test(.enabled(if: isPresent, "the MASTG demo apps are not in $KEYWARD_MASTG_DIR (or /work/mastg)"))
  func crackmeArchivesAreAttributedAndTheirSignaturesRead() throws {
    for (level, identifier) in [("1", "sg.vp.UnCrackable1"), ("2", "sg.vp.UnCrackable-2")] {
      let result = try Self.scan("crackmes/UnCrackable-Level\(level).ipa")
      #expect(result.errors.isEmpty, "\(result.errors)")
      let file = try #require(result.binaries.first?.files.first)
      #expect(file.bundle?.kind == .app && file.bundle?.identifier == identifier)
      #expect(file.entitlements?.applicationIdentifier?.hasSuffix(identifier) == true)
      #expect(Set(file.architectures.map(\.name)) == ["armv7", "arm64"])
    }
  }
}
