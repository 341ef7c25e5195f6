import KeywardCore

/// `swift.app_group_secret_storage` for Objective-C sources.
public struct ObjCAppGroupSecretStorage: Rule {
  public static let language = SourceLanguage.objectiveC
  public static let metadata = AppGroupSecretStorage.metadata.objcTwin(
    description: """
      `writeToURL:` / `writeToFile:` (of `NSData` or `NSString`), \
      `createFileAtPath:contents:attributes:` and `archiveRootObject:toFile:` whose destination \
      is built from `containerURLForSecurityApplicationGroupIdentifier:` (directly, through \
      locals, `#define`s or argument-less helper methods of the file), when the destination or \
      the data written is named like a secret (`sensitiveNamePatterns`), as the Swift rule \
      judges names. `NSUserDefaults` App Group suites are reported by \
      `objc.cleartext_storage_preferences`.
      """,
    vulnerableExample: """
      - (void)publish:(NSData *)refreshToken {
          NSURL *shared = [[NSFileManager defaultManager] containerURLForSecurityApplicationGroupIdentifier:@"group.com.example.vault"];
          [refreshToken writeToURL:[shared URLByAppendingPathComponent:@"refresh_token"] atomically:YES];
      }
      """,
    fixedExample: """
      NSDictionary *query = @{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
                              (__bridge id)kSecAttrAccount: @"refresh_token",
                              (__bridge id)kSecAttrAccessGroup: @"TEAMID.com.example.vault.shared",
                              (__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
                              (__bridge id)kSecValueData: refreshToken};
      OSStatus status = SecItemAdd((__bridge CFDictionaryRef)query, NULL);
      """)

  public static let options = AppGroupSecretStorage.options

  public static let examples = RuleExamples(
    flagged: [
      """
      - (void)publish:(NSData *)refreshToken {
          NSURL *shared = [[NSFileManager defaultManager] containerURLForSecurityApplicationGroupIdentifier:@"group.vault"];
          [refreshToken writeToURL:↓[shared URLByAppendingPathComponent:@"refresh_token"] atomically:YES];
      }
      """,
      """
      - (void)keep:(NSData *)data {
          NSURL *folder = [[NSFileManager defaultManager] containerURLForSecurityApplicationGroupIdentifier:kGroup];
          NSString *path = [[folder URLByAppendingPathComponent:@"credentials.plist"] path];
          [[NSFileManager defaultManager] createFileAtPath:↓path contents:data attributes:nil];
      }
      """,
    ],
    clean: [
      """
      - (void)publish {
          NSURL *shared = [[NSFileManager defaultManager] containerURLForSecurityApplicationGroupIdentifier:@"group.vault"];
          [thumbnail writeToURL:[shared URLByAppendingPathComponent:@"thumbnail.png"] atomically:YES];
      }
      """,
      """
      - (void)publish {
          NSURL *documents = [[[NSFileManager defaultManager] URLsForDirectory:NSDocumentDirectory inDomains:NSUserDomainMask] firstObject];
          [refreshToken writeToURL:[documents URLByAppendingPathComponent:@"refresh_token"] atomically:YES];
      }
      """,
      """
      - (void)publish {
          NSURL *shared = [[NSFileManager defaultManager] containerURLForSecurityApplicationGroupIdentifier:@"group.vault"];
          [deviceToken writeToURL:[shared URLByAppendingPathComponent:@"push_token"] atomically:YES];
      }
      """,
    ])

  public static func prefilterTokens(options: RuleOptions) -> [String] {
    ["containerURLForSecurityApplicationGroupIdentifier"]
  }

  /// Message parts that write a file, and the part that names what is written (nil: the receiver).
  static let writes: [(destination: String, contents: String?)] = [
    ("writeToURL", nil), ("writeToFile", nil), ("createFileAtPath", "contents"), ("toFile", nil),
  ]

  public static func check(_ context: RuleContext) {
    let objc = context.objc
    let patterns = context.options.strings("sensitiveNamePatterns")
    for write in writes {
      for (part, destination) in objc.messageArguments(write.destination) {
        let expanded = objc.expand(destination)
        guard expanded.contains(where: { $0.text == "containerURLForSecurityApplicationGroupIdentifier" }),
          let first = destination.first
        else { continue }
        var words = expanded.filter { $0.kind == .string || $0.kind == .identifier }.map(\.text)
        words += receiverWords(before: part, in: objc)
        if let contents = write.contents,
          let argument = objc.messageArguments(contents).first(where: { $0.part.start > part.start })?.argument
        {
          words += argument.filter { $0.kind == .identifier }.map(\.text)
        }
        guard let word = SensitiveNames.secretWord(in: words, patterns: patterns) else { continue }
        context.report(
          start: first.start, end: destination.last?.end ?? first.end,
          message:
            "This writes a secret (`\(word)`) to a file in the App Group container, which every app and extension of the group can read and which only data protection guards. Keep it in the keychain, shared through a keychain access group if extensions need it."
        )
      }
    }
  }

  /// The names of the receiver of the message `part` belongs to (`refreshToken` in
  /// `[refreshToken writeToURL:…]`).
  static func receiverWords(before part: ObjCToken, in objc: ObjCModel) -> [String] {
    guard let index = objc.tokenIndex(startingAt: part.start) else { return [] }
    var depth = 0
    var cursor = index - 1
    var names: [String] = []
    while cursor >= 0 {
      let text = objc.analyzed[cursor].text
      if text == "]" { depth += 1 }
      if text == "[" {
        if depth == 0 { break }
        depth -= 1
      }
      if objc.analyzed[cursor].kind == .identifier { names.append(text) }
      cursor -= 1
    }
    return names
  }
}
