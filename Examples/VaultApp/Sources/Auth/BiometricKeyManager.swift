import Foundation
import LocalAuthentication
import Security

/// Secure Enclave keys that sign payment approvals and unlock the vault.
final class BiometricKeyManager {
    private let paymentTag = "com.example.vault.payment".data(using: .utf8)!
    private let vaultTag = "com.example.vault.unlock".data(using: .utf8)!

    /// Kept as a property so every key uses the same policy.
    private let paymentKeyFlags: SecAccessControlCreateFlags = [.privateKeyUsage, .biometryAny]

    func createPaymentKey() throws -> SecKey {
        var error: Unmanaged<CFError>?
        guard let access = SecAccessControlCreateWithFlags(
            kCFAllocatorDefault,
            kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
            paymentKeyFlags,
            &error
        ) else {
            throw KeychainError.accessControlCreationFailed
        }
        return try makeKey(tag: paymentTag, access: access)
    }

    /// The recommended shape: only the biometrics enrolled today, and only on this device.
    func createVaultKey() throws -> SecKey {
        var error: Unmanaged<CFError>?
        guard let access = SecAccessControlCreateWithFlags(
            kCFAllocatorDefault,
            kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
            [.privateKeyUsage, .biometryCurrentSet],
            &error
        ) else {
            throw KeychainError.accessControlCreationFailed
        }
        return try makeKey(tag: vaultTag, access: access)
    }

    /// Older devices: the flags were built up at run time.
    func createLegacyKey(allowPasscode: Bool) throws -> SecKey {
        var flags: SecAccessControlCreateFlags = .privateKeyUsage
        if allowPasscode {
            flags.insert(.userPresence)
        } else {
            flags.insert(.biometryCurrentSet)
        }
        guard let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, nil)
        else {
            throw KeychainError.accessControlCreationFailed
        }
        return try makeKey(tag: vaultTag, access: access)
    }

    private func makeKey(tag: Data, access: SecAccessControl) throws -> SecKey {
        let attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrKeySizeInBits as String: 256,
            kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
            kSecPrivateKeyAttrs as String: [
                kSecAttrIsPermanent as String: true,
                kSecAttrApplicationTag as String: tag,
                kSecAttrAccessControl as String: access,
            ],
        ]
        var error: Unmanaged<CFError>?
        guard let key = SecKeyCreateRandomKey(attributes as CFDictionary, &error) else {
            throw KeychainError.keyGenerationFailed
        }
        return key
    }
}
