import Foundation
import KeywardCore
import KeywardRules
import SwiftParser
import SwiftSyntax
import Testing

/// The shared semantic layer: name resolution and value shapes, checked directly.
@Suite struct SemanticsTests {
  static let source = """
    let level = kSecAttrAccessibleWhenUnlocked
    struct Store {
        static let level = kSecAttrAccessibleAfterFirstUnlock
        let other = kSecAttrAccessibleAlways
        func a() -> Any {
            let level = kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly
            return ["a": level]
        }
        func b() -> Any { ["b": Self.level] }
        func d() -> Any { ["d": other] }
        func e() -> Any { ["e": self.other] }
    }
    extension Store { func f() -> Any { ["f": other] } }
    func g() -> Any { ["g": level] }
    func h(_ value: CFString = kSecAttrAccessibleAlwaysThisDeviceOnly) -> Any { ["h": value] }
    func i() -> Any { let x = level; return ["i": x] }
    func j() -> Any { let level = level; return ["j": level] }
    var cycleA = cycleB
    var cycleB = cycleA
    func k() -> Any { ["k": cycleA] }
    func l(on: Bool) -> Any { ["l": (on ? kSecAttrAccessibleAlways : kSecAttrAccessibleWhenUnlocked) as String] }
    func m(name: String?) -> Any { ["m": String(name ?? kSecAttrAccessibleAfterFirstUnlock as String)] }
    func n() -> Any { var v = kSecAttrAccessibleWhenUnlocked; v = kSecAttrAccessibleAlways; return ["n": v] }
    var computed: CFString { kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly }
    func o() -> Any { ["o": computed] }
    func p() -> Any { if let found = Optional(level) { return ["p": found] }; return [:] }
    func q() -> Any? { if let found = Optional(level), let made = Optional(["q": found]) { return made }; return nil }
    """

  /// For each dictionary entry keyed "x": the texts of the values it resolves to, and whether
  /// each is conditional.
  static let resolved: [String: [String]] = {
    let model = SemanticModel(tree: Parser.parse(source: source))
    var result: [String: [String]] = [:]
    for element in model.index.dictionaryElements {
      guard let key = SyntaxFacts.stringLiteralValue(element.key) else { continue }
      result[key] = model.resolver.values(of: element.value).map {
        $0.expression.trimmedDescription + ($0.isConditional ? "?" : "")
      }
    }
    return result
  }()

  @Test(arguments: [
    ("a", ["kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly"]),
    ("b", ["kSecAttrAccessibleAfterFirstUnlock"]),
    ("d", ["kSecAttrAccessibleAlways"]),
    ("e", ["kSecAttrAccessibleAlways"]),
    ("f", ["kSecAttrAccessibleAlways"]),
    ("g", ["kSecAttrAccessibleWhenUnlocked"]),
    ("h", ["kSecAttrAccessibleAlwaysThisDeviceOnly?"]),
    ("i", ["kSecAttrAccessibleWhenUnlocked"]),
    ("j", ["kSecAttrAccessibleWhenUnlocked"]),
    ("k", []),
    ("l", ["kSecAttrAccessibleAlways?", "kSecAttrAccessibleWhenUnlocked?"]),
    ("m", ["name?", "kSecAttrAccessibleAfterFirstUnlock?"]),
    ("n", ["kSecAttrAccessibleWhenUnlocked?", "kSecAttrAccessibleAlways?"]),
    ("o", ["kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly"]),
    ("p", ["Optional(level)"]),
    // A later condition sees what an earlier one binds.
    ("q", ["Optional(level)"]),
  ])
  func namesResolveLexically(_ key: String, _ expected: [String]) {
    #expect(Self.resolved[key] == expected)
  }

  /// `SyntaxFacts.text` stands in for `trimmedDescription` on hot paths; it must agree on every
  /// node, including comments around and inside nodes and code with syntax errors.
  @Test func nodeTextMatchesTrimmedDescription() throws {
    let folder = Paths.packageRoot.appendingPathComponent("Examples/VaultApp/Sources")
    let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
      .filter { $0.hasSuffix(".swift") }
    var sources = try files.map { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }
    sources.append("/* a */ let x = /* b */ f( /* c */ 1 , // d\n 2 ) // e\n  func broken( { if true")
    var compared = 0
    for source in sources {
      for node in AllNodes.of(Parser.parse(source: source)) {
        #expect(SyntaxFacts.text(node) == node.trimmedDescription)
        compared += 1
      }
    }
    #expect(files.count > 5 && compared > 1_000, "compared \(compared) nodes")
  }

