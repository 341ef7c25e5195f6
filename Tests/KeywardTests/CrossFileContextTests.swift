import Foundation
import KeywardCLI
import KeywardRules
import Testing

@testable import KeywardCore

/// An `LAContext` handed to a function another file declares is followed there once every file
/// is scanned (`HandOffSettler`).
@Suite struct CrossFileContextTests {
  /// Evaluates a policy and hands the context to `store.retrieve(context:)`, declared elsewhere.
  static let viewModel = viewModel(holding: "let store = SecureStore()")

  /// The view model with another declaration of its `store`.
  static func viewModel(holding store: String) -> String {
    """
    import LocalAuthentication
    final class UnlockViewModel {
        \(store)
        var secret: Data?
        func unlock() {
            let context = LAContext()
            context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock") { ok, _ in
                if ok { self.secret = self.store.retrieve(context: context) }
            }
        }
    }
    """
  }

  /// A store whose `retrieve(context:)` reads an item with the context; `protection` is how the
  /// items are stored.
  static func store(protection: String, conforming conformance: String = "") -> String {
    """
    import LocalAuthentication
    final class SecureStore\(conformance) {
        func save(_ data: Data) {
            \(protection)
        }
        func retrieve(context: LAContext) -> Data? {
            let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecReturnData as String: true,
                                        kSecUseAuthenticationContext as String: context]
            var result: AnyObject?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            return status == errSecSuccess ? result as? Data : nil
        }
    }
    """
  }

  static let protected = """
    let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .biometryCurrentSet, nil)!
            let status = SecItemAdd([kSecClass as String: kSecClassGenericPassword, kSecValueData as String: data,
                                     kSecAttrAccessControl as String: access] as CFDictionary, nil)
            precondition(status == errSecSuccess)
    """

  static let unprotected = """
    let status = SecItemAdd([kSecClass as String: kSecClassGenericPassword, kSecValueData as String: data,
                                     kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly] as CFDictionary, nil)
            precondition(status == errSecSuccess)
    """

  static let authenticationRules: Set<String> = [
    EventBoundBiometricAuth.metadata.id, EnrollmentChangeUnchecked.metadata.id,
  ]

  /// The event-bound and enrollment findings of scanning `files`.
  func findings(_ files: [String: String]) throws -> [Finding] {
    try Self.findings(files, rules: Self.authenticationRules)
  }

  /// The findings of `rules` from scanning `files`, through the CLI (streamed, cold and warm
  /// cache) and through the scanner (held): the three must agree.
  static func findings(_ files: [String: String], rules: Set<String>, profile: Profile = .standard) throws
    -> [Finding]
  {
    let root = try Paths.tree(files)
    let cache = root.appendingPathComponent("cache").path
    let arguments = [
      "scan", root.path, "--format", "json", "--cache", cache, "--exclude", "cache", "--fail-on", "none",
      "--profile", profile.rawValue,
    ]
    let cold = KeywardCLI.run(arguments).output.standardOutput
    let warm = KeywardCLI.run(arguments).output.standardOutput
    #expect(warm == cold)
    let scanner = Scanner(rules: Configuration(profile: profile).configuredRules(from: .standard))
    let direct = try scanner.scan(ScanRequest(paths: [root.path], excludes: ["cache"])).findings
    let reported = try JSONDecoder().decode(Report.self, from: Data(cold.utf8)).findings
    #expect(reported == direct)
    return direct.filter { rules.contains($0.ruleId) }
  }

  struct Report: Decodable { var findings: [Finding] }

  @Test func aContextReadingAProtectedItemInAnotherFileIsKeychainBound() throws {
    let found = try findings([
      "UnlockViewModel.swift": Self.viewModel, "SecureStore.swift": Self.store(protection: Self.protected),
    ])
    #expect(found.isEmpty)
  }

