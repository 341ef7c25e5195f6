import KeywardCore
import SwiftSyntax

/// Flags secrets written in the source and stored in the keychain.
public struct HardcodedKeychainSecret: Rule {
  public static let metadata = RuleMetadata(
    id: "swift.hardcoded_keychain_secret",
    title: "Hard-coded secret stored in the keychain",
    severity: .high, confidence: .high, resource: "Information leak",
    tags: ["CWE:798", "CWE:259", "MASWE:0005", "OWASP:2021:A07", "MASVS-STORAGE-1", "MASVS-AUTH-1"],
    profile: .essential,
    description: """
      A string or byte literal stored as `kSecValueData` is a secret that ships in the app binary \
      for anyone to read with `strings`: the keychain protects the copy on the device, not the \
      one in the app. Keyward follows the value through constants, `.data(using:)`, `Data(...)` \
      and `Array(... .utf8)`. Markers are not reported: literals under four bytes (`Data([1])`, \
      `"1"`) and `"true"` / `"false"`. A literal handed to a function, an initializer or a \
      property wrapper that stores it as an item's value, in any file of the scan, is reported \
      where it is written (as `String`, `Data`, `Any` or a generic; not under a naming label such \
      as `forKey:`, `account:` or `localizedReason:`). To keep scans fast, a file's literals are \
      read only when it names `kSecValueData` or a wrapper whose name begins with `Keychain` \
      (`@KeychainStored var apiKey`, then `apiKey = "…"`).
      """,
    rationale: """
      Every install of the app carries the same secret in its executable, where it can be \
      extracted without a device. Rotating it requires a new release.
      """,
    vulnerableExample: """
      query[kSecValueData as String] = "S00p3r_haCk3r_strong_password".data(using: .utf8)! as CFData
      """,
    remediation: """
      Store only secrets the app receives at run time (a token from your server after login, a key \
      generated on the device). Keep server credentials on the server.
      """,
    fixedExample: """
      query[kSecValueData as String] = sessionToken.data(using: .utf8)! as CFData
      """,
    references: [
      Reference("CWE-798: Use of Hard-coded Credentials", url: "https://cwe.mitre.org/data/definitions/798.html"),
      Reference("CWE-259: Use of Hard-coded Password", url: "https://cwe.mitre.org/data/definitions/259.html"),
      Reference("MASWE-0005 (beta numbering): API Keys Hardcoded in the App Package"),
    ])

  public static let examples = RuleExamples(
    flagged: [
      #"query[kSecValueData as String] = ↓"S00p3r_haCk3r_strong_password".data(using: .utf8)! as CFData"#,
      #"let item: [String: Any] = [kSecValueData as String: Data(↓"hunter2".utf8)]"#,
      """
      let apiKey = ↓"sk_live_51HxQ"
      let item: [CFString: Any] = [kSecValueData: apiKey.data(using: .utf8)!]
      """,
      "let item: [String: Any] = [kSecValueData as String: Data(↓[0x01, 0x02, 0x03, 0x04])]",
      // A private constant only stored, never compared with what is read back.
      """
      enum Seed {
          private static let initialPassword = ↓"changeme-2024"
          static func install(_ attributes: [String: Any]) {
              var query = attributes
              query[kSecValueData as String] = Data(initialPassword.utf8)
              SecItemAdd(query as CFDictionary, nil)
          }
      }
      """,
      """
      func saveDemoPassword() {
          let item: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "demo",
                                     kSecValueData as String: Data(↓"demo-password-123".utf8)]
          SecItemDelete(item as CFDictionary)  // clears the old item; the new one stays
          SecItemAdd(item as CFDictionary, nil)
      }
      """,
      // The delete is the other branch: it removes the item another call stored.
      """
      func saveDemoPassword(_ enabled: Bool) {
          let account = "demo"
          if enabled {
              let item: [String: Any] = [kSecAttrAccount as String: account, kSecValueData as String: Data(↓"demo-password-123".utf8)]
              SecItemAdd(item as CFDictionary, nil)
          } else {
              let query: [String: Any] = [kSecAttrAccount as String: account]
              SecItemDelete(query as CFDictionary)
          }
      }
      """,
      """
      enum Vault {
          static func store(_ secret: String) {
              let item: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: Data(secret.utf8)]
              SecItemAdd(item as CFDictionary, nil)
          }
          static func seedDemo() { store(↓"correct-horse-battery") }
      }
      """,
      // Converted to bytes before the helper that stores them.
      """
      enum TokenStore {
          static func put(_ bytes: Data) {
              let item: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: bytes]
              SecItemAdd(item as CFDictionary, nil)
          }
          static func seedPreview() { put(Data(↓"pk_preview_7Hq2".utf8)) }
      }
      """,
    ],
    clean: [
      // A sentinel: written to test that the keychain takes items, and recognised when read back.
      """
      enum KeychainCheck {
          private static let expected = "keychain-check-value"
          static func works(_ attributes: [String: Any]) -> Bool {
              var query = attributes
              query[kSecValueData as String] = Data(expected.utf8)
              SecItemAdd(query as CFDictionary, nil)
              return readBack(attributes) == expected
          }
      }
      """,
      "query[kSecValueData as String] = token.data(using: .utf8)!",
      #"query[kSecAttrAccount as String] = "user@example.com""#,
      #"let item: [String: Any] = [kSecValueData as String: Data("".utf8)]"#,
      "let probe: [String: Any] = [kSecValueData as String: Data([1]), kSecAttrAccessControl as String: access]",
      """
      func canWrite(to group: String) -> Bool {
          let probe: [String: Any] = [kSecAttrAccessGroup as String: group, kSecAttrAccount as String: "probe",
                                      kSecValueData as String: "group-write-check".data(using: .utf8)!]
          let status = SecItemAdd(probe as CFDictionary, nil)
          SecItemDelete(probe as CFDictionary)
          return status == errSecSuccess
      }
      """,
      #"query[kSecValueData as String] = "true".data(using: .utf8)!"#,
      """
      func canShare(through group: String) -> Bool {
          let account = "group-check-" + group
          let probe: [String: Any] = [kSecAttrAccessGroup as String: group, kSecAttrAccount as String: account,
                                      kSecValueData as String: Data("write-check-value".utf8)]
          let status = SecItemAdd(probe as CFDictionary, nil)
          let cleanup: [String: Any] = [kSecAttrAccessGroup as String: group, kSecAttrAccount as String: account]
          SecItemDelete(cleanup as CFDictionary)
          return status == errSecSuccess
      }
      """,
      """
      enum Vault {
          static func store(_ secret: String, account: String) {
              let item: [String: Any] = [kSecAttrAccount as String: account, kSecValueData as String: Data(secret.utf8)]
              SecItemAdd(item as CFDictionary, nil)
          }
          static func remember(_ token: String) { store(token, account: "session-token") }
          static func markOnboarded() { store("true", account: "onboarded") }
      }
      """,
      #"let item: [String: Any] = [kSecValueData as String: Data("\(prefix)-\(token)".utf8)]"#,
      """
      var a = Data(b)
      var b = Data(a)
      let item: [String: Any] = [kSecValueData as String: a]
      """,
    ])

