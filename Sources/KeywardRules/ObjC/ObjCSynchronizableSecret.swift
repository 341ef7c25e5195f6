import KeywardCore

/// `swift.keychain_synchronizable_secret` for Objective-C sources.
public struct ObjCSynchronizableSecret: Rule {
  public static let language = SourceLanguage.objectiveC
  public static let metadata = SynchronizableSecret.metadata.objcTwin(
    description: """
      `kSecAttrSynchronizable` set to `kCFBooleanTrue` / `@YES` (in a `@{ ... }` literal, \
      `setObject:forKey:`, `query[key] = ...` or `CFDictionaryAddValue`) on a dictionary the file \
      stores (`SecItemAdd`, the attributes of `SecItemUpdate`, key generation, or one that leaves \
      the file's view) when the item holds a secret: a private key (`kSecAttrKeyClassPrivate`), or \
      an account, service, label, tag or data named like a secret (`sensitiveNamePatterns`), as the \
      Swift rule judges names. A lookup with `kSecAttrSynchronizableAny` stores nothing; syncing \
      chosen by a condition is reported only under the strict profile.
      """,
    vulnerableExample: """
      NSDictionary *query = @{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
                              (__bridge id)kSecAttrAccount: @"refreshToken",
                              (__bridge id)kSecValueData: tokenData,
                              (__bridge id)kSecAttrSynchronizable: (__bridge id)kCFBooleanTrue};
      SecItemAdd((__bridge CFDictionaryRef)query, NULL);
      """,
    fixedExample: """
      NSDictionary *query = @{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
                              (__bridge id)kSecAttrAccount: @"refreshToken",
                              (__bridge id)kSecValueData: tokenData,
                              (__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly};
      SecItemAdd((__bridge CFDictionaryRef)query, NULL);
      """)

  public static let options = SynchronizableSecret.options

  public static let examples = RuleExamples(
    flagged: [
      """
      - (void)save:(NSData *)data {
          NSDictionary *query = @{(__bridge id)kSecAttrAccount: @"refreshToken", (__bridge id)kSecValueData: data,
                                  (__bridge id)kSecAttrSynchronizable: (__bridge id)↓kCFBooleanTrue};
          SecItemAdd((__bridge CFDictionaryRef)query, NULL);
      }
      """,
      """
      - (void)storeKey {
          NSMutableDictionary *attributes = [NSMutableDictionary dictionary];
          attributes[(__bridge id)kSecAttrKeyClass] = (__bridge id)kSecAttrKeyClassPrivate;
          [attributes setObject:↓@YES forKey:(__bridge id)kSecAttrSynchronizable];
          SecItemAdd((__bridge CFDictionaryRef)attributes, NULL);
      }
      """,
      // Kept for another method of the file (or another file): it may be stored.
      """
      - (NSDictionary *)itemForPassword:(NSData *)passwordData {
          return @{(__bridge id)kSecAttrService: service, (__bridge id)kSecValueData: passwordData,
                   (__bridge id)kSecAttrSynchronizable: ↓@YES};
      }
      """,
      """
      #define SYNC_ITEMS ↓kCFBooleanTrue
      - (void)save:(NSData *)secret {
          NSMutableDictionary *query = [NSMutableDictionary new];
          query[(__bridge id)kSecAttrAccount] = @"apiSecret";
          CFDictionaryAddValue((__bridge CFMutableDictionaryRef)query, kSecAttrSynchronizable, SYNC_ITEMS);
          SecItemAdd((__bridge CFDictionaryRef)query, NULL);
      }
      """,
    ],
    clean: [
      // A lookup of items from every device stores nothing.
      """
      NSDictionary *lookup = @{(__bridge id)kSecAttrAccount: @"refreshToken", (__bridge id)kSecReturnData: @YES,
                               (__bridge id)kSecAttrSynchronizable: (__bridge id)kCFBooleanTrue};
      SecItemCopyMatching((__bridge CFDictionaryRef)lookup, &result);
      """,
      """
      NSDictionary *query = @{(__bridge id)kSecAttrAccount: @"refreshToken", (__bridge id)kSecAttrSynchronizable: @YES};
      SecItemDelete((__bridge CFDictionaryRef)query);
      """,
      """
      NSDictionary *query = @{(__bridge id)kSecAttrAccount: @"refreshToken", (__bridge id)kSecValueData: data,
                              (__bridge id)kSecAttrSynchronizable: (__bridge id)kSecAttrSynchronizableAny};
      SecItemAdd((__bridge CFDictionaryRef)query, NULL);
      """,
      """
      NSDictionary *query = @{(__bridge id)kSecAttrAccount: @"refreshToken", (__bridge id)kSecValueData: data,
                              (__bridge id)kSecAttrSynchronizable: @NO};
      SecItemAdd((__bridge CFDictionaryRef)query, NULL);
      """,
      // No sign of a secret; push tokens are not credentials.
      """
      NSDictionary *query = @{(__bridge id)kSecAttrServer: @"example.com", (__bridge id)kSecValueData: data,
                              (__bridge id)kSecAttrSynchronizable: @YES};
      SecItemAdd((__bridge CFDictionaryRef)query, NULL);
      """,
      """
      NSDictionary *query = @{(__bridge id)kSecAttrAccount: @"apnsDeviceToken", (__bridge id)kSecValueData: data,
                              (__bridge id)kSecAttrSynchronizable: @YES};
      SecItemAdd((__bridge CFDictionaryRef)query, NULL);
      """,
      // Syncing chosen by the caller is an option the code offers.
      """
      - (void)store:(NSData *)keyData syncing:(BOOL)syncing {
          NSDictionary *item = @{(__bridge id)kSecAttrAccount: @"vaultPrivateKey", (__bridge id)kSecValueData: keyData,
                                 (__bridge id)kSecAttrSynchronizable: syncing ? @YES : @NO};
          SecItemAdd((__bridge CFDictionaryRef)item, NULL);
      }
      """,
      "// (__bridge id)kSecAttrAccount: @\"password\", (__bridge id)kSecAttrSynchronizable: @YES",
    ])

