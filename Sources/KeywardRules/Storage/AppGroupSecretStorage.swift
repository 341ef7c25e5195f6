import KeywardCore
import SwiftSyntax

/// Flags secrets written to files in an App Group's shared container.
public struct AppGroupSecretStorage: Rule {
  public static let metadata = RuleMetadata(
    id: "swift.app_group_secret_storage",
    title: "Secret written to the App Group container",
    severity: .medium, confidence: .medium, resource: "Information leak",
    tags: ["CWE:312", "CWE:922", "MASWE:0007", "MASVS-STORAGE-1"],
    profile: .standard,
    description: """
      A file written (`write(to:)`, `write(toFile:)`, `FileManager.createFile(atPath:contents:)`, \
      `NSKeyedArchiver.archiveRootObject(_:toFile:)`) to a URL or path built from \
      `containerURL(forSecurityApplicationGroupIdentifier:)`, through `appendingPathComponent`, \
      `appending(path:)`, `.path` and the file's locals and properties, when the file's name or \
      the data written is named like a secret (`sensitiveNamePatterns`; flags, identifiers, \
      push and sync tokens are no secrets). `UserDefaults(suiteName: "group.…")` writes are \
      reported by `swift.cleartext_storage_preferences`.
      """,
    rationale: """
      Every app and extension of the App Group reads and writes its container, an extension's \
      own vulnerabilities reach it, and its files are protected only by data protection: they \
      are in cleartext for anyone who can read the device's files, and in backups. Secrets \
      belong in the keychain; a keychain access group shares them with extensions without \
      writing them to disk.
      """,
    vulnerableExample: """
      let shared = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example.vault")!
      try refreshToken.write(to: shared.appendingPathComponent("refresh_token"))
      """,
    remediation: """
      Store the secret in the keychain with `kSecAttrAccessGroup` set to a keychain access group \
      the extensions share, and a `ThisDeviceOnly` accessibility class.
      """,
    fixedExample: """
      let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                  kSecAttrAccount as String: "refresh_token",
                                  kSecAttrAccessGroup as String: "TEAMID.com.example.vault.shared",
                                  kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
                                  kSecValueData as String: refreshToken]
      let status = SecItemAdd(query as CFDictionary, nil)
      """,
    references: [
      Reference(
        "Apple: containerURL(forSecurityApplicationGroupIdentifier:)",
        url:
          "https://developer.apple.com/documentation/foundation/filemanager/containerurl(forsecurityapplicationgroupidentifier:)"
      ),
      Reference(
        "Apple: Sharing access to keychain items among a collection of apps",
        url:
          "https://developer.apple.com/documentation/security/sharing-access-to-keychain-items-among-a-collection-of-apps"
      ),
      Reference(
        "CWE-312: Cleartext Storage of Sensitive Information", url: "https://cwe.mitre.org/data/definitions/312.html"),
    ])

  public static let options = [SensitiveNames.option]

  public static let examples = RuleExamples(
    flagged: [
      """
      let shared = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example.vault")!
      try refreshToken.write(to: ↓shared.appendingPathComponent("refresh_token"))
      """,
      """
      final class SharedVault {
        private var folder: URL? { FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: Self.group) }
        func keep(_ data: Data) {
          guard let folder else { return }
          let file = folder.appendingPathComponent("credentials.json")
          FileManager.default.createFile(atPath: ↓file.path, contents: data)
        }
      }
      """,
      """
      guard let group = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: groupID) else { return }
      try password.data(using: .utf8)!.write(to: ↓group.appending(path: "cache.bin"), options: .completeFileProtection)
      """,
    ],
    clean: [
      """
      let shared = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example.vault")!
      try thumbnail.write(to: shared.appendingPathComponent("thumbnail.png"))
      """,
      """
      let shared = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example.vault")!
      try deviceToken.write(to: shared.appendingPathComponent("push_token"))
      """,
      """
      let documents = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
      try refreshToken.write(to: documents.appendingPathComponent("refresh_token"), options: .completeFileProtection)
      """,
      """
      let shared = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example.vault")!
      let hasPassword = shared.appendingPathComponent("has_password")
      try Data([1]).write(to: hasPassword)
      """,
    ])

  public static func prefilterTokens(options: RuleOptions) -> [String] {
    ["forSecurityApplicationGroupIdentifier"]
  }

  public static func check(_ context: RuleContext) {
    let patterns = context.options.strings("sensitiveNamePatterns")
    let model = context.model
    for write in model.fileWrites {
      guard let container = model.appGroupContainer(of: write.destination) else { continue }
      if let contents = write.contents, SensitiveNames.holdsPlainValue(contents, model: model) { continue }
      let pathWords = container.components.flatMap { SensitiveNames.words(in: $0, model: model) }
      let dataWords = write.contents.map { SensitiveNames.words(in: $0, model: model) } ?? []
      guard let word = SensitiveNames.secretWord(in: pathWords + dataWords, patterns: patterns) else { continue }
      context.report(
        write.destination,
        message:
          "This writes a secret (`\(word)`) to a file in the App Group container, which every app and extension of the group can read and which only data protection guards. Keep it in the keychain, shared through a keychain access group if extensions need it.",
        related: [(context.offset(of: container.call), "the App Group container")])
    }
  }
}
