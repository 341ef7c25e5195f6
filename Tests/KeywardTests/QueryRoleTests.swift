import KeywardCore
import SwiftParser
import SwiftSyntax
import Testing

/// The keychain query model knows what each dictionary is for: stored, only searched, compared,
/// unused, or handed to code the file does not show.
@Suite struct QueryRoleTests {
  /// The storage verdict of the query holding the `kSecAttrLabel` entry written "probe".
  static func storage(_ source: String) -> QueryStorage? {
    let model = SemanticModel(tree: Parser.parse(source: source))
    let probes = model.keychainQueries.filter { query in
      query.writes(forKey: "kSecAttrLabel").contains { SyntaxFacts.stringLiteralValue($0.value) == "probe" }
    }
    return probes.count == 1 ? probes[0].storage : nil
  }

  static let cases: [(String, QueryStorage)] = [
    ("func f() { SecItemAdd([kSecAttrLabel: \"probe\"] as CFDictionary, nil) }", .stores),
    ("func f() { let q = [kSecAttrLabel: \"probe\"]; SecItemCopyMatching(q as CFDictionary, nil) }", .matchesOnly),
    (
      "func f() { var q: [String: Any] = [:]; q[kSecAttrLabel as String] = \"probe\"; SecItemDelete(q as CFDictionary) }",
      .matchesOnly
    ),
    ("func f(m: CFDictionary) { let a = [kSecAttrLabel: \"probe\"]; SecItemUpdate(m, a as CFDictionary) }", .stores),
    (
      "func f(a: CFDictionary) { let m = [kSecAttrLabel: \"probe\"]; SecItemUpdate(m as CFDictionary, a) }",
      .matchesOnly
    ),
    // An alias through a cast is the same dictionary.
    ("func f() { let q = [kSecAttrLabel: \"probe\"]; let cf = q as CFDictionary; SecItemAdd(cf, nil) }", .stores),
    ("func f() { let q = [kSecAttrLabel: \"probe\"]; let cf = q as CFDictionary; SecItemDelete(cf) }", .matchesOnly),
    // Nested key-pair attributes take the key generation's role.
    (
      "func f() { let p = [kSecAttrLabel: \"probe\"]; let a = [kSecPrivateKeyAttrs: p]; SecKeyCreateRandomKey(a as CFDictionary, nil) }",
      .stores
    ),
    ("func f() -> [CFString: Any] { let q = [kSecAttrLabel: \"probe\"]; return q }", .unknown),
    ("func f(store: S) { let q = [kSecAttrLabel: \"probe\"]; store.save(q) }", .unknown),
    ("func f() { let q = [kSecAttrLabel: \"probe\"]; self.saved = q }", .unknown),
    ("struct S { static let q = [kSecAttrLabel: \"probe\"] }", .unknown),
    (
      "struct S { private let q = [kSecAttrLabel: \"probe\"]; func f() { SecItemDelete(q as CFDictionary) } }",
      .matchesOnly
    ),
    ("func f() { let q = [kSecAttrLabel: \"probe\"] }", .unused),
    ("func f(x: NSDictionary) -> Bool { x == [kSecAttrLabel: \"probe\"] as NSDictionary }", .compared),
    ("func test() { XCTAssertEqual(found, [kSecAttrLabel: \"probe\"] as NSDictionary) }", .compared),
    ("func f() -> [CFString: Any] { [kSecAttrLabel: \"probe\"] }", .unknown),
    ("var search: [CFString: Any] { [kSecAttrLabel: \"probe\", kSecReturnData: true] }", .matchesOnly),
  ]

  @Test(arguments: cases)
  func queryStorage(_ source: String, _ expected: QueryStorage) {
    #expect(Self.storage(source) == expected, "\(source)")
  }

  @Test func branchesThatExcludeEachOther() {
    let source = """
      func f(x: Bool, k: Kind) {
          if x { a1() } else if y { a2() } else { a3() }
          switch k { case .one: b1() case .two: b2() }
          c1(); if x { c2() }
      }
      """
    let model = SemanticModel(tree: Parser.parse(source: source))
    func call(_ name: String) -> FunctionCallExprSyntax { model.index.calls(named: name)[0] }
    #expect(BranchFacts.neverRunTogether(call("a1"), call("a2")))
    #expect(BranchFacts.neverRunTogether(call("a1"), call("a3")))
    #expect(BranchFacts.neverRunTogether(call("a2"), call("a3")))
    #expect(BranchFacts.neverRunTogether(call("b1"), call("b2")))
    #expect(!BranchFacts.neverRunTogether(call("c1"), call("c2")))
    #expect(!BranchFacts.neverRunTogether(call("a1"), call("b1")))
  }
}
