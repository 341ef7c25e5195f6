import Foundation
import KeywardCore

/// `swift.weak_biometric_acl` for Objective-C sources.
public struct ObjCWeakBiometricACL: Rule {
  public static let language = SourceLanguage.objectiveC
  public static let metadata = WeakBiometricACL.metadata.objcTwin(
    description: """
      `kSecAccessControlBiometryAny`, `kSecAccessControlTouchIDAny` or \
      `kSecAccessControlUserPresence` in the flags of `SecAccessControlCreateWithFlags`, combined \
      with `|`, written as plain integers (`2` is biometryAny, `1` userPresence, also `1 << 1`), \
      or through `#define`s and `const`s of the file, locals assigned earlier in the same method, \
      argument-less methods and functions of the file returning them (or, for a C function given \
      arguments, returning them whatever the arguments are), and macros handing their \
      argument to the call; and UICKeyChainStore's \
      `...AuthenticationPolicyTouchIDAny` / `...UserPresence`. Such items stay unlockable with \
      biometrics enrolled after they were protected. A flag set only where the method's caller \
      asks (an `if` on a parameter) is that caller's choice, reported by the strict profile. An \
      access control only put into searches (a `SecItemCopyMatching` query) protects nothing.
      """,
    vulnerableExample: """
      SecAccessControlRef access = SecAccessControlCreateWithFlags(kCFAllocatorDefault,
          kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
          kSecAccessControlBiometryAny | kSecAccessControlPrivateKeyUsage, &error);
      """,
    fixedExample: """
      SecAccessControlRef access = SecAccessControlCreateWithFlags(kCFAllocatorDefault,
          kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
          kSecAccessControlBiometryCurrentSet | kSecAccessControlPrivateKeyUsage, &error);
      """)

  public static let options = WeakBiometricACL.options

  public static let examples = RuleExamples(
    flagged: [
      RuleExample(objcPresenceOption(marker: "↓"), profile: .strict),
      // A method named for the passcode accepts it by its stated purpose (strict only).
      RuleExample(objcPasscodeKeyPair(marker: "↓"), profile: .strict),
      RuleExample(objcAccessInQuery(marker: "↓", call: "SecItemAdd((__bridge CFDictionaryRef)query, NULL)")),
      "SecAccessControlCreateWithFlags(kCFAllocatorDefault, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, ↓kSecAccessControlBiometryAny | kSecAccessControlPrivateKeyUsage, &error);",
      "SecAccessControlRef sacRef = SecAccessControlCreateWithFlags(kCFAllocatorDefault, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, ↓kSecAccessControlUserPresence, err);",
      "SecAccessControlCreateWithFlags(0, kSecAttrAccessibleAlways, ↓2, 0);",
      """
      #define BIO_FLAGS (↓kSecAccessControlTouchIDAny | kSecAccessControlPrivateKeyUsage)
      SecAccessControlRef access = SecAccessControlCreateWithFlags(NULL, protection, BIO_FLAGS, NULL);
      """,
      """
      static const SecAccessControlCreateFlags kKeyFlags = ↓1 << 1;
      SecAccessControlRef access = SecAccessControlCreateWithFlags(NULL, protection, kKeyFlags, NULL);
      """,
      "[store setAccessibility:UICKeyChainStoreAccessibilityWhenPasscodeSetThisDeviceOnly authenticationPolicy:↓UICKeyChainStoreAuthenticationPolicyTouchIDAny];",
      // A local given its flags on more than one path.
      """
      - (SecAccessControlRef)makeAccess:(BOOL)allowPasscode {
          SecAccessControlCreateFlags flags = ↓kSecAccessControlBiometryAny;
          if (allowPasscode) flags = ↓kSecAccessControlUserPresence;
          return SecAccessControlCreateWithFlags(NULL, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, NULL);
      }
      """,
      // Flags returned by a helper method of the file.
      """
      - (SecAccessControlCreateFlags)accessFlags {
          return ↓kSecAccessControlTouchIDAny | kSecAccessControlPrivateKeyUsage;
      }
      - (SecAccessControlRef)makeAccess {
          return SecAccessControlCreateWithFlags(NULL, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, [self accessFlags], NULL);
      }
      """,
      // A macro handing its argument to the call.
      """
      #define MAKE_ACCESS(flags) SecAccessControlCreateWithFlags(NULL, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, NULL)
      - (void)protect { SecAccessControlRef access = MAKE_ACCESS(↓kSecAccessControlUserPresence); }
      """,
    ],
    clean: [
      RuleExample(objcPresenceOption(marker: "")),
      RuleExample(objcPasscodeKeyPair(marker: "")),
      // A search ignores the access control it is given: these flags protect nothing.
      RuleExample(objcAccessInQuery(marker: "", call: "SecItemCopyMatching((__bridge CFDictionaryRef)query, &found)")),
      "SecAccessControlCreateWithFlags(NULL, protection, kSecAccessControlBiometryCurrentSet | kSecAccessControlPrivateKeyUsage, NULL);",
      // The wrapper's own declaration of its policy constants.
      """
      typedef NS_OPTIONS(unsigned long, UICKeyChainStoreAuthenticationPolicy) {
          UICKeyChainStoreAuthenticationPolicyUserPresence = 1 << 0,
          UICKeyChainStoreAuthenticationPolicyTouchIDAny NS_ENUM_AVAILABLE(10_12_1, 9_0) = 1u << 1,
      };
      """,
      "SecAccessControlCreateWithFlags(NULL, protection, 8, NULL);",
      "// SecAccessControlCreateWithFlags(NULL, p, kSecAccessControlBiometryAny, NULL);",
      "if (context.biometryType == LABiometryTypeFaceID) { NSLog(@\"kSecAccessControlBiometryAny\"); }",
      // The same shapes carrying strong flags; a weak local of another method; a comparison.
      """
      - (SecAccessControlRef)makeAccess:(BOOL)enclave {
          SecAccessControlCreateFlags flags = kSecAccessControlBiometryCurrentSet;
          if (enclave) flags |= kSecAccessControlPrivateKeyUsage;
          return SecAccessControlCreateWithFlags(NULL, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, NULL);
      }
      - (NSString *)describe {
          SecAccessControlCreateFlags flags = kSecAccessControlBiometryAny;
          return [NSString stringWithFormat:@"%lu", (unsigned long)flags];
      }
      """,
      """
      - (SecAccessControlCreateFlags)accessFlags { return kSecAccessControlBiometryCurrentSet; }
      - (SecAccessControlRef)makeAccess:(SecAccessControlCreateFlags)flags {
          if (flags == kSecAccessControlBiometryAny) { return NULL; }
          SecAccessControlRef fixed = SecAccessControlCreateWithFlags(NULL, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, [self accessFlags], NULL);
          return SecAccessControlCreateWithFlags(NULL, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, NULL);
      }
      """,
      """
      #define MAKE_ACCESS(flags) SecAccessControlCreateWithFlags(NULL, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, NULL)
      - (void)protect { SecAccessControlRef access = MAKE_ACCESS(kSecAccessControlBiometryCurrentSet); }
      """,
    ])

