import KeywardCore

/// `swift.macos_file_based_keychain` for Objective-C sources.
public struct ObjCMacOSFileBasedKeychain: Rule {
  public static let language = SourceLanguage.objectiveC
  public static let metadata = MacOSFileBasedKeychain.metadata.objcTwin(
    description: """
      On macOS, `SecItemAdd` without `kSecUseDataProtectionKeychain` set to true uses the legacy \
      file-based keychain, which ignores `kSecAttrAccessible`, unless the dictionary sets \
      `kSecAttrSynchronizable` to true, `kSecAttrAccessControl` or `kSecAttrTokenID` (those send the \
      item to the data protection keychain). Keyward reports a `…ThisDeviceOnly` class (the device \
      binding is what is lost; strict also reports migratable classes, which ask for about what the \
      login keychain gives) in code built only for macOS: inside `#if TARGET_OS_OSX`, `#if \
      !TARGET_OS_IPHONE` or the `#else` of `#if TARGET_OS_IPHONE`, in a file importing AppKit or \
      Cocoa and not UIKit, or in a project built only for macOS (by `platforms:` or `SDKROOT`); not \
      in Mac Catalyst builds. Outside strict only where the whole dictionary is in view (an `@{ ... \
      }` literal, or a variable that starts as one or empty and changes only by keyed writes). \
      Updates are not judged: the opt-in belongs to the query that finds the item.
      """,
    vulnerableExample: """
      #if TARGET_OS_OSX
      NSDictionary *query = @{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
                              (__bridge id)kSecValueData: tokenData,
                              (__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleWhenUnlockedThisDeviceOnly};
      SecItemAdd((__bridge CFDictionaryRef)query, NULL);
      #endif
      """,
    fixedExample: """
      #if TARGET_OS_OSX
      NSDictionary *query = @{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
                              (__bridge id)kSecValueData: tokenData,
                              (__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                              (__bridge id)kSecUseDataProtectionKeychain: @YES};
      SecItemAdd((__bridge CFDictionaryRef)query, NULL);
      #endif
      """)

  public static let examples = RuleExamples(
    flagged: [
      """
      #if TARGET_OS_OSX
      - (void)save:(NSData *)token {
          NSDictionary *query = @{(__bridge id)kSecValueData: token, ↓(__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleWhenUnlockedThisDeviceOnly};
          SecItemAdd((__bridge CFDictionaryRef)query, NULL);
      }
      #endif
      """,
      """
      #import <Cocoa/Cocoa.h>
      - (OSStatus)save:(NSData *)token {
          NSMutableDictionary *item = [NSMutableDictionary dictionary];
          [item setObject:token forKey:(__bridge id)kSecValueData];
          item[↓(__bridge id)kSecAttrAccessible] = (__bridge id)kSecAttrAccessibleWhenUnlockedThisDeviceOnly;
          return SecItemAdd((__bridge CFDictionaryRef)item, NULL);
      }
      """,
      """
      #if TARGET_OS_IPHONE
      static const BOOL kUsesDataProtection = YES;
      #else
      - (void)save:(NSData *)token {
          SecItemAdd((__bridge CFDictionaryRef)@{(__bridge id)kSecValueData: token, ↓(__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleWhenUnlockedThisDeviceOnly}, NULL);
      }
      #endif
      """,
      RuleExample(
        """
        #import <AppKit/AppKit.h>
        - (OSStatus)save:(NSData *)token {
            NSMutableDictionary *item = [self baseQuery];
            [item setObject:(__bridge id)kSecAttrAccessibleWhenUnlockedThisDeviceOnly forKey:↓(__bridge id)kSecAttrAccessible];
            return SecItemAdd((__bridge CFDictionaryRef)item, NULL);
        }
        """, profile: .strict),
    ],
    clean: [
      // A migratable class asks for about what the login keychain gives (strict reports it).
      """
      #if TARGET_OS_OSX
      NSDictionary *query = @{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword, (__bridge id)kSecValueData: token,
                              (__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleWhenUnlocked};
      SecItemAdd((__bridge CFDictionaryRef)query, NULL);
      #endif
      """,
      """
      #if TARGET_OS_OSX
      NSDictionary *query = @{(__bridge id)kSecValueData: token, (__bridge id)kSecAttrAccessControl: (__bridge id)access,
                              (__bridge id)kSecUseDataProtectionKeychain: @YES};
      SecItemAdd((__bridge CFDictionaryRef)query, NULL);
      #endif
      """,
      """
      #import <AppKit/AppKit.h>
      NSDictionary *query = @{(__bridge id)kSecValueData: token, (__bridge id)kSecAttrSynchronizable: (__bridge id)kCFBooleanTrue,
                              (__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleAfterFirstUnlock};
      SecItemAdd((__bridge CFDictionaryRef)query, NULL);
      """,
      // iOS code, Mac Catalyst, and code for both platforms.
      """
      #import <UIKit/UIKit.h>
      NSDictionary *query = @{(__bridge id)kSecValueData: token, (__bridge id)kSecAttrAccessControl: (__bridge id)access};
      SecItemAdd((__bridge CFDictionaryRef)query, NULL);
      """,
      """
      #if TARGET_OS_MACCATALYST
      NSDictionary *query = @{(__bridge id)kSecValueData: token, (__bridge id)kSecAttrAccessControl: (__bridge id)access};
      SecItemAdd((__bridge CFDictionaryRef)query, NULL);
      #endif
      """,
      """
      #if TARGET_OS_OSX
      #import <AppKit/AppKit.h>
      #else
      #import <UIKit/UIKit.h>
      #endif
      NSDictionary *query = @{(__bridge id)kSecValueData: token, (__bridge id)kSecAttrAccessControl: (__bridge id)access};
      SecItemAdd((__bridge CFDictionaryRef)query, NULL);
      """,
      """
      #if TARGET_OS_OSX
      #else
      NSDictionary *query = @{(__bridge id)kSecValueData: token, (__bridge id)kSecAttrAccessControl: (__bridge id)access};
      SecItemAdd((__bridge CFDictionaryRef)query, NULL);
      #endif
      """,
      // A base query from elsewhere may opt in.
      """
      #import <Cocoa/Cocoa.h>
      NSMutableDictionary *item = [self baseQuery];
      [item setObject:(__bridge id)kSecAttrAccessibleWhenUnlockedThisDeviceOnly forKey:(__bridge id)kSecAttrAccessible];
      SecItemAdd((__bridge CFDictionaryRef)item, NULL);
      """,
      // Only searched for.
      """
      #if !TARGET_OS_IPHONE
      NSDictionary *lookup = @{(__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleWhenUnlocked, (__bridge id)kSecReturnData: @YES};
      SecItemCopyMatching((__bridge CFDictionaryRef)lookup, &result);
      #endif
      """,
    ])

