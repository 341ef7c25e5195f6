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

    /// Shown in the help screen. Mentioning kSecAttrAccessibleAlways in text is not storing with it.
    let securityNote = "Secrets are stored with kSecAttrAccessibleWhenUnlockedThisDeviceOnly, never kSecAttrAccessibleAlways."
}

final class SessionStore {
    static let shared = SessionStore()
    func restore() {}
}
