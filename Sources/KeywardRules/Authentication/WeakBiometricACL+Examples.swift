import KeywardCore

/// The flagged and clean examples of `swift.weak_biometric_acl`, which the test suite runs.
extension WeakBiometricACL {
  public static let examples = RuleExamples(
    flagged: [
      // The caller picks user presence through the option it passes: strict only.
      RuleExample(storageOption(marker: "↓"), profile: .strict),
      // Chosen by an option the object was made with, or by the caller's strategy: strict only.
      RuleExample(optionFromInitializer(marker: "↓"), profile: .strict),
      // The same option, written here where the store is made: this code's own choice.
      RuleExample(
        optionFromInitializer(marker: "↓") + "\nlet notes = SecureFile(options: StoreOptions(biometricOnly: false))"),
      RuleExample(strategyTable(marker: "↓"), profile: .strict),
      // A function named for the passcode accepts it by its stated purpose: strict only.
      RuleExample(passcodeKeyVariants(marker: "↓"), profile: .strict),
      RuleExample(accessInQuery(marker: "↓", call: "SecItemAdd(query as CFDictionary, nil)")),
      // A helper's query that one caller only deletes with still reaches the add of another.
      """
      enum TokenStore {
          private static func itemQuery(account: String) -> [CFString: Any] {
              var query: [CFString: Any] = [kSecClass: kSecClassGenericPassword, kSecAttrAccount: account]
              query[kSecAttrAccessControl] = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, ↓.userPresence, nil)
              return query
          }
          static func save(_ token: Data, account: String) -> OSStatus {
              let adding = itemQuery(account: account).merging([kSecValueData: token]) { current, _ in current }
              return SecItemAdd(adding as CFDictionary, nil)
          }
          static func forget(account: String) -> OSStatus {
              let query = itemQuery(account: account)
              return SecItemDelete(query as CFDictionary)
          }
      }
      """,
      // A setting, not the device, picks the passcode: a biometric device still gets `.userPresence`.
      """
      final class Vault {
          var strict = UserDefaults.standard.bool(forKey: "strictUnlock")
          func accessControl() -> SecAccessControl? {
              var flags: SecAccessControlCreateFlags = [.privateKeyUsage]
              if strict { flags.insert(.biometryCurrentSet) } else { flags.insert(↓.userPresence) }
              return SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, nil)
          }
      }
      """,
      // Chosen by the caller, reported at the choice (the use is a related location).
      """
      final class Protector {
          func protect(_ secret: Data, with flags: SecAccessControlCreateFlags) -> SecAccessControl? {
              SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, nil)
          }
      }
      func lock(_ protector: Protector, _ data: Data) { _ = protector.protect(data, with: [↓.biometryAny]) }
      """,
      // A builder: a method copies `self`, changes a property and returns the copy; `build()`
      // hands the property to the type whose method creates the access control.
      """
      struct KeyPolicy {
          var flags: SecAccessControlCreateFlags
          func makeAccess() -> SecAccessControl? {
              SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, nil)
          }
          struct Builder {
              private var flags: SecAccessControlCreateFlags = .biometryCurrentSet
              func acceptingNewFingers() -> Builder {
                  var copy = self
                  copy.flags = ↓.biometryAny
                  return copy
              }
              func build() -> KeyPolicy { KeyPolicy(flags: flags) }
          }
      }
      let policy = KeyPolicy.Builder().acceptingNewFingers().build()
      """,
      // Passed on through a second function of the file.
      """
      func accessControl(_ flags: SecAccessControlCreateFlags) -> SecAccessControl? {
          SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, nil)
      }
      func protectKey(requiring flags: SecAccessControlCreateFlags) { _ = accessControl(flags) }
      func setUp() { protectKey(requiring: ↓.userPresence) }
      """,
      // Given a value on each path before use (definite initialization), by the app's setting.
      """
      enum UnlockMode { case quick, strict }
      func makeAccess() -> SecAccessControl? {
          let flags: SecAccessControlCreateFlags
          switch UserDefaults.standard.bool(forKey: "quickUnlock") ? UnlockMode.quick : .strict {
          case .quick: flags = [.privateKeyUsage, ↓.userPresence]
          case .strict: flags = [.privateKeyUsage, .biometryCurrentSet]
          }
          return SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, nil)
      }
      """,
      // The same switch over the caller's mode: an option this code offers.
      RuleExample(
        """
        enum UnlockMode { case quick, strict }
        func makeAccess(mode: UnlockMode) -> SecAccessControl? {
            let flags: SecAccessControlCreateFlags
            switch mode {
            case .quick: flags = [.privateKeyUsage, ↓.userPresence]
            case .strict: flags = [.privateKeyUsage, .biometryCurrentSet]
            }
            return SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, nil)
        }
        """, profile: .strict),
      // A mapping table's case chosen in this file: reported at the choice.
      RuleExample(protectionTable + "\nlet access = protect(↓.anyFinger)"),
      RuleExample(unlockMethodTable + "\nlet vaultAccess = makeVaultKeyAccess(for: ↓.anyEnrolledFace)"),
      """
      struct KeyPolicy { var accessFlags: SecAccessControlCreateFlags { [↓.biometryAny] } }
      """,

      RuleExample(
        """
        func makeAccess(acceptNewFingers: Bool) -> SecAccessControl? {
            let flags: SecAccessControlCreateFlags = [.privateKeyUsage, acceptNewFingers ? ↓.biometryAny : .biometryCurrentSet]
            return SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, flags, nil)
        }
        """, profile: .strict),
      // Decided here, not by a caller.
      """
      func makeAccess() -> SecAccessControl? {
          let flags: SecAccessControlCreateFlags = [.privateKeyUsage, isSimulator ? ↓.biometryAny : .biometryCurrentSet]
          return SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, flags, nil)
      }
      """,

      """
      let access = SecAccessControlCreateWithFlags(kCFAllocatorDefault, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, ↓.biometryAny, nil)
      """,
      "let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, ↓.userPresence, &error)",
      "let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, ↓.touchIDAny, nil)",
      "let access = SecAccessControlCreateWithFlags(nil, protection, ↓SecAccessControlCreateFlags.biometryAny, nil)",
      "let access = SecAccessControlCreateWithFlags(nil, protection, [↓.biometryAny, .privateKeyUsage], nil)",
      """
      func makeKey() {
          let flags: SecAccessControlCreateFlags = [↓.biometryAny, .privateKeyUsage]
          let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, nil)
      }
      """,
      // The app's own setting picks the weak set, not the function's caller.
      """
      func storedFlags() -> SecAccessControlCreateFlags {
          guard UserDefaults.standard.bool(forKey: "strictUnlock") else { return ↓.userPresence }
          return .biometryCurrentSet
      }
      """,
      // Only one side of the choice falls back to the passcode; the other keeps `.biometryAny` alone.
      """
      func makeKey() -> SecAccessControl? {
          let fallback = UserDefaults.standard.bool(forKey: "passcodeFallback")
          let flags: SecAccessControlCreateFlags = fallback ? [.biometryAny, .or, .devicePasscode] : [↓.biometryAny]
          return SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, flags, nil)
      }
      """,
      """
      final class KeyStore {
          private let flags = ↓SecAccessControlCreateFlags.biometryAny
          func access() -> SecAccessControl? {
              SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, nil)
          }
      }
      """,
      """
      enum Policy {
          static let keyFlags: SecAccessControlCreateFlags = [.privateKeyUsage, ↓.biometryAny]
      }
      func create() {
          _ = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, Policy.keyFlags, nil)
      }
      """,
      """
      func create() {
          var flags: SecAccessControlCreateFlags = [.privateKeyUsage]
          flags.insert(↓.biometryAny)
          _ = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, nil)
      }
      """,
      """
      func create() {
          var flags = SecAccessControlCreateFlags.privateKeyUsage
          flags.formUnion(↓.touchIDAny)
          _ = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags.union(↓.userPresence), nil)
      }
      """,
      "let access = SecAccessControlCreateWithFlags(nil, protection, SecAccessControlCreateFlags(rawValue: ↓2), nil)",
      "let access = SecAccessControlCreateWithFlags(nil, protection, SecAccessControlCreateFlags(rawValue: ↓1 << 1), nil)",
      """
      let biometricBits: UInt = ↓0x2
      let access = SecAccessControlCreateWithFlags(nil, protection, SecAccessControlCreateFlags(rawValue: biometricBits), nil)
      """,
      "let access = SecAccessControlCreateWithFlags(nil, protection, strict ? .biometryCurrentSet : ↓.biometryAny, nil)",
      "let flags: SecAccessControlCreateFlags = [↓.biometryAny]",
      """
      import KeychainAccess
      let keychain = Keychain(service: "s").accessibility(.whenPasscodeSetThisDeviceOnly, authenticationPolicy: [↓.biometryAny])
      """,
      """
      import KeychainAccess
      let keychain = Keychain(service: "s").accessibility(.whenPasscodeSetThisDeviceOnly, authenticationPolicy: ↓.userPresence)
      """,
      """
      import Valet
      let valet = SecureEnclaveValet.valet(with: Identifier(nonEmpty: "vault")!, accessControl: ↓.biometricAny)
      """,
      """
      let store = UICKeyChainStore(service: "s")
      store.setAccessibility(.whenPasscodeSetThisDeviceOnly, authenticationPolicy: ↓.touchIDAny)
      """,
      """
      import EllipticCurveKeyPair
      let signingKey = EllipticCurveKeyPair.AccessControl(
          protection: kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags: [↓.userPresence, .privateKeyUsage])
      """,
      RuleExample(
        "let access = SecAccessControlCreateWithFlags(nil, protection, ↓.devicePasscode, nil)",
        options: ["weakBiometricFlags": .strings(["devicePasscode"])]),
      // A table's case chosen by a caller, through a parameter the function renames as it unwraps it.
      RuleExample(
        rawValueTable("KeyProtection") + """
          final class KeyStore {
              func add(_ key: Data, protection: KeyProtection? = nil) {
                  var query: [String: Any] = [kSecClass as String: kSecClassKey, kSecValueData as String: key]
                  if let protection = protection {
                      query[kSecAttrAccessControl as String] = SecAccessControlCreateWithFlags(
                          nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, protection.rawValue, nil)
                  }
                  SecItemAdd(query as CFDictionary, nil)
              }
          }
          func registerFactor(_ store: KeyStore, key: Data) { store.add(key, protection: ↓.userPresence) }
          """),
    ],
    clean: [
      // A search ignores the access control it is given: these flags protect nothing.
      RuleExample(accessInQuery(marker: "", call: "SecItemCopyMatching(query as CFDictionary, &found)")),
      RuleExample(storageOption(marker: "")),
      RuleExample(optionFromInitializer(marker: "")),
      RuleExample(strategyTable(marker: "")),
      RuleExample(passcodeKeyVariants(marker: "")),
      // Without biometrics the passcode is all the device can ask for.
      """
      static func accessControl(_ context: LAContext) throws -> SecAccessControl? {
          let biometricsWork = try canUseBiometrics(context)
          var flags: SecAccessControlCreateFlags = [.privateKeyUsage]
          if biometricsWork { flags.insert(.biometryCurrentSet) } else { flags.insert(.userPresence) }
          return SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, nil)
      }
      static func canUseBiometrics(_ context: LAContext) throws -> Bool {
          var error: NSError?
          let usable = context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error)
          if let error { throw error }
          return usable
      }
      """,
      // Access controls made only to recognise an existing key's by comparison protect nothing.
      """
      func policy(for existing: SecAccessControl) -> LAPolicy {
          if let template = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .biometryAny, nil),
              CFEqual(existing, template) { return .deviceOwnerAuthenticationWithBiometrics }
          let fallback = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .userPresence, nil)
          return CFEqual(fallback, existing) ? .deviceOwnerAuthentication : .deviceOwnerAuthenticationWithBiometrics
      }
      """,
      // The app's own password is required as well: neither the passcode nor a new finger opens it.
      "let access = SecAccessControlCreateWithFlags(nil, protection, [.privateKeyUsage, .userPresence, .applicationPassword], nil)",
      RuleExample(
        """
        final class SecretBox {
            let flags: SecAccessControlCreateFlags
            init(strict: Bool) {
                if strict { flags = [.privateKeyUsage, .userPresence, .applicationPassword] } else { flags = [.privateKeyUsage, .biometryCurrentSet] }
            }
            func access() -> SecAccessControl? { SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, nil) }
        }
        """, profile: .strict),
      // A library's mapping table: its users choose the case, elsewhere.
      RuleExample(protectionTable),
      RuleExample(unlockMethodTable),
      RuleExample(unlockMethodTable + "\nlet vaultAccess = makeVaultKeyAccess(for: .enrolledFaces)"),
      RuleExample(
        rawValueTable("AccessConstraint") + """
          public enum Accessibility: RawRepresentable {
              public typealias RawValue = CFString
              case whenUnlocked
              public init?(rawValue: RawValue) { nil }
              public var rawValue: RawValue { kSecAttrAccessibleWhenUnlockedThisDeviceOnly }
          }
          """),
      RuleExample(protectionTable + "\nlet access = protect(.currentFingers)"),
      // A weak default that every caller overrides.
      """
      private func protect(_ secret: Data, with flags: SecAccessControlCreateFlags = .biometryAny) -> SecAccessControl? {
          SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, nil)
      }
      func lock(_ data: Data) { _ = protect(data, with: .biometryCurrentSet) }
      """,
      // The same shapes carrying strong values.
      """
      struct KeyPolicy {
          var flags: SecAccessControlCreateFlags
          func makeAccess() -> SecAccessControl? {
              SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, nil)
          }
          struct Builder {
              private var flags: SecAccessControlCreateFlags = .biometryCurrentSet
              private var label = ""
              func requiringEnclave() -> Builder {
                  var copy = self
                  copy.flags = [.biometryCurrentSet, .privateKeyUsage]
                  return copy
              }
              func build() -> KeyPolicy { KeyPolicy(flags: flags) }
          }
      }
      let policy = KeyPolicy.Builder().requiringEnclave().build()
      """,
      """
      final class Protector {
          func protect(_ secret: Data, with flags: SecAccessControlCreateFlags) -> SecAccessControl? {
              SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, nil)
          }
      }
      func lock(_ protector: Protector, _ data: Data) { _ = protector.protect(data, with: [.biometryCurrentSet]) }
      """,
      // A weak flag passed where it never becomes an access control's flags.
      """
      func describe(_ flags: SecAccessControlCreateFlags) -> String { String(describing: flags) }
      let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .biometryCurrentSet, nil)
      let text = describe(.biometryAny)
      """,
      // A table of constraint types: the caller picks the type.
      """
      protocol FlagsProviding { var accessFlags: SecAccessControlCreateFlags { get } }
      struct AnyFinger: FlagsProviding { var accessFlags: SecAccessControlCreateFlags { [.biometryAny] } }
      struct EnrolledFingers: FlagsProviding { var accessFlags: SecAccessControlCreateFlags { [.biometryCurrentSet] } }
      """,

      // The caller picks the option; this code offers it (reported under strict).
      """
      func makeAccess(acceptNewFingers: Bool) -> SecAccessControl? {
          let flags: SecAccessControlCreateFlags = [.privateKeyUsage, acceptNewFingers ? .biometryAny : .biometryCurrentSet]
          return SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, flags, nil)
      }
      """,

      // A weak set returned only when the caller's own flags already mean the same: the caller chose it.
      """
      func normalized(_ requested: SecAccessControlCreateFlags) -> SecAccessControlCreateFlags {
          let presenceEquivalent: SecAccessControlCreateFlags = [.devicePasscode, .or, .biometryAny]
          guard requested == presenceEquivalent else { return requested }
          return .userPresence
      }
      """,

      // A pattern the code compares flags with, never passes on.
      """
      func isLegacyPresence(_ flags: SecAccessControlCreateFlags) -> Bool {
          let legacyPresence: SecAccessControlCreateFlags = [.or, .devicePasscode, .biometryAny]
          return flags.contains(legacyPresence) && flags == legacyPresence
      }
      """,

      // The passcode alone opens the item, so a newly enrolled finger adds nothing (the
      // passcode fallback rule reports the `.or, .devicePasscode`), in the device build and the
      // simulator's.
      """
      func makeKey() -> SecAccessControl? {
          let enrolled = LAContext().canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: nil)
      #if targetEnvironment(simulator)
          let flags: SecAccessControlCreateFlags = [.biometryAny, .or, .devicePasscode]
      #else
          let flags: SecAccessControlCreateFlags = enrolled ? [.biometryAny, .or, .devicePasscode, .privateKeyUsage] : [.devicePasscode, .privateKeyUsage]
      #endif
          return SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, flags, nil)
      }
      """,
      "let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .biometryCurrentSet, nil)",
      "let access = SecAccessControlCreateWithFlags(nil, protection, [.biometryCurrentSet, .privateKeyUsage], nil)",
      "let access = SecAccessControlCreateWithFlags(nil, protection, .touchIDCurrentSet, nil)",
      "let access = SecAccessControlCreateWithFlags(nil, protection, SecAccessControlCreateFlags(rawValue: 8), nil)",
      // Bit 5 is the companion flag, not `.userPresence` (bit 0).
      "let access = SecAccessControlCreateWithFlags(nil, protection, SecAccessControlCreateFlags(rawValue: 1 << 5), nil)",
      """
      // .biometryAny would let new fingerprints in, so we use the current set.
      let access = SecAccessControlCreateWithFlags(nil, protection, .biometryCurrentSet, nil)
      """,
      #"let note = "SecAccessControlCreateWithFlags(nil, p, .biometryAny, nil) is weak""#,
      """
      enum Unlock { case biometryAny, userPresence }
      let mode: Unlock = .biometryAny
      let access = SecAccessControlCreateWithFlags(nil, protection, .biometryCurrentSet, nil)
      """,
      """
      if context.biometryType == .touchID || context.biometryType == .faceID {
          let access = SecAccessControlCreateWithFlags(nil, protection, .biometryCurrentSet, nil)
      }
      """,
      """
      func create(requireBiometric: Bool) {
          var accessFlags: SecAccessControlCreateFlags = [.privateKeyUsage]
          if requireBiometric { accessFlags.insert(.biometryCurrentSet) }
          _ = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, accessFlags, nil)
      }
      """,
      """
      import Valet
      let valet = SecureEnclaveValet.valet(with: Identifier(nonEmpty: "vault")!, accessControl: .biometricCurrentSet)
      """,
      """
      import EllipticCurveKeyPair
      let signingKey = EllipticCurveKeyPair.AccessControl(
          protection: kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags: [.biometryCurrentSet, .privateKeyUsage])
      """,
      """
      import EllipticCurveKeyPair
      let publicAccessControl = EllipticCurveKeyPair.AccessControl(
          protection: kSecAttrAccessibleAlwaysThisDeviceOnly, flags: [.userPresence])
      """,
      "let publicKeyAccess = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .userPresence, nil)",
      """
      struct Lock { func configure(authenticationPolicy: Mode) {} }
      Lock().configure(authenticationPolicy: .biometryAny)
      """,
      RuleExample(
        "let access = SecAccessControlCreateWithFlags(nil, protection, .userPresence, nil)",
        options: ["weakBiometricFlags": .strings(["biometryAny", "touchIDAny"])]),
    ])
}
