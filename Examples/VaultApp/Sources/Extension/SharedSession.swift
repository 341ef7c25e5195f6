import Foundation

/// Hands the session to the share extension through the App Group container.
enum SharedSession {
    static let group = "group.com.example.vault"

    static func publish(sessionToken: Data) throws {
        guard let shared = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: group) else { return }
        try sessionToken.write(to: shared.appendingPathComponent("session_token"), options: .completeFileProtection)
    }

    /// Only the theme goes here now; that is fine.
    static func publish(theme: Data) throws {
        guard let shared = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: group) else { return }
        try theme.write(to: shared.appendingPathComponent("theme.json"))
    }
}
