import Foundation
import LocalAuthentication

/// Signs the user in with Face ID / Touch ID. The prompt is shown here, and the evaluated context
/// is handed to `AuthService.readRefreshToken(context:)` in another file, which reads an item
/// protected by an access control with it: keychain-bound, so nothing is reported.
final class SignInViewModel {
    private let auth = AuthService()
    private(set) var refreshToken: Data?

    func signIn(completion: @escaping (Bool) -> Void) {
        let context = LAContext()
        context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Sign in to your vault") { success, _ in
            guard success else { return completion(false) }
            self.refreshToken = self.auth.readRefreshToken(context: context)
            completion(self.refreshToken != nil)
        }
    }
}