  /// `@Keychain…`: a file that sets a property wrapped by a keychain wrapper
  /// (`@KeychainBacked var session`, then `session = "…"`) names no keychain API itself.
  public static func prefilterTokens(options: RuleOptions) -> [String] { ["kSecValueData", "\"v_Data\"", "@Keychain"] }

  public static let valueSinks: [ValueSink] = [.storedValue]

  static let message =
    "A secret written in the source is stored in the keychain: it ships in the app binary, where anyone can extract it without a device. Store only secrets obtained at run time."

  public static func check(_ context: RuleContext) {
    // A probe item, added and deleted again, keeps no value in the keychain.
    for write in context.model.storedKeychainWrites(forKey: "kSecValueData", includingProbes: false) {
      // A sentinel compared with what is read back tests the keychain; it guards nothing.
      for literal in literals(in: write.value, model: context.model) where !context.model.isSentinel(literal) {
        context.report(
          literal,
          message: message,
          related: [(context.offset(of: write.value), "stored as kSecValueData here")])
      }
    }
    // A literal handed to a function, initializer or wrapped property that stores it elsewhere
    // (`KeychainHelper.save("…", account:)`, `session = "…"` on an `@KeychainBacked` property):
    // reported if, in some file of the scan, what receives it becomes an item's value.
    let handed = context.model.handedValues(throughConversions: true) {
      isSecretLiteral($0) && !namesRatherThanHolds($0)
    }
    context.reportPassed(handed, to: .storedValue) { _, _ in (message, nil) }
  }

  /// Argument labels whose literal names an item, a key or a prompt (`forKey: "session"`,
  /// `localizedReason: "Unlock"`): never the stored secret. Leaving them out also spares the
  /// scan a pending finding for each such literal in every file that stores items.
  static let namingLabels: Set<String> = [
    "forKey", "key", "account", "service", "label", "accessGroup", "identifier", "tag", "named", "localizedReason",
    "reason", "message", "title", "format", "comment", "domain", "prompt",
  ]

  static func namesRatherThanHolds(_ literal: ExprSyntax) -> Bool {
    guard let label = literal.parent?.as(LabeledExprSyntax.self)?.label?.text else { return false }
    return namingLabels.contains(label)
  }

  /// A string or byte-array literal long enough to hold a secret, and not a marker word.
  static func isSecretLiteral(_ expression: ExprSyntax) -> Bool {
    if let text = SyntaxFacts.stringLiteralValue(expression) {
      return text.utf8.count >= shortestSecret && !markerWords.contains(text.lowercased())
    }
    guard let array = expression.as(ArrayExprSyntax.self) else { return false }
    return array.elements.count >= shortestSecret
      && array.elements.allSatisfy { $0.expression.is(IntegerLiteralExprSyntax.self) }
  }

  /// Below this many bytes a literal is a marker (`Data([1])`, `"1"`), not a secret.
  static let shortestSecret = 4
  /// Flags apps store as an item's value to remember a choice.
  static let markerWords: Set<String> = ["true", "false"]

  /// String and byte-array literals the value is made from that can hold a secret.
  static func literals(in expression: ExprSyntax, model: SemanticModel, depth: Int = 0) -> [ExprSyntax] {
    // Names can refer to each other (`var a = Data(b); var b = Data(a)`): bound the descent.
    guard depth < 8 else { return [] }
    var found: [ExprSyntax] = []
    for value in model.resolver.values(of: expression) {
      let leaf = value.expression
      if isSecretLiteral(leaf) {
        found.append(leaf)
      } else if let call = leaf.as(FunctionCallExprSyntax.self) {
        // `"…".data(using:)`, `Data("…".utf8)`, `Data([…])`, `Array("…".utf8)`.
        let sources = [SyntaxFacts.receiver(of: call)].compactMap { $0 } + call.arguments.map(\.expression)
        for source in sources {
          let unwrapped = SequenceShape.unwrap(source)
          let base = unwrapped.as(MemberAccessExprSyntax.self).flatMap {
            $0.declName.baseName.text == "utf8" ? $0.base : nil
          }
          found += literals(in: base ?? unwrapped, model: model, depth: depth + 1)
        }
      }
    }
    return found
  }
}
