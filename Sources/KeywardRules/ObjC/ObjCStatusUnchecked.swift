import KeywardCore

/// `swift.keychain_status_unchecked` for Objective-C sources.
public struct ObjCStatusUnchecked: Rule {
  public static let language = SourceLanguage.objectiveC
  public static let metadata = StatusUnchecked.metadata.objcTwin(
    description: """
      `SecItemAdd`, `SecItemUpdate` and `SecItemCopyMatching` called as a statement (also after \
      `if (...)`, `else` or a `(void)` cast), or whose `OSStatus` goes into a local of the method \
      that nothing reads afterwards (a read earlier in a loop around the call, or in a block, \
      counts; one inside `NSAssert`, or a comparison with a failure code alone, does not). A status \
      kept in an ivar, a property or an \
      out-parameter is not judged. \
      `SecItemDelete` before an add is best effort and is reported only with `includeDelete`. \
      An item that only holds a public key, and a read whose result the method then looks at, \
      are reported only by strict.
      """,
    vulnerableExample: """
      SecItemDelete((__bridge CFDictionaryRef)query);
      SecItemAdd((__bridge CFDictionaryRef)query, NULL);
      """,
    fixedExample: """
      SecItemDelete((__bridge CFDictionaryRef)query);
      OSStatus status = SecItemAdd((__bridge CFDictionaryRef)query, NULL);
      if (status != errSecSuccess) { return NO; }
      """)

  public static let options = StatusUnchecked.options

  public static let examples = RuleExamples(
    flagged: [
      // Only the duplicate is handled: any other failure passes as stored.
      """
      - (void)savePassword:(NSData *)password {
          OSStatus status = ↓SecItemAdd((__bridge CFDictionaryRef)self.item, NULL);
          if (status == errSecDuplicateItem) {
              OSStatus updated = SecItemUpdate((__bridge CFDictionaryRef)self.match, (__bridge CFDictionaryRef)self.changes);
              if (updated != errSecSuccess) { [self fail]; }
          }
      }
      """,
      // An assertion is no check in a release build.
      """
      - (void)save {
          OSStatus status = ↓SecItemAdd((__bridge CFDictionaryRef)self.query, NULL);
          NSAssert(status == noErr, @"could not save");
      }
      """,
      RuleExample(
        """
        - (void)savePublicKey:(SecKeyRef)publicKey {
            NSDictionary *item = @{(__bridge id)kSecAttrKeyClass: (__bridge id)kSecAttrKeyClassPublic,
                                   (__bridge id)kSecValueRef: (__bridge id)publicKey};
            ↓SecItemAdd((__bridge CFDictionaryRef)item, NULL);
        }
        """, profile: .strict),
      """
      - (void)savePassword:(NSString *)password {
          NSMutableDictionary *attributes = [NSMutableDictionary dictionary];
          attributes[(__bridge id)kSecValueData] = [password dataUsingEncoding:NSUTF8StringEncoding];
          ↓SecItemAdd((__bridge CFDictionaryRef)attributes, NULL);
      }
      """,
      "- (void)save { ↓SecItemAdd((__bridge CFDictionaryRef)query, NULL); }",
      "- (void)save { (void)↓SecItemUpdate((__bridge CFDictionaryRef)query, (__bridge CFDictionaryRef)changes); }",
      "- (void)load { CFTypeRef result = NULL; if (query) ↓SecItemCopyMatching((__bridge CFDictionaryRef)query, &result); }",
      RuleExample(
        "- (void)remove { ↓SecItemDelete((__bridge CFDictionaryRef)query); }", options: ["includeDelete": .bool(true)]),
      """
      - (void)store {
          OSStatus status = ↓SecItemAdd((__bridge CFDictionaryRef)query, NULL);
          if (status == errSecDuplicateItem) {
              SecItemDelete((__bridge CFDictionaryRef)query);
              status = ↓SecItemAdd((__bridge CFDictionaryRef)query, NULL);
          }
      }
      """,
      "- (void)save { OSStatus status = ↓SecItemUpdate((__bridge CFDictionaryRef)query, (__bridge CFDictionaryRef)changes); }",
      // Retried while the device is locked, then never checked.
      """
      - (void)retry {
          OSStatus status = errSecSuccess;
          do { status = ↓SecItemAdd((__bridge CFDictionaryRef)query, NULL); } while (status == errSecInteractionNotAllowed);
      }
      """,
    ],
    clean: [
      // The result is looked at: a failure reads as "no item".
      """
      - (NSData *)load {
          CFTypeRef result = NULL;
          SecItemCopyMatching((__bridge CFDictionaryRef)self.query, &result);
          if (result == NULL) { return nil; }
          return (__bridge_transfer NSData *)result;
      }
      """,
      // A public key: no secret is lost.
      """
      - (void)savePublicKey:(SecKeyRef)publicKey {
          NSDictionary *item = @{(__bridge id)kSecClass: (__bridge id)kSecClassKey,
                                 (__bridge id)kSecAttrKeyClass: (__bridge id)kSecAttrKeyClassPublic,
                                 (__bridge id)kSecValueRef: (__bridge id)publicKey};
          SecItemAdd((__bridge CFDictionaryRef)item, NULL);
      }
      """,
      "- (OSStatus)add { OSStatus status = SecItemAdd((__bridge CFDictionaryRef)query, NULL); return status; }",
      """
      - (BOOL)store {
          OSStatus status = SecItemAdd((__bridge CFDictionaryRef)query, NULL);
          if (status == errSecDuplicateItem) { status = SecItemUpdate((__bridge CFDictionaryRef)query, (__bridge CFDictionaryRef)changes); }
          return status == errSecSuccess;
      }
      """,
      """
      - (void)add:(OSStatus *)outStatus {
          _lastStatus = SecItemAdd((__bridge CFDictionaryRef)query, NULL);
          self.lastStatus = SecItemAdd((__bridge CFDictionaryRef)query, NULL);
          *outStatus = SecItemAdd((__bridge CFDictionaryRef)query, NULL);
      }
      """,
      "if (SecItemUpdate((__bridge CFDictionaryRef)query, (__bridge CFDictionaryRef)changes) != errSecSuccess) { return; }",
      "return SecItemCopyMatching((__bridge CFDictionaryRef)query, &result) == errSecSuccess;",
      "SecItemDelete((__bridge CFDictionaryRef)query);",
      "OSStatus SecItemAdd(CFDictionaryRef attributes, CFTypeRef *result);",
      "// SecItemAdd((__bridge CFDictionaryRef)query, NULL);",
    ])

