/// The shapes `swift.weak_biometric_acl`'s examples are built from, each flagged or clean by its
/// marker.
extension WeakBiometricACL {
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

  /// An enum mapping protections to flags, offering `.biometryAny`, and a function using it.
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

  /// The same table written as a method of the enum (`unlock.accessFlags()`).
  static let unlockMethodTable = """
    enum UnlockMethod {
        case appPassword, anyEnrolledFace, enrolledFaces
        func accessFlags() -> SecAccessControlCreateFlags {
            switch(self) {
            case .appPassword: return .applicationPassword
            case .anyEnrolledFace: return .biometryAny
            case .enrolledFaces: return .biometryCurrentSet
            }
        }
    }
    func makeVaultKeyAccess(for unlock: UnlockMethod) -> SecAccessControl? {
        SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, [.privateKeyUsage, unlock.accessFlags()], nil)
    }
    """

  /// Key helpers with a biometric variant and one named for the passcode.
  static func passcodeKeyVariants(marker: String) -> String {
    """
    enum EnclaveKeys {
        static func makeBiometricKey() throws -> SecKey? {
            try makeKey(flags: [.privateKeyUsage, .biometryCurrentSet])
        }
        static func makePasscodeKey() throws -> SecKey? {
            try makeKey(flags: [.privateKeyUsage, \(marker).userPresence])
        }
        private static func makeKey(flags: SecAccessControlCreateFlags) throws -> SecKey? {
            let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, flags, nil)!
            let attributes: [String: Any] = [
                kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
                kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
                kSecPrivateKeyAttrs as String: [kSecAttrIsPermanent as String: true, kSecAttrAccessControl as String: access],
            ]
            return SecKeyCreateRandomKey(attributes as CFDictionary, nil)
        }
    }
    """
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

  /// A store whose flags follow an option it was made with.
  static func optionFromInitializer(marker: String) -> String {
    """
    struct StoreOptions { var biometricOnly: Bool }
    final class SecureFile {
        private let options: StoreOptions
        init(options: StoreOptions) { self.options = options }
        func accessControl() -> SecAccessControl? {
            let flags: SecAccessControlCreateFlags
            if options.biometricOnly { flags = .biometryCurrentSet } else { flags = \(marker).userPresence }
            return SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, flags, nil)
        }
    }
    """
  }

  /// A strategy the caller passes, mapped to an access control in each case.
  static func strategyTable(marker: String) -> String {
    """
    enum Strategy { case presence, biometrics }
    func protect(_ query: inout [String: Any], strategy: Strategy) {
        switch strategy {
        case .presence:
            query[kSecAttrAccessControl as String] = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, \(marker).userPresence, nil)
        case .biometrics:
            query[kSecAttrAccessControl as String] = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, .biometryCurrentSet, nil)
        }
    }
    """
  }

  /// An access control kept in a local and put into a query given to `call`.
  static func accessInQuery(marker: String, call: String) -> String {
    """
    func lookUpToken(account: String) -> OSStatus {
        let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, \(marker).userPresence, nil)
        var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account]
        query[kSecAttrAccessControl as String] = access as Any
        var found: CFTypeRef?
        return \(call)
    }
    """
  }
}
