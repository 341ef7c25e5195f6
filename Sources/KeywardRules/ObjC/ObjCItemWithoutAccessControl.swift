import KeywardCore

/// `swift.keychain_item_without_access_control` for Objective-C sources.
public struct ObjCItemWithoutAccessControl: Rule {
  public static let language = SourceLanguage.objectiveC
  public static let metadata = ItemWithoutAccessControl.metadata.objcTwin(
    description: """
      A keychain item that holds a secret (a private key, or an account, service, label, tag or \
      data named like a secret: `sensitiveNamePatterns`), added with `SecItemAdd` or generated \
      as a permanent key with `SecKeyCreateRandomKey`, with no `kSecAttrAccessControl` on the \
      dictionary or its `kSecPrivateKeyAttrs`. The standard profile reports it in files that also \
      send `evaluatePolicy:localizedReason:reply:`, where the app evidently means the secret to \
      sit behind Face ID, Touch ID or the passcode; the strict profile reports every such item, \
      and items holding data that is not named. Only dictionaries wholly in view are judged (an \
      `@{ ... }` literal, or a variable that starts as one or as an empty dictionary and changes \
      only by keyed writes). An item that may sync through iCloud Keychain is not reported: an \
      access control asking for the user keeps an item on its device.
      """,
    vulnerableExample: """
      [context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics
              localizedReason:@"Unlock your vault"
                        reply:^(BOOL success, NSError *error) { if (success) [self showVault]; }];
      NSDictionary *query = @{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
                              (__bridge id)kSecAttrAccount: @"vaultPassword",
                              (__bridge id)kSecValueData: secret};
      SecItemAdd((__bridge CFDictionaryRef)query, NULL);
      """,
    fixedExample: """
      SecAccessControlRef access = SecAccessControlCreateWithFlags(NULL,
          kSecAttrAccessibleWhenUnlockedThisDeviceOnly, kSecAccessControlBiometryCurrentSet, NULL);
      NSDictionary *query = @{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
                              (__bridge id)kSecAttrAccount: @"vaultPassword",
                              (__bridge id)kSecValueData: secret,
                              (__bridge id)kSecAttrAccessControl: (__bridge id)access};
      SecItemAdd((__bridge CFDictionaryRef)query, NULL);
      """)

  public static let options = [SensitiveNames.option]

  public static let examples = RuleExamples(
    flagged: [
      """
      - (void)unlock {
          [self.context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:@"Unlock" reply:^(BOOL ok, NSError *error) {}];
      }
      - (void)remember:(NSData *)secret {
          NSDictionary *query = ↓@{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword, (__bridge id)kSecAttrAccount: @"vaultPassword", (__bridge id)kSecValueData: secret};
          SecItemAdd((__bridge CFDictionaryRef)query, NULL);
      }
      """,
      """
      - (SecKeyRef)enroll {
          [self.context evaluatePolicy:LAPolicyDeviceOwnerAuthentication localizedReason:@"Set up signing" reply:^(BOOL ok, NSError *error) {}];
          NSDictionary *attributes = ↓@{(__bridge id)kSecAttrKeyType: (__bridge id)kSecAttrKeyTypeECSECPrimeRandom,
                                       (__bridge id)kSecPrivateKeyAttrs: @{(__bridge id)kSecAttrIsPermanent: @YES}};
          return SecKeyCreateRandomKey((__bridge CFDictionaryRef)attributes, NULL);
      }
      """,
      RuleExample(
        """
        - (void)remember:(NSData *)secret {
            NSDictionary *query = ↓@{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword, (__bridge id)kSecAttrAccount: @"refreshToken", (__bridge id)kSecValueData: secret};
            SecItemAdd((__bridge CFDictionaryRef)query, NULL);
        }
        """, profile: .strict),
    ],
    clean: [
      // A backup synchronized to the user's other devices cannot ask for this device's user.
      """
      - (void)backUp:(NSData *)secret {
          [self.context evaluatePolicy:LAPolicyDeviceOwnerAuthentication localizedReason:@"Unlock" reply:^(BOOL ok, NSError *error) {}];
          NSDictionary *item = @{(__bridge id)kSecAttrAccount: @"vaultPassword", (__bridge id)kSecValueData: secret,
                                 (__bridge id)kSecAttrSynchronizable: @YES};
          SecItemAdd((__bridge CFDictionaryRef)item, NULL);
      }
      """,
      """
      - (void)remember:(NSData *)secret access:(SecAccessControlRef)access {
          [self.context evaluatePolicy:LAPolicyDeviceOwnerAuthentication localizedReason:@"Unlock" reply:^(BOOL ok, NSError *error) {}];
          NSDictionary *query = @{(__bridge id)kSecAttrAccount: @"vaultPassword", (__bridge id)kSecValueData: secret,
                                  (__bridge id)kSecAttrAccessControl: (__bridge id)access};
          SecItemAdd((__bridge CFDictionaryRef)query, NULL);
      }
      """,
      """
      - (SecKeyRef)makeKey:(SecAccessControlRef)access {
          [self.context evaluatePolicy:LAPolicyDeviceOwnerAuthentication localizedReason:@"Sign" reply:^(BOOL ok, NSError *error) {}];
          NSDictionary *attributes = @{(__bridge id)kSecAttrKeyType: (__bridge id)kSecAttrKeyTypeECSECPrimeRandom,
                                       (__bridge id)kSecPrivateKeyAttrs: @{(__bridge id)kSecAttrIsPermanent: @YES,
                                                                          (__bridge id)kSecAttrAccessControl: (__bridge id)access}};
          return SecKeyCreateRandomKey((__bridge CFDictionaryRef)attributes, NULL);
      }
      """,
      // No local authentication in the file; nothing named like a secret; a base query from elsewhere.
      """
      NSDictionary *query = @{(__bridge id)kSecAttrAccount: @"refreshToken", (__bridge id)kSecValueData: secret};
      SecItemAdd((__bridge CFDictionaryRef)query, NULL);
      """,
      """
      - (void)save {
          [self.context evaluatePolicy:LAPolicyDeviceOwnerAuthentication localizedReason:@"Unlock" reply:^(BOOL ok, NSError *error) {}];
          NSDictionary *query = @{(__bridge id)kSecAttrAccount: @"theme", (__bridge id)kSecValueData: themeData};
          SecItemAdd((__bridge CFDictionaryRef)query, NULL);
      }
      """,
      """
      - (void)save:(NSData *)secret {
          [self.context evaluatePolicy:LAPolicyDeviceOwnerAuthentication localizedReason:@"Unlock" reply:^(BOOL ok, NSError *error) {}];
          NSMutableDictionary *query = [self baseQueryForAccount:@"vaultPassword"];
          [query setObject:secret forKey:(__bridge id)kSecValueData];
          SecItemAdd((__bridge CFDictionaryRef)query, NULL);
      }
      """,
    ])

