import KeywardCore

/// `swift.keychain_implicit_accessibility` for Objective-C sources.
public struct ObjCImplicitAccessibility: Rule {
  public static let language = SourceLanguage.objectiveC
  public static let metadata = ImplicitAccessibility.metadata.objcTwin(
    description: """
      A dictionary passed to `SecItemAdd` with neither `kSecAttrAccessible` nor \
      `kSecAttrAccessControl` leaves the item to the default class, \
      `kSecAttrAccessibleWhenUnlocked`, carried in backups onto other devices. Reported only \
      where the whole dictionary is in view: \
      an `@{ ... }` literal, or a variable that starts as one (or as an empty \
      `NSMutableDictionary` or `CFDictionaryCreateMutable`) and then changes only by \
      `setObject:forKey:`, subscripts, `CFDictionaryAddValue` and literals, and is handed to no \
      method or function other than the Security calls. A `UICKeyChainStore` the file makes and \
      writes a value through, setting no `accessibility` on any store, is reported too: its items \
      get the library's default, `AfterFirstUnlock`. Items holding a public key or a \
      certificate, or no data, are not reported, nor are items that may sync through iCloud \
      Keychain (`kSecAttrSynchronizable` anything but a plain false): sync needs a class that \
      leaves the device. Nor are items native macOS code keeps in the file-based keychain.
      """,
    vulnerableExample: """
      NSDictionary *query = @{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
                              (__bridge id)kSecAttrAccount: @"session",
                              (__bridge id)kSecValueData: tokenData};
      SecItemAdd((__bridge CFDictionaryRef)query, NULL);
      """,
    fixedExample: """
      NSDictionary *query = @{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
                              (__bridge id)kSecAttrAccount: @"session",
                              (__bridge id)kSecValueData: tokenData,
                              (__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleWhenUnlockedThisDeviceOnly};
      SecItemAdd((__bridge CFDictionaryRef)query, NULL);
      """)

