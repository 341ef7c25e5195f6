import KeywardCore
import SwiftSyntax

/// Flags files written without data protection.
public struct UnprotectedFileStorage: Rule {
  public static let metadata = RuleMetadata(
    id: "swift.unprotected_file_storage",
    title: "File stored without data protection",
    severity: .high, confidence: .high, resource: "Information leak",
    tags: ["CWE:311", "CWE:312", "MASWE:0006", "OWASP:2021:A2", "MASVS-STORAGE-1", "MASTG-TEST-0299"],
    profile: .essential,
    description: """
      Files written with `FileProtectionType.none`, the `.noFileProtection` write option, \
      `URLFileProtection.none` or `NSFileProtectionNone` are encrypted only with the device key, \
      which is available at all times, so their contents can be read while the device is locked.
      """,
    rationale: """
      The default class for app files, `completeUntilFirstUserAuthentication`, already protects \
      files after a reboot until the first unlock. Opting out removes even that: anyone who \
      obtains the device, or a backup extraction tool, reads the file without the passcode.
      """,
    vulnerableExample: """
      try data.write(to: url, options: .noFileProtection)
      """,
    remediation: """
      Write secrets with `.completeFileProtection` (readable only while unlocked), or \
      `.completeFileProtectionUntilFirstUserAuthentication` for files background work needs. \
      Better, keep small secrets in the keychain.
      """,
    fixedExample: """
      try data.write(to: url, options: .completeFileProtection)
      """,
    references: [
      Reference(
        "Apple: Encrypting Your App's Files",
        url: "https://developer.apple.com/documentation/uikit/encrypting-your-app-s-files"),
      Reference(
        "CWE-311: Missing Encryption of Sensitive Data", url: "https://cwe.mitre.org/data/definitions/311.html"),
    ])

  public static let examples = RuleExamples(
    flagged: [
      "try data.write(to: url, options: ↓.noFileProtection)",
      "try data.write(to: url, options: [.atomic, ↓.noFileProtection])",
      RuleExample(versionMarker(written: "session.refreshToken", marker: "↓")),
      "try FileManager.default.setAttributes([.protectionKey: ↓FileProtectionType.none], ofItemAtPath: path)",
      "FileManager.default.createFile(atPath: path, contents: data, attributes: [FileAttributeKey.protectionKey: ↓.none])",
      "FileManager.default.createFile(atPath: path, contents: Data(token.utf8), attributes: [.protectionKey: ↓FileProtectionType.none])",
      "let attributes = [NSFileProtectionKey: ↓NSFileProtectionNone]",
      "values.fileProtection = ↓URLFileProtection.none",
      "values.fileProtection = ↓.none",
    ],
    clean: [
      "try data.write(to: url, options: .completeFileProtection)",
      "let result: String? = .none",
      "switch mode { case .none: break; default: break }",
      "try FileManager.default.setAttributes([.protectionKey: FileProtectionType.complete], ofItemAtPath: path)",
      // Looked for, not written.
      "let unprotected = attributes[.protectionKey] as? FileProtectionType == FileProtectionType.none",
      "if current != .some(FileProtectionType.none) { try downgrade(path) }",
      """
      func needsUpgrade(_ url: URL) throws -> Bool {
          let weakClasses: Set<URLFileProtection> = [URLFileProtection.none, .completeUntilFirstUserAuthentication]
          let current = try url.resourceValues(forKeys: [.fileProtectionKey]).fileProtection
          return current.map { weakClasses.contains($0) } ?? true
      }
      """,
      "if [NSFileProtectionNone, NSFileProtectionCompleteUntilFirstUserAuthentication].contains(current) { upgrade() }",
      // A marker file created empty: its existence is all it says.
      "FileManager.default.createFile(atPath: markerPath, contents: nil, attributes: [.protectionKey: FileProtectionType.none])",
      // A version number: a variable keeps the type of its first value, whatever is assigned later.
      RuleExample(versionMarker(written: "String(schemaVersion)", marker: "")),
    ])

  /// A migration marker that writes `written` with `.noFileProtection`.
  static func versionMarker(written: String, marker: String) -> String {
    """
    func recordMigration(_ step: MigrationStep, marker url: URL, session: Session) throws {
        var schemaVersion = Int(try String(contentsOf: url, encoding: .utf8)) ?? 0
        schemaVersion = step.version
        try \(written).data(using: .utf8)!.write(to: url, options: [.atomic, \(marker).noFileProtection])
    }
    """
  }

  public static func prefilterTokens(options: RuleOptions) -> [String] {
    [
      "noFileProtection", "FileProtectionType", "URLFileProtection", "NSFileProtectionNone", "protectionKey",
      "fileProtection",
    ]
  }

  static let message =
    "This file is written without data protection, so its contents can be read while the device is locked. Use `.completeFileProtection` (or `...UntilFirstUserAuthentication` for files background work needs), or keep the secret in the keychain."

  public static func check(_ context: RuleContext) {
    let model = context.model
    let index = model.index
    // A class only compared or searched for (`protection == .none`, a set of classes asked
    // `contains`), or given to a file created empty or written with a number, protects no secret.
    let guardsNothing = { (node: ExprSyntax) in model.isOnlyLookedFor(node) || model.protectsNoSecretContents(node) }
    for access in index.memberAccessesByName["noFileProtection"] ?? [] where !guardsNothing(ExprSyntax(access)) {
      context.report(access, message: message)
    }
    for type in ["FileProtectionType", "URLFileProtection"] {
      for access in index.qualifiedMembersByType[type] ?? []
      where access.declName.baseName.text == "none" && !guardsNothing(ExprSyntax(access)) {
        context.report(access, message: message)
      }
    }
    for reference in index.constantReferencesByName["NSFileProtectionNone"] ?? []
    where !guardsNothing(ExprSyntax(reference)) {
      context.report(reference, message: message)
    }
    // `.none` is only a protection class where the context says so.
    for element in index.dictionaryElements where isProtectionKey(element.key) {
      if let value = bareNone(element.value), !guardsNothing(ExprSyntax(value)) {
        context.report(value, message: message)
      }
    }
    for (_, value) in index.memberAssignmentsByName["fileProtection"] ?? [] {
      if let none = bareNone(value) { context.report(none, message: message) }
    }
  }

  static func isProtectionKey(_ key: ExprSyntax) -> Bool {
    let key = SequenceShape.unwrapCasts(key)
    if let member = key.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text == "protectionKey" }
    return key.as(DeclReferenceExprSyntax.self)?.baseName.text == "NSFileProtectionKey"
  }

  static func bareNone(_ value: ExprSyntax) -> MemberAccessExprSyntax? {
    guard let member = SequenceShape.unwrapCasts(value).as(MemberAccessExprSyntax.self), member.base == nil,
      member.declName.baseName.text == "none"
    else { return nil }
    return member
  }
}
