import Foundation
import KeywardCLI
import KeywardCore
import KeywardRules
import Testing

/// The command line end to end: exit codes 0 / 1 / 2 and what is printed, in process.
@Suite struct CLITests {
  let example = Paths.packageRoot.appendingPathComponent("Examples/VaultApp").path

  func folder(_ files: [String: String]) throws -> URL { try Paths.tree(files) }

  static let weakFlag =
    "let a = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .userPresence, nil)\n"
  static let weakAccessibility = "let q = [kSecAttrAccessible: kSecAttrAccessibleAlways]\n"

  @Test func scanningTheExampleAppFindsItsWeaknessesAndExitsOne() {
    let (status, output) = KeywardCLI.run(["scan", example])
    #expect(status == 1)
    #expect(output.standardOutput.contains("Sources/Auth/BiometricKeyManager.swift:11:83: high:"))
    #expect(output.standardOutput.contains("[swift.weak_keychain_accessibility]"))
    #expect(output.standardOutput.contains("49 findings (22 high, 13 medium, 12 low, 2 info) in 20 files."))
    // Every weakness of the example runs: none is in code no build runs.
    #expect(!output.standardOutput.contains("[uncalled]"))
    // SignInViewModel.swift hands its evaluated context to AuthService.swift, which reads a
    // protected item with it: settled across the two files, so nothing is reported there.
    #expect(!output.standardOutput.contains("SignInViewModel.swift"))
    for rule in RuleCatalog.standard.rules
    where rule.metadata.profile <= .standard && !rule.metadata.id.hasPrefix("keyward.") && rule.language != .binary {
      #expect(output.standardOutput.contains("[\(rule.metadata.id)]"), "the example app shows no \(rule.metadata.id)")
    }
    let strict = KeywardCLI.run(["scan", example, "--profile", "strict"])
    #expect(strict.output.standardOutput.contains("[swift.keychain_item_migratable]"))
    let essential = KeywardCLI.run(["scan", example, "--profile", "essential"])
    #expect(!essential.output.standardOutput.contains("[swift.keychain_status_unchecked]"))
    #expect(output.standardError.isEmpty)
  }

  @Test func aCleanTreeExitsZero() throws {
    let root = try folder(["App.swift": "let greeting = \"hello\"\n"])
    let (status, output) = KeywardCLI.run(["scan", root.path])
    #expect(status == 0)
    #expect(output.standardOutput.contains("No findings in 1 file."))
  }

  @Test func failOnSetsTheThreshold() throws {
    let root = try folder(["A.swift": Self.weakFlag])
    #expect(KeywardCLI.run(["scan", root.path, "--fail-on", "high"]).status == 1)
    #expect(KeywardCLI.run(["scan", root.path, "--fail-on", "critical"]).status == 0)
    #expect(KeywardCLI.run(["scan", root.path, "--fail-on", "none"]).status == 0)
    let (status, output) = KeywardCLI.run(["scan", root.path, "--fail-on", "severe"])
    #expect(status == 2)
    #expect(output.standardError.contains("severe"))
  }

  @Test func usageErrorsExitTwoAndSayWhatIsWrong() {
    let missing = KeywardCLI.run(["scan", "/no/such/folder"])
    #expect(missing.status == 2)
    #expect(missing.output.standardError.contains("path does not exist or cannot be read: /no/such/folder"))
    let format = KeywardCLI.run(["scan", example, "--format", "xml"])
    #expect(format.status == 2)
    #expect(format.output.standardError.contains("'xml' is invalid for '--format"))
    let unknownCommand = KeywardCLI.run(["scna", example])
    #expect(unknownCommand.status == 2)
    let jobs = KeywardCLI.run(["scan", example, "--jobs", "-1"])
    #expect(jobs.status == 2)
  }

