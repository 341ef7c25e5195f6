import KeywardBinary
import KeywardCore

/// Flags apps that link LocalAuthentication without saying why they use Face ID.
public struct BinaryMissingFaceIDUsage: BinaryRule {
  public static let metadata = RuleMetadata(
    id: "binary.missing_faceid_usage_description",
    title: "Face ID used without NSFaceIDUsageDescription",
    severity: .medium, confidence: .high, resource: "Authentication", language: "Mach-O",
    tags: ["CWE:693", "MASVS-AUTH-2", "MASVS-PLATFORM-1"],
    profile: .standard,
    description: """
      The app links LocalAuthentication but its Info.plist has no `NSFaceIDUsageDescription`. \
      Apple requires the key for apps that use Face ID: without it, Face ID requests fail and the \
      app falls back to whatever its error path does, often the passcode or nothing. Mac apps \
      (`Contents/Info.plist`) are not reported: Macs have Touch ID, not Face ID.
      """,
    rationale: """
      An app whose biometric prompt silently fails on Face ID devices tends to grow an unreviewed \
      fallback. Auditors also read the key to learn what the app says it protects.
      """,
    vulnerableExample: """
      <key>CFBundleExecutable</key><string>VaultLegacy</string>
      <!-- no NSFaceIDUsageDescription -->
      """,
    remediation: "Add `NSFaceIDUsageDescription` to the app's Info.plist with a sentence saying what Face ID unlocks.",
    fixedExample: """
      <key>NSFaceIDUsageDescription</key>
      <string>Unlock your vault with Face ID</string>
      """,
    references: [
      Reference(
        "Apple: NSFaceIDUsageDescription",
        url:
          "https://developer.apple.com/documentation/bundleresources/information-property-list/nsfaceidusagedescription"
      )
    ])

  public static let examples = RuleExamples(
    flagged: ["VaultLegacy.app"], clean: ["VaultSecure.ipa", "VaultMixed", "VaultMac.app"])

  public static func check(binary context: BinaryContext) {
    let app = context.app
    // Macs have Touch ID, not Face ID: the key is an iOS requirement.
    guard let info = app.infoPlist, let path = app.infoPlistPath, !app.isMacOS,
      app.links("LocalAuthentication.framework")
    else { return }
    guard (info["NSFaceIDUsageDescription"] ?? "").trimmingCharacters(in: .whitespaces).isEmpty else { return }
    context.report(
      BinarySite(file: path),
      message:
        "The app links LocalAuthentication but its Info.plist has no `NSFaceIDUsageDescription`: Face ID requests fail without it. Add the key with what Face ID unlocks.",
      subject: "NSFaceIDUsageDescription")
  }
}
