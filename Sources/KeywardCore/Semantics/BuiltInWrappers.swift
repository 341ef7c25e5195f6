/// The keychain wrapper libraries Keyward knows, from their public APIs (RULES.md, phase 3).
extension WrapperMapping {
  /// `kSecAttrAccessible...` constants by the case names most wrappers use.
  static func accessibilityCases(prefix: String = "") -> [String: String] {
    let cases = [
      "whenUnlocked": "kSecAttrAccessibleWhenUnlocked",
      "afterFirstUnlock": "kSecAttrAccessibleAfterFirstUnlock",
      "always": "kSecAttrAccessibleAlways",
      "whenPasscodeSetThisDeviceOnly": "kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly",
      "whenUnlockedThisDeviceOnly": "kSecAttrAccessibleWhenUnlockedThisDeviceOnly",
      "afterFirstUnlockThisDeviceOnly": "kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly",
      "alwaysThisDeviceOnly": "kSecAttrAccessibleAlwaysThisDeviceOnly",
    ]
    guard !prefix.isEmpty else { return cases }
    return Dictionary(
      uniqueKeysWithValues: cases.map { (prefix + $0.key.prefix(1).uppercased() + $0.key.dropFirst(), $0.value) })
  }

  /// `SecAccessControlCreateFlags` members by themselves (for wrappers that mirror the option set).
  static let flagCases: [String: String] = Dictionary(uniqueKeysWithValues: AccessControlFlag.names.map { ($0, $0) })

  public static let builtIn: [WrapperMapping] = [
    WrapperMapping(
      library: "KeychainAccess", modules: ["KeychainAccess"], types: [],
      accessibility: WrapperSite(methods: ["accessibility"], values: accessibilityCases()),
      authenticationPolicy: WrapperSite(argumentLabels: ["authenticationPolicy"], values: flagCases),
      synchronizable: WrapperSite(methods: ["synchronizable"]),
      authenticationContext: WrapperSite(methods: ["authenticationContext"]),
      // Its `Keychain` keeps items `.afterFirstUnlock` unless told otherwise.
      storeMaker: "Keychain", defaultAccessibility: "kSecAttrAccessibleAfterFirstUnlock", writeMethods: ["set"],
      namingAccessibility: "`.accessibility(.afterFirstUnlockThisDeviceOnly)`"),
    // Auth0's: settings are its initializer's arguments; items are `.afterFirstUnlock` by default.
    WrapperMapping(
      library: "SimpleKeychain", modules: ["SimpleKeychain"], types: ["SimpleKeychain"],
      accessibility: WrapperSite(argumentLabels: ["accessibility"], values: accessibilityCases()),
      authenticationPolicy: WrapperSite(argumentLabels: ["accessControlFlags"], values: flagCases),
      synchronizable: WrapperSite(argumentLabels: ["synchronizable"]),
      storeMaker: "SimpleKeychain", defaultAccessibility: "kSecAttrAccessibleAfterFirstUnlock", writeMethods: ["set"],
      namingAccessibility: "`SimpleKeychain(accessibility: .afterFirstUnlockThisDeviceOnly)`"),
    WrapperMapping(
      library: "SwiftKeychainWrapper", modules: ["SwiftKeychainWrapper"], types: ["KeychainWrapper"],
      accessibility: WrapperSite(argumentLabels: ["withAccessibility"], values: accessibilityCases()),
      synchronizable: WrapperSite(argumentLabels: ["isSynchronizable"]),
      // A write without `withAccessibility:` (and every subscript write) keeps `.whenUnlocked`.
      storeMaker: "KeychainWrapper", defaultAccessibility: "kSecAttrAccessibleWhenUnlocked", writeMethods: ["set"],
      namingAccessibility: "`set(_:forKey:withAccessibility: .whenUnlockedThisDeviceOnly)`"),
    WrapperMapping(
      library: "KeychainSwift", modules: ["KeychainSwift"], types: ["KeychainSwift"],
      accessibility: WrapperSite(argumentLabels: ["withAccess"], values: accessibilityCases(prefix: "accessible")),
      synchronizable: WrapperSite(properties: ["synchronizable"]),
      // A write that names no `withAccess:` leaves the item to the keychain's default.
      storeMaker: "KeychainSwift", defaultAccessibility: "kSecAttrAccessibleWhenUnlocked", writeMethods: ["set"],
      namingAccessibility: "`set(_:forKey:withAccess: .accessibleWhenUnlockedThisDeviceOnly)`"),
    WrapperMapping(
      library: "Valet", modules: ["Valet"], types: ["Valet", "SecureEnclaveValet", "SinglePromptSecureEnclaveValet"],
      accessibility: WrapperSite(argumentLabels: ["accessibility"], values: accessibilityCases()),
      authenticationPolicy: WrapperSite(
        argumentLabels: ["accessControl"],
        values: [
          "userPresence": "userPresence", "biometricAny": "biometryAny", "biometricCurrentSet": "biometryCurrentSet",
          "devicePasscode": "devicePasscode",
        ]),
      synchronizable: WrapperSite(impliedByCalls: ["iCloudValet", "iCloudSharedGroupValet"])),
    // A Secure Enclave key-pair helper: `EllipticCurveKeyPair.AccessControl(protection:flags:)` is
    // the access control its keys are created with.
    WrapperMapping(
      library: "EllipticCurveKeyPair", modules: ["EllipticCurveKeyPair"], types: ["EllipticCurveKeyPair"],
      authenticationPolicy: WrapperSite(argumentLabels: ["flags"], values: flagCases)),
    WrapperMapping(
      library: "Locksmith", modules: ["Locksmith"], types: ["Locksmith", "LocksmithAccessibleOption"],
      accessibility: WrapperSite(properties: ["accessible"], values: accessibilityCases())),
    WrapperMapping(
      library: "UICKeyChainStore", modules: ["UICKeyChainStore"], types: ["UICKeyChainStore"],
      accessibility: WrapperSite(
        methods: ["setAccessibility"], properties: ["accessibility"],
        values: accessibilityCases().merging(accessibilityCases(prefix: "UICKeyChainStoreAccessibility")) { $1 }),
      authenticationPolicy: WrapperSite(
        argumentLabels: ["authenticationPolicy"],
        values: [
          "userPresence": "userPresence", "touchIDAny": "touchIDAny", "touchIDCurrentSet": "touchIDCurrentSet",
          "devicePasscode": "devicePasscode", "controlOr": "or", "controlAnd": "and",
          "privateKeyUsage": "privateKeyUsage",
          "applicationPassword": "applicationPassword",
        ]),
      synchronizable: WrapperSite(properties: ["synchronizable"]),
      // Its stores keep items `AfterFirstUnlock` unless `accessibility` is set.
      storeMaker: "UICKeyChainStore", defaultAccessibility: "kSecAttrAccessibleAfterFirstUnlock",
      writeMethods: ["setString", "setData"],
      namingAccessibility: "`store.accessibility = .afterFirstUnlockThisDeviceOnly`"),
  ]
}
