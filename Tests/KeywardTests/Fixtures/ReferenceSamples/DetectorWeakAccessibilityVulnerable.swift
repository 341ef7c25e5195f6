// From the swift.weak_keychain_accessibility detector page, "Rationale".
import Foundation
import Security

func saveAPIToken(token: String) {
    guard let data = token.data(using: .utf8) else {
        return
    }
    // VULNERABLE: Using kSecAttrAccessibleAlways
    let query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword,
        kSecAttrAccount as String: "apiToken",
        kSecValueData as String: data,
        kSecAttrAccessible as String: ↓kSecAttrAccessibleAlways // WEAK!
    ]
    SecItemDelete(query as CFDictionary)
    ↓SecItemAdd(query as CFDictionary, nil)
}

func saveUserCredentials(password: String) {
    guard let data = password.data(using: .utf8) else {
        return
    }
    // VULNERABLE: Using kSecAttrAccessibleAlwaysThisDeviceOnly
    let query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword,
        kSecAttrAccount as String: "userPassword",
        kSecValueData as String: data,
        kSecAttrAccessible as String: ↓kSecAttrAccessibleAlwaysThisDeviceOnly // WEAK!
    ]
    ↓SecItemAdd(query as CFDictionary, nil)
}