  public static func prefilterTokens(options: RuleOptions) -> [String] { ["SecItemAdd", "SecKeyCreateRandomKey"] }

  public static func check(_ context: RuleContext) {
    let objc = context.objc
    let patterns = context.options.strings("sensitiveNamePatterns")
    let gate = objc.policyEvaluations.first?.part
    guard gate != nil || context.options.reportsWeakEvidence else { return }
    for dictionary in objc.keychainDictionaries
    where dictionary.mayStore && dictionary.isFullySeen && !dictionary.mayBeSynchronized(in: objc) {
      guard let origin = dictionary.origin,
        let subject = subject(of: dictionary, patterns: patterns, objc: objc),
        subject.isEvident || context.options.reportsWeakEvidence
      else { continue }
      context.report(
        start: origin.lowerBound, end: origin.upperBound,
        message: ItemWithoutAccessControl.message(
          subject, gate: gate == nil ? nil : "evaluatePolicy:", flag: "kSecAccessControlBiometryCurrentSet"),
        related: gate.map { [($0.start, "local authentication evaluated here")] } ?? [])
    }
  }

  static func subject(
    of dictionary: ObjCKeychainDictionary, patterns: [String], objc: ObjCModel
  ) -> ItemWithoutAccessControl.Subject? {
    guard dictionary.values(forKey: "kSecAttrAccessControl", in: objc).isEmpty,
      dictionary.entries.allSatisfy({ ObjCImplicitAccessibility.keyIsKnown($0.key, objc: objc) })
    else { return nil }
    if dictionary.roles.contains(.keyGeneration) {
      // Judged at the outer dictionary (the one naming the key type), with its private key
      // attributes, which must be in view too.
      guard !dictionary.values(forKey: "kSecAttrKeyType", in: objc).isEmpty else { return nil }
      var parts = [dictionary]
      for value in dictionary.values(forKey: "kSecPrivateKeyAttrs", in: objc) {
        guard let nested = objc.dictionary(heldBy: value), nested.isFullySeen else { return nil }
        parts.append(nested)
      }
      let isPermanent = parts.contains { part in
        part.values(forKey: "kSecAttrIsPermanent", in: objc).contains {
          !ObjCBooleans.trueSpans(in: objc.expand($0)).isEmpty
        }
      }
      guard isPermanent, parts.allSatisfy({ $0.values(forKey: "kSecAttrAccessControl", in: objc).isEmpty }) else {
        return nil
      }
      return ItemWithoutAccessControl.Subject(description: "a private key", isEvident: true)
    }
    guard dictionary.roles.contains(.add), ObjCImplicitAccessibility.storesSecretMaterial(dictionary, objc: objc)
    else { return nil }
    if let reason = ObjCSynchronizableSecret.holdsSecret(dictionary, patterns: patterns, objc: objc) {
      return ItemWithoutAccessControl.Subject(description: reason, isEvident: true)
    }
    return ItemWithoutAccessControl.Subject(description: "data", isEvident: false)
  }
}
