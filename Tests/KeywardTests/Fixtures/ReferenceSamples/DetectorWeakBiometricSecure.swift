// From the swift.weak_biometric_acl detector page, "Remediation", options 1 to 3.
import Foundation
import LocalAuthentication
import Security

class SecureBiometricKeychain {
    func createKeyWithStrongBiometrics() throws {
        // SECURE: Using .biometryCurrentSet restricts to current biometrics only
        guard let accessControl = SecAccessControlCreateWithFlags(
            kCFAllocatorDefault,
            kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
            .biometryCurrentSet, // Keys invalidate when new biometrics are added
            nil
        ) else {
            throw KeychainError.accessControlCreationFailed
        }
        let privateKeyAttrs: [String: Any] = [
            kSecAttrIsPermanent as String: true,
            kSecAttrApplicationTag as String: "com.example.secure.payment".data(using: .utf8)!,
            kSecAttrAccessControl as String: accessControl
        ]
        let attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrKeySizeInBits as String: 256,
            kSecPrivateKeyAttrs as String: privateKeyAttrs
        ]
        var error: Unmanaged<CFError>?
        guard let privateKey = SecKeyCreateRandomKey(attributes as CFDictionary, &error) else {
            throw KeychainError.keyGenerationFailed
        }
        print("✅ Key created with strong biometric protection")
        print(" • Keys will invalidate if new biometrics are enrolled")
    }

    func createSigningKeyWithBiometryCurrentSet() throws {
        // SECURE: Combining .biometryCurrentSet with .privateKeyUsage
        guard let accessControl = SecAccessControlCreateWithFlags(
            kCFAllocatorDefault,
            kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
            [.biometryCurrentSet, .privateKeyUsage],
            nil
        ) else {
            throw KeychainError.accessControlCreationFailed
        }
        var error: Unmanaged<CFError>?
        _ = SecKeyCreateRandomKey([kSecAttrAccessControl as String: accessControl] as CFDictionary, &error)
    }
}

func createKeyWithTouchIDCurrentSet() throws {
    // SECURE: Using .touchIDCurrentSet for Touch ID devices
    guard let accessControl = SecAccessControlCreateWithFlags(
        kCFAllocatorDefault,
        kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
        ↓.touchIDCurrentSet, // Equivalent to .biometryCurrentSet for Touch ID
        nil
    ) else {
        throw KeychainError.accessControlCreationFailed
    }
}

class SecureBiometricManager {
    func createKeyWithBiometricCheck() throws {
        let context = LAContext()
        var error: NSError?
        guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) else {
            if let err = error {
                print("Biometrics not available: \(err.localizedDescription)")
            }
            throw KeychainError.accessControlCreationFailed
        }
        guard let accessControl = SecAccessControlCreateWithFlags(
            kCFAllocatorDefault,
            kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
            .biometryCurrentSet,
            nil
        ) else {
            throw KeychainError.accessControlCreationFailed
        }
        var cfError: Unmanaged<CFError>?
        _ = SecKeyCreateRandomKey([kSecAttrAccessControl as String: accessControl] as CFDictionary, &cfError)
    }
}
