import KeywardBinary
import KeywardCore

/// Flags apps that evaluate a LocalAuthentication policy but never create an access control.
public struct BinaryEventBoundAuth: BinaryRule {
  public static let metadata = RuleMetadata(
    id: "binary.event_bound_biometric_auth",
    title: "Event-bound biometric authentication (in the binary)",
    severity: .high, confidence: .medium, resource: "Authentication", language: "Mach-O",
    tags: ["CWE:287", "CWE:603", "MASWE:0044", "OWASP:2021:A07", "MASVS-AUTH-2", "MASTG-TEST-0266"],
    description: """
      The app calls `evaluatePolicy:localizedReason:reply:` (the selector is in a Mach-O file's \
      `__objc_methname` section; Swift's callback and `async` forms use the same selector), yet no \
      Mach-O file of the app imports `SecAccessControlCreateWithFlags`. Nothing in the keychain can \
      then depend on the authentication: its only result is a boolean (MASTG-DEMO-0041's check).
      """,
    rationale: """
      Frida or objection can answer `evaluatePolicy` with success without anyone touching the \
      sensor. Only a keychain item protected by an access control makes the Secure Enclave demand \
      a real authentication.
      """,
    vulnerableExample: """
      [context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics
              localizedReason:reason
                        reply:^(BOOL success, NSError *error) { if (success) [self unlock]; }];
      """,
    remediation: """
      Keep the secret the feature needs in the keychain, protected with \
      `SecAccessControlCreateWithFlags(..., kSecAccessControlBiometryCurrentSet, ...)`, and read it \
      to unlock the feature; pass the evaluated `LAContext` as `kSecUseAuthenticationContext` to \
      avoid a second prompt.
      """,
    fixedExample: """
      SecAccessControlRef access = SecAccessControlCreateWithFlags(
          NULL, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, kSecAccessControlBiometryCurrentSet, NULL);
      """,
    references: [
      Reference(
        "CWE-603: Use of Client-Side Authentication", url: "https://cwe.mitre.org/data/definitions/603.html"),
      Reference("OWASP MASTG-TEST-0266: References to APIs for Event-Bound Biometric Authentication"),
    ])

  public static let examples = RuleExamples(flagged: ["VaultLegacy.app"], clean: ["VaultSecure.ipa", "VaultMixed"])

  static let selector = "evaluatePolicy:localizedReason:reply:"

  public static func check(binary context: BinaryContext) {
    guard !context.app.imports("_SecAccessControlCreateWithFlags") else { return }
    for file in context.app.files {
      for image in file.images {
        guard let names = image.section("__TEXT", "__objc_methname"),
          let offset = Self.offset(of: selector, in: image, section: names)
        else { continue }
        context.report(
          BinarySite(file: file.path, architecture: image.architecture, address: names.address + UInt64(offset)),
          fileOffset: names.fileOffset + offset,
          message:
            "The app evaluates a LocalAuthentication policy (`\(selector)`) but never calls `SecAccessControlCreateWithFlags`: the authentication only yields a boolean, which a hooked method can fake. Protect the secret with a keychain access control instead."
        )
        return
      }
    }
  }

  /// Where `string` starts as a whole NUL-terminated string in the section.
  static func offset(of string: String, in image: MachOImage, section: MachOSection) -> Int? {
    let bytes = image.bytes(of: section)
    var start = bytes.startIndex
    for end in bytes.indices where bytes[end] == 0 {
      if bytes[start..<end].elementsEqual(string.utf8) { return start - bytes.startIndex }
      start = end + 1
    }
    return nil
  }
}