  public static func prefilterTokens(options: RuleOptions) -> [String] { ["kSecAttrSynchronizable", "\"sync\""] }

  public static func check(_ context: RuleContext) {
    let patterns = context.options.strings("sensitiveNamePatterns")
    let objc = context.objc
    for dictionary in objc.keychainDictionaries where dictionary.mayStore {
      guard let reason = holdsSecret(dictionary, patterns: patterns, objc: objc) else { continue }
      for value in dictionary.values(forKey: "kSecAttrSynchronizable", in: objc) {
        let expanded = objc.expand(value)
        // `syncing ? @YES : @NO`: a choice made by the caller, reported by the strict profile.
        if expanded.contains(where: { $0.text == "?" }), !context.options.reportsWeakEvidence { continue }
        for span in ObjCBooleans.trueSpans(in: expanded) {
          context.report(start: span.start, end: span.end, message: SynchronizableSecret.message(reason: reason))
        }
      }
    }
  }

  /// What makes the item a secret, or nil: a private key, or a secret's name in its account,
  /// service, label, tag or data.
  static func holdsSecret(_ dictionary: ObjCKeychainDictionary, patterns: [String], objc: ObjCModel) -> String? {
    for value in dictionary.values(forKey: "kSecAttrKeyClass", in: objc)
    where objc.expand(value).contains(where: { $0.text == "kSecAttrKeyClassPrivate" }) {
      return "a private key"
    }
    for key in ["kSecAttrAccount", "kSecAttrService", "kSecAttrLabel", "kSecAttrApplicationTag", "kSecValueData"] {
      for value in dictionary.values(forKey: key, in: objc) {
        let words = objc.expand(value).filter { $0.kind == .identifier || $0.kind == .string }.map(\.text)
        if let word = words.first(where: { SensitiveNames.matches($0, patterns: patterns) }) {
          return "a secret (`\(word)`)"
        }
      }
    }
    return nil
  }
}
