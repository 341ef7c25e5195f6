import Foundation
import KeywardCLI
import KeywardCore
import KeywardReporters
import KeywardRules
import Testing

/// `keyward inventory` end to end: the example app's items, keys and gates, the JSON and
/// CycloneDX shapes, files that cannot be read, and built apps.
@Suite struct InventoryTests {
  let example = Paths.packageRoot.appendingPathComponent("Examples/VaultApp").path

  typealias Object = [String: Any]

  /// Runs the command and parses what it printed.
  func inventory(_ arguments: [String]) throws -> Object {
    let (status, output) = KeywardCLI.run(["inventory"] + arguments)
    #expect(status == 0, "\(output.standardError)")
    return try #require(JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? Object)
  }

  func records(_ document: Object, _ key: String) -> [Object] { document[key] as? [Object] ?? [] }

  func record(_ list: [Object], at path: String, line: Int) -> Object? {
    list.first { $0["path"] as? String == path && $0["line"] as? Int == line }
  }

  @Test func theExampleAppsItemsKeysAndGatesAreListed() throws {
    let document = try inventory([example])
    let items = records(document, "keychainItems")
    let push = try #require(record(items, at: "Sources/Keychain/KeychainStore.swift", line: 55))
    #expect(push["call"] as? String == "SecItemAdd")
    #expect(push["column"] as? Int == 9)
    #expect(push["itemClass"] as? String == "kSecClassGenericPassword")
    #expect(push["account"] as? String == "pushToken")
    #expect(push["accessibility"] as? [String] == ["kSecAttrAccessibleAlways"])
    #expect(push["origin"] as? String == "app")
    #expect(push["wrapper"] is NSNull)
    #expect(push["attributesComplete"] as? Bool == true)

    let session = try #require(record(items, at: "Sources/Keychain/SessionStore.swift", line: 16))
    #expect(session["synchronizable"] as? String == "true")
    #expect(session["accessibility"] as? [String] == ["kSecAttrAccessibleAfterFirstUnlock"])

    // Key generation: the private key's attributes, and the access controls its callers pass.
    let key = try #require(record(items, at: "Sources/Auth/BiometricKeyManager.swift", line: 67))
    #expect(key["kind"] as? String == "key")
    #expect(key["call"] as? String == "SecKeyCreateRandomKey")
    #expect(key["keyType"] as? String == "kSecAttrKeyTypeECSECPrimeRandom")
    #expect(key["keySizeInBits"] as? Int == 256)
    #expect(key["tokenID"] as? String == "kSecAttrTokenIDSecureEnclave")
    let control = try #require(key["accessControl"] as? Object)
    #expect(control["resolved"] as? Bool == true)
    let flags = try #require(control["flags"] as? [String])
    #expect(flags.contains("biometryAny") && flags.contains("privateKeyUsage") && flags.contains("biometryCurrentSet"))

    let refresh = try #require(record(items, at: "Sources/Auth/AuthService.swift", line: 26))
    let refreshControl = try #require(refresh["accessControl"] as? Object)
    #expect(refreshControl["flags"] as? [String] == ["userPresence"])
    #expect(refreshControl["protection"] as? [String] == ["kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly"])
    // A ternary: both classes the item may be stored with.
    let device = try #require(record(items, at: "Sources/Auth/AuthService.swift", line: 52))
    #expect(
      device["accessibility"] as? [String] == [
        "kSecAttrAccessibleAlwaysThisDeviceOnly", "kSecAttrAccessibleWhenUnlockedThisDeviceOnly",
      ])

    // Through wrappers.
    let widget = try #require(record(items, at: "Sources/Keychain/PreferencesVault.swift", line: 7))
    #expect(widget["wrapper"] as? String == "KeychainAccess")
    #expect(widget["service"] as? String == "com.example.vault.widget")
    #expect(widget["accessibility"] as? [String] == ["kSecAttrAccessibleAlways"])
    let token = try #require(record(items, at: "Sources/Keychain/PreferencesVault.swift", line: 22))
    #expect(token["wrapper"] as? String == "SwiftKeychainWrapper")
    #expect(token["account"] as? String == "apiToken")
    #expect(token["synchronizable"] as? String == "true")
    #expect(token["attributesComplete"] as? Bool == false)

    // Objective-C dictionaries.
    let legacy = try #require(record(items, at: "Sources/Legacy/VLTLegacyKeychain.m", line: 13))
    #expect(legacy["language"] as? String == "objective-c")
    #expect(legacy["account"] as? String == "legacyToken")
    #expect(legacy["accessibility"] as? [String] == ["kSecAttrAccessibleAlways"])

    // Reads are not writes.
    #expect(record(items, at: "Sources/Keychain/KeychainStore.swift", line: 37) == nil)

