import KeywardCore

/// `swift.weak_keychain_accessibility` for Objective-C sources.
public struct ObjCWeakKeychainAccessibility: Rule {
  public static let language = SourceLanguage.objectiveC
  public static let metadata = WeakKeychainAccessibility.metadata.objcTwin(
    description: """
      `kSecAttrAccessibleAlways` and `kSecAttrAccessibleAlwaysThisDeviceOnly` (or their raw values \
      `@"dk"` / `@"dku"`) given as the `kSecAttrAccessible` value of `@{}` literals, \
      `setObject:forKey:` / `setValue:forKey:`, subscripts (`query[key] = value`), \
      `CFDictionaryAddValue` / `CFDictionarySetValue`, as \
      the protection of `SecAccessControlCreateWithFlags`, to SAMKeychain's \
      `setAccessibilityType:`, or as UICKeyChainStore's `...AccessibilityAlways` constants, also \
      through `#define`s and `const`s of the file. The items become readable while the device is \
      locked.
      """,
    vulnerableExample: """
      NSDictionary *query = @{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
                              (__bridge id)kSecValueData: tokenData,
                              (__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleAlways};
      """,
    fixedExample: """
      NSDictionary *query = @{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
                              (__bridge id)kSecValueData: tokenData,
                              (__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleWhenUnlockedThisDeviceOnly};
      """)

  public static let options = WeakKeychainAccessibility.options

  public static let examples = RuleExamples(
    flagged: [
      "NSDictionary *q = @{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword, (__bridge id)kSecAttrAccessible: (__bridge id)↓kSecAttrAccessibleAlways};",
      "[query setObject:(__bridge id)↓kSecAttrAccessibleAlwaysThisDeviceOnly forKey:(__bridge id)kSecAttrAccessible];",
      "CFDictionaryAddValue(query, kSecAttrAccessible, ↓kSecAttrAccessibleAlways);",
      """
      - (void)protect:(NSMutableDictionary *)query {
          query[(__bridge id)kSecAttrAccessible] = (__bridge id)↓kSecAttrAccessibleAlways;
      }
      """,
      "SecAccessControlRef ac = SecAccessControlCreateWithFlags(kCFAllocatorDefault, ↓kSecAttrAccessibleAlways, kSecAccessControlBiometryCurrentSet, NULL);",
      """
      #define KEYCHAIN_ACCESS ↓kSecAttrAccessibleAlways
      NSDictionary *q = @{(__bridge id)kSecAttrAccessible: (__bridge id)KEYCHAIN_ACCESS};
      """,
      "[SAMKeychain setAccessibilityType:↓kSecAttrAccessibleAlways];",
      "store.accessibility = ↓UICKeyChainStoreAccessibilityAlways;",
      #"NSDictionary *q = @{@"pdmn": ↓@"dk", @"acct": account};"#,
      RuleExample(reassignedClass(marker: "↓", guarded: true)),
    ],
    clean: [
      "NSDictionary *q = @{(__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleWhenUnlockedThisDeviceOnly};",
      "// (__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleAlways",
      #"NSString *help = @"kSecAttrAccessible: kSecAttrAccessibleAlways is deprecated";"#,
      "if ([attributes[(__bridge id)kSecAttrAccessible] isEqual:(__bridge id)kSecAttrAccessibleAlways]) { [self migrate]; }",
      "char c = '\"'; NSString *s = @\"kSecAttrAccessibleAlways\";",
      // The wrapper's own declaration of its constants, and its table mapping them.
      """
      typedef NS_ENUM(NSInteger, UICKeyChainStoreAccessibility) {
          UICKeyChainStoreAccessibilityWhenUnlocked = 1,
          UICKeyChainStoreAccessibilityAlways,
          UICKeyChainStoreAccessibilityAlwaysThisDeviceOnly,
      };
      """,
      RuleExample(wrapperMappingTable),
      // Set again before the add, whichever branch ran.
      RuleExample(reassignedClass(marker: "", guarded: false)),
    ])

  /// A class chosen in an `if`/`else`, then set again for every item before the add; `guarded`
  /// puts that last write under a condition of its own, so the first class may be stored.
  static func reassignedClass(marker: String, guarded: Bool) -> String {
    let last =
      "[item setObject:(__bridge id)kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly forKey:(__bridge id)kSecAttrAccessible];"
    return """
      - (void)storeCredentials:(NSData *)secret upgrading:(BOOL)upgrading fresh:(BOOL)fresh {
          NSMutableDictionary *item = [NSMutableDictionary dictionary];
          [item setObject:(__bridge id)kSecClassGenericPassword forKey:(__bridge id)kSecClass];
          if (upgrading) {
              [item setObject:(__bridge id)\(marker)kSecAttrAccessibleAlways forKey:(__bridge id)kSecAttrAccessible];
          } else {
              [item setObject:(__bridge id)kSecAttrAccessibleWhenUnlocked forKey:(__bridge id)kSecAttrAccessible];
          }
          \(guarded ? "if (fresh) { \(last) }" : last)
          [item setObject:secret forKey:(__bridge id)kSecValueData];
          SecItemAdd((__bridge CFDictionaryRef)item, NULL);
      }
      """
  }

  /// A wrapper's table from its own setting to every accessibility class, which the wrapper
  /// stores with: the choice is made where the setting is set, not here.
  static let wrapperMappingTable = """
    - (CFTypeRef)accessibilityObject
    {
        switch (_accessibility) {
            case UICKeyChainStoreAccessibilityWhenUnlocked:
                return kSecAttrAccessibleWhenUnlocked;
            case UICKeyChainStoreAccessibilityAlways:
                return kSecAttrAccessibleAlways;
            default:
                return nil;
        }
    }
    - (void)store:(NSData *)data {
        NSMutableDictionary *attributes = [NSMutableDictionary dictionary];
        attributes[(__bridge id)kSecValueData] = data;
        CFTypeRef accessibility = [self accessibilityObject];
        attributes[(__bridge id)kSecAttrAccessible] = (__bridge id)accessibility;
        SecItemAdd((__bridge CFDictionaryRef)attributes, NULL);
    }
    """

  public static func prefilterTokens(options: RuleOptions) -> [String] {
    WeakKeychainAccessibility.prefilterTokens(options: options) + [
      "UICKeyChainStoreAccessibility", "setAccessibilityType",
    ]
  }

  public static func check(_ context: RuleContext) {
    let weak = Set(context.options.strings("weakAccessibilityAttributes"))
    for (token, value, isRaw) in context.objc.accessibilityValues where weak.contains(value.name) {
      let subject =
        isRaw || token.text != value.name
        ? "`\(token.text.hasPrefix("UIC") ? token.text : "@\"\(token.text)\"")` (`\(value.name)`)"
        : WeakKeychainAccessibility.subject(value, isRaw: false)
      context.report(token, message: WeakKeychainAccessibility.message(value, subject: subject, conditional: false))
    }
  }
}