  @Test func outputFileReceivesTheReport() throws {
    let root = try folder(["A.swift": Self.weakFlag])
    let report = root.appendingPathComponent("out/report.json").path
    try FileManager.default.createDirectory(
      atPath: (report as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let (status, output) = KeywardCLI.run(["scan", root.path, "--format", "json", "--output", report])
    #expect(status == 1)
    #expect(output.standardOutput.isEmpty)
    #expect(output.standardError.contains("report written to"))
    let data = try Data(contentsOf: URL(fileURLWithPath: report))
    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    #expect((object?["findings"] as? [Any])?.count == 1)
    let unwritable = KeywardCLI.run(["scan", root.path, "--output", "/no/such/dir/report.txt"])
    #expect(unwritable.status == 2)
    #expect(unwritable.output.standardError.contains("cannot write the report"))
  }

  @Test func excludedPathsAndBuildFoldersAreSkipped() throws {
    let root = try folder([
      "App/A.swift": Self.weakFlag, "Generated/B.swift": Self.weakFlag, ".build/C.swift": Self.weakFlag,
      "Pods/D.swift": Self.weakFlag, "DerivedData/E.swift": Self.weakFlag, "Carthage/F.swift": Self.weakFlag,
      "App/G.generated.swift": Self.weakFlag, "App/Assets.xcassets/Icon.imageset/H.swift": Self.weakFlag,
      "App/Stickers.xcstickers/I.swift": Self.weakFlag,
    ])
    let (_, output) = KeywardCLI.run([
      "scan", root.path, "--format", "json", "--exclude", "Generated/**", "--exclude", "*.generated.swift",
    ])
    let object = try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any]
    let paths = (object?["findings"] as? [[String: Any]])?.compactMap {
      ($0["location"] as? [String: Any])?["path"] as? String
    }
    #expect(paths == ["App/A.swift"])
  }

  @Test func configurationSetsOptionsAndDisablesRules() throws {
    let root = try folder([
      "A.swift": Self.weakFlag + Self.weakAccessibility,
      ".keyward.yml": """
      rules:
        swift.weak_biometric_acl:
          weakBiometricFlags: [biometryAny, touchIDAny]
        swift.weak_keychain_accessibility:
          enabled: false
      """,
    ])
    let (status, output) = KeywardCLI.run(["scan", root.path])
    #expect(status == 0, "\(output.standardOutput)")
    #expect(output.standardOutput.contains("No findings"))
    let severity = try folder([
      "A.swift": Self.weakAccessibility,
      "keyward.yml": "rules:\n  swift.weak_keychain_accessibility:\n    severity: critical\n",
    ])
    let config = severity.appendingPathComponent("keyward.yml").path
    let result = KeywardCLI.run(["scan", severity.path, "--config", config])
    #expect(result.output.standardOutput.contains("critical:"))
    #expect(KeywardCLI.run(["scan", severity.path, "--config", config, "--fail-on", "critical"]).status == 1)
  }

  @Test(arguments: [
    (
      "rules:\n  swift.weak_biometric_acl:\n    weakBiometricFlags: biometryAny\n",
      ".keyward.yml:3:25: 'weakBiometricFlags' must be a list of strings, found 'biometryAny'"
    ),
    (
      "rules:\n  swift.weak_biometric_acl:\n    weakBiometricFlags: [biometryAnyy]\n",
      "'biometryAnyy' is not a valid value for 'weakBiometricFlags'; did you mean 'biometryAny'?"
    ),
    (
      "rules:\n  swift.weak_biometric_acll:\n    enabled: false\n",
      ".keyward.yml:2:3: unknown rule id 'swift.weak_biometric_acll'; did you mean 'swift.weak_biometric_acl'?"
    ),
    (
      "rules:\n  swift.weak_biometric_acl:\n    severity: severe\n",
      ".keyward.yml:3:15: 'severity' must be one of info, low, medium, high, critical, not 'severe'"
    ),
    ("rules: [oops\n", ".keyward.yml: malformed YAML"),
    ("- just\n- a list\n", ".keyward.yml:1:1: the configuration must be a mapping of keys to values"),
  ])
  func configurationErrorsNameFileLineAndKey(_ configuration: String, _ message: String) throws {
    let root = try folder(["A.swift": Self.weakFlag, ".keyward.yml": configuration])
    let (status, output) = KeywardCLI.run(["scan", root.path])
    #expect(status == 2)
    #expect(output.standardError.contains(message), "\(output.standardError)")
    #expect(output.standardOutput.isEmpty)
  }

  @Test func aMissingConfigurationFileIsAnError() throws {
    let root = try folder(["A.swift": Self.weakFlag])
    let missing = KeywardCLI.run(["scan", root.path, "--config", root.appendingPathComponent("nope.yml").path])
    #expect(missing.status == 2)
    #expect(missing.output.standardError.contains("configuration file does not exist"))
  }

  @Test func unknownConfigurationKeysWarnButTheScanRuns() throws {
    let root = try folder([
      "A.swift": Self.weakFlag,
      ".keyward.yml": "exclud: [x]\nrules:\n  swift.weak_biometric_acl:\n    enabeld: true\n",
    ])
    let (status, output) = KeywardCLI.run(["scan", root.path])
    #expect(status == 1)
    #expect(output.standardError.contains(".keyward.yml:1:1: unknown key 'exclud'; did you mean 'exclude'?"))
    #expect(
      output.standardError.contains(
        ".keyward.yml:4:5: unknown option 'enabeld' for rule 'swift.weak_biometric_acl'; did you mean 'enabled'?"))
  }

