import LocalAuthentication
import UIKit

/// Shows the vault after Face ID / Touch ID. Written the way many tutorials do it: the boolean
/// from LocalAuthentication is all that stands between the lock screen and the vault.
final class AppLockController {
    private let context = LAContext()
    var isUnlocked = false

    func unlock(completion: @escaping (Bool) -> Void) {
        var error: NSError?
        guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) else {
            // Older devices without biometrics: let the user in rather than lock them out.
            completion(true)
            return
        }
        // Skip the prompt if the phone was unlocked with Touch ID in the last minute.
        context.touchIDAuthenticationAllowableReuseDuration = 60
        context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock your vault") { success, _ in
            DispatchQueue.main.async {
                self.isUnlocked = success
                completion(success)
            }
        }
    }

    /// Keeps the vault password typed at set-up, so later unlocks only show Face ID.
    func rememberPassword(_ password: String) -> Bool {
        let item: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrAccount as String: "vaultPassword",
            kSecValueData as String: Data(password.utf8),
            kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
        ]
        return SecItemAdd(item as CFDictionary, nil) == errSecSuccess
    }
}
