import SwiftSyntax

/// Code named for the device passcode: a function called `authenticateWithPasscode()` or
/// `generatePasscodeKeyPair`, a type called `BiometricAndDeviceCredentialAuthenticator`. Accepting
/// the passcode is its stated purpose, an option it offers beside a biometric one; as with a
/// policy the caller picks, the weakness is where a caller chooses it, so only the strict profile
/// reports the offer. Types named `PasscodeLock…` are left out: there "passcode" is usually the
/// app's own code, which the device passcode would replace.
public enum PasscodeNaming {
  /// Whether a function's (or Objective-C selector part's) name speaks of the passcode.
  public static func declaresPasscode(function name: String) -> Bool {
    let parts = SensitiveNames.nameWords(name)
    return parts.contains("passcode") || mentionsDeviceCredential(parts)
  }

  /// Whether a type's name speaks of the device credential (`DeviceCredential`, `DevicePasscode`).
  public static func declaresPasscode(type name: String) -> Bool {
    mentionsDeviceCredential(SensitiveNames.nameWords(name))
  }

  private static func mentionsDeviceCredential(_ parts: [String]) -> Bool {
    zip(parts, parts.dropFirst()).contains { $0 == "device" && ($1 == "credential" || $1 == "passcode") }
  }
}

extension SemanticModel {
  /// Whether `node` lies in a function, or a type, named for the device passcode
  /// (`PasscodeNaming`).
  public func isNamedForThePasscode(_ node: Syntax) -> Bool {
    let names = SyntaxFacts.enclosingDeclarationNames(of: node)
    // The innermost function speaks for the code; every type around it does.
    if let function = names.first(where: \.isFunction), PasscodeNaming.declaresPasscode(function: function.name) {
      return true
    }
    return names.contains { !$0.isFunction && PasscodeNaming.declaresPasscode(type: $0.name) }
  }
}