  /// A context kept in a property of a type other files read: settled when shipped code reads
  /// that property into a Secure Enclave key, and kept (low confidence) when nothing does.
  @Test func aContextKeptInAPropertyIsSettledWhereAnotherFileReadsIt() throws {
    let keeper = """
      import LocalAuthentication
      final class Grant {
          let context: LAContext
          init(context: LAContext) { self.context = context }
      }
      actor Grants {
          private var current: Grant?
          func latest() -> Grant? { current }
          func open() async throws {
              let fresh = LAContext()
              guard try await fresh.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Sign for a while") else { return }
              current = Grant(context: fresh)
          }
      }
      """
    let signer = """
      import CryptoKit
      import LocalAuthentication
      struct Signer {
          let grants: Grants
          func sign(_ message: Data, blob: Data) async throws -> Data {
              var context: LAContext
              if let grant = await grants.latest() { context = grant.context } else { context = LAContext() }
              let key = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: blob, authenticationContext: context)
              return try key.signature(for: message).rawRepresentation
          }
      }
      """
    let rules = Self.authenticationRules.union([PasscodeFallbackPolicy.metadata.id])
    #expect(try Self.findings(["Grants.swift": keeper, "Signer.swift": signer], rules: rules).isEmpty)
    // Read only by a test: nothing shipped settles it.
    let inTests = try Self.findings(["Grants.swift": keeper, "Tests/SignerTests.swift": signer], rules: rules)
    #expect(Set(inTests.map(\.ruleId)) == [EventBoundBiometricAuth.metadata.id, PasscodeFallbackPolicy.metadata.id])
    #expect(inTests.allSatisfy { $0.confidence == .low && $0.location.path == "Grants.swift" })
    // Another property of that name, read from a value of another type, settles nothing.
    let otherType = signer.replacingOccurrences(
      of: "if let grant = await grants.latest() { context = grant.context } else { context = LAContext() }",
      with: "let session: Session = makeSession(); context = session.context")
    #expect(otherType != signer)
    #expect(try Self.findings(["Grants.swift": keeper, "Signer.swift": otherType], rules: rules).count == 2)
  }

  /// An app that compares the domain state in one file: its gates elsewhere are not reported
  /// as unchecked, except under strict; a test or an unrelated property of that name is no check.
  @Test func anEnrollmentCheckInAnotherFileCoversTheGates() throws {
    let gate = """
      import LocalAuthentication
      func unlock(_ done: @escaping (Bool) -> Void) {
          let context = LAContext()
          context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock") { ok, _ in done(ok) }
      }
      """
    let check = """
      import LocalAuthentication
      struct EnrollmentWatch {
          let saved: Data?
          func isIntact(_ context: LAContext) -> Bool { context.evaluatedPolicyDomainState == saved }
      }
      """
    let rules: Set<String> = [EnrollmentChangeUnchecked.metadata.id]
    #expect(try Self.findings(["Gate.swift": gate, "Watch.swift": check], rules: rules).isEmpty)
    #expect(try Self.findings(["Gate.swift": gate, "Tests/WatchTests.swift": check], rules: rules).count == 1)
    let unrelated = """
      import LocalAuthentication
      struct Settings { var evaluatedPolicyDomainState: Data? }
      func reset(_ settings: inout Settings, context: LAContext) { settings.evaluatedPolicyDomainState = nil }
      """
    #expect(try Self.findings(["Gate.swift": gate, "Settings.swift": unrelated], rules: rules).count == 1)
    let strict = try Self.findings(["Gate.swift": gate, "Watch.swift": check], rules: rules, profile: .strict)
    #expect(strict.map(\.location.path) == ["Gate.swift"])
  }

  /// A test double of the store reads no item; it never runs in the app, so it does not make
  /// the real store's answer uncertain.
  @Test func aTestDoubleDoesNotUnsettleTheRealDeclaration() throws {
    let mock = """
      import LocalAuthentication
      final class SecureStoreMock: SecureStore {
          override func retrieve(context: LAContext) -> Data? { nil }
      }
      """
    let found = try findings([
      "UnlockViewModel.swift": Self.viewModel, "SecureStore.swift": Self.store(protection: Self.protected),
      "SecureStoreMock.swift": mock,
    ])
    #expect(found.isEmpty)
  }

  @Test func aContextReadingUnprotectedItemsIsReportedWithWhereItWent() throws {
    let found = try findings([
      "UnlockViewModel.swift": Self.viewModel, "SecureStore.swift": Self.store(protection: Self.unprotected),
    ])
    let eventBound = try #require(found.first { $0.ruleId == EventBoundBiometricAuth.metadata.id })
    #expect(eventBound.confidence == EventBoundBiometricAuth.metadata.confidence)
    #expect(eventBound.message.hasPrefix("The context is handed to `retrieve(context:)` (SecureStore.swift:8:10)"))
    #expect(eventBound.message.contains("have no access control"))
    #expect(eventBound.related.map(\.location.place) == ["UnlockViewModel.swift:8:35", "SecureStore.swift:8:10"])
    let enrollment = try #require(found.first { $0.ruleId == EnrollmentChangeUnchecked.metadata.id })
    #expect(enrollment.confidence == EnrollmentChangeUnchecked.metadata.confidence)
  }