  public static func prefilterTokens(options: RuleOptions) -> [String] { ["SecItem"] }

  public static func check(_ context: RuleContext) {
    var names: Set<String> = ["SecItemAdd", "SecItemUpdate", "SecItemCopyMatching"]
    if context.options.bool("includeDelete") { names.insert("SecItemDelete") }
    for ignored in context.objc.ignoredStatuses(of: names) {
      // As for Swift: an item that evidently holds no secret is reported only by strict.
      // As for Swift: an item that evidently holds no secret, and a read whose result the method
      // then looks at (a failure reads as "no item"), are reported only by strict.
      if !context.options.reportsWeakEvidence {
        if ignored.call.text == "SecItemCopyMatching" {
          if ignored.resultIsRead { continue }
        } else if context.objc.dictionary(passedToCallAt: ignored.index)?.storesNoSecret(in: context.objc) == true {
          continue
        }
      }
      let compared = ignored.comparedCodes.map { "`\($0)`" }.joined(separator: " and ")
      let how =
        ignored.unreadVariable.map {
          if !compared.isEmpty { return "goes into `\($0)`, which is only compared with \(compared) afterwards" }
          return ignored.onlyAsserted
            ? "goes into `\($0)`, which only an assertion looks at (release builds leave it out)"
            : "goes into `\($0)`, which nothing reads after this call"
        } ?? "is ignored"
      context.report(
        ignored.call,
        message: StatusUnchecked.message(for: ignored.call.text, ignored: how, handled: ignored.comparedCodes))
    }
  }
}