  /// A module method whose caller's option lets the key accept the passcode.
  static func objcPresenceOption(marker: String) -> String {
    """
    - (void)createKeys:(NSDictionary *)params {
        BOOL allowDeviceCredentials = [params[@"allowDeviceCredentials"] boolValue];
        SecAccessControlCreateFlags flags = kSecAccessControlBiometryCurrentSet;
        if (allowDeviceCredentials) {
            flags = \(marker)kSecAccessControlUserPresence;
        }
        SecAccessControlRef access = SecAccessControlCreateWithFlags(NULL, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, flags, NULL);
    }
    """
  }

  /// An access control kept in a local and put into a query given to `call`.
  static func objcAccessInQuery(marker: String, call: String) -> String {
    """
    - (void)lookUpToken:(NSString *)account {
        SecAccessControlRef access;
        access = SecAccessControlCreateWithFlags(NULL, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, \(marker)kSecAccessControlUserPresence, NULL);
        NSMutableDictionary *query = [@{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
                                        (__bridge id)kSecAttrAccount: account} mutableCopy];
        [query setObject:(__bridge id)access forKey:(__bridge id)kSecAttrAccessControl];
        CFTypeRef found = NULL;
        OSStatus status = \(call);
        CFRelease(access);
    }
    """
  }

  /// A key-pair helper with a biometric variant and one named for the passcode.
  static func objcPasscodeKeyPair(marker: String) -> String {
    """
    + (SecAccessControlRef)biometricKeyAccess {
        return SecAccessControlCreateWithFlags(NULL, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, kSecAccessControlBiometryCurrentSet, NULL);
    }
    + (SecAccessControlRef)generatePasscodeKeyAccess {
        return SecAccessControlCreateWithFlags(NULL, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, \(marker)kSecAccessControlUserPresence, NULL);
    }
    """
  }

  public static func prefilterTokens(options: RuleOptions) -> [String] {
    ["SecAccessControl", "UICKeyChainStoreAuthenticationPolicy"]
  }

  public static func check(_ context: RuleContext) {
    let weak = Set(context.options.strings("weakBiometricFlags"))
    let objc = context.objc
    for (token, flags, fromInteger) in objc.accessControlFlags {
      let weakFlags = flags.filter { WeakBiometricACL.isWeak($0, fromRawValue: fromInteger, weak) }
      guard let first = weakFlags.first else { continue }
      // A flag set where the caller's option says (`if (allowPasscode) { flags = …UserPresence; }`)
      // is the caller's choice, and a passcode-accepting flag in a method named for the passcode
      // (`generatePasscodeKeyPair`) its stated purpose: strict only.
      if !context.options.reportsWeakEvidence, let index = objc.tokenIndex(startingAt: token.start),
        objc.isOnBranchChosenByCaller(tokenAt: index)
          || (weakFlags.allSatisfy { ["userPresence", "devicePasscode"].contains($0.name) }
            && objc.isNamedForThePasscode(tokenAt: index))
      {
        continue
      }
      let names = weakFlags.map { "`\($0.objcName)`" }.joined(separator: " and ")
      let subject = fromInteger ? "`\(token.text)` sets \(names)." : "`\(token.text)`"
      let consequence = WeakBiometricACL.consequence(of: first.name)
        .replacingOccurrences(of: "`.biometryCurrentSet`", with: "`kSecAccessControlBiometryCurrentSet`")
      context.report(token, message: "\(subject) \(fromInteger ? "`\(first.objcName)` " : "")\(consequence)")
    }
  }
}