  /// Followed through a file that only passes the context on (no keychain call of its own), to
  /// a function with a defaulted parameter the call leaves out; and reported when that function
  /// reads nothing with it.
  @Test func aContextIsFollowedAlongAChainOfFiles() throws {
    let relay = """
      import LocalAuthentication
      final class SecureStore {
          func retrieve(context: LAContext) -> Data? { Vault().read(key: "vault", using: context) }
      }
      """
    func vault(_ body: String) -> String {
      """
      import LocalAuthentication
      struct Vault {
          func read(key: String, using context: LAContext, timeout: Int = 3) -> Data? {
              \(body)
          }
      }
      """
    }
    let bound = try findings([
      "UnlockViewModel.swift": Self.viewModel, "SecureStore.swift": relay,
      "Vault.swift": vault(
        Self.protected.replacingOccurrences(of: "data", with: "Data()")
          + "\nlet query: [CFString: Any] = [kSecReturnData: true, kSecUseAuthenticationContext: context]\n"
          + "var item: AnyObject?\nreturn SecItemCopyMatching(query as CFDictionary, &item) == errSecSuccess ? item as? Data : nil"
      ),
    ])
    #expect(bound.isEmpty)
    let unused = try findings([
      "UnlockViewModel.swift": Self.viewModel, "SecureStore.swift": relay,
      "Vault.swift": vault("print(context.biometryType); return UserDefaults.standard.data(forKey: key)"),
    ])
    let eventBound = try #require(unused.first { $0.ruleId == EventBoundBiometricAuth.metadata.id })
    #expect(
      eventBound.message.hasPrefix(
        "The context is handed to `retrieve(context:)` (SecureStore.swift:3:10) and on to `read(key:using:timeout:)` (Vault.swift:3:10), which passes it to no keychain query."
      ))
    #expect(eventBound.confidence == EventBoundBiometricAuth.metadata.confidence)
  }

  /// Nothing is settled without a declaration that fits the call, or when the candidates
  /// disagree: the finding stays, at low confidence.
  @Test(arguments: [
    "func retrieve(key: String, context: LAContext) -> Data? { nil }",
    "func retrieve(context: Any) -> Data? { nil }",
  ])
  func unsettledHandOffsStayLowConfidence(_ other: String) throws {
    let notFitting = try findings([
      "UnlockViewModel.swift": Self.viewModel,
      "Other.swift": "import LocalAuthentication\nstruct Other { \(other) }\n",
    ])
    #expect(notFitting.map(\.confidence) == [.low, .low])
    let disagreeing = try findings([
      "UnlockViewModel.swift": Self.viewModel(holding: "let store: any SecretStoring = SecureStore()"),
      "SecureStore.swift": Self.store(protection: Self.protected, conforming: ": SecretStoring"),
      "PlainStore.swift":
        "import LocalAuthentication\nstruct PlainStore: SecretStoring { func retrieve(context: LAContext) -> Data? { nil } }\n",
    ])
    #expect(disagreeing.map(\.confidence) == [.low, .low])
    #expect(disagreeing.allSatisfy { $0.related.count <= 1 })
  }

  /// When the calling file says what type the receiver has, only that type's functions (or
  /// those of types naming it as superclass or protocol) can settle the call; a protocol's
  /// requirement, having no body, settles nothing itself.
  @Test func theReceiversTypeNarrowsTheCandidates() throws {
    let protectedStore = Self.store(protection: Self.protected)
    let cache = "import LocalAuthentication\nstruct Cache { func retrieve(context: LAContext) -> Data? { nil } }\n"
    for store in ["let store = SecureStore()", "let store: SecureStore? = nil", "unowned let store: SecureStore"] {
      let narrowed = try findings([
        "UnlockViewModel.swift": Self.viewModel(holding: store), "SecureStore.swift": protectedStore,
        "Cache.swift": cache,
      ])
      #expect(narrowed.isEmpty, "\(store)")
    }
    let unscannedType = try findings([
      "UnlockViewModel.swift": Self.viewModel(holding: "let store = Keychain(service: \"vault\")"),
      "SecureStore.swift": protectedStore,
    ])
    #expect(unscannedType.map(\.confidence) == [.low, .low])
    let throughProtocol = try findings([
      "UnlockViewModel.swift": Self.viewModel(holding: "let store: SecretStoring"),
      "SecretStoring.swift":
        "import LocalAuthentication\nprotocol SecretStoring { func retrieve(context: LAContext) -> Data? }\n",
      "SecureStore.swift": Self.store(protection: Self.protected, conforming: ": SecretStoring"),
    ])
    #expect(throughProtocol.isEmpty)
  }

  /// `--changed-since` and `include:` scan part of the tree; the rest still says where handed
  /// contexts go, so the result is the whole scan's for the selected files (with or without a
  /// cache filled by an earlier scan).
  @Test func aPartialScanSettlesAgainstTheWholeTree() throws {
    for (protection, expected) in [(Self.protected, 0), (Self.unprotected, 2)] {
      let root = Paths.temporaryFolder()
      let files = ["UnlockViewModel.swift": Self.viewModel, "SecureStore.swift": Self.store(protection: protection)]
      for (name, code) in files {
        try code.write(to: root.appendingPathComponent(name), atomically: true, encoding: .utf8)
      }
      let cache = root.appendingPathComponent("cache").path
      let scanner = Scanner(rules: Configuration().configuredRules(from: .standard))
      let whole = try scanner.scan(ScanRequest(paths: [root.path], excludes: ["cache"])).findings
        .filter { $0.location.path == "UnlockViewModel.swift" && Self.authenticationRules.contains($0.ruleId) }
      #expect(whole.count == expected)
      for cached in [false, true] {
        var request = ScanRequest(paths: [root.path], excludes: ["cache"])
        request.onlyPaths = ["UnlockViewModel.swift"]
        if cached {
          request.cacheFolder = cache
          _ = try scanner.scan(ScanRequest(paths: [root.path], excludes: ["cache"]).with(cacheFolder: cache))
        }
        let partial = try scanner.scan(request).findings.filter { Self.authenticationRules.contains($0.ruleId) }
        #expect(partial == whole, "cached: \(cached)")
      }
    }
  }

  @Test func callsAreMatchedByNameAndLabels() {
    let use = ContextParameterUse(
      name: "read",
      parameters: [
        .init(label: "key", hasDefault: false), .init(label: "using", hasDefault: false),
        .init(label: "timeout", hasDefault: true),
      ],
      parameter: 1, outcome: .notToKeychain,
      location: SourceLocation(
        path: "V.swift", start: .init(line: 1, column: 1, utf16Column: 1, offset: 0),
        end: .init(line: 1, column: 1, utf16Column: 1, offset: 0)))
    #expect(use.accepts(CallShape(name: "read", labels: ["key", "using"], argument: 1)))
    #expect(use.accepts(CallShape(name: "read", labels: ["key", "using", "timeout"], argument: 1)))
    #expect(!use.accepts(CallShape(name: "read", labels: ["key", "using"], argument: 0)))
    #expect(!use.accepts(CallShape(name: "read", labels: ["using"], argument: 0)))
    #expect(!use.accepts(CallShape(name: "read", labels: ["key", "using", "timeout", "x"], argument: 1)))
    #expect(!use.accepts(CallShape(name: "load", labels: ["key", "using"], argument: 1)))
    #expect(!use.accepts(CallShape(name: "read", labels: ["key", "using"], argument: 1, receiverType: "Vault")))
    var member = use
    member.owner = .init(type: "Vault", supertypes: ["SecretStoring"])
    #expect(member.accepts(CallShape(name: "read", labels: ["key", "using"], argument: 1)))
    #expect(member.accepts(CallShape(name: "read", labels: ["key", "using"], argument: 1, receiverType: "Vault")))
    #expect(
      member.accepts(CallShape(name: "read", labels: ["key", "using"], argument: 1, receiverType: "SecretStoring")))
    #expect(!member.accepts(CallShape(name: "read", labels: ["key", "using"], argument: 1, receiverType: "Cache")))
  }
}

extension ScanRequest {
  fileprivate func with(cacheFolder: String) -> ScanRequest {
    var copy = self
    copy.cacheFolder = cacheFolder
    return copy
  }
}
