import KeywardCore

/// `swift.keychain_conflicting_attributes` for Objective-C sources.
public struct ObjCConflictingAttributes: Rule {
  public static let language = SourceLanguage.objectiveC
  public static let metadata = ConflictingAttributes.metadata.objcTwin(
    description: """
      A `@{ ... }` keychain dictionary with both `kSecAttrAccessible` and `kSecAttrAccessControl`: \
      the access control already carries the accessibility, and the add can fail with \
      `errSecParam`.
      """,
    vulnerableExample: """
      NSDictionary *query = @{(__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleWhenUnlocked,
                              (__bridge id)kSecAttrAccessControl: (__bridge id)access, ...};
      """,
    fixedExample: """
      NSDictionary *query = @{(__bridge id)kSecAttrAccessControl: (__bridge id)access, ...};
      """)

  public static let examples = RuleExamples(
    flagged: [
      """
      NSDictionary *query = @{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
                              (__bridge id)↓kSecAttrAccessible: (__bridge id)kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                              (__bridge id)kSecAttrAccessControl: (__bridge id)access,
                              (__bridge id)kSecValueData: secret};
      """
    ],
    clean: [
      "NSDictionary *query = @{(__bridge id)kSecAttrAccessControl: (__bridge id)access, (__bridge id)kSecValueData: secret};",
      """
      NSDictionary *a = @{(__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleWhenUnlocked};
      NSDictionary *b = @{(__bridge id)kSecAttrAccessControl: (__bridge id)access};
      """,
    ])

  public static func prefilterTokens(options: RuleOptions) -> [String] { ["kSecAttrAccessControl"] }

  public static func check(_ context: RuleContext) {
    let objc = context.objc
    for literal in objc.dictionaryLiterals
    where literal.contains(where: { objc.isKey($0.key, named: "kSecAttrAccessControl") }) {
      for entry in literal where objc.isKey(entry.key, named: "kSecAttrAccessible") {
        guard let key = entry.key.last(where: { $0.kind == .identifier }) else { continue }
        context.report(
          key,
          message:
            "`kSecAttrAccessible` and `kSecAttrAccessControl` in one query conflict: the access control already carries the accessibility, and the add can fail with `errSecParam`, leaving the secret unstored. Pass the accessibility to `SecAccessControlCreateWithFlags` and drop this attribute."
        )
      }
    }
  }
}

/// `swift.hardcoded_keychain_secret` for Objective-C sources.
public struct ObjCHardcodedKeychainSecret: Rule {
  public static let language = SourceLanguage.objectiveC
  public static let metadata = HardcodedKeychainSecret.metadata.objcTwin(
    description: """
      A string literal stored as `kSecValueData` (`[@"..." dataUsingEncoding:...]`, directly or \
      through a `#define` or `static const`), in a `@{ ... }` dictionary or `setObject:forKey:`. \
      Literals under four bytes and `@"true"` / `@"false"` are markers, not secrets.
      """,
    vulnerableExample: """
      NSDictionary *query = @{(__bridge id)kSecValueData: [@"S3cr3t-API-key" dataUsingEncoding:NSUTF8StringEncoding], ...};
      """,
    fixedExample: """
      NSDictionary *query = @{(__bridge id)kSecValueData: [apiKeyFromServer dataUsingEncoding:NSUTF8StringEncoding], ...};
      """)

  public static let examples = RuleExamples(
    flagged: [
      """
      NSDictionary *query = @{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
                              (__bridge id)kSecValueData: [↓@"S00p3r_s3cret" dataUsingEncoding:NSUTF8StringEncoding]};
      """,
      """
      #define BACKEND_KEY @"sk_live_51H8"
      [query setObject:[↓BACKEND_KEY dataUsingEncoding:NSUTF8StringEncoding] forKey:(__bridge id)kSecValueData];
      """,
    ],
    clean: [
      "NSDictionary *query = @{(__bridge id)kSecValueData: [token dataUsingEncoding:NSUTF8StringEncoding]};",
      "NSDictionary *query = @{(__bridge id)kSecValueData: [@\"1\" dataUsingEncoding:NSUTF8StringEncoding]};",
      "NSDictionary *query = @{(__bridge id)kSecValueData: [@\"true\" dataUsingEncoding:NSUTF8StringEncoding]};",
      "NSDictionary *query = @{(__bridge id)kSecAttrAccount: @\"session-token\", (__bridge id)kSecValueData: data};",
    ])

  public static func prefilterTokens(options: RuleOptions) -> [String] { ["kSecValueData"] }

  public static func check(_ context: RuleContext) {
    let objc = context.objc
    for (key, value) in objc.dictionaryEntries + objc.keyValueWrites where objc.isKey(key, named: "kSecValueData") {
      // `[@"..." dataUsingEncoding:...]`, the literal written there or named by a `#define`.
      for (position, token) in value.enumerated().dropLast()
      where value[position + 1].text == "dataUsingEncoding" && isSecretLiteral(objc.expand([token])) {
        context.report(
          token,
          message:
            "A secret written in the source is stored in the keychain: it ships in the app binary, where anyone can extract it without a device. Store only secrets obtained at run time."
        )
      }
    }
  }

  /// One string literal long enough to be a secret and not a marker (`@"1"`, `@"true"`).
  static func isSecretLiteral(_ tokens: [ObjCToken]) -> Bool {
    let meaningful = tokens.filter { $0.text != "@" }
    guard meaningful.count == 1, let literal = meaningful.first, literal.kind == .string else { return false }
    return literal.text.utf8.count >= HardcodedKeychainSecret.shortestSecret
      && !HardcodedKeychainSecret.markerWords.contains(literal.text.lowercased())
  }
}