  @Test func rawFlagValuesDecodeToCurrentNames() {
    #expect(AccessControlFlag.decode(2).map(\.name) == ["biometryAny"])
    #expect(AccessControlFlag.decode(3).map(\.name) == ["userPresence", "biometryAny"])
    #expect(AccessControlFlag.decode(1 << 30 | 1 << 3).map(\.name) == ["biometryCurrentSet", "privateKeyUsage"])
    #expect(AccessControlFlag.sameBit(as: "touchIDAny") == ["touchIDAny", "biometryAny"])
  }

  @Test func accessibilityClassesKnowTheirRawValues() {
    #expect(AccessibilityClass.all.count == 7)
    #expect(AccessibilityClass.named("kSecAttrAccessibleAlways")?.rawValue == "dk")
    #expect(
      AccessibilityClass.named("kSecAttrAccessibleAlwaysThisDeviceOnly")?.replacement
        == "kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly")
    #expect(AccessibilityClass.named("kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly")?.rawValue == "akpu")
  }

  @Test func keychainWritesAreFoundInEveryForm() {
    let code = """
      var q: [String: Any] = [kSecClass as String: kSecClassGenericPassword]
      q[kSecAttrAccount as String] = "a"
      q.updateValue(true, forKey: kSecAttrSynchronizable as String)
      d.setObject(v, forKey: "pdmn")
      d.setValue(v, forKey: String(kSecValueData))
      CFDictionaryAddValue(m, kSecAttrService, s)
      let notKeychain = ["name": "x"]
      """
    let model = SemanticModel(tree: Parser.parse(source: code))
    #expect(
      model.keychainWrites.map(\.key) == [
        "kSecClass", "kSecAttrAccount", "kSecAttrSynchronizable", "kSecAttrAccessible", "kSecValueData",
        "kSecAttrService",
      ])
  }

  /// Assignments and receiver calls belong to the binding their target denotes, whichever
  /// binding of the name is asked about first (they are resolved once per name).
  @Test func assignmentsBelongToTheBindingTheyDenote() throws {
    let code = """
      final class Store {
          var flags = 0
          func a() { var flags = 1; flags = 2; flags.insert(3) }
          func b() { flags = 4; self.flags = 5; var other = 0; other = flags }
      }
      """
    let model = SemanticModel(tree: Parser.parse(source: code))
    let bindings = try #require(model.index.bindingsByName["flags"]).sorted { $0.position < $1.position }
    #expect(bindings.count == 2)
    for order in [bindings, bindings.reversed()] {
      let resolver = ConstantResolver(index: model.index)
      let values = order.map { resolver.assignments(to: $0).map { SyntaxFacts.text($0.value) } }
      let calls = order.map { resolver.receiverCalls(on: $0).map(\.method) }
      let expected = [["4", "5"], ["2"]]
      #expect(values == (order.first?.position == bindings[0].position ? expected : expected.reversed()))
      #expect(calls == (order.first?.position == bindings[0].position ? [[], ["insert"]] : [["insert"], []]))
    }
  }

  /// Flag sets written in different places are alternatives; additions join each of them; a
  /// name declared again in another `#if` clause holds the values of both builds.
  @Test func accessControlFlagsComeAsTheSetsTheyMayBe() throws {
    let code = """
      func access(ok: Bool) {
      #if targetEnvironment(simulator)
          var flags: SecAccessControlCreateFlags = [.biometryAny]
      #else
          var flags: SecAccessControlCreateFlags = ok ? [.biometryCurrentSet, .or, .devicePasscode] : .devicePasscode
      #endif
          flags.insert(.privateKeyUsage)
          _ = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags.union(.watch), nil)
      }
      """
    let model = SemanticModel(tree: Parser.parse(source: code))
    let call = try #require(model.accessControlCreations.first)
    let argument = try #require(SyntaxFacts.argument(call, at: 2))
    let sets = model.accessControl.flagSets(of: argument).map { Set($0.map(\.flag.name)) }
    #expect(
      Set(sets) == [
        ["biometryCurrentSet", "or", "devicePasscode", "privateKeyUsage", "watch"],
        ["devicePasscode", "privateKeyUsage", "watch"], ["biometryAny", "privateKeyUsage", "watch"],
      ])
    #expect(sets.count == 3)
    let passcodeOnly = model.accessControl.flagSets(of: argument).filter(AccessControlEvaluator.passcodeAloneOpens)
    #expect(passcodeOnly.count == 1)
    let declarations = try #require(model.index.bindingsByName["flags"])
    #expect(declarations.count == 2)
    #expect(declarations.allSatisfy { model.resolver.declarationsInOtherBuilds(of: $0).count == 1 })
  }

  /// A context handed to a keychain wrapper binds the evaluation only when the file gives the
  /// wrapper an access control; in a file without the wrapper's import the call is not bound.
  @Test(arguments: [
    ("import KeychainAccess", ".accessibility(.whenUnlocked, authenticationPolicy: .biometryCurrentSet)", "bound"),
    ("import KeychainAccess", "", "unprotected KeychainAccess"),
    // Without the import, `authenticationContext` is some other file's function.
    ("", ".accessibility(.whenUnlocked, authenticationPolicy: .biometryCurrentSet)", "handed off"),
  ])
  func contextsReachingAWrapperBindOnlyWithAnAccessControl(_ header: String, _ policy: String, _ expected: String) {
    let code = """
      \(header)
      func save(keychain: Keychain, token: String) throws { try keychain\(policy).set(token, key: "t") }
      func read(keychain: Keychain) {
          let context = LAContext()
          context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Read") { ok, _ in
              if ok { _ = try? keychain.authenticationContext(context).get("t") }
          }
      }
      """
    let model = SemanticModel(tree: Parser.parse(source: code))
    let bindings = model.policyEvaluations.map { Self.describe(model.binding(of: $0)) }
    #expect(bindings == [expected])
  }

  /// Where an evaluated context leaves the file: a call of a function the file does not declare,
  /// given the context itself or an alias of it.
  @Test(arguments: [
    ("store.retrieve(context: context)", "retrieve"),
    ("let alias = context; reader.read(with: alias)", "read"),
    ("use(context)", nil),
    ("completion(ok)", nil),
    ("store.retrieve(context: LAContext())", nil),
    ("relay(context)", "load"),
  ])
  func contextsHandedToAnotherFileAreFound(_ use: String, _ expected: String?) {
    let code = """
      func use(_ c: LAContext) {}
      func relay(_ c: LAContext) { store.load(using: c) }
      func unlock(completion: @escaping (Bool) -> Void) {
          let context = LAContext()
          context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Read") { ok, _ in
              \(use)
          }
      }
      """
    let model = SemanticModel(tree: Parser.parse(source: code))
    let handOffs = model.policyEvaluations.map {
      model.contextHandOff(of: $0).flatMap { SyntaxFacts.calledName($0.call) }
    }
    #expect(handOffs == [expected])
  }

  /// A context kept in an instance of one of the file's own types (an initializer, or a
  /// struct's memberwise one) and read back off it (`existing.context`) is followed through
  /// the stored property; a call of such a type does not hand the context out of the file.
  @Test(arguments: [
    (SemanticsTests.holderWithInit, "kSecUseAuthenticationContext as String: existing.context", "bound"),
    ("struct Holder { let context: LAContext }", "kSecUseAuthenticationContext as String: existing.context", "bound"),
    (SemanticsTests.holderWithInit, "kSecAttrAccount as String: \"a\"", "event"),
    (SemanticsTests.holderWithInit, "kSecUseAuthenticationContext as String: existing.spare", "event"),
    ("", "kSecUseAuthenticationContext as String: existing.context", "handed off"),
  ])
  func contextsKeptInTheFilesOwnTypesAreFollowed(_ holder: String, _ attribute: String, _ expected: String) {
    let code = """
      \(holder)
      final class Store {
          var saved: [String: Holder] = [:]
          func save(_ data: Data) {
              let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .biometryCurrentSet, nil)!
              SecItemAdd([kSecValueData as String: data, kSecAttrAccessControl as String: access] as CFDictionary, nil)
          }
          func remember() {
              let fresh = LAContext()
              fresh.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Stay unlocked") { ok, _ in
                  if ok { self.saved["now"] = Holder(context: fresh) }
              }
          }
          func read() -> Data? {
              guard let existing = saved["now"] else { return nil }
              let query: [String: Any] = [kSecReturnData as String: true, \(attribute)]
              var result: AnyObject?
              SecItemCopyMatching(query as CFDictionary, &result)
              return result as? Data
          }
      }
      """
    let model = SemanticModel(tree: Parser.parse(source: code))
    let bindings = model.policyEvaluations.map { Self.describe(model.binding(of: $0)) }
    #expect(bindings == [expected])
  }

  /// A context chosen by `??` or `?:` (the caller's, or a fresh one) may be either side.
  @Test(arguments: [
    ("context ?? LAContext()", "bound"),
    ("strict ? context! : LAContext()", "bound"),
    ("LAContext()", "event"),
  ])
  func contextsChosenByAnOperatorAreFollowed(_ chosen: String, _ expected: String) {
    let code = """
      func save(_ data: Data) {
          let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .biometryCurrentSet, nil)!
          SecItemAdd([kSecValueData as String: data, kSecAttrAccessControl as String: access] as CFDictionary, nil)
      }
      func read(context: LAContext? = nil, strict: Bool = true) -> Data? {
          let chosen = \(chosen)
          let query: [String: Any] = [kSecReturnData as String: true, kSecUseAuthenticationContext as String: chosen]
          var result: AnyObject?
          SecItemCopyMatching(query as CFDictionary, &result)
          return result as? Data
      }
      func unlock() async throws -> Data? {
          let context = LAContext()
          _ = try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Read")
          return read(context: context)
      }
      """
    let model = SemanticModel(tree: Parser.parse(source: code))
    #expect(model.policyEvaluations.map { Self.describe(model.binding(of: $0)) } == [expected])
  }

  static func describe(_ binding: EvaluationBinding) -> String {
    switch binding {
    case .keychainBound: "bound"
    case .contextToUnprotectedItems(let wrapper): "unprotected \(wrapper ?? "query")"
    case .eventBound: "event"
    case .handedOff: "handed off"
    case .givenBack(let way): "given back \(way.function ?? "-") \(way.through ?? "returned")"
    }
  }

  /// A context the function gives its caller (returned, or handed to a closure parameter or a
  /// continuation, alone or as `.success(…)`) is the caller's to bind; one returned from a
  /// closure, or handed to a closure the function made itself, is not.
  @Test(arguments: [
    ("return context", "given back unlock(done:) returned"),
    ("done(.success(context)); return nil", "given back unlock(done:) done"),
    ("done(Result.success(context)); return nil", "given back unlock(done:) done"),
    ("let alias = context; done(.success(alias)); return nil", "given back unlock(done:) done"),
    ("continuation.resume(returning: context); return nil", "given back unlock(done:) resume(returning:)"),
    ("let finish: (Result<LAContext, Error>) -> Void = { _ in }; finish(.success(context)); return nil", "event"),
    ("_ = [1].map { _ in return context }; return nil", "event"),
    ("record(.success(context)); return nil", "handed off"),
  ])
  func contextsGivenBackToTheCallerAreTheCallersToBind(_ use: String, _ expected: String) {
    let code = """
      func unlock(done: (Result<LAContext, Error>) -> Void) async throws -> LAContext? {
          let context = LAContext()
          _ = try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock")
          \(use)
      }
      """
    let model = SemanticModel(tree: Parser.parse(source: code))
    #expect(model.policyEvaluations.map { Self.describe(model.binding(of: $0)) } == [expected])
  }

  static let holderWithInit = """
    final class Holder {
        let context: LAContext
        let spare = LAContext()
        init(context: LAContext) { self.context = context }
    }
    """

  /// `level.attribute`, where `attribute` switches over the file's enum, has the values of the
  /// cases `level` may be: its default and what the file's calls pass, through parameters;
  /// when that is not known (the table offers values; an unseen caller chooses), the read itself,
  /// for summaries to follow to that caller.
  @Test(arguments: [
    ("store(data)", ["kSecAttrAccessibleWhenUnlocked"]),
    ("store(data, level: .b)", ["kSecAttrAccessibleAlways", "kSecAttrAccessibleWhenUnlocked"]),
    ("relay(data, level: Level.c)", ["kSecAttrAccessibleAfterFirstUnlock", "kSecAttrAccessibleWhenUnlocked"]),
    ("relay(data, level: chosen)", ["level.attribute"]),
    ("", ["kSecAttrAccessibleWhenUnlocked"]),
  ])
  func switchedValuesFollowTheCasesCallsPass(_ call: String, _ expected: [String]) {
    let code = """
      enum Level {
          case a, b, c
          var attribute: CFString {
              switch self {
              case .a: return kSecAttrAccessibleWhenUnlocked
              case .b: return kSecAttrAccessibleAlways
              default: return kSecAttrAccessibleAfterFirstUnlock
              }
          }
      }
      func store(_ data: Data, level: Level = .a) {
          SecItemAdd([kSecValueData: data, kSecAttrAccessible: level.attribute] as CFDictionary, nil)
      }
      func relay(_ data: Data, level: Level) { store(data, level: level); relay(data, level: level) }
      func caller(data: Data, chosen: Level) { \(call) }
      """
    let model = SemanticModel(tree: Parser.parse(source: code))
    let values = model.keychainWrites(forKey: "kSecAttrAccessible").flatMap {
      model.resolver.values(of: $0.value).map { SyntaxFacts.text($0.expression) }
    }
    #expect(Set(values) == Set(expected))
  }

  /// A context handed to another file is still reported (nothing is lost), but with low
  /// confidence, the callee named, and where the context leaves the file.
  @Test func aHandedOffContextIsReportedWithLowConfidence() throws {
    let code = """
      func unlock() {
          let context = LAContext()
          context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Read") { ok, _ in
              if ok { self.secret = self.store.retrieve(context: context) }
          }
      }
      """
    let eventBound = Scan.findings(code, rule: EventBoundBiometricAuth.self)
    let finding = try #require(eventBound.first)
    #expect(eventBound.count == 1)
    #expect(finding.confidence == .low)
    #expect(finding.message.contains("`retrieve(context:)`, which this file does not declare"))
    #expect(finding.related.map(\.location.start.line) == [4])
    let enrollment = Scan.findings(code, rule: EnrollmentChangeUnchecked.self)
    #expect(enrollment.map(\.confidence) == [.low])
    let local = Scan.findings(
      code.replacingOccurrences(of: "self.store.retrieve(context: context)", with: "true"),
      rule: EventBoundBiometricAuth.self)
    #expect(local.map(\.confidence) == [EventBoundBiometricAuth.metadata.confidence])
  }

  /// Names that state the passcode as their purpose, and names where "passcode" is the app's own.
  @Test func codeNamedForThePasscode() {
    #expect(PasscodeNaming.declaresPasscode(function: "authenticateWithPasscode"))
    #expect(PasscodeNaming.declaresPasscode(function: "generatePasscodeKeyPair"))
    #expect(PasscodeNaming.declaresPasscode(function: "unlock_with_device_passcode"))
    #expect(!PasscodeNaming.declaresPasscode(function: "authenticateWithBiometrics"))
    #expect(!PasscodeNaming.declaresPasscode(function: "passcodes"))
    #expect(PasscodeNaming.declaresPasscode(type: "BiometricAndDeviceCredential"))
    #expect(PasscodeNaming.declaresPasscode(type: "BiometricDeviceCredentialAuthenticator"))
    #expect(!PasscodeNaming.declaresPasscode(type: "PasscodeLockViewController"))
    #expect(!PasscodeNaming.declaresPasscode(type: "DeviceCredentials"))
  }
}