  public static let examples = RuleExamples(
    flagged: [
      RuleExample(savePassword(synchronizable: "@NO", marker: "↓"), profile: .strict),
      // Manual reference counting releases the dictionary; it does not hand it on.
      RuleExample(
        """
        - (void)saveKey:(NSData *)keyData {
            NSMutableDictionary *query = ↓[[NSMutableDictionary alloc] init];
            [query setObject:(id)kSecClassGenericPassword forKey:(id)kSecClass];
            [query setObject:@"settingsKey" forKey:(id)kSecAttrAccount];
            [query setObject:keyData forKey:(id)kSecValueData];
            OSStatus status = SecItemAdd((CFDictionaryRef)query, NULL);
            [query release];
        }
        """, profile: .strict),
      RuleExample(
        """
        - (void)save:(NSData *)token {
            NSDictionary *query = ↓@{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword, (__bridge id)kSecValueData: token};
            SecItemAdd((__bridge CFDictionaryRef)query, NULL);
        }
        """, profile: .strict),
      RuleExample(
        """
        - (OSStatus)save:(NSData *)token {
            NSMutableDictionary *item = ↓[NSMutableDictionary dictionary];
            [item setObject:(__bridge id)kSecClassGenericPassword forKey:(__bridge id)kSecClass];
            item[(__bridge id)kSecAttrAccount] = @"session";
            [item setObject:token forKey:(__bridge id)kSecValueData];
            return SecItemAdd((__bridge CFDictionaryRef)item, NULL);
        }
        """, profile: .strict),
      RuleExample(
        "OSStatus status = SecItemAdd((__bridge CFDictionaryRef)↓@{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword, (__bridge id)kSecValueData: token}, NULL);",
        profile: .strict),
      // UICKeyChainStore keeps items `AfterFirstUnlock` unless its `accessibility` is set: through a
      // store a function hands out, one kept in an instance variable, or one a class method makes.
      RuleExample(
        """
        static UICKeyChainStore *hostKeychain(void) {
            return ↓[UICKeyChainStore keyChainStoreWithService:@"com.example.hosts"];
        }
        - (void)savePassword:(NSString *)password forHost:(NSString *)host {
            [hostKeychain() setString:password forKey:host];
        }
        """, profile: .strict),
      RuleExample(
        """
        - (instancetype)init {
            if ((self = [super init])) { _store = ↓[[UICKeyChainStore alloc] initWithService:@"com.example.session"]; }
            return self;
        }
        - (void)saveToken:(NSString *)token { [_store setString:token forKey:@"token"]; }
        """, profile: .strict),
      RuleExample(
        "↓[UICKeyChainStore setData:privateKeyData forKey:@\"signing\" service:@\"com.example.keys\"];",
        profile: .strict),
    ],
    clean: [
      // Synchronized when the user turns iCloud sync on: the default class is the one sync needs.
      RuleExample(savePassword(synchronizable: "@(syncToiCloud)", marker: ""), profile: .strict),
      RuleExample(
        """
        NSDictionary *query = @{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword, (__bridge id)kSecValueData: token,
                                (__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleWhenUnlockedThisDeviceOnly};
        SecItemAdd((__bridge CFDictionaryRef)query, NULL);
        """, profile: .strict),
      RuleExample(
        """
        NSMutableDictionary *item = [@{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword, (__bridge id)kSecValueData: token} mutableCopy];
        [item setObject:(__bridge id)access forKey:(__bridge id)kSecAttrAccessControl];
        SecItemAdd((__bridge CFDictionaryRef)item, NULL);
        """, profile: .strict),
      // A class set between compiler pragmas is set all the same.
      RuleExample(
        """
        NSMutableDictionary *item = [NSMutableDictionary dictionary];
        item[(__bridge id)kSecClass] = (__bridge id)kSecClassGenericPassword;
        item[(__bridge id)kSecValueData] = token;
        #pragma clang diagnostic push
        #pragma clang diagnostic ignored "-Wunguarded-availability"
        item[(__bridge id)kSecAttrAccessible] = (__bridge id)kSecAttrAccessibleWhenUnlockedThisDeviceOnly;
        #pragma clang diagnostic pop
        SecItemAdd((__bridge CFDictionaryRef)item, NULL);
        """, profile: .strict),
      // The base query comes from elsewhere: its attributes are not in view.
      RuleExample(
        """
        NSMutableDictionary *item = [self baseQueryForAccount:@"session"];
        [item setObject:token forKey:(__bridge id)kSecValueData];
        SecItemAdd((__bridge CFDictionaryRef)item, NULL);
        """, profile: .strict),
      RuleExample(
        """
        NSMutableDictionary *item = [@{(__bridge id)kSecValueData: token} mutableCopy];
        [item addEntriesFromDictionary:self.defaults];
        SecItemAdd((__bridge CFDictionaryRef)item, NULL);
        """, profile: .strict),
      RuleExample(
        """
        NSMutableDictionary *item = [@{(__bridge id)kSecValueData: token} mutableCopy];
        [self applyProtectionTo:item];
        SecItemAdd((__bridge CFDictionaryRef)item, NULL);
        """, profile: .strict),
      // A public key: anyone may read it.
      RuleExample(
        """
        NSDictionary *query = @{(__bridge id)kSecClass: (__bridge id)kSecClassKey, (__bridge id)kSecAttrKeyClass: (__bridge id)kSecAttrKeyClassPublic, (__bridge id)kSecValueRef: (__bridge id)publicKey};
        SecItemAdd((__bridge CFDictionaryRef)query, NULL);
        """, profile: .strict),
      // A key the file does not resolve may be the accessibility.
      RuleExample(
        """
        NSMutableDictionary *query = [@{(__bridge id)kSecValueData: token} mutableCopy];
        query[protectionKey] = protection;
        SecItemAdd((__bridge CFDictionaryRef)query, NULL);
        """, profile: .strict),
      // The class is set on the store; or only a literal or a public key is written through it.
      RuleExample(
        """
        - (void)saveToken:(NSString *)token {
            UICKeyChainStore *keychain = [UICKeyChainStore keyChainStoreWithService:@"com.example.session"];
            keychain.accessibility = UICKeyChainStoreAccessibilityAfterFirstUnlockThisDeviceOnly;
            [keychain setString:token forKey:@"token"];
        }
        """, profile: .strict),
      RuleExample(
        """
        - (void)savePublicKey:(NSData *)publicKey {
            UICKeyChainStore *flags = [UICKeyChainStore keyChainStoreWithService:@"com.example.flags"];
            [flags setString:@"1" forKey:@"launched"];
            [[UICKeyChainStore keyChainStoreWithService:@"com.example.keys"] setData:publicKey forKey:@"public"];
        }
        """, profile: .strict),
      // A Mac app's items live in the file-based keychain, which has no accessibility classes.
      RuleExample(
        """
        #import <Cocoa/Cocoa.h>
        - (void)save:(NSData *)token {
            NSDictionary *query = @{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword, (__bridge id)kSecValueData: token};
            SecItemAdd((__bridge CFDictionaryRef)query, NULL);
        }
        """, profile: .strict),
      // Only searched for: nothing is stored.
      RuleExample(
        """
        NSDictionary *lookup = @{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword, (__bridge id)kSecReturnData: @YES};
        SecItemCopyMatching((__bridge CFDictionaryRef)lookup, &result);
        """, profile: .strict),
    ])

