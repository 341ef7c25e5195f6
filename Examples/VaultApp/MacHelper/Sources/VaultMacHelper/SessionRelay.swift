import Foundation
import Security

/// Takes the session the app hands over and keeps it for the menu.
struct SessionRelay {
    func receive(_ session: Data) -> Bool {
        HelperKeychain.storeSession(session) == errSecSuccess
    }
}
