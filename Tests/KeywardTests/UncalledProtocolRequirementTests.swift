import Foundation
import KeywardCore
import Testing

/// A type that conforms only to the project's own plain protocols: their requirements are
/// called by the project's code, by name, so a requirement no file calls is uncalled too.
extension UncalledAcrossFilesTests {
  /// A store implementing `protocolFile`'s protocol `TokenStoring`, made in another file as one.
  static func conformingPackage(protocolFile: String, others: [String: String] = [:]) -> [String: String] {
    package(
      others.merging(
        [
          "Sources/App/TokenStoring.swift": protocolFile,
          "Sources/App/Setup.swift": "let store: TokenStoring = LegacyStore()",
        ]
      ) { $1 },
      store: store("storeSessionToken", in: "final class LegacyStore: TokenStoring"))
  }

  static let plainProtocol = "protocol TokenStoring: AnyObject {\n    func storeSessionToken(_ token: String)\n}\n"

  @Test func aRequirementOfAProjectProtocolNoFileCallsIsUncalled() throws {
    let files = Self.conformingPackage(protocolFile: Self.plainProtocol)
    #expect(try conditions(files) == ["Sources/App/Store.swift": .uncalled])
    #expect(try firstMessage(files)?.contains("or in the protocol `TokenStoring` it implements") == true)
    // Called through the protocol, it runs.
    let called = Self.conformingPackage(
      protocolFile: Self.plainProtocol,
      others: ["Sources/App/Login.swift": "func login(_ store: TokenStoring) { store.storeSessionToken(\"t\") }"])
    #expect(try conditions(called) == ["Sources/App/Store.swift": nil])
  }

  /// A protocol that inherits another's requirements, that the Objective-C runtime may call, that
  /// only tests declare, or that the project does not declare at all keeps the finding.
  @Test(arguments: [
    (
      "Sources/App/TokenStoring.swift",
      "protocol TokenStoring: Codable {\n    func storeSessionToken(_ token: String)\n}\n"
    ),
    (
      "Sources/App/TokenStoring.swift",
      "@objc protocol TokenStoring {\n    func storeSessionToken(_ token: String)\n}\n"
    ),
    ("Sources/App/TokenStoring.swift", "// TokenStoring was a protocol here\n"),
    ("Tests/AppTests/TokenStoring.swift", plainProtocol),
  ])
  func protocolsOthersMayCallKeepTheFinding(_ declaration: (path: String, text: String)) throws {
    var files = Self.conformingPackage(protocolFile: "")
    files["Sources/App/TokenStoring.swift"] = nil
    files[declaration.path] = declaration.text
    #expect(try conditions(files) == ["Sources/App/Store.swift": nil])
  }

  @Test func plainProtocolsAreTheOnesDeclaredWithNothingTheSystemCalls() {
    let words = ProjectWords()
    let declarations = [
      "protocol Plain {}", "protocol ClassBound: AnyObject { func a() }", "protocol Marked : class, Sendable {",
      "protocol Composed: AnyObject & Sendable {}", "public protocol Opened {}",
      "protocol Refining: Plain {}", "protocol Coded: Codable {}", "@objc protocol Exposed {}",
      "@objc(XYZExposed)\npublic protocol ExposedNamed {}", "protocol Generic<T> {}", "// protocol",
    ]
    words.add(Array(declarations.joined(separator: "\n").utf8))
    for name in ["Plain", "ClassBound", "Marked", "Composed", "Opened"] {
      #expect(words.declaresPlainProtocol(name), "\(name)")
    }
    for name in ["Refining", "Coded", "Exposed", "ExposedNamed", "Generic", "Other"] {
      #expect(!words.declaresPlainProtocol(name), "\(name)")
    }
  }
}

extension UncalledAcrossFilesTests {
  /// `Sendable` has no requirements anyone calls: a type no file names stays uncalled.
  @Test func aMarkerConformanceOpensNothing() throws {
    let files = Self.package(store: Self.store("storeSessionToken", in: "struct LegacyStore: Sendable"))
    #expect(try conditions(files) == ["Sources/App/Store.swift": .uncalled])
  }
}

extension UncalledAcrossFilesTests {
  /// A secret handed to a property that the type writes under a key named for it is that
  /// write's finding, reported once, also while the write waits to learn whether its code runs.
  @Test func aRelayEndingAtAWaitingFindingIsThatFinding() throws {
    let reveal = """
      import Foundation
      struct RevealSecret: Codable {
          var secret: String
          init(secret: String) {
              self.secret = secret
          }
          func perform() {
              UserDefaults.standard.set(secret, forKey: "tapSecret")
          }
      }

      """
    let root = try Paths.tree(Self.package(["Sources/App/Reveal.swift": reveal]))
    let findings = try Scanner(rules: Configuration().configuredRules(from: .standard))
      .scan(ScanRequest(paths: [root.path])).findings
      .filter { $0.ruleId == "swift.cleartext_storage_preferences" && $0.location.path == "Sources/App/Reveal.swift" }
    #expect(findings.map(\.location.start.line) == [8])
  }
}

extension UncalledAcrossFilesTests {
  /// `callAsFunction` runs when its value is called (`store("t")`): its name is never written.
  @Test func callAsFunctionIsCalledWithoutItsName() throws {
    let files = Self.package(
      ["Sources/App/Login.swift": "let store = LegacyStore()\nfunc login() { store(\"t\") }"],
      store: Self.store("callAsFunction"))
    #expect(try conditions(files) == ["Sources/App/Store.swift": nil])
  }
}
