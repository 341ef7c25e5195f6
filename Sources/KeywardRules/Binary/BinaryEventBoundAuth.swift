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
      then depend on the authentication: its only result is a boolean (MASTG-DEMO-0041's check). \
      Keyward looks for the code that loads the selector's reference (the call itself) and for \
      calls to `SecItemCopyMatching`, `SecItemAdd`, `SecItemUpdate` and `SecItemDelete`: a call \
      in an app with no keychain call at all has high confidence; one in an app that uses the \
      keychain without access controls, medium (evaluating a policy and then reading an item \
      stored without an access control is still event-bound); a selector no code was seen using \
      (a method of that name, a test double), low.
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

  public static let examples = RuleExamples(
    flagged: ["VaultLegacy.app", "VaultFlag", "VaultDecoy"],
    clean: ["VaultSecure.ipa", "VaultMixed", "VaultFamily.app"])

  static let selector = "evaluatePolicy:localizedReason:reply:"
  static let keychainFunctions = ["_SecItemCopyMatching", "_SecItemAdd", "_SecItemUpdate", "_SecItemDelete"]

  /// What one image shows about the selector: whether code uses it.
  enum Evidence: Int, Comparable {
    case named, encrypted, called
    static func < (lhs: Evidence, rhs: Evidence) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  public static func check(binary context: BinaryContext) {
    let app = context.app
    guard !app.imports("_SecAccessControlCreateWithFlags") else { return }
    var strongest: (evidence: Evidence, site: BinarySite, fileOffset: Int)?
    for file in app.files {
      for image in file.images {
        guard let names = image.section("__TEXT", "__objc_methname"),
          let offset = Self.offset(of: selector, in: image, section: names)
        else { continue }
        let address = names.address + UInt64(offset)
        var site = BinarySite(file: file.path, architecture: image.architecture, address: address)
        var evidence = Evidence.named
        if image.isEncrypted {
          evidence = .encrypted
        } else if let call = selectorUse(address, in: image) {
          evidence = .called
          site.address = call
        }
        if strongest.map({ $0.evidence < evidence }) ?? true {
          strongest = (evidence, site, image.fileOffset(of: site.address ?? address) ?? names.fileOffset + offset)
        }
      }
    }
    guard let strongest else { return }
    let keychainCalls = keychainFunctions.filter { app.imports($0) && CallSites.anyCall(to: $0, in: app) }
    let (message, confidence) = Self.message(strongest.evidence, keychainCalls: keychainCalls.map { $0.dropFirst() })
    context.report(
      strongest.site, fileOffset: strongest.fileOffset, message: message, confidence: confidence, subject: selector)
  }

  static func message(_ evidence: Evidence, keychainCalls: [Substring]) -> (String, Confidence) {
    let keychain =
      keychainCalls.isEmpty
      ? "the app makes no keychain call at all"
      : "the app calls \(keychainCalls.map { "`\($0)`" }.joined(separator: ", ")) but never `SecAccessControlCreateWithFlags`, so no keychain item can require the authentication"
    let consequence =
      "the authentication only yields a boolean, which a hooked method can fake. Protect the secret with a keychain access control instead."
    switch evidence {
    case .called:
      return (
        "Code in this Mach-O file calls `\(selector)` and \(keychain): \(consequence)",
        keychainCalls.isEmpty ? .high : .medium
      )
    case .encrypted:
      return (
        "The app evaluates a LocalAuthentication policy (`\(selector)`; the code is encrypted with FairPlay, so the call itself cannot be checked) and \(keychain): \(consequence)",
        .medium
      )
    case .named:
      return (
        "This Mach-O file has the selector `\(selector)`, though no code in it was seen calling it (a method of that name, a test double), and \(keychain). If the app does evaluate a policy this way, \(consequence)",
        .low
      )
    }
  }

  /// The first instruction that loads a selector reference to the selector at `address`.
  static func selectorUse(_ address: UInt64, in image: MachOImage) -> UInt64? {
    let references = image.sections.filter { $0.name == "__objc_selrefs" }.flatMap { image.pointers(in: $0) }
    let slots = Set(
      references.filter { image.pointerTarget($0.value) { $0 == address } != nil }.map(\.address))
    return CodeReferences.references(to: slots, in: image).values.min()
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
