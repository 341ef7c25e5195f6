import Foundation
import KeywardCLI
import KeywardCore
import Testing

/// `keyward scan --evidence` end to end: MASTG test verdicts with the places that show them.
@Suite struct EvidenceTests {
  typealias Object = [String: Any]

  /// An app that binds its biometric gate to a `.biometryCurrentSet` item and writes nothing else.
  static let goodApp = """
    import LocalAuthentication
    import Security

    final class Vault {
        func store(_ secret: Data) -> OSStatus {
            let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .biometryCurrentSet, nil)!
            let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "vault",
                                        kSecValueData as String: secret, kSecAttrAccessControl as String: access]
            return SecItemAdd(query as CFDictionary, nil)
        }

        func unlock(_ done: @escaping (Data?) -> Void) {
            let context = LAContext()
            context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock your vault") { success, _ in
                guard success else { return done(nil) }
                let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "vault",
                                            kSecReturnData as String: true, kSecUseAuthenticationContext as String: context]
                var result: AnyObject?
                guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess else { return done(nil) }
                done(result as? Data)
            }
        }
    }
    """

  func evidence(_ arguments: [String]) throws -> [String: Object] {
    let (_, output) = KeywardCLI.run(["scan", "--evidence", "--format", "json", "--fail-on", "none"] + arguments)
    let document = try #require(JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? Object)
    let tests = try #require(document["evidence"] as? [Object])
    return Dictionary(tests.map { ($0["test"] as? String ?? "", $0) }) { first, _ in first }
  }

  func places(_ test: Object?) -> [String] {
    (test?["places"] as? [Object] ?? []).map { "\($0["path"] as? String ?? ""):\($0["line"] as? Int ?? 0)" }
  }

  @Test func aBoundBiometricOnlyGatePassesWithThePlacesThatShowIt() throws {
    let folder = Paths.temporaryFolder()
    try Self.goodApp.write(to: folder.appendingPathComponent("Vault.swift"), atomically: true, encoding: .utf8)
    let tests = try evidence([folder.path])
    #expect(tests["MASTG-TEST-0266"]?["verdict"] as? String == "pass")
    #expect(places(tests["MASTG-TEST-0266"]) == ["Vault.swift:14"])
    #expect(tests["MASTG-TEST-0268"]?["verdict"] as? String == "pass")
    #expect(places(tests["MASTG-TEST-0268"]) == ["Vault.swift:9", "Vault.swift:14"])
    #expect(tests["MASTG-TEST-0270"]?["verdict"] as? String == "pass")
    #expect(places(tests["MASTG-TEST-0270"]) == ["Vault.swift:9"])
    // No file is written: nothing shows the data protection of files either way.
    #expect(tests["MASTG-TEST-0299"]?["verdict"] as? String == "not-shown")
    #expect((tests["MASTG-TEST-0266"]?["rules"] as? [String])?.contains("swift.event_bound_biometric_auth") == true)
  }

  @Test func theExampleAppFailsEachTestAtItsFindings() throws {
    let example = Paths.packageRoot.appendingPathComponent("Examples/VaultApp").path
    let tests = try evidence([example])
    for id in ["MASTG-TEST-0266", "MASTG-TEST-0268", "MASTG-TEST-0270", "MASTG-TEST-0299"] {
      #expect(tests[id]?["verdict"] as? String == "fail", "\(id)")
    }
    #expect(places(tests["MASTG-TEST-0266"]).contains("Sources/Auth/AppLockController.swift:19"))
    #expect(places(tests["MASTG-TEST-0299"]).contains("Sources/Storage/ExportCache.swift:9"))
  }

  @Test func sarifAndTextCarryTheEvidenceAndPlainScansDoNot() throws {
    let example = Paths.packageRoot.appendingPathComponent("Examples/VaultApp").path
    let (_, sarif) = KeywardCLI.run(["scan", "--evidence", "--format", "sarif", "--fail-on", "none", example])
    let log = try #require(JSONSerialization.jsonObject(with: Data(sarif.standardOutput.utf8)) as? Object)
    let run = try #require((log["runs"] as? [Object])?.first)
    let evidence = try #require((run["properties"] as? Object)?["mastgEvidence"] as? [Object])
    #expect(evidence.count == 4)
    let (_, text) = KeywardCLI.run(["scan", "--evidence", "--fail-on", "none", example])
    #expect(
      text.standardOutput.contains("MASTG-TEST-0270 References to APIs detecting biometric enrollment changes: fail"))
    let (_, html) = KeywardCLI.run(["scan", "--evidence", "--format", "html", "--fail-on", "none", example])
    #expect(html.standardOutput.contains("<h2>MASTG evidence</h2>"))
    let (_, plain) = KeywardCLI.run(["scan", "--format", "json", "--fail-on", "none", example])
    let document = try #require(JSONSerialization.jsonObject(with: Data(plain.standardOutput.utf8)) as? Object)
    #expect(document["evidence"] == nil)
  }
}
