import KeywardCore

/// `swift.keychain_item_migratable` for Objective-C sources.
public struct ObjCItemMigratable: Rule {
  public static let language = SourceLanguage.objectiveC
  public static let metadata = ItemMigratable.metadata.objcTwin(
    description: """
      Accessibility classes without `ThisDeviceOnly` (`kSecAttrAccessibleWhenUnlocked`, \
      `kSecAttrAccessibleAfterFirstUnlock`, or their raw values) as the `kSecAttrAccessible` value \
      of a dictionary the file stores (`SecItemAdd`, the attributes of `SecItemUpdate`, key \
      generation, or one that leaves the file's view), in `@{ ... }`, `setObject:forKey:`, \
      `query[key] = ...` or `CFDictionaryAddValue`, and as the protection of \
      `SecAccessControlCreateWithFlags`, through `#define`s and `const`s; and UICKeyChainStore's \
      `...AccessibilityWhenUnlocked` / `...AfterFirstUnlock` where a store (or the library's \
      default) is set to one. A search stores nothing; the deprecated `Always` classes are left to \
      `objc.weak_keychain_accessibility`.
      """,
    vulnerableExample: """
      NSDictionary *query = @{(__bridge id)kSecValueData: tokenData,
                              (__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleAfterFirstUnlock};
      SecItemAdd((__bridge CFDictionaryRef)query, NULL);
      """,
    fixedExample: """
      NSDictionary *query = @{(__bridge id)kSecValueData: tokenData,
                              (__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly};
      SecItemAdd((__bridge CFDictionaryRef)query, NULL);
      """)

  public static let examples = RuleExamples(
    flagged: [
      RuleExample("store.accessibility = ↓UICKeyChainStoreAccessibilityAfterFirstUnlock;", profile: .strict),
      RuleExample(
        """
        - (void)save {
            NSDictionary *query = @{(__bridge id)kSecValueData: token, (__bridge id)kSecAttrAccessible: (__bridge id)↓kSecAttrAccessibleAfterFirstUnlock};
            SecItemAdd((__bridge CFDictionaryRef)query, NULL);
        }
        """, profile: .strict),
      RuleExample(
        "SecAccessControlRef access = SecAccessControlCreateWithFlags(NULL, ↓kSecAttrAccessibleWhenUnlocked, kSecAccessControlBiometryCurrentSet, NULL);",
        profile: .strict),
      RuleExample(
        """
        - (void)update:(NSData *)data {
            NSMutableDictionary *changes = [NSMutableDictionary dictionary];
            [changes setObject:data forKey:(__bridge id)kSecValueData];
            [changes setObject:(__bridge id)↓kSecAttrAccessibleWhenUnlocked forKey:(__bridge id)kSecAttrAccessible];
            SecItemUpdate((__bridge CFDictionaryRef)query, (__bridge CFDictionaryRef)changes);
        }
        """, profile: .strict),
      // A helper function's default, in an item copied before it is added.
      RuleExample(protectionHelper(defaultClass: "↓kSecAttrAccessibleWhenUnlocked"), profile: .strict),
    ],
    clean: [
      // Set again before the add, whichever branch ran.
      RuleExample(ObjCWeakKeychainAccessibility.reassignedClass(marker: "", guarded: false), profile: .strict),
      RuleExample(
        """
        NSDictionary *query = @{(__bridge id)kSecValueData: token, (__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleWhenUnlockedThisDeviceOnly};
        SecItemAdd((__bridge CFDictionaryRef)query, NULL);
        """, profile: .strict),
      RuleExample(
        """
        NSDictionary *lookup = @{(__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleWhenUnlocked, (__bridge id)kSecReturnData: @YES};
        SecItemCopyMatching((__bridge CFDictionaryRef)lookup, &result);
        """, profile: .strict),
      RuleExample(
        """
        NSDictionary *query = @{(__bridge id)kSecValueData: token, (__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleAlways};
        SecItemAdd((__bridge CFDictionaryRef)query, NULL);
        """, profile: .strict),
      // The helper gives a migrating class only when its caller asks for it.
      RuleExample(protectionHelper(defaultClass: "kSecAttrAccessibleWhenUnlockedThisDeviceOnly"), profile: .strict),
      // A wrapper's table from its own setting to every class: the choice is where the setting is set.
      RuleExample(ObjCWeakKeychainAccessibility.wrapperMappingTable, profile: .strict),
      RuleExample(
        "store.accessibility = UICKeyChainStoreAccessibilityAfterFirstUnlockThisDeviceOnly;", profile: .strict),
    ])

  /// A helper function choosing the class from its caller's options, starting from
  /// `defaultClass`, and an item copied before it is added.
  static func protectionHelper(defaultClass: String) -> String {
    """
    CFStringRef protectionFor(NSDictionary *options) {
        if ([options[@"protection"] isEqualToString:@"firstUnlock"]) {
            return kSecAttrAccessibleAfterFirstUnlock;
        }
        return \(defaultClass);
    }
    - (void)save:(NSData *)token options:(NSDictionary *)options {
        NSMutableDictionary *item = [NSMutableDictionary dictionary];
        item[(__bridge id)kSecValueData] = token;
        item[(__bridge id)kSecAttrAccessible] = (__bridge id)protectionFor(options);
        NSDictionary *attributes = [NSDictionary dictionaryWithDictionary:item];
        SecItemAdd((__bridge CFDictionaryRef)attributes, NULL);
    }
    """
  }

  public static func prefilterTokens(options: RuleOptions) -> [String] {
    ["kSecAttrAccessible", "UICKeyChainStoreAccessibility"]
  }

  public static func check(_ context: RuleContext) {
    let objc = context.objc
    var values = objc.keychainDictionaries.filter(\.mayStore).flatMap {
      $0.values(forKey: "kSecAttrAccessible", in: objc)
    }
    values += objc.calls(named: "SecAccessControlCreateWithFlags").compactMap {
      $0.arguments.count > 1 ? $0.arguments[1] : nil
    }
    for token in values.flatMap({ objc.expand($0) }) {
      guard let accessibility = AccessibilityClass.denoted(by: token)?.value, !accessibility.isThisDeviceOnly,
        !accessibility.isDeprecated
      else { continue }
      context.report(token, message: message(subject: "`\(accessibility.name)`", accessibility, fixed: nil))
    }
    // UICKeyChainStore's own constants, where a store or the library's default is set to one.
    for (token, accessibility) in objc.wrapperAccessibilityValues
    where !accessibility.isThisDeviceOnly && !accessibility.isDeprecated {
      context.report(
        token,
        message: message(
          subject: "`\(token.text)` (`\(accessibility.name)`)", accessibility, fixed: token.text + "ThisDeviceOnly"))
    }
  }

  static func message(subject: String, _ accessibility: AccessibilityClass, fixed: String?) -> String {
    "\(subject) lets this secret travel in backups and restore onto another device, which can then act as this one. Use `\(fixed ?? accessibility.name + "ThisDeviceOnly")`."
  }
}
