import Foundation
import LocalAuthentication
import Security

/// Step-up authentication before a transfer is sent.
final class PaymentApprover {
    /// Accepts the passcode too, "in case Face ID fails".
    func approve(_ transfer: Transfer) async throws -> Bool {
        let context = LAContext()
        let approved = try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Approve the transfer")
        guard approved else { return false }
        try await transfer.send()
        return true
    }

    /// The signing key for transfers: biometrics, or the passcode as a backup.
    func makeSigningAccess() -> SecAccessControl? {
        SecAccessControlCreateWithFlags(
            nil,
            kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
            [.privateKeyUsage, .biometryCurrentSet, .or, .devicePasscode],
            nil
        )
    }
}

struct Transfer {
    func send() async throws {}
}
