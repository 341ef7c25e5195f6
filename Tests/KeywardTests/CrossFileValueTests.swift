import Foundation
import KeywardCLI
import KeywardRules
import Testing

@testable import KeywardCore

/// A weak setting passed to a function another file declares is reported at the call when that
/// function's parameter reaches the sink (`ParameterReach`, settled by `HandOffSettler`).
@Suite struct CrossFileValueTests {
  static let protector = """
    import Security
    final class Protector {
        func protect(_ secret: Data, with flags: SecAccessControlCreateFlags) -> SecAccessControl? {
            makeAccess(flags)
        }
        private func makeAccess(_ flags: SecAccessControlCreateFlags) -> SecAccessControl? {
            SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, nil)
        }
    }
    """

  static let describer = """
    final class Protector {
        func protect(_ secret: Data, with flags: SecAccessControlCreateFlags) -> String { "\\(flags)" }
    }
    """

  static func caller(_ flag: String, receiver: String = "let protector = Protector()") -> String {
    """
    final class LockScreen {
        \(receiver)
        func lock(_ data: Data) { _ = protector.protect(data, with: \(flag)) }
    }
    """
  }

  static let store = """
    import Security
    struct TokenStore {
        func put(_ secret: Data, protection: CFString) -> OSStatus {
            let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: secret,
                                        kSecAttrAccessible as String: protection]
            return SecItemAdd(query as CFDictionary, nil)
        }
    }
    """

  func findings(_ files: [String: String], rules: Set<String>) throws -> [Finding] {
    try CrossFileContextTests.findings(files, rules: rules)
  }

