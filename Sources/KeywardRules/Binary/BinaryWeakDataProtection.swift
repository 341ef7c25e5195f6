import KeywardBinary
import KeywardCore

/// Flags apps signed with a default file protection class weaker than
/// `NSFileProtectionComplete`.
public struct BinaryWeakDataProtection: BinaryRule {
  public static let metadata = RuleMetadata(
    id: "binary.weak_default_data_protection",
    title: "Default data protection weaker than complete (in the signature)",
    severity: .medium, confidence: .high, resource: "Information leak", language: "Mach-O",
    tags: ["CWE:311", "CWE:312", "MASWE:0006", "OWASP:2021:A2", "MASVS-STORAGE-1", "MASTG-TEST-0299"],
    profile: .standard,
    description: """
      The code signature of the app, or of one of its extensions, grants \
      `com.apple.developer.default-data-protection` with a class weaker than \
      `NSFileProtectionComplete`: `NSFileProtectionCompleteUnlessOpen`, \
      `NSFileProtectionCompleteUntilFirstUserAuthentication` or `NSFileProtectionNone`. Every file \
      the app creates without choosing a class gets that one. Keyward reads the entitlements \
      blob of each Mach-O file's code signature; a bundle signed without the entitlement has the \
      system's default (`NSFileProtectionCompleteUntilFirstUserAuthentication`) and is not \
      reported.
      """,
    rationale: """
      With `CompleteUntilFirstUserAuthentication`, files stay readable from the first unlock after \
      a restart until the device restarts again, locked or not; with `None`, always. Anyone who \
      gets code running on a locked device, or a forensic tool, reads them. The entitlement is set \
      in Xcode's Data Protection capability and shows in `codesign -d --entitlements - App.app`.
      """,
    vulnerableExample: """
      <key>com.apple.developer.default-data-protection</key>
      <string>NSFileProtectionCompleteUntilFirstUserAuthentication</string>
      """,
    remediation: """
      Set the Data Protection capability to Complete Protection (`NSFileProtectionComplete`). Give \
      the few files that background work must read while the device is locked their own class \
      when they are written (`.completeUntilFirstUserAuthentication` in `Data.write(to:options:)` \
      or `FileManager`'s attributes), and keep secrets in the keychain.
      """,
    fixedExample: """
      <key>com.apple.developer.default-data-protection</key>
      <string>NSFileProtectionComplete</string>
      """,
    references: [
      Reference(
        "Apple: Encrypting your app's files",
        url: "https://developer.apple.com/documentation/uikit/encrypting-your-app-s-files"),
      Reference(
        "Apple: Data Protection Entitlement",
        url:
          "https://developer.apple.com/documentation/bundleresources/entitlements/com.apple.developer.default-data-protection"
      ),
      Reference("OWASP MASTG-TEST-0299: Data Protection Classes for Files Written to Storage"),
    ])

  public static let examples = RuleExamples(
    flagged: ["VaultFamily.app", "VaultFamily.app/VaultFamily"],
    clean: ["VaultFamily.app/PlugIns/VaultWidget.appex/VaultWidget", "VaultSecure.ipa", "VaultLegacy.app"])

  /// What each weaker class leaves readable.
  static let exposure = [
    "NSFileProtectionCompleteUnlessOpen":
      "files the app has open, or creates, while the device is locked stay readable until closed",
    "NSFileProtectionCompleteUntilFirstUserAuthentication":
      "files stay readable from the first unlock after a restart on, even while the device is locked",
    "NSFileProtectionNone": "files are readable at any time, even before the first unlock",
  ]

  public static func check(binary context: BinaryContext) {
    for file in context.app.files {
      guard let protection = file.entitlements?.defaultDataProtection, protection != "NSFileProtectionComplete" else {
        continue
      }
      let exposure = Self.exposure[protection] ?? "it is not a class Apple documents, so files may get no protection"
      context.report(
        BinarySite(file: file.path),
        message:
          "The code signature sets the default data protection to `\(protection)`: \(exposure). Use `NSFileProtectionComplete` and give files that background work needs their own class.",
        subject: protection)
    }
  }
}
