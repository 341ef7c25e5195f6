import KeychainAccess
import SwiftKeychainWrapper

/// Small secrets kept through third-party wrappers, the way most apps do it.
struct PreferencesVault {
    /// The widget reads the PIN hint even while the phone is locked.
    private let keychain = Keychain(service: "com.example.vault.widget").accessibility(.always)

    func savePinHint(_ hint: String) throws {
        try keychain.set(hint, key: "pinHint")
    }

    /// Touch ID protected, copied from the library's README.
    func saveRecoveryCode(_ code: String) throws {
        try Keychain(service: "com.example.vault.recovery")
            .accessibility(.whenPasscodeSetThisDeviceOnly, authenticationPolicy: [.biometryAny])
            .set(code, key: "recoveryCode")
    }

    /// Shared with the iPad app.
    func saveAPIToken(_ token: String) {
        KeychainWrapper.standard.set(token, forKey: "apiToken", withAccessibility: .afterFirstUnlockThisDeviceOnly, isSynchronizable: true)
    }
}