/// Every rule type in the rules module is registered, so a new rule cannot be forgotten.
@Suite struct RegistryTests {
  @Test func everyRuleTypeIsInAllRules() throws {
    let folder = Paths.packageRoot.appendingPathComponent("Sources/KeywardRules")
    let enumerator = try #require(FileManager.default.enumerator(atPath: folder.path))
    var declared: Set<String> = []
    while let relative = enumerator.nextObject() as? String {
      guard relative.hasSuffix(".swift") else { continue }
      let text = try String(contentsOf: folder.appendingPathComponent(relative), encoding: .utf8)
      let tree = Parser.parse(source: text)
      for statement in tree.statements {
        guard let structDecl = statement.item.as(StructDeclSyntax.self),
          structDecl.inheritanceClause?.inheritedTypes.contains(where: {
            ["Rule", "SuppressionRule", "BinaryRule"].contains($0.type.trimmedDescription)
          }) == true
        else { continue }
        declared.insert(structDecl.name.text)
      }
    }
    #expect(!declared.isEmpty)
    #expect(declared == Set(allRules.map { String(describing: $0) }))
  }

  @Test func ruleIdsAreUniqueAndWellFormed() {
    let ids = RuleCatalog.standard.ids
    #expect(Set(ids).count == ids.count)
    for rule in allRules {
      let metadata = rule.metadata
      #expect(metadata.id.wholeMatch(of: /(swift|objc|binary|keyward)\.[a-z0-9_]+/) != nil, "\(metadata.id)")
      #expect(metadata.tags.contains { $0.hasPrefix("CWE:") }, "\(metadata.id) has no CWE")
      #expect(metadata.description.count <= 1024)
      #expect(!metadata.references.isEmpty)
    }
  }
}

/// Every node of a tree, tokens included.
private final class AllNodes: SyntaxAnyVisitor {
  var nodes: [Syntax] = []

  static func of(_ tree: some SyntaxProtocol) -> [Syntax] {
    let visitor = AllNodes(viewMode: .sourceAccurate)
    visitor.walk(tree)
    return visitor.nodes
  }

  override func visitAny(_ node: Syntax) -> SyntaxVisitorContinueKind {
    nodes.append(node)
    return .visitChildren
  }
}