  public static func prefilterTokens(options: RuleOptions) -> [String] { ["SecItemAdd"] }

  public static func check(_ context: RuleContext) {
    let objc = context.objc
    var platform: ObjCTargetPlatform?
    for dictionary in objc.keychainDictionaries where dictionary.roles.contains(.add) && dictionary.mayStore {
      guard !usesDataProtectionKeychain(dictionary, objc: objc),
        context.options.reportsWeakEvidence || dictionary.isFullySeen
      else { continue }
      for entry in dictionary.entries {
        guard let key = MacOSFileBasedKeychain.ignoredKeys.first(where: { objc.isKeychainKey(entry.key, named: $0) }),
          let first = entry.key.first, let last = entry.key.last
        else { continue }
        // A migratable class asks for about what the login keychain gives (strict reports it).
        let classes = objc.expand(entry.value).compactMap { AccessibilityClass.denoted(by: $0)?.value }
        guard context.options.reportsWeakEvidence || classes.isEmpty || classes.contains(where: \.isThisDeviceOnly)
        else { continue }
        if platform == nil { platform = ObjCTargetPlatform(objc) }
        guard platform?.isMacOSOnly(at: first.start) == true else { continue }
        context.report(
          start: first.start, end: last.end,
          message:
            "On macOS this item goes to the file-based keychain, because its dictionary does not set `kSecUseDataProtectionKeychain` to true, and that keychain ignores `\(key)`: the protection asked for here is not applied. Add `(__bridge id)kSecUseDataProtectionKeychain: @YES` to every query for this item."
        )
      }
    }
  }

  /// Whether the dictionary goes to the data protection keychain: opted in, synchronizing, or
  /// naming an access control or a token.
  static func usesDataProtectionKeychain(_ dictionary: ObjCKeychainDictionary, objc: ObjCModel) -> Bool {
    let optIn = ["kSecUseDataProtectionKeychain", "kSecAttrSynchronizable"].contains { key in
      dictionary.values(forKey: key, in: objc).contains { !ObjCBooleans.trueSpans(in: objc.expand($0)).isEmpty }
    }
    return optIn
      || MacKeychainRouting.dataProtectionOnlyKeys.contains { !dictionary.values(forKey: $0, in: objc).isEmpty }
  }
}
