// From the article "Biometric-Protected Storage on iOS": the authenticator, the biometric
// keychain, the comparison of .biometryCurrentSet with .biometryAny, and the fallback manager.
import Foundation
import LocalAuthentication
import Security

final class BiometricAuthenticator {
    enum BiometricType {
        case faceID
        case touchID
        case none
    }

    var availableBiometric: BiometricType {
        let context = LAContext()
        var error: NSError?
        guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) else {
            return .none
        }
        switch context.biometryType {
        case .faceID: return .faceID
        case .touchID: return .touchID
        case .opticID: return .faceID
        @unknown default: return .none
        }
    }

    func authenticate(reason: String) async throws -> LAContext {
        let context = LAContext()
        context.localizedCancelTitle = "Use Passcode"
        context.localizedFallbackTitle = "Enter Passcode"
        context.invalidate()
        let success = try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: reason)
        guard success else {
            throw BiometricError.authenticationFailed
        }
        return context
    }
}

enum BiometricError: Error {
    case authenticationFailed
    case biometryNotAvailable
    case biometryNotEnrolled
    case biometryLockout
    case userCancelled
}

final class BiometricKeychain {
    func store(data: Data, forKey key: String, requireBiometric: Bool = true) throws {
        var accessFlags: SecAccessControlCreateFlags = [.privateKeyUsage]
        if requireBiometric {
            accessFlags.insert(.biometryCurrentSet)
        }
        var error: Unmanaged<CFError>?
        guard let accessControl = SecAccessControlCreateWithFlags(
            nil,
            kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
            accessFlags,
            &error
        ) else {
            throw BiometricError.biometryNotAvailable
        }
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrAccount as String: key,
            kSecAttrService as String: "com.klivvr.storage",
            kSecValueData as String: data,
            kSecAttrAccessControl as String: accessControl
        ]
        SecItemDelete(query as CFDictionary)
        let status = SecItemAdd(query as CFDictionary, nil)
        guard status == errSecSuccess else {
            throw KeychainError.storeFailed(status)
        }
    }

    func retrieve(forKey key: String, context: LAContext? = nil) throws -> Data? {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrAccount as String: key,
            kSecAttrService as String: "com.klivvr.storage",
            kSecReturnData as String: true,
            kSecMatchLimit as String: kSecMatchLimitOne
        ]
        if let context {
            query[kSecUseAuthenticationContext as String] = context
        }
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        switch status {
        case errSecSuccess:
            return result as? Data
        case errSecItemNotFound:
            return nil
        default:
            throw KeychainError.retrieveFailed(status)
        }
    }
}

enum KeychainError: Error {
    case storeFailed(OSStatus)
    case retrieveFailed(OSStatus)
}

func compareAccessControls() {
    var error: Unmanaged<CFError>?
    // .biometryCurrentSet: invalidated if biometrics change
    let strictAccess = SecAccessControlCreateWithFlags(
        nil,
        kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
        .biometryCurrentSet,
        &error
    )
    // .biometryAny: survives biometric enrollment changes
    let flexibleAccess = SecAccessControlCreateWithFlags(
        nil,
        kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
        ↓.biometryAny,
        &error
    )
}

final class BiometricStorageManager {
    private let biometricKeychain = BiometricKeychain()
    private let authenticator = BiometricAuthenticator()
    private let fallbackKeychain = KeychainStore()

    func retrieveSensitive<T: Codable>(_ type: T.Type, forKey key: String, reason: String) async throws -> T? {
        do {
            // Attempt biometric authentication
            let context = try await authenticator.authenticate(reason: reason)

            // Use authenticated context to read from Keychain
            guard let data = try biometricKeychain.retrieve(forKey: key, context: context) else {
                return nil
            }
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as LAError {
            switch error.code {
            case .biometryNotAvailable, .biometryNotEnrolled:
                // Device does not support biometrics
                // Fall back to passcode-protected storage
                return ↓try fallbackToPasscode(type, forKey: key)

            case .biometryLockout:
                // Too many failed attempts
                // Require device passcode to unlock
                return try await fallbackToDevicePasscode(type, forKey: key, reason: reason)

            case .userCancel, .appCancel:
                // User cancelled - do not fallback, respect the cancellation
                throw BiometricError.userCancelled

            case .authenticationFailed:
                // Biometric did not match
                throw BiometricError.authenticationFailed

            default:
                throw error
            }
        }
    }

    private func fallbackToPasscode<T: Codable>(_ type: T.Type, forKey key: String) throws -> T? {
        // Read from non-biometric Keychain with device passcode protection
        guard let data = try fallbackKeychain.read(forKey: key) else {
            return nil
        }
        return try JSONDecoder().decode(T.self, from: data)
    }

    private func fallbackToDevicePasscode<T: Codable>(_ type: T.Type, forKey key: String, reason: String) async throws -> T? {
        let context = LAContext()
        let _ = try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: reason)
        guard let data = try biometricKeychain.retrieve(forKey: key, context: context) else {
            return nil
        }
        return try JSONDecoder().decode(T.self, from: data)
    }
}
