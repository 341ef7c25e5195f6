import KeywardCore
import SwiftSyntax

/// Flags access controls that accept biometrics enrolled after the item was protected.
public struct WeakBiometricACL: Rule {
  public static let metadata = RuleMetadata(
    id: "swift.weak_biometric_acl",
    title: "Weak biometric access control flags",
    severity: .high, confidence: .high, resource: "Authentication",
    tags: [
      "CWE:287", "CWE:305", "MASVS:auth-8", "MASWE:0014", "NIST.SP.800-53", "OWASP:2021:A07", "PCI-DSS:8.2.1",
      "MASVS-AUTH-2", "MASTG-TEST-0270",
    ],
    description: """
      A keychain item or key protected with `SecAccessControlCreateWithFlags` is only as strong as \
      the flags it is given. `.biometryAny` (and its deprecated alias `.touchIDAny`) accepts any \
      biometric enrolled on the device, including a finger or face added after the item was \
      stored; `.userPresence` also accepts the device passcode. Flags are followed back through \
      constants, properties, arrays, `insert`/`union` and `rawValue:` integers to where they are \
      written. `.biometryAny` beside \
      `.or, .devicePasscode` is left to the passcode fallback rule: enrolling a finger takes the \
      passcode, which opens such an item alone; a set also requiring \
      `.applicationPassword` (no `.or`) is not weak, nor is `.userPresence` where a biometric \
      `canEvaluatePolicy` check failed. Authentication \
      policies given to keychain wrappers (KeychainAccess's `authenticationPolicy:`, Valet's \
      `SecureEnclaveAccessControl`, UICKeyChainStore's `authenticationPolicy:`, \
      EllipticCurveKeyPair's `AccessControl(flags:)`, `wrapperMappings`) are read the same way.
      """,
    rationale: """
      Someone who learns the passcode or holds the unlocked device for a minute can enroll their \
      own fingerprint or face. With `.biometryAny` the protected item stays valid, so from then on \
      their biometric unlocks it; nothing tells the app that enrollment changed. `.userPresence` \
      additionally lets a shoulder-surfed passcode stand in for biometrics.
      """,
    vulnerableExample: """
      guard let access = SecAccessControlCreateWithFlags(
          kCFAllocatorDefault,
          kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
          .biometryAny,   // any enrolled biometric, including ones added later
          nil
      ) else { throw KeychainError.accessControlCreationFailed }
      """,
    remediation: """
      Use `.biometryCurrentSet`: the item is invalidated when biometrics are added or removed, and \
      the app falls back to its full login to re-create it. Combine it with `.privateKeyUsage` for \
      Secure Enclave keys. Keep `.userPresence` (or `.or, .devicePasscode`) for items where a \
      passcode fallback is an accepted risk, and list only the flags your policy rejects in \
      `weakBiometricFlags`.
      """,
    fixedExample: """
      guard let access = SecAccessControlCreateWithFlags(
          kCFAllocatorDefault,
          kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
          [.biometryCurrentSet, .privateKeyUsage],
          nil
      ) else { throw KeychainError.accessControlCreationFailed }
      """,
    references: [
      Reference("CWE-287: Improper Authentication", url: "https://cwe.mitre.org/data/definitions/287.html"),
      Reference(
        "CWE-305: Authentication Bypass by Primary Weakness", url: "https://cwe.mitre.org/data/definitions/305.html"),
      Reference(
        "OWASP Top 10 2021 A07: Identification and Authentication Failures",
        url: "https://owasp.org/Top10/A07_2021-Identification_and_Authentication_Failures/"),
      Reference(
        "Apple: Accessing Keychain Items with Face ID or Touch ID",
        url:
          "https://developer.apple.com/documentation/localauthentication/accessing-keychain-items-with-face-id-or-touch-id"
      ),
      Reference(
        "Apple: SecAccessControlCreateFlags",
        url: "https://developer.apple.com/documentation/security/secaccesscontrolcreateflags"),
      Reference("OWASP MASTG-TEST-0270: References to APIs Detecting Biometric Enrollment Changes"),
      Reference("MASWE-0014 (beta numbering): Cryptographic Keys Not Properly Protected at Rest"),
    ])

  public static let options = [
    OptionSpec(
      key: "weakBiometricFlags", summary: "SecAccessControlCreateFlags members to report.",
      defaultValue: .strings(["biometryAny", "touchIDAny", "userPresence"]), allowedValues: AccessControlFlag.names)
  ]

