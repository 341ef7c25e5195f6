import KeywardCore

/// `swift.cleartext_storage_preferences` for Objective-C sources.
public struct ObjCCleartextStoragePreferences: Rule {
  public static let language = SourceLanguage.objectiveC
  public static let metadata = CleartextStoragePreferences.metadata.objcTwin(
    description: """
      `setObject:forKey:` / `setValue:forKey:` sent to `NSUserDefaults` (`standardUserDefaults`, \
      `initWithSuiteName:`, or a variable declared as one) or `NSUbiquitousKeyValueStore`, with a \
      key or value named like a secret (`sensitiveNamePatterns`), as the Swift rule judges names: \
      an identifier (`userId`), a push or sync token, a flag or a literal is no secret.
      """,
    vulnerableExample: """
      [[NSUserDefaults standardUserDefaults] setObject:authToken forKey:@"authToken"];
      """,
    fixedExample: """
      NSDictionary *query = @{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
                              (__bridge id)kSecAttrAccount: @"authToken",
                              (__bridge id)kSecValueData: [authToken dataUsingEncoding:NSUTF8StringEncoding],
                              (__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleWhenUnlockedThisDeviceOnly};
      OSStatus status = SecItemAdd((__bridge CFDictionaryRef)query, NULL);
      """)

  public static let options = CleartextStoragePreferences.options

  public static let examples = RuleExamples(
    flagged: [
      "[[NSUserDefaults standardUserDefaults] setObject:↓authToken forKey:@\"authToken\"];",
      // A category of the store, writing on `self`.
      RuleExample(storeCategory(of: "NSUserDefaults", marker: "↓")),
      """
      NSUserDefaults *defaults = [[NSUserDefaults alloc] initWithSuiteName:@"group.vault"];
      [defaults setValue:↓self.password forKey:kLastLoginKey];
      """,
      """
      #define PIN_KEY @"user_pin_code"
      [[NSUbiquitousKeyValueStore defaultStore] setObject:↓code forKey:PIN_KEY];
      """,
    ],
    clean: [
      // The same category on a cache of the app's own.
      RuleExample(storeCategory(of: "VLTResponseCache", marker: "")),
      "[[NSUserDefaults standardUserDefaults] setObject:theme forKey:@\"theme\"];",
      "[[NSUserDefaults standardUserDefaults] setObject:@YES forKey:@\"isPasscodeSet\"];",
      "[[NSUserDefaults standardUserDefaults] setObject:userId forKey:@\"sessionToken\"];",
      "[[NSUserDefaults standardUserDefaults] setObject:deviceToken forKey:@\"pushDeviceToken\"];",
      "[cache setObject:authToken forKey:@\"authToken\"];",
      "[[NSUserDefaults standardUserDefaults] setObject:nil forKey:@\"authToken\"];",
      "// [[NSUserDefaults standardUserDefaults] setObject:password forKey:@\"password\"];",
    ])

  /// A category of `type` whose setter keeps the server's API secret under its name.
  static func storeCategory(of type: String, marker: String) -> String {
    """
    @implementation \(type) (ServerSecret)
    - (void)setServerAPISecret:(NSString *)secret {
        [self setObject:\(marker)secret forKey:@"serverAPISecret"];
    }
    @end
    """
  }

  /// The classes whose `setObject:forKey:` keeps a value in a plain property list.
  static let stores = ["NSUserDefaults", "NSUbiquitousKeyValueStore"]

  public static func prefilterTokens(options: RuleOptions) -> [String] { stores }

  /// Only `setObject:forKey:` and `setValue:forKey:` write, and only a secret's name matters.
  public static func mayReport(in bytes: [UInt8], options: RuleOptions) -> Bool {
    ByteSearch.containsAny(["setObject:", "setValue:"], in: bytes)
      && SensitiveNames.mayAppear(in: bytes, patterns: options.strings("sensitiveNamePatterns"))
  }

  public static func check(_ context: RuleContext) {
    let patterns = context.options.strings("sensitiveNamePatterns")
    let objc = context.objc
    for write in objc.preferencesWrites(stores: stores) {
      let value = objc.expand(write.value)
      guard let first = value.first, !Self.isPlain(value) else { continue }
      let keyNames = objc.expand(write.key).filter { $0.kind == .string || $0.kind == .identifier }.map(\.text)
      // The value's own name (its last identifier: `self.password`, `code`); one that says it is
      // an identifier (`userId`) reveals nothing secret.
      let valueName = value.last { $0.kind == .identifier }?.text
      if let last = valueName.flatMap({ SensitiveNames.nameWords($0).last }),
        SensitiveNames.identifierWords.contains(last)
      {
        continue
      }
      let words = keyNames + (valueName.map { [$0] } ?? [])
      guard let word = SensitiveNames.secretWord(in: words, patterns: patterns) else { continue }
      context.report(
        start: first.start, end: value[value.count - 1].end,
        message: CleartextStoragePreferences.message(word: word, store: write.store))
    }
  }

  /// `@YES`, `@3`, `nil`, a number, or a string written in the source: nothing secret that the
  /// app does not ship anyway.
  static func isPlain(_ value: [ObjCToken]) -> Bool {
    let meaningful = value.filter { $0.text != "@" }
    guard meaningful.count == 1, let only = meaningful.first else { return false }
    return only.kind == .number || only.kind == .string
      || ["YES", "NO", "true", "false", "nil", "NULL"].contains(only.text)
  }
}
