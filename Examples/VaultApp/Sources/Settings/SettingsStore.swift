import Foundation

/// How the user wants the app to lock. These cases only describe a UI choice; they never reach
/// the keychain, so `.biometryAny` here is not an access-control flag.
enum AppLockMode: String, CaseIterable {
    case off
    case biometryAny
    case userPresence
}

final class SettingsStore {
    private let defaults = UserDefaults.standard

    var lockMode: AppLockMode {
        get { AppLockMode(rawValue: defaults.string(forKey: "lockMode") ?? "") ?? .userPresence }
        set { defaults.set(newValue.rawValue, forKey: "lockMode") }
    }

    /// Kept here so the widget can show the account without a keychain prompt.
    func cacheAuthToken(_ authToken: String) {
        defaults.set(authToken, forKey: "authToken")
    }

    /// Shown in the help screen. Mentioning kSecAttrAccessibleAlways in text is not storing with it.
    let securityNote = "Secrets are stored with kSecAttrAccessibleWhenUnlockedThisDeviceOnly, never kSecAttrAccessibleAlways."
}

