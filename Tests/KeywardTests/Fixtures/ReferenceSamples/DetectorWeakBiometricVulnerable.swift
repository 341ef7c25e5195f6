// From the swift.weak_biometric_acl detector page, "Rationale".
import Foundation
import Security

enum KeychainError: Error {
    case accessControlCreationFailed
    case keyGenerationFailed
}

func createKeyWithWeakBiometrics() throws {
    // VULNERABLE: Using .biometryAny allows any enrolled biometric
    guard let accessControl = SecAccessControlCreateWithFlags(
        kCFAllocatorDefault,
        kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
        ↓.biometryAny, // WEAK! Allows newly enrolled biometrics
        nil
    ) else {
        throw KeychainError.accessControlCreationFailed
    }
    let privateKeyAttrs: [String: Any] = [
        kSecAttrIsPermanent as String: true,
        kSecAttrApplicationTag as String: "com.example.payment".data(using: .utf8)!,
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
}

func createKeyWithUserPresence() throws {
    // VULNERABLE: .userPresence can fall back to passcode
    guard let accessControl = SecAccessControlCreateWithFlags(
        kCFAllocatorDefault,
        kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
        ↓.userPresence, // WEAK! Falls back to passcode
        nil
    ) else {
        throw KeychainError.accessControlCreationFailed
    }
    let privateKeyAttrs: [String: Any] = [
        kSecAttrIsPermanent as String: true,
        kSecAttrApplicationTag as String: "com.example.auth".data(using: .utf8)!,
        kSecAttrAccessControl as String: accessControl
    ]
    let attributes: [String: Any] = [
        kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
        kSecAttrKeySizeInBits as String: 256,
        kSecPrivateKeyAttrs as String: privateKeyAttrs
    ]
    var error: Unmanaged<CFError>?
    _ = SecKeyCreateRandomKey(attributes as CFDictionary, &error)
}

func createKeyWithDeprecatedTouchIDAny() throws {
    // VULNERABLE: .touchIDAny (deprecated) has same issue as .biometryAny
    guard let accessControl = SecAccessControlCreateWithFlags(
        kCFAllocatorDefault,
        kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
        ↓.touchIDAny, // WEAK! Deprecated and allows any Touch ID
        nil
    ) else {
        throw KeychainError.accessControlCreationFailed
    }
    let privateKeyAttrs: [String: Any] = [
        kSecAttrIsPermanent as String: true,
        kSecAttrApplicationTag as String: "com.example.legacy".data(using: .utf8)!,
        kSecAttrAccessControl as String: accessControl
    ]
    let attributes: [String: Any] = [
        kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
        kSecAttrKeySizeInBits as String: 256,
        kSecPrivateKeyAttrs as String: privateKeyAttrs
    ]
    var error: Unmanaged<CFError>?
    _ = SecKeyCreateRandomKey(attributes as CFDictionary, &error)
}