  public static let examples = RuleExamples(
    flagged: [
      // The caller picks user presence through the option it passes: strict only.
      RuleExample(storageOption(marker: "↓"), profile: .strict),
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
      RuleExample(storageOption(marker: "")),
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

  public static let readsWrapperSettings = true

  public static func prefilterTokens(options: RuleOptions) -> [String] {
    ["SecAccessControl"] + options.strings("weakBiometricFlags")
  }

  /// An enum mapping protections to flags, offering `.biometryAny`, and a function using it.
  /// An enum whose `rawValue` (an alias of the flags type) maps each case to the flag of its name.
  static func rawValueTable(_ name: String) -> String {
    """
    public enum \(name): RawRepresentable {
        public typealias RawValue = SecAccessControlCreateFlags
        case userPresence, biometryCurrentSet
        public init?(rawValue: RawValue) { nil }
        public var rawValue: RawValue {
            switch self {
            case .userPresence: return SecAccessControlCreateFlags.userPresence
            case .biometryCurrentSet: return SecAccessControlCreateFlags.biometryCurrentSet
            }
        }
    }

    """
  }

  static let protectionTable = """
    public enum Protection {
        case anyFinger, currentFingers
        var flags: SecAccessControlCreateFlags {
            switch self {
            case .anyFinger: return SecAccessControlCreateFlags.biometryAny
            case .currentFingers: return .biometryCurrentSet
            }
        }
    }
    public func protect(_ protection: Protection) -> SecAccessControl? {
        SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, protection.flags, nil)
    }
    """

  public static let valueSinks: [ValueSink] = [.accessControlFlags]

  public static func check(_ context: RuleContext) {
    let weak = Set(context.options.strings("weakBiometricFlags"))
    let model = context.model
    let sinkArguments = Set(
      model.accessControlCreations.compactMap { SyntaxFacts.argument($0, at: 2)?.id })
    // The flags of an access control made for a public key guard no secret; those of one made
    // only to be compared with another protect no item.
    let protectingNothing = Set(
      model.accessControlCreations.filter(SensitiveNames.namesPublicKeyProtection).compactMap {
        SyntaxFacts.argument($0, at: 2)?.id
      }
    ).union(model.flagsOfComparisonTemplates)
    var weakByNode: [SyntaxIdentifier: (node: ExprSyntax, origins: [FlagOrigin], sink: ExprSyntax)] = [:]
    var order: [SyntaxIdentifier] = []
    for root in model.accessControl.allFlagExpressions where !protectingNothing.contains(root.id) {
      let origins = model.accessControl.origins(of: root)
      let sets = AccessControlEvaluator.flagSets(origins)
      // Flags only compared with (`flags == [.userPresence]`) protect no item.
      for origin in origins
      where isWeak(origin.flag, fromRawValue: origin.fromRawValue, weak) && !model.isOnlyLookedFor(origin.node)
        && (!origin.chosenByCaller || context.options.reportsWeakEvidence) && !enrollmentIsMoot(origin, in: sets)
        && !alsoNeedsApplicationPassword(origin, in: sets) && !isOnlyChoiceWithoutBiometrics(origin, model: model)
      {
        let id = origin.reportedNode.id
        if weakByNode[id] == nil {
          order.append(id)
          weakByNode[id] = (origin.reportedNode, [], root)
        }
        if !weakByNode[id]!.origins.contains(where: { $0.flag == origin.flag }) {
          weakByNode[id]!.origins.append(origin)
        }
      }
    }
    for id in order {
      let (node, origins, sink) = weakByNode[id]!
      let conditional = origins.allSatisfy(\.isConditional)
      var related: [(offset: Int, note: String)] = []
      if let mapped = origins.first(where: { $0.choice != nil })?.node {
        related.append((context.offset(of: mapped), "mapped to `.\(origins[0].flag.name)` here"))
      }
      if origins.contains(where: \.reachedThroughName), sinkArguments.contains(sink.id) {
        related.append(
          (sink.positionAfterSkippingLeadingTrivia.utf8Offset, "reaches SecAccessControlCreateWithFlags here"))
      }
      context.report(
        node, message: message(for: origins, node: node, conditional: conditional),
        confidence: conditional ? .medium : nil, fix: fix(for: origins, node: node, context: context), related: related)
    }
    for value in model.wrapperValues(.authenticationPolicy) {
      guard let flag = AccessControlFlag.named(value.meaning), weak.contains(flag.name),
        !(value.call.map(SensitiveNames.namesPublicKeyProtection) ?? false)
      else { continue }
      let origin = FlagOrigin(
        flag: flag, node: value.expression, isConditional: value.isConditional, fromRawValue: false,
        reachedThroughName: false)
      context.report(
        value.expression,
        message: "\(value.library): "
          + message(for: [origin], node: value.expression, conditional: value.isConditional),
        confidence: value.isConditional ? .medium : nil)
    }
    // A weak flag passed to a function whose parameter reaches an access control.
    let passed = weak.sorted().flatMap { model.index.memberAccessesByName[$0] ?? [] }.map(ExprSyntax.init)
    context.reportPassed(passed, to: .accessControlFlags) { atom, call in
      guard let flag = AccessControlFlag.named(atom.as(MemberAccessExprSyntax.self)?.declName.baseName.text ?? ""),
        !AccessControlEvaluator.writtenBesideApplicationPassword(atom)
      else { return nil }
      let origins = [
        FlagOrigin(flag: flag, node: atom, isConditional: false, fromRawValue: false, reachedThroughName: true)
      ]
      return (
        message(for: origins, node: atom, conditional: false)
          + " (\(call.destination), which makes it the flags of an access control.)",
        fix(for: origins, node: atom, context: context)
      )
    }
  }

  /// Whether every set holding `.biometryAny` also has `.or, .devicePasscode`: enrolling a finger
  /// takes the passcode, and the passcode alone already opens the item, so the enrollment
  /// weakness adds nothing (the passcode fallback rule reports the set).
  static func enrollmentIsMoot(_ origin: FlagOrigin, in sets: [[FlagOrigin]]) -> Bool {
    guard AccessControlFlag.sameBit(as: "biometryAny").contains(origin.flag.name) else { return false }
    let holding = sets.filter { set in set.contains { $0.node.id == origin.node.id && $0.flag == origin.flag } }
    return !holding.isEmpty
      && holding.allSatisfy { AccessControlEvaluator.acceptsPasscodeInstead(Set($0.map(\.flag.name))) }
  }

  /// Whether every set holding the flag also requires the app's own password (`.applicationPassword`
  /// without `.or`): neither the passcode nor a newly enrolled finger opens the item alone.
  static func alsoNeedsApplicationPassword(_ origin: FlagOrigin, in sets: [[FlagOrigin]]) -> Bool {
    if AccessControlEvaluator.writtenBesideApplicationPassword(origin.node) { return true }
    let holding = sets.filter { set in set.contains { $0.node.id == origin.node.id && $0.flag == origin.flag } }
    return !holding.isEmpty
      && holding.allSatisfy { AccessControlEvaluator.requiresApplicationPassword(Set($0.map(\.flag.name))) }
  }

  /// Whether a flag is on the weak list; a raw value decodes to current names, so a list naming
  /// a deprecated alias (`touchIDAny`) still matches its bit.
  /// `.userPresence` chosen where a biometric check failed: the passcode is all such a device
  /// can ask for, so no biometric flag could take its place.
  private static func isOnlyChoiceWithoutBiometrics(_ origin: FlagOrigin, model: SemanticModel) -> Bool {
    origin.flag.name == "userPresence" && model.isWhereBiometricsAreUnavailable(origin.node)
  }

  /// A library whose storage option carries the caller's wish for user presence.
  static func storageOption(marker: String) -> String {
    """
    func accessControl(for storage: StorageOption) -> SecAccessControl? {
        var flags = SecAccessControlCreateFlags()
        switch storage {
        case .keychain(let requireUserPresence):
            if requireUserPresence { flags.insert(\(marker).userPresence) }
        case .plain:
            return nil
        }
        return SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, nil)
    }
    """
  }

  static func isWeak(_ flag: AccessControlFlag, fromRawValue: Bool, _ weak: Set<String>) -> Bool {
    fromRawValue ? !AccessControlFlag.sameBit(as: flag.name).isDisjoint(with: weak) : weak.contains(flag.name)
  }

  static func message(for origins: [FlagOrigin], node: ExprSyntax, conditional: Bool) -> String {
    let names = origins.map(\.flag.name)
    var text: String
    if origins.first?.fromRawValue == true {
      let listed = names.map { "`.\($0)`" }.joined(separator: " and ")
      text = "`rawValue: \(SyntaxFacts.text(node))` includes \(listed). `.\(names[0])` " + consequence(of: names[0])
    } else {
      let alias = names[0] == "touchIDAny" ? " (a deprecated alias of `.biometryAny`)" : ""
      // A mapping table's case is reported where it is chosen; the message names the flag.
      let isMapped = origins.first?.choice != nil && SyntaxFacts.text(node) != ".\(names[0])"
      let subject =
        isMapped ? "`\(SyntaxFacts.text(node))` is mapped to `.\(names[0])`, which" : "`.\(names[0])`\(alias)"
      text = subject + " " + consequence(of: names[0])
    }
    if conditional { text += " (The weak flag is chosen on at least one path.)" }
    return text
  }

  /// What a weak flag lets an attacker do, and what to use instead.
  static func consequence(of flag: String) -> String {
    switch flag {
    case "biometryAny", "touchIDAny":
      "keeps the item unlockable after a new fingerprint or face is enrolled, so anyone who can add their own biometrics to the device gets in. Use `.biometryCurrentSet`, which invalidates the item when enrollment changes."
    case "userPresence":
      "accepts any enrolled biometric or the device passcode, so a newly enrolled face or a shoulder-surfed passcode unlocks the item. Use `.biometryCurrentSet` for sensitive items; keep a passcode fallback only where that risk is accepted."
    default:
      "is listed as weak in this project's `weakBiometricFlags`. Use `.biometryCurrentSet`, which invalidates the item when enrollment changes."
    }
  }

  static func fix(for origins: [FlagOrigin], node: ExprSyntax, context: RuleContext) -> Fix? {
    guard origins.count == 1, let origin = origins.first, !origin.fromRawValue, origin.choice == nil,
      let member = node.as(MemberAccessExprSyntax.self)
    else { return nil }
    let name = origin.flag.name
    return Fix(
      description: "Replace `.\(name)` with `.biometryCurrentSet`",
      safe: name == "biometryAny" || name == "touchIDAny", changesBehavior: true,
      edits: [context.replacement(of: member.declName, with: "biometryCurrentSet")])
  }
}
