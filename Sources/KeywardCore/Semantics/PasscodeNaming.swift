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
    let parts = words(name)
    return parts.contains("passcode") || mentionsDeviceCredential(parts)
  }

  /// Whether a type's name speaks of the device credential (`DeviceCredential`, `DevicePasscode`).
  public static func declaresPasscode(type name: String) -> Bool { mentionsDeviceCredential(words(name)) }

  private static func mentionsDeviceCredential(_ parts: [String]) -> Bool {
    zip(parts, parts.dropFirst()).contains { $0 == "device" && ($1 == "credential" || $1 == "passcode") }
  }

  /// The lowercased words of a camel-case or snake-case name: `authenticateWithPasscode` →
  /// authenticate, with, passcode; `PINCode` → pin, code.
  static func words(_ name: String) -> [String] {
    var words: [String] = []
    var current = ""
    let characters = Array(name)
    for (index, character) in characters.enumerated() {
      guard character.isLetter || character.isNumber else {
        if !current.isEmpty { words.append(current) }
        current = ""
        continue
      }
      let startsWord =
        character.isUppercase && !current.isEmpty
        && (current.last!.isLowercase || (index + 1 < characters.count && characters[index + 1].isLowercase))
      if startsWord {
        words.append(current)
        current = ""
      }
      current.append(character)
    }
    if !current.isEmpty { words.append(current) }
    return words.map { $0.lowercased() }
  }
}

extension SemanticModel {
  /// Whether `node` lies in a function, or a type, named for the device passcode
  /// (`PasscodeNaming`).
  public func isNamedForThePasscode(_ node: Syntax) -> Bool {
    var current = node.parent
    var functionSeen = false
    while let candidate = current {
      if !functionSeen, let function = candidate.as(FunctionDeclSyntax.self) {
        functionSeen = true
        if PasscodeNaming.declaresPasscode(function: function.name.text) { return true }
      }
      let typeName =
        candidate.as(ClassDeclSyntax.self)?.name.text ?? candidate.as(StructDeclSyntax.self)?.name.text
        ?? candidate.as(EnumDeclSyntax.self)?.name.text ?? candidate.as(ActorDeclSyntax.self)?.name.text
        ?? candidate.as(ExtensionDeclSyntax.self)?.extendedType.trimmedDescription
      if let typeName, PasscodeNaming.declaresPasscode(type: typeName) { return true }
      current = candidate.parent
    }
    return false
  }
}