  @Test func profilesChooseTheRulesThatRun() throws {
    let code =
      Self.weakAccessibility + "SecItemAdd(q as CFDictionary, nil)\n"
      + "let item: [String: Any] = [kSecValueData as String: data, kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked]\n"
    let root = try folder(["A.swift": code])
    func rules(_ arguments: [String]) -> Set<String> {
      let output = KeywardCLI.run(["scan", root.path, "--format", "json"] + arguments).output.standardOutput
      let object = try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
      return Set((object?["findings"] as? [[String: Any]])?.compactMap { $0["ruleId"] as? String } ?? [])
    }
    #expect(rules(["--profile", "essential"]) == ["swift.weak_keychain_accessibility"])
    #expect(rules([]) == ["swift.weak_keychain_accessibility", "swift.keychain_status_unchecked"])
    #expect(rules(["--profile", "strict"]).contains("swift.keychain_item_migratable"))
    try "profile: strict\nrules:\n  swift.keychain_status_unchecked:\n    enabled: false\n".write(
      to: root.appendingPathComponent(".keyward.yml"), atomically: true, encoding: .utf8)
    #expect(rules([]) == ["swift.weak_keychain_accessibility", "swift.keychain_item_migratable"])
    #expect(rules(["--profile", "essential"]) == ["swift.weak_keychain_accessibility"])
    let listing = KeywardCLI.run(["rules", "--profile", "essential"]).output.standardOutput
    #expect(listing.contains("swift.keychain_item_migratable") && listing.contains("strict     off"))
    #expect(listing.contains("4 on with the essential profile") || listing.contains("on with the essential profile"))
    try "profile: paranoid\n".write(to: root.appendingPathComponent(".keyward.yml"), atomically: true, encoding: .utf8)
    let bad = KeywardCLI.run(["scan", root.path])
    #expect(bad.status == 2)
    #expect(bad.output.standardError.contains("'profile' must be one of essential, standard, strict, not 'paranoid'"))
  }

  @Test func rulesListsEveryRuleAndExplainDocumentsOne() {
    let rules = KeywardCLI.run(["rules"])
    #expect(rules.status == 0)
    #expect(rules.output.standardOutput.contains("swift.weak_biometric_acl"))
    #expect(rules.output.standardOutput.contains("swift.weak_keychain_accessibility"))
    let explain = KeywardCLI.run(["explain", "swift.weak_biometric_acl"])
    #expect(explain.status == 0)
    for section in [
      "## Description", "## Rationale", "## Remediation", "## Configuration", "## References", "weakBiometricFlags",
      "CWE:287",
    ] {
      #expect(explain.output.standardOutput.contains(section), "missing \(section)")
    }
    let typo = KeywardCLI.run(["explain", "swift.weak_keychain_accesibility"])
    #expect(typo.status == 2)
    #expect(typo.output.standardError.contains("did you mean 'swift.weak_keychain_accessibility'?"))
  }

  @Test func theExecutableReturnsTheSameExitCodes() throws {
    let path = try #require(Paths.builtExecutable("keyward"), "keyward was not built")
    func run(_ arguments: [String]) throws -> (Int32, String) {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: path)
      process.arguments = arguments
      let errors = Pipe()
      process.standardError = errors
      process.standardOutput = FileHandle.nullDevice
      try process.run()
      let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      return (process.terminationStatus, text)
    }
    #expect(try run(["scan", example]).0 == 1)
    #expect(try run(["scan", example, "--fail-on", "none"]).0 == 0)
    let (status, message) = try run(["scan", "/no/such/folder"])
    #expect(status == 2)
    #expect(message.contains("path does not exist"))
    #expect(try run(["scan", example, "--format", "yaml"]).0 == 2)
  }
}

/// In-house wrappers declared in `.keyward.yml` are read like the built-in ones.
@Suite struct WrapperConfigurationTests {
  static let configuration = """
    wrapperMappings:
      - library: AcmeVault
        modules: [AcmeVault]
        accessibility:
          argumentLabels: [protection]
          values:
            anytime: kSecAttrAccessibleAlways
            unlocked: kSecAttrAccessibleWhenUnlockedThisDeviceOnly
        authenticationPolicy:
          methods: [requireUnlock]
          values:
            anyFinger: biometryAny
        synchronizable:
          properties: [syncsAcrossDevices]
        authenticationContext:
          methods: [unlocked]
    """