  public static func prefilterTokens(options: RuleOptions) -> [String] { ["SecItemAdd"] }

  public static let readsWrapperSettings = true

  /// A password saved with the given `kSecAttrSynchronizable` value.
  static func savePassword(synchronizable: String, marker: String) -> String {
    """
    - (void)savePassword:(NSData *)password syncToiCloud:(BOOL)syncToiCloud {
        NSDictionary *item = \(marker)@{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword, (__bridge id)kSecValueData: password,
                               (__bridge id)kSecAttrSynchronizable: \(synchronizable)};
        SecItemAdd((__bridge CFDictionaryRef)item, NULL);
    }
    """
  }

  public static func check(_ context: RuleContext) {
    let objc = context.objc
    // Native macOS code keeps items in the file-based keychain, which has no classes to default
    // to; the file's platform is worked out once, when first asked.
    var platform: ObjCTargetPlatform?
    func isMacOSOnly(at offset: Int) -> Bool {
      if platform == nil { platform = ObjCTargetPlatform(objc) }
      return platform!.isMacOSOnly(at: offset)
    }
    for dictionary in objc.keychainDictionaries where dictionary.roles.contains(.add) && dictionary.mayStore {
      guard dictionary.isFullySeen, let origin = dictionary.origin,
        dictionary.entries.allSatisfy({ keyIsKnown($0.key, objc: objc) }),
        dictionary.values(forKey: "kSecAttrAccessible", in: objc).isEmpty,
        dictionary.values(forKey: "kSecAttrAccessControl", in: objc).isEmpty,
        storesSecretMaterial(dictionary, objc: objc), !dictionary.mayBeSynchronized(in: objc),
        ObjCMacOSFileBasedKeychain.usesDataProtectionKeychain(dictionary, objc: objc)
          || !isMacOSOnly(at: origin.lowerBound)
      else { continue }
      context.report(
        start: origin.lowerBound, end: origin.upperBound,
        message: ImplicitAccessibility.message)
    }
    // A wrapper's store made without a class: its items get the library's default (none on
    // native macOS, whose file-based keychain the library writes to).
    for store in objc.wrapperStoresOnDefaultAccessibility
    where store.writtenValues.contains(where: { !namesPublicMaterial($0, objc: objc) })
      && !isMacOSOnly(at: store.creation.lowerBound)
    {
      guard let accessibility = AccessibilityClass.named(store.meaning), !accessibility.isThisDeviceOnly else {
        continue
      }
      context.report(
        start: store.creation.lowerBound, end: store.creation.upperBound,
        message: ImplicitAccessibility.wrapperMessage(
          library: store.library, accessibility,
          naming: "`store.accessibility = UICKeyChainStoreAccessibilityAfterFirstUnlockThisDeviceOnly`"))
    }
  }

  /// Whether a stored value's name says it is no secret (`publicKey`, `deviceToken`).
  static func namesPublicMaterial(_ value: [ObjCToken], objc: ObjCModel) -> Bool {
    ImplicitAccessibility.namesReadableValue(objc.expand(value).filter { $0.kind == .identifier }.map(\.text))
  }

  /// Whether an entry's key is a keychain constant or a raw key string: an unknown name may be
  /// the accessibility key itself.
  static func keyIsKnown(_ key: [ObjCToken], objc: ObjCModel) -> Bool {
    objc.expand(key).contains { ($0.kind == .identifier && $0.text.hasPrefix("kSec")) || $0.kind == .string }
  }

  /// Whether the item holds data or a key that is not evidently public.
  static func storesSecretMaterial(_ dictionary: ObjCKeychainDictionary, objc: ObjCModel) -> Bool {
    let stored =
      dictionary.values(forKey: "kSecValueData", in: objc) + dictionary.values(forKey: "kSecValueRef", in: objc)
    guard !stored.isEmpty else { return false }
    let publicMarkers: Set<String> = ["kSecAttrKeyClassPublic", "kSecClassCertificate"]
    let classes =
      dictionary.values(forKey: "kSecAttrKeyClass", in: objc) + dictionary.values(forKey: "kSecClass", in: objc)
    if classes.contains(where: { objc.expand($0).contains { publicMarkers.contains($0.text) } }) { return false }
    return !stored.contains { namesPublicMaterial($0, objc: objc) }
  }
}
