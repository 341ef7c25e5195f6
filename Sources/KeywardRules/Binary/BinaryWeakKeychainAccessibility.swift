import KeywardBinary
import KeywardCore

/// Flags built apps that import the "always" accessibility constants.
public struct BinaryAccessibleAlways: BinaryRule {
  public static let metadata = RuleMetadata(
    id: "binary.accessible_always",
    title: "Keychain items readable while locked (in the binary)",
    severity: .high, confidence: .medium, resource: "Information leak", language: "Mach-O",
    tags: ["CWE:311", "CWE:312", "MASWE:0006", "OWASP:2021:A4", "MASVS-STORAGE-1"],
    description: """
      A Mach-O file of the app imports `kSecAttrAccessibleAlways` or \
      `kSecAttrAccessibleAlwaysThisDeviceOnly` from Security. The constants exist only to be \
      passed as a keychain item's `kSecAttrAccessible` value, so the app (or one of its \
      frameworks) stores items that the system decrypts at any time, even while the device is \
      locked. Both are deprecated since iOS 12. Confidence is medium: the import shows the \
      constant is used, not which item it protects.
      """,
    rationale: """
      Items readable while the device is locked are exposed to anyone who gets code running on a \
      locked device, and to forensic tools. The import is visible with `nm -u` or `otool -Iv`, so \
      auditors find it without the source.
      """,
    vulnerableExample: """
      $ nm -u VaultLegacy | grep kSecAttrAccessible
      _kSecAttrAccessibleAlways
      """,
    remediation: """
      In the source, replace the constant with `kSecAttrAccessibleWhenUnlockedThisDeviceOnly` (or \
      `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly` for items background work needs), and \
      update an embedded framework that uses it. `swift.weak_keychain_accessibility` and \
      `objc.weak_keychain_accessibility` find the exact line.
      """,
    fixedExample: """
      $ nm -u VaultSecure | grep kSecAttrAccessible
      _kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly
      """,
    references: [
      Reference(
        "CWE-311: Missing Encryption of Sensitive Data", url: "https://cwe.mitre.org/data/definitions/311.html"),
      Reference(
        "Apple: Restricting keychain item accessibility",
        url: "https://developer.apple.com/documentation/security/restricting-keychain-item-accessibility"),
    ])

  public static let examples = RuleExamples(
    flagged: ["VaultLegacy.app", "VaultLegacy.app/VaultLegacy"], clean: ["VaultSecure.ipa", "VaultMixed"])

  static let constants = ["_kSecAttrAccessibleAlways", "_kSecAttrAccessibleAlwaysThisDeviceOnly"]

  public static func check(binary context: BinaryContext) {
    for file in context.app.files {
      for constant in constants {
        let importing = file.images.filter { $0.importedSymbols.contains(constant) }
        guard let first = importing.first else { continue }
        let name = String(constant.dropFirst())
        // An address means something only within one architecture's image.
        let slot = importing.count == 1 ? first.pointerSlots.first { $0.value == constant }?.key : nil
        context.report(
          BinarySite(
            file: file.path, architecture: importing.map(\.architecture).joined(separator: ", "), address: slot),
          message:
            "This Mach-O file imports `\(name)`: it stores keychain items that are readable while the device is locked. Use `kSecAttrAccessibleWhenUnlockedThisDeviceOnly` or a stricter class."
        )
      }
    }
  }
}