  /// An evaluation whose context the wrapper reads with: bound to the keychain where the
  /// mapping applies (the box has an authentication policy), event-bound elsewhere.
  static let evaluation = """
    let context = LAContext()
    context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Open") { ok, _ in
        if ok { _ = box.unlocked(context).read("sessionToken") }
    }
    """

  @Test func configuredWrappersAreReadOnlyWhereImported() throws {
    let root = Paths.temporaryFolder()
    try Self.configuration.write(to: root.appendingPathComponent(".keyward.yml"), atomically: true, encoding: .utf8)
    try """
    import AcmeVault
    let box = SecureBox()
    box.save(token, forKey: "sessionToken", protection: .anytime)
    box.save(note, forKey: "note", protection: .unlocked)
    box.requireUnlock(.anyFinger)
    box.syncsAcrossDevices = true
    \(Self.evaluation)
    """.write(to: root.appendingPathComponent("A.swift"), atomically: true, encoding: .utf8)
    try """
    let box = SecureBox()
    box.save(token, forKey: "sessionToken", protection: .anytime)
    \(Self.evaluation)
    """.write(to: root.appendingPathComponent("B.swift"), atomically: true, encoding: .utf8)
    let (_, output) = KeywardCLI.run(["scan", root.path, "--format", "json"])
    let object = try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any]
    let found = (object?["findings"] as? [[String: Any]])?.map { finding in
      "\((finding["location"] as? [String: Any])?["path"] as? String ?? "") \(finding["ruleId"] as? String ?? "")"
    }
    #expect(
      found == [
        "A.swift swift.weak_keychain_accessibility", "A.swift swift.weak_biometric_acl",
        "A.swift swift.keychain_synchronizable_secret",
        "B.swift swift.biometric_enrollment_change_unchecked", "B.swift swift.event_bound_biometric_auth",
      ], "\(output.standardError)")
  }

  /// A store made without a class keeps the default the mapping names, unless each write names one.
  @Test func configuredDefaultStoresAreReportedInStrict() throws {
    let root = Paths.temporaryFolder()
    // The shared mapping, with what a `SecureBox` made without a class keeps its items as.
    let configuration =
      Self.configuration
      + "\n    defaultStore:\n      maker: SecureBox\n      accessibility: kSecAttrAccessibleAfterFirstUnlock"
      + "\n      writeMethods: [save]"
    try configuration.write(to: root.appendingPathComponent(".keyward.yml"), atomically: true, encoding: .utf8)
    try """
    import AcmeVault
    let box = SecureBox()
    let careful = SecureBox()
    func keep(_ token: String) {
        box.save(token, forKey: "sessionToken")
        careful.save(token, forKey: "copy", protection: .unlocked)
    }
    """.write(to: root.appendingPathComponent("A.swift"), atomically: true, encoding: .utf8)
    let (_, output) = KeywardCLI.run(["scan", root.path, "--profile", "strict", "--format", "json"])
    let object = try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any]
    let found = (object?["findings"] as? [[String: Any]])?.map { finding in
      "\(finding["ruleId"] as? String ?? "") \((finding["location"] as? [String: Any]).flatMap { $0["start"] as? [String: Any] }?["line"] as? Int ?? 0)"
    }
    #expect(found == ["swift.keychain_implicit_accessibility 2"], "\(output.standardError)")
    try configuration.replacingOccurrences(of: "\n      writeMethods: [save]", with: "").write(
      to: root.appendingPathComponent(".keyward.yml"), atomically: true, encoding: .utf8)
    let (status, failed) = KeywardCLI.run(["scan", root.path])
    #expect(status == 2)
    #expect(failed.standardError.contains("'defaultStore' needs 'maker', 'accessibility' and 'writeMethods'"))
  }

  @Test func badWrapperMappingsNameTheProblem() throws {
    let root = Paths.temporaryFolder()
    try
      "wrapperMappings:\n  - library: X\n    modules: [X]\n    accessibility:\n      values:\n        anytime: kSecAttrAccessibleAlwayz\n"
      .write(to: root.appendingPathComponent(".keyward.yml"), atomically: true, encoding: .utf8)
    let (status, output) = KeywardCLI.run(["scan", root.path])
    #expect(status == 2)
    #expect(output.standardError.contains(".keyward.yml:6:18: 'kSecAttrAccessibleAlwayz' is not a valid meaning"))
    #expect(output.standardError.contains("did you mean 'kSecAttrAccessibleAlways'?"))
    try "wrapperMappings:\n  - library: X\n".write(
      to: root.appendingPathComponent(".keyward.yml"), atomically: true, encoding: .utf8)
    #expect(KeywardCLI.run(["scan", root.path]).output.standardError.contains("needs 'modules' or 'types'"))
  }
}