  @Test func aWeakFlagPassedToAnotherFilesAccessControlIsReportedAtTheCall() throws {
    let found = try findings(
      ["Protector.swift": Self.protector, "LockScreen.swift": Self.caller(".biometryAny")],
      rules: [WeakBiometricACL.metadata.id])
    let finding = try #require(found.first)
    #expect(found.count == 1)
    #expect(finding.location.place == "LockScreen.swift:3:65")
    #expect(finding.message.contains("Passed to `protect(_:with:)`"))
    #expect(
      finding.related.map(\.location.place) == [
        "Protector.swift:3:10", "Protector.swift:4:20", "Protector.swift:7:92",
      ])
    #expect(finding.related[1].message == "passed on to `makeAccess(_:)` here")
    #expect(finding.fix?.edits.count == 1)
  }

  /// Keeps the flags a caller requires in a property that another method creates the access
  /// control from.
  static let keyMaker = """
    import Security
    final class KeyMaker {
        private var flags: SecAccessControlCreateFlags = []
        func require(_ requirement: SecAccessControlCreateFlags) { self.flags = requirement }
        func relax(to requirement: SecAccessControlCreateFlags) { flags = requirement }
        func makeAccess() -> SecAccessControl? {
            SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, nil)
        }
    }
    """

  @Test(arguments: [
    ("maker.require(.biometryAny)", "Setup.swift:1:65"), ("maker.relax(to: .userPresence)", "Setup.swift:1:67"),
    ("maker.require(.biometryCurrentSet)", nil),
  ])
  func aWeakFlagAMethodKeepsForTheAccessControlIsReportedAtTheCall(_ call: String, place: String?) throws {
    let found = try findings(
      [
        "KeyMaker.swift": Self.keyMaker, "Setup.swift": "final class Setup { func run(_ maker: KeyMaker) { \(call) } }",
      ],
      rules: [WeakBiometricACL.metadata.id])
    #expect(found.map(\.location.place) == (place.map { [$0] } ?? []))
    #expect(found.first?.related.contains { $0.message.hasPrefix("assigned to `KeyMaker.flags`") } ?? (place == nil))
  }

  /// Maps its own protection cases to flags of the same names, and keeps the caller's choice.
  static let itemStore = """
    import Security
    final class ItemStore {
        enum Protection {
            case open, userPresence, biometryCurrentSet
            var flags: SecAccessControlCreateFlags? {
                switch self {
                case .open: return nil
                case .userPresence: return [.userPresence]
                case .biometryCurrentSet: return .biometryCurrentSet
                }
            }
        }
        private var protection: Protection = .open
        func use(protection: Protection) { self.protection = protection }
        func makeAccess() -> SecAccessControl? {
            guard let flags = protection.flags else { return nil }
            return SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, nil)
        }
    }
    """

  @Test(arguments: [
    ("store.use(protection: .userPresence)", "Lock.swift:1:73"), ("store.use(protection: .biometryCurrentSet)", nil),
    // Another module's type of the same name: the table's computed `flags` is built by no one.
    ("_ = Protection(flags: .userPresence)", nil),
  ])
  func aCaseAnotherFilesTableMapsToAWeakFlagIsReportedAtTheCall(_ call: String, place: String?) throws {
    let found = try findings(
      [
        "ItemStore.swift": Self.itemStore,
        "Lock.swift": "final class Lock { func arm(_ store: ItemStore) { \(call) } }",
      ],
      rules: [WeakBiometricACL.metadata.id])
    #expect(found.map(\.location.place) == (place.map { [$0] } ?? []))
  }

  @Test func aStepMatchedOnlyByItsNameLowersTheConfidence() throws {
    let rule = WeakBiometricACL.metadata
    let known = try #require(
      findings(["Protector.swift": Self.protector, "LockScreen.swift": Self.caller(".biometryAny")], rules: [rule.id])
        .first)
    // The receiver comes from a function whose result type the scan does not declare.
    let guessed = try #require(
      findings(
        [
          "Protector.swift": Self.protector,
          "LockScreen.swift": Self.caller(".biometryAny", receiver: "let protector = makeProtector()"),
        ], rules: [rule.id]
      ).first)
    #expect(known.confidence == rule.confidence)
    #expect(guessed.confidence == rule.confidence.lowered(by: 1))
    #expect(guessed.confidence < known.confidence)
    #expect(guessed.related.map(\.location.place) == known.related.map(\.location.place))
  }

  @Test(arguments: [
    // Strong flags.
    ["Protector.swift": protector, "LockScreen.swift": caller(".biometryCurrentSet")],
    // The parameter never reaches an access control.
    ["Protector.swift": describer, "LockScreen.swift": caller(".biometryAny")],
    // Nothing in the scan declares the function.
    ["LockScreen.swift": caller(".biometryAny")],
    // The receiver is of another type than the one declaring `protect(_:with:)`.
    ["Protector.swift": protector, "LockScreen.swift": caller(".biometryAny", receiver: "let protector = Vault()")],
  ])
  func nothingIsReportedWhereTheValueDoesNotTakeEffect(_ files: [String: String]) throws {
    #expect(try findings(files, rules: [WeakBiometricACL.metadata.id]).isEmpty)
  }

  @Test func aWeakAccessibilityPassedToAnotherFilesStoreIsReported() throws {
    let caller = """
      func remember(_ token: Data) { _ = TokenStore().put(token, protection: kSecAttrAccessibleAlwaysThisDeviceOnly) }
      """
    let found = try findings(
      ["TokenStore.swift": Self.store, "Session.swift": caller], rules: [WeakKeychainAccessibility.metadata.id])
    #expect(found.map(\.location.place) == ["Session.swift:1:72"])
    #expect(found.first?.related.last?.message == "used here as the kSecAttrAccessible value")
  }

  static let vault = """
    import Security
    final class Vault {
        private let settings: VaultSettings
        init(settings: VaultSettings) { self.settings = settings }
        func save(_ secret: Data) -> OSStatus {
            var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: secret]
            query[kSecAttrAccessible as String] = settings.protection
            return SecItemAdd(query as CFDictionary, nil)
        }
    }
    """

  /// A settings type declared in a third file that names no keychain constant at all.
  static let vaultSettings = "struct VaultSettings { var protection: CFString; var label = \"vault\" }"

  @Test(arguments: [
    ("let vault = Vault(settings: .init(protection: kSecAttrAccessibleAlways))", "App.swift:1:47"),
    ("let vault = Vault(settings: VaultSettings(protection: kSecAttrAccessibleAlways))", "App.swift:1:55"),
    ("let relaxed = VaultSettings(protection: kSecAttrAccessibleAlways)", "App.swift:1:41"),
  ])
  func aWeakValueAStoredPropertyCarriesToAnotherFilesStoreIsReportedAtTheChoice(_ call: String, place: String) throws {
    let found = try findings(
      ["Vault.swift": Self.vault, "VaultSettings.swift": Self.vaultSettings, "App.swift": call],
      rules: [WeakKeychainAccessibility.metadata.id])
    #expect(found.map(\.location.place) == [place])
    #expect(found.first?.related.last?.message == "used here as the kSecAttrAccessible value")
    #expect(found.first?.related.last?.location.place == "Vault.swift:7:9")
    #expect(found.first?.related.first?.message.hasPrefix("passed to `Vault(settings:)`") == call.contains(".init("))
  }

  @Test(arguments: [
    // A strong class.
    "let vault = Vault(settings: .init(protection: kSecAttrAccessibleWhenUnlockedThisDeviceOnly))",
    // Another member than the one stored with.
    "let vault = Vault(settings: .init(label: kSecAttrAccessibleAlways as String))",
    // Another type than the one whose property reaches the query.
    "let row = Row(protection: kSecAttrAccessibleAlways)",
  ])
  func aWeakValueInAPropertyThatReachesNoItemIsNotReported(_ call: String) throws {
    let found = try findings(
      ["Vault.swift": Self.vault, "VaultSettings.swift": Self.vaultSettings, "App.swift": call],
      rules: [WeakKeychainAccessibility.metadata.id])
    #expect(found.isEmpty)
  }

  static let gate = """
    import LocalAuthentication
    final class UnlockGate {
        private let settings: UnlockSettings
        init(settings: UnlockSettings) { self.settings = settings }
        func unlock(_ done: @escaping (Bool) -> Void) {
            LAContext().evaluatePolicy(settings.policy, localizedReason: "Unlock") { ok, _ in done(ok) }
        }
    }
    """

  static func settings(_ fallback: String) -> String {
    """
    struct UnlockSettings {
        var allowPasscode: Bool
        var policy: LAPolicy { allowPasscode ? \(fallback) : .deviceOwnerAuthenticationWithBiometrics }
    }
    """
  }

  @Test func aPolicyAComputedPropertyChoosesIsReportedWhereAnotherFileEvaluatesIt() throws {
    let rule: Set = [PasscodeFallbackPolicy.metadata.id]
    let found = try findings(
      ["Gate.swift": Self.gate, "Settings.swift": Self.settings(".deviceOwnerAuthentication")], rules: rule)
    #expect(found.map(\.location.place) == ["Settings.swift:3:44"])
    #expect(found.first?.message.contains("(Stored in `UnlockSettings.policy`, which evaluates it.)") == true)
    #expect(found.first?.related.map(\.location.place) == ["Gate.swift:6:36"])
    let strong = Self.settings(".deviceOwnerAuthenticationWithBiometrics")
    #expect(try findings(["Gate.swift": Self.gate, "Settings.swift": strong], rules: rule).isEmpty)
    #expect(try findings(["Settings.swift": Self.settings(".deviceOwnerAuthentication")], rules: rule).isEmpty)
  }

  static let keychainHelper = """
    import Security
    enum KeychainHelper {
        static func save(_ value: String, account: String, protection: CFString) {
            let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account,
                                        kSecValueData as String: Data(value.utf8), kSecAttrAccessible as String: protection]
            SecItemAdd(query as CFDictionary, nil)
        }
    }
    """

  static let keychainBacked = """
    @propertyWrapper
    struct KeychainBacked {
        let account: String
        let protection: CFString
        init(_ account: String, protection: CFString = kSecAttrAccessibleWhenUnlockedThisDeviceOnly) {
            self.account = account
            self.protection = protection
        }
        var wrappedValue: String? {
            get { nil }
            set { KeychainHelper.save(newValue ?? "", account: account, protection: protection) }
        }
    }
    """

  /// The wrapper's setter writes through a helper declared in a third file.
  @Test func aWeakValueGivenToAPropertyWrapperIsFollowedThroughItsHelper() throws {
    let rule: Set = [WeakKeychainAccessibility.metadata.id]
    func session(_ protection: String) -> String {
      "final class Session { @KeychainBacked(\"session\", protection: \(protection)) var token: String? }"
    }
    let files = ["Helper.swift": Self.keychainHelper, "KeychainBacked.swift": Self.keychainBacked]
    let found = try findings(files.merging(["Session.swift": session("kSecAttrAccessibleAlways")]) { $1 }, rules: rule)
    #expect(found.map(\.location.place) == ["Session.swift:1:62"])
    #expect(
      found.first?.related.map(\.message) == [
        "passed on to `save(_:account:protection:)` here", "passed to `save(_:account:protection:)`, declared here",
        "used here as the kSecAttrAccessible value",
      ])
    let strong = files.merging(["Session.swift": session("kSecAttrAccessibleWhenUnlocked")]) { $1 }
    #expect(try findings(strong, rules: rule).isEmpty)
    // Without the helper nothing says where the protection goes.
    let alone = ["KeychainBacked.swift": Self.keychainBacked, "Session.swift": session("kSecAttrAccessibleAlways")]
    #expect(try findings(alone, rules: rule).isEmpty)
  }

  /// `--changed-since` scans the caller only; the callee's file still says where its parameter goes.
  @Test func aPartialScanSettlesAgainstTheWholeTree() throws {
    let root = try Paths.tree(["Protector.swift": Self.protector, "LockScreen.swift": Self.caller(".userPresence")])
    let scanner = Scanner(rules: Configuration().configuredRules(from: .standard))
    var request = ScanRequest(paths: [root.path])
    request.onlyPaths = ["LockScreen.swift"]
    let found = try scanner.scan(request).findings.filter { $0.ruleId == WeakBiometricACL.metadata.id }
    #expect(found.map(\.location.place) == ["LockScreen.swift:3:65"])
  }

  @Test func aTrailingClosureTakesTheNextParameterWithoutDefault() {
    let location = SourceLocation(
      path: "G.swift", start: .init(line: 1, column: 1, utf16Column: 1, offset: 0),
      end: .init(line: 1, column: 1, utf16Column: 1, offset: 0))
    let check = CallableShape(
      name: "check",
      parameters: [
        .init(label: "using", hasDefault: false), .init(label: "reason", hasDefault: true),
        .init(label: "then", hasDefault: false),
      ], owner: nil, location: location)
    #expect(check.accepts(CallShape(name: "check", labels: ["using", CallShape.trailingClosure], argument: 0), in: 0))
    #expect(check.accepts(CallShape(name: "check", labels: ["using", CallShape.trailingClosure], argument: 1), in: 2))
    #expect(!check.accepts(CallShape(name: "check", labels: ["using"], argument: 0), in: 0))
    #expect(!check.accepts(CallShape(name: "check", labels: [CallShape.trailingClosure], argument: 0), in: 0))
  }

  /// Reaches are kept aside during a scan and read back only for the functions a waiting call
  /// may lead to: its own name, and those its relays pass the value on to.
  @Test func theReachesKeptAreThoseAWaitingCallMayLeadTo() {
    let position = SourcePosition(line: 1, column: 1, utf16Column: 1, offset: 0)
    let location = SourceLocation(path: "a.swift", start: position, end: position)
    let step = RelatedLocation(message: "s", location: location)
    func relay(from name: String, to next: String) -> ValueRelay {
      ValueRelay(
        callable: CallableShape(name: name, parameters: [], owner: nil, location: location), parameter: 0,
        owner: nil, property: nil, memberPath: [], call: CallShape(name: next, labels: ["_"], argument: 0), step: step)
    }
    let relays = [relay(from: "save", to: "store"), relay(from: "store", to: "write"), relay(from: "other", to: "x")]
    #expect(SpooledReaches.names(reachableFrom: ["save"], through: relays) == ["save", "store", "write"])
    #expect(SpooledReaches.names(reachableFrom: [], through: relays).isEmpty)
  }
}
