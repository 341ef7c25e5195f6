/// The shapes `swift.event_bound_biometric_auth`'s examples (and those of the enrollment and
/// passcode-policy rules) are built from, each flagged or clean by its marker.
extension EventBoundBiometricAuth {
  /// A function that gives its caller the evaluated context: through a completion
  /// (`completion(.success(context))`), or as its result when `returned`. `marker` marks the
  /// evaluation, `policy` the policy evaluated.
  static func contextGivenBack(
    marker: String = "", policy: String = ".deviceOwnerAuthenticationWithBiometrics", returned: Bool = false
  ) -> String {
    returned
      ? """
      enum Biometrics {
          static func unlockedContext(reason: String) async throws -> LAContext {
              let context = LAContext()
              guard try await context.\(marker)evaluatePolicy(\(policy), localizedReason: reason) else { throw CancellationError() }
              return context
          }
      }
      """
      : """
      enum Biometrics {
          static func requestAccess(reason: String, completion: @escaping (Result<LAContext, Error>) -> Void) {
              let context = LAContext()
              context.\(marker)evaluatePolicy(\(policy), localizedReason: reason) { _, error in
                  DispatchQueue.main.async {
                      if let error { completion(.failure(error)) } else { completion(.success(context)) }
                  }
              }
          }
      }
      """
  }

  /// A function that asks for Face ID and throws when it is refused.
  static func faceIDPrompt(named name: String, evaluate: String) -> String {
    """
    struct FaceIDRefused: Error {}
    enum Biometrics {
        static func \(name)() async throws {
            let context = LAContext()
            guard try await context.\(evaluate)(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Use Face ID") else {
                throw FaceIDRefused()
            }
        }
    }
    """
  }

  /// A settings switch that asks for the user before turning biometric unlock on: `reason` is
  /// the prompt, and `marker` marks where a finding is expected.
  static func lockSettingPrompt(
    policy: String, reason: String, marker: String = "", setting: String = "biometricUnlockEnabled",
    otherReason: String = #""Disable Face ID""#
  ) -> String {
    """
    final class SecuritySettings {
        var \(setting) = false
        func setBiometricUnlock(_ on: Bool) {
            let context = LAContext()
            context.\(marker)evaluatePolicy(\(policy), localizedReason: on ? \(reason) : \(otherReason)) { ok, _ in
                if ok { self.\(setting) = on }
            }
        }
    }
    """
  }

  /// A confirmation before the user deletes their key pair: `reason` is the prompt, `marker`
  /// marks the evaluation and `policyMarker` the policy; the caller deletes on success.
  static func deletionPrompt(
    reason: String, policy: String = ".deviceOwnerAuthentication", marker: String = "", policyMarker: String = ""
  ) -> String {
    """
    final class KeyPairSettings {
        private func confirmDeletion(then finish: @escaping (Bool) -> Void) {
            let context = LAContext()
            context.\(marker)evaluatePolicy(\(policyMarker)\(policy), localizedReason: \(reason)) { confirmed, _ in
                finish(confirmed)
            }
        }
        func deleteKeyPairTapped() {
            confirmDeletion { confirmed in
                if confirmed { KeyStore.shared.destroyKeyPair() }
            }
        }
    }
    """
  }
}
