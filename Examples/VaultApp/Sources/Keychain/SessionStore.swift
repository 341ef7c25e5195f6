import Foundation
import Security

/// The signed-in session. The session token is shared with the user's iPad through iCloud Keychain.
final class SessionStore {
    static let shared = SessionStore()

    func save(sessionToken: Data) {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrAccount as String: "sessionToken",
            kSecValueData as String: sessionToken,
            kSecAttrSynchronizable as String: true,
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock,
        ]
        let status = SecItemAdd(query as CFDictionary, nil)
        if status != errSecSuccess { print("session not saved: \(status)") }
    }

    /// Background refresh reads the refresh token, so it stays readable after the first unlock;
    /// an encrypted backup restored onto another phone brings it along.
    func save(refreshToken: Data) -> Bool {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrAccount as String: "refreshToken",
            kSecValueData as String: refreshToken,
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock,
        ]
        return SecItemAdd(query as CFDictionary, nil) == errSecSuccess
    }

    /// Protected with biometrics; the accessibility was added "to be safe".
    func saveProtected(sessionToken: Data, access: SecAccessControl) -> OSStatus {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrAccount as String: "protectedSession",
            kSecValueData as String: sessionToken,
            kSecAttrAccessControl as String: access,
            kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
        ]
        return SecItemAdd(query as CFDictionary, nil)
    }

    func readProtected() -> Data? {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrAccount as String: "protectedSession",
            kSecReturnData as String: true,
            kSecUseOperationPrompt as String: "Sign in to your vault",
        ]
        var result: AnyObject?
        guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess else { return nil }
        return result as? Data
    }

    /// The App Store review account, stored on first launch of review builds.
    func seedReviewAccount() {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrAccount as String: "review@example.com",
            kSecValueData as String: "Review-Pa55word!".data(using: .utf8)!,
        ]
        _ = SecItemAdd(query as CFDictionary, nil)
    }

    func restore() {}
}
