import Foundation
import Security

/// The helper's copy of the session, so the menu shows the vault without asking again.
enum HelperKeychain {
    static func storeSession(_ session: Data) -> OSStatus {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "com.example.vault.helper",
            kSecAttrAccount as String: "session",
            kSecValueData as String: session,
            kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
        ]
        return SecItemAdd(query as CFDictionary, nil)
    }
}