    // The macOS file: one item in the file-based keychain, one in the data protection keychain.
    let macKey = try #require(record(items, at: "Sources/Mac/MacVaultKeychain.swift", line: 20))
    #expect(macKey["dataProtectionKeychain"] is NSNull)
    let recovery = try #require(record(items, at: "Sources/Mac/MacVaultKeychain.swift", line: 51))
    #expect(recovery["dataProtectionKeychain"] as? String == "true")
    // The Mac helper package (a macOS-only target) and the Objective-C Mac file.
    let helper = try #require(record(items, at: "MacHelper/Sources/VaultMacHelper/HelperKeychain.swift", line: 14))
    #expect(helper["account"] as? String == "session")
    #expect(helper["dataProtectionKeychain"] is NSNull)
    let objcMac = try #require(record(items, at: "Sources/Mac/VLTMacKeychain.m", line: 8))
    #expect(objcMac["language"] as? String == "objective-c")
    #expect(objcMac["account"] as? String == "vaultKey")

    let gates = records(document, "localAuthenticationGates")
    #expect(gates.count == 7)
    let macGate = try #require(record(gates, at: "Sources/Mac/MacVaultKeychain.swift", line: 27))
    #expect(macGate["binding"] as? String == "keychain-bound")
    let signIn = try #require(record(gates, at: "Sources/Auth/SignInViewModel.swift", line: 13))
    #expect(signIn["binding"] as? String == "keychain-bound")
    #expect((signIn["bindingNote"] as? String)?.contains("readRefreshToken(context:)") == true)
    let lock = try #require(record(gates, at: "Sources/Auth/AppLockController.swift", line: 19))
    #expect(lock["binding"] as? String == "event-bound")
    #expect(lock["policies"] as? [String] == ["deviceOwnerAuthenticationWithBiometrics"])
    #expect(lock["column"] as? Int == 17)
    let legacyGate = try #require(record(gates, at: "Sources/Legacy/VLTLegacyKeychain.m", line: 54))
    #expect(legacyGate["policies"] as? [String] == ["deviceOwnerAuthentication"])
    #expect(legacyGate["binding"] as? String == "event-bound")
  }

  @Test func theJSONHasAStableShapeAndOrder() throws {
    let (_, first) = KeywardCLI.run(["inventory", example, "--jobs", "1"])
    let (_, second) = KeywardCLI.run(["inventory", example, "--format", "json"])
    #expect(first.standardOutput == second.standardOutput)
    let document = try #require(JSONSerialization.jsonObject(with: Data(first.standardOutput.utf8)) as? Object)
    #expect(
      Set(document.keys) == [
        "version", "tool", "filesScanned", "keychainItems", "localAuthenticationGates", "binaries", "errors",
      ])
    #expect(document["version"] as? Int == 1)
    #expect((document["tool"] as? Object)?["name"] as? String == "keyward")
    for key in ["keychainItems", "localAuthenticationGates"] {
      let list = records(document, key)
      #expect(Set(list.map { Set($0.keys) }).count == 1, "\(key) records differ in their keys")
      let places = list.map { ($0["path"] as! String, $0["line"] as! Int, $0["column"] as! Int) }
      #expect(zip(places, places.dropFirst()).allSatisfy { $0 <= $1 }, "\(key) are not in path, line, column order")
    }
    let itemKeys = try #require(records(document, "keychainItems").first?.keys)
    #expect(
      Set(itemKeys) == [
        "path", "line", "column", "language", "kind", "call", "itemClass", "keyType", "keySizeInBits", "tokenID",
        "service", "account", "applicationTag", "accessGroup", "accessibility", "accessControl", "synchronizable",
        "dataProtectionKeychain", "wrapper", "attributesComplete", "origin", "buildCondition",
      ])
  }

  @Test func cycloneDXListsCryptographicAssetsWithEvidence() throws {
    let (status, output) = KeywardCLI.run(["inventory", example, "--format", "cyclonedx"])
    #expect(status == 0)
    let bom = try #require(JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? Object)
    #expect(bom["bomFormat"] as? String == "CycloneDX")
    #expect(bom["specVersion"] as? String == "1.6")
    #expect(bom["version"] as? Int == 1)
    let serial = try #require(bom["serialNumber"] as? String)
    #expect(
      serial.range(
        of: "^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", options: .regularExpression)
        != nil)
    let metadata = try #require(bom["metadata"] as? Object)
    #expect(metadata["timestamp"] is String)
    let tools = try #require((metadata["tools"] as? Object)?["components"] as? [Object])
    #expect(tools.first?["name"] as? String == "keyward")
    let components = records(bom, "components")
    let refs = components.compactMap { $0["bom-ref"] as? String }
    #expect(Set(refs).count == refs.count)
    func properties(_ component: Object) -> [(String, String)] {
      (component["properties"] as? [Object] ?? []).map { ($0["name"] as! String, $0["value"] as! String) }
    }
    func occurrence(_ component: Object) -> Object? {
      ((component["evidence"] as? Object)?["occurrences"] as? [Object])?.first
    }
    let push = try #require(
      components.first {
        occurrence($0)?["location"] as? String == "Sources/Keychain/KeychainStore.swift"
          && occurrence($0)?["line"] as? Int == 55
      })
    #expect(push["type"] as? String == "cryptographic-asset")
    #expect(push["name"] as? String == "pushToken")
    let crypto = try #require(push["cryptoProperties"] as? Object)
    #expect(crypto["assetType"] as? String == "related-crypto-material")
    #expect((crypto["relatedCryptoMaterialProperties"] as? Object)?["type"] as? String == "password")
    #expect(properties(push).contains { $0 == ("keyward:accessibility", "kSecAttrAccessibleAlways") })
    #expect(properties(push).contains { $0 == ("keyward:origin", "app") })

    let key = try #require(
      components.first { occurrence($0)?["location"] as? String == "Sources/Auth/BiometricKeyManager.swift" })
    let material = try #require((key["cryptoProperties"] as? Object)?["relatedCryptoMaterialProperties"] as? Object)
    #expect(material["type"] as? String == "private-key")
    #expect(material["size"] as? Int == 256)
    let algorithmRef = try #require(material["algorithmRef"] as? String)
    let algorithm = try #require(components.first { $0["bom-ref"] as? String == algorithmRef })
    let algorithmProperties = try #require(
      (algorithm["cryptoProperties"] as? Object)?["algorithmProperties"] as? Object)
    #expect(algorithmProperties["curve"] as? String == "secp256r1")
    #expect(algorithmProperties["executionEnvironment"] as? String == "hardware")

    let gate = try #require(
      components.first {
        occurrence($0)?["location"] as? String == "Sources/Auth/AppLockController.swift"
          && properties($0).contains { $0.0 == "keyward:binding" }
      })
    #expect(gate["name"] as? String == "LocalAuthentication")
    #expect(properties(gate).contains { $0 == ("keyward:binding", "event-bound") })
  }

  @Test func filesThatCannotBeReadAreListedAndTheRunCompletes() throws {
    let root = try Paths.tree([
      "App/Store.swift":
        "let q = [kSecClass: kSecClassGenericPassword, kSecAttrAccessible: kSecAttrAccessibleAlways]\nSecItemAdd(q as CFDictionary, nil)\n",
      "App/Broken.swift": "let q = [kSecAttrAccessible: kSecAttrAccessibleAlways]\nfunc broken( {\n",
    ])
    try Data([0x00, 0x01, 0xFF, 0x00]).write(to: root.appendingPathComponent("App/Garbage.swift"))
    try Data(Array("let caf".utf8) + [0xE9] + Array(" = 1\n".utf8))
      .write(to: root.appendingPathComponent("App/Latin1.swift"))
    try FileManager.default.createSymbolicLink(
      atPath: root.appendingPathComponent("App/Gone.swift").path, withDestinationPath: "/no/such/file.swift")
    let document = try inventory([root.path])
    let errors = records(document, "errors")
    let byPath = Dictionary(errors.map { ($0["path"] as! String, $0["kind"] as! String) }) { first, _ in first }
    #expect(byPath["App/Garbage.swift"] == "binary")
    #expect(byPath["App/Latin1.swift"] == "encoding")
    #expect(byPath["App/Broken.swift"] == "parse")
    #expect(byPath["App/Gone.swift"] != nil)
    let items = records(document, "keychainItems")
    #expect(
      record(items, at: "App/Store.swift", line: 2)?["accessibility"] as? [String] == ["kSecAttrAccessibleAlways"])
  }

  @Test func usageErrorsExitTwo() {
    #expect(KeywardCLI.run(["inventory", "/no/such/folder"]).status == 2)
    #expect(KeywardCLI.run(["inventory", example, "--format", "sarif"]).status == 2)
    #expect(KeywardCLI.run(["inventory", example, "--config", "/no/such/.keyward.yml"]).status == 2)
  }

  @Test func theInventoryIsWrittenToAFile() throws {
    let output = Paths.temporaryFolder().appendingPathComponent("inventory.json")
    let (status, printed) = KeywardCLI.run([
      "inventory", example, "--output", output.path, "--exclude", "Sources/Legacy/**",
    ])
    #expect(status == 0)
    #expect(printed.standardOutput.isEmpty)
    #expect(printed.standardError.contains("inventory written to"))
    let document = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? Object)
    #expect(!records(document, "keychainItems").isEmpty)
    #expect(
      !records(document, "keychainItems").contains { ($0["path"] as? String)?.hasPrefix("Sources/Legacy") == true })
  }

  @Test func updatesListTheirNewAttributesWithTheIdentityOfTheItemsTheyMatch() throws {
    let root = try Paths.tree([
      "Tests/StoreTests.swift": """
      import XCTest
      func migrate() {
          let match: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "vault",
                                      kSecAttrAccount as String: "token"]
          let changes: [String: Any] = [kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                                        kSecUseDataProtectionKeychain as String: true,
                                        kSecAttrSynchronizable as String: false]
          SecItemUpdate(match as CFDictionary, changes as CFDictionary)
      }
      """
    ])
    let items = records(try inventory([root.path]), "keychainItems")
    #expect(items.count == 1)
    let update = try #require(items.first)
    #expect(update["call"] as? String == "SecItemUpdate")
    #expect(update["service"] as? String == "vault")
    #expect(update["account"] as? String == "token")
    #expect(update["itemClass"] as? String == "kSecClassGenericPassword")
    #expect(update["accessibility"] as? [String] == ["kSecAttrAccessibleWhenUnlockedThisDeviceOnly"])
    #expect(update["dataProtectionKeychain"] as? String == "true")
    #expect(update["synchronizable"] as? String == "false")
    #expect(update["origin"] as? String == "test")
  }

  @Test func builtAppsListTheFrameworksTheyLink() throws {
    let app = Paths.fixture("Binary/VaultSecure.ipa").path
    let document = try inventory([app])
    let binaries = records(document, "binaries")
    let binary = try #require(binaries.first)
    #expect(binary["path"] as? String == "VaultSecure.ipa")
    let files = try #require(binary["files"] as? [Object])
    let frameworks = Set(files.flatMap { $0["frameworks"] as? [String] ?? [] })
    #expect(frameworks.contains("Security"))
    #expect(frameworks.contains("LocalAuthentication"))
    let (_, output) = KeywardCLI.run(["inventory", app, "--format", "cyclonedx"])
    #expect(output.standardOutput.contains("\"framework:Security\""))
  }

  @Test func aDictionaryFromElsewhereIsListedAtItsCallWithoutClaimingItsAttributes() throws {
    let root = try Paths.tree([
      "Store.swift": """
      func store(_ query: [String: Any]) -> OSStatus { SecItemAdd(query as CFDictionary, nil) }
      func save(_ data: Data) {
          var query = [String: Any]()
          query[kSecClass as String] = kSecClassGenericPassword
          query[kSecValueData as String] = data
          SecItemAdd(query as CFDictionary, nil)
      }
      """
    ])
    let items = records(try inventory([root.path]), "keychainItems")
    let passed = try #require(record(items, at: "Store.swift", line: 1))
    #expect(passed["attributesComplete"] as? Bool == false)
    #expect(passed["accessibility"] as? [String] == [])
    let built = try #require(record(items, at: "Store.swift", line: 6))
    #expect(built["attributesComplete"] as? Bool == true)
    #expect(built["itemClass"] as? String == "kSecClassGenericPassword")
  }

  @Test func gatesWhoseContextLeavesTheFileAreSettledByTheWholeScan() throws {
    let root = try Paths.tree([
      "Gate.swift": """
      import LocalAuthentication
      final class Gate {
          let vault = Vault()
          func open() {
              let context = LAContext()
              context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Open") { ok, _ in
                  if ok { self.vault.show(context: context) }
              }
          }
          func other() {
              let context = LAContext()
              context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Other") { ok, _ in
                  if ok { Elsewhere.use(context: context) }
              }
          }
          func ignored() {
              let context = LAContext()
              context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Ignored") { _, _ in
                  self.vault.show(context: context)
              }
          }
      }
      """,
      "Vault.swift": """
      import LocalAuthentication
      final class Vault {
          func show(context: LAContext) { print(context.biometryType) }
      }
      """,
    ])
    let gates = records(try inventory([root.path]), "localAuthenticationGates")
    #expect(gates.count == 3)
    let open = try #require(record(gates, at: "Gate.swift", line: 6))
    #expect(open["binding"] as? String == "event-bound")
    #expect((open["bindingNote"] as? String)?.contains("show(context:)") == true)
    let other = try #require(record(gates, at: "Gate.swift", line: 12))
    #expect(other["binding"] as? String == "undetermined")
    #expect((other["bindingNote"] as? String)?.contains("use(context:)") == true)
    // A reply that ignores the result is not judged by the event-bound rule: not settled by it.
    let ignored = try #require(record(gates, at: "Gate.swift", line: 18))
    #expect(ignored["binding"] as? String == "undetermined")
  }

  @Test func theGateRuleIsTheEventBoundRule() {
    #expect(Inventory.gateRuleID == EventBoundBiometricAuth.metadata.id)
  }
}
