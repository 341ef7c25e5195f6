import KeywardCore
import KeywardRules
import SwiftParser
import Testing

/// How evaluations on a context that a protected read uses are tied to the keychain.
@Suite struct ContextBindingTests {
  /// A prompt on a context parameter is bound when every call in the file passes the context a
  /// protected read used (clearing a lockout before retrying it), through further parameters.
  /// Items the file adds without an access control leave the read unprotected, unless the file
  /// creates one that asks for the user (for keys it has generated elsewhere).
  @Test(arguments: [
    ("context", "context", "", "bound"),
    ("context", "LAContext()", "", "event"),
    ("LAContext()", "context", "", "event"),
    ("context", "context", Self.plainAdd, "unprotected query"),
    ("context", "context", Self.plainAdd + Self.keyAccess(".privateKeyUsage"), "unprotected query"),
    (
      "context", "context", Self.plainAdd + Self.keyAccess("[.privateKeyUsage, .userPresence]"),
      "bound"
    ),
  ])
  func promptsOnTheContextOfAProtectedReadAreBound(
    _ first: String, _ second: String, _ members: String, _ expected: String
  ) {
    let code = """
      final class KeyVault {
          \(members)
          func open(tag: Data) async throws -> SecKey? {
              let context = LAContext()
              if let key = find(tag: tag, context: context) { return key }
              guard try await recover(context: \(first)) else { return nil }
              return find(tag: tag, context: context)
          }
          func reopen(tag: Data, context: LAContext) async throws -> Bool {
              _ = find(tag: tag, context: context)
              return try await recover(context: \(second))
          }
          private func recover(context: LAContext) async throws -> Bool {
              try await prompt(on: context)
          }
          private func prompt(on context: LAContext) async throws -> Bool {
              try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Unlock the key")
          }
      \(PasscodeFallbackPolicy.keyLookup)
      }
      """
    let model = SemanticModel(tree: Parser.parse(source: code))
    #expect(model.policyEvaluations.map { SemanticsTests.describe(model.binding(of: $0)) } == [expected])
  }

  /// A generic password read with the context is governed by how the file adds such items: an
  /// access control it makes for something else does not protect them.
  @Test func anAccessControlMadeElsewhereProtectsOnlyKeys() {
    let code = """
      final class Vault {
          \(Self.plainAdd)
          \(Self.keyAccess(".userPresence"))
          func read(context: LAContext) async throws -> Data? {
              guard try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Read") else { return nil }
              let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecReturnData as String: true,
                                          kSecUseAuthenticationContext as String: context]
              var item: CFTypeRef?
              SecItemCopyMatching(query as CFDictionary, &item)
              return item as? Data
          }
      }
      """
    let model = SemanticModel(tree: Parser.parse(source: code))
    #expect(model.policyEvaluations.map { SemanticsTests.describe(model.binding(of: $0)) } == ["unprotected query"])
  }

  static let plainAdd = """
    func remember(_ tag: Data) { SecItemAdd([kSecAttrApplicationTag as String: tag] as CFDictionary, nil) }

    """

  static func keyAccess(_ flags: String) -> String {
    """
    func access() -> SecAccessControl? {
        SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, \(flags), nil)
    }
    """
  }
}
