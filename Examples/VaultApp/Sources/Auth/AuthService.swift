import Foundation
import LocalAuthentication
import Security

/// Unlocks the user's session token with Face ID / Touch ID.
final class AuthService {
    private let store = KeychainStore(service: "com.example.vault.session")

    /// Stores the refresh token so that only the enrolled biometrics (or the passcode) can read it.
    func protectRefreshToken(_ token: Data) throws {
        guard let access = SecAccessControlCreateWithFlags(
            nil,
            kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
            .userPresence,
            nil
        ) else {
            throw KeychainError.accessControlCreationFailed
        }
        let query: [CFString: Any] = [
            kSecClass: kSecClassGenericPassword,
            kSecAttrAccount: "refreshToken",
            kSecValueData: token,
            kSecAttrAccessControl: access,
        ]
        SecItemDelete(query as CFDictionary)
        let status = SecItemAdd(query as CFDictionary, nil)
        guard status == errSecSuccess else { throw KeychainError.unexpectedStatus(status) }
    }

    /// Keychain-bound: the item itself demands authentication, and the evaluated context is reused.
    func readRefreshToken(context: LAContext) -> Data? {
        let query: [CFString: Any] = [
            kSecClass: kSecClassGenericPassword,
            kSecAttrAccount: "refreshToken",
            kSecReturnData: true,
            kSecUseAuthenticationContext: context,
        ]
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        return status == errSecSuccess ? result as? Data : nil
    }

    /// A remembered device may skip the prompt; its token must then survive a locked phone.
    func rememberDevice(_ token: Data, background: Bool) {
        var attributes: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrAccount as String: "deviceToken",
            kSecValueData as String: token,
        ]
        attributes[kSecAttrAccessible as String] =
            background ? kSecAttrAccessibleAlwaysThisDeviceOnly : kSecAttrAccessibleWhenUnlockedThisDeviceOnly
        SecItemAdd(attributes as CFDictionary, nil)
    }

    /// Which prompt to show: informational only, not a security decision.
    func biometryLabel() -> String {
        let context = LAContext()
        switch context.biometryType {
        case .faceID: return "Face ID"
        case .touchID: return "Touch ID"
        default: return "Passcode"
        }
    }
}
