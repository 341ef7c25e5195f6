import KeywardCore
import SwiftSyntax

/// Flags keychain items stored with an accessibility class that leaves them readable while the
/// device is locked.
public struct WeakKeychainAccessibility: Rule {
  public static let metadata = RuleMetadata(
    id: "swift.weak_keychain_accessibility",
    title: "Weak keychain accessibility",
    severity: .high, confidence: .high, resource: "Information leak",
    tags: [
      "CWE:311", "CWE:312", "CWE:359", "MASWE:0006", "MASWE:0007", "NIST.SP.800-53", "OWASP:2021:A2", "OWASP:2021:A4",
      "PCI-DSS:3.4", "PCI-DSS:8.2.1", "MASVS-STORAGE-1",
    ],
    description: """
      The accessibility class of a keychain item decides when the system will decrypt it. \
      `kSecAttrAccessibleAlways` and `kSecAttrAccessibleAlwaysThisDeviceOnly` make the item \
      readable at any time, including while the device is locked, and both have been deprecated \
      since iOS 12. Keyward reports them wherever they reach a keychain query as the \
      `kSecAttrAccessible` value (dictionary literals, subscripts, `updateValue`, `setValue`, \
      `setObject`, with the key spelled as the constant, a cast, `String(...)` or its raw value \
      `"pdmn"`) or the protection class of `SecAccessControlCreateWithFlags`, also through \
      constants, the file's enums that switch over their cases (for the cases its calls pass), \
      and as the raw strings `"dk"` and `"dku"`. The same holds for keychain wrapper \
      libraries (KeychainAccess, SwiftKeychainWrapper, KeychainSwift, Valet, Locksmith, \
      UICKeyChainStore, and in-house wrappers declared in `wrapperMappings`) where the file uses them.
      """,
    rationale: """
      Data protection ties each keychain item to a class key. Items in the "always" classes are \
      encrypted with a key that is available without the passcode, so anyone who holds the device \
      (or a forensic tool, or malware planted while it was briefly unlocked) can read them while \
      it is locked. Tokens and passwords stored this way get none of the protection the passcode \
      gives the rest of the app's data.
      """,
    vulnerableExample: """
      let query: [String: Any] = [
          kSecClass as String: kSecClassGenericPassword,
          kSecAttrAccount as String: "apiToken",
          kSecValueData as String: data,
          kSecAttrAccessible as String: kSecAttrAccessibleAlways   // readable while locked
      ]
      SecItemAdd(query as CFDictionary, nil)
      """,
    remediation: """
      Use `kSecAttrAccessibleWhenUnlocked` (or `...WhenUnlockedThisDeviceOnly`) for items the app \
      only needs in the foreground. Items needed by background work should use \
      `kSecAttrAccessibleAfterFirstUnlock` (or `...AfterFirstUnlockThisDeviceOnly`), which Apple \
      names as the replacement for the deprecated classes. Add `ThisDeviceOnly` to keep secrets \
      out of backups and off other devices; `kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly` \
      gives the most protection.
      """,
    fixedExample: """
      let query: [String: Any] = [
          kSecClass as String: kSecClassGenericPassword,
          kSecAttrAccount as String: "apiToken",
          kSecValueData as String: data,
          kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly
      ]
      let status = SecItemAdd(query as CFDictionary, nil)
      """,
    references: [
      Reference(
        "CWE-311: Missing Encryption of Sensitive Data", url: "https://cwe.mitre.org/data/definitions/311.html"),
      Reference(
        "CWE-312: Cleartext Storage of Sensitive Information", url: "https://cwe.mitre.org/data/definitions/312.html"),
      Reference(
        "CWE-359: Exposure of Private Personal Information to an Unauthorized Actor",
        url: "https://cwe.mitre.org/data/definitions/359.html"),
      Reference(
        "OWASP Top 10 2021 A02: Cryptographic Failures", url: "https://owasp.org/Top10/A02_2021-Cryptographic_Failures/"
      ),
      Reference("OWASP Top 10 2021 A04: Insecure Design", url: "https://owasp.org/Top10/A04_2021-Insecure_Design/"),
      Reference(
        "Apple: Restricting keychain item accessibility",
        url: "https://developer.apple.com/documentation/security/restricting-keychain-item-accessibility"),
      Reference("MASWE-0006 (beta numbering): Sensitive Data Stored Unencrypted in Private Storage Locations"),
      Reference(
        "MASWE-0007 (beta numbering): Sensitive Data Stored Unencrypted in Shared Storage Requiring No User Interaction"
      ),
    ])

  public static let options = [
    OptionSpec(
      key: "weakAccessibilityAttributes", summary: "kSecAttrAccessible values to report.",
      defaultValue: .strings(["kSecAttrAccessibleAlways", "kSecAttrAccessibleAlwaysThisDeviceOnly"]),
      allowedValues: AccessibilityClass.names)
  ]

  public static let readsWrapperSettings = true

  public static func prefilterTokens(options: RuleOptions) -> [String] {
    ["kSecAttrAccessible", "\"pdmn\""] + options.strings("weakAccessibilityAttributes")
  }

  public static let valueSinks: [ValueSink] = [.accessibility]

  public static func check(_ context: RuleContext) {
    let weak = Set(context.options.strings("weakAccessibilityAttributes"))
    let model = context.model
    for sink in model.sinkSites(.accessibility) {
      for value in model.resolver.values(of: sink.value) {
        guard let (accessibility, isRaw) = AccessibilityClass.denoted(by: value.expression),
          weak.contains(accessibility.name)
        else { continue }
        var related: [(offset: Int, note: String)] =
          value.reachedThroughName ? [(sink.at.positionAfterSkippingLeadingTrivia.utf8Offset, sink.note)] : []
        var subject = subject(accessibility, isRaw: isRaw)
        if let choice = value.choice {
          // A mapping table offers the class; the call choosing its case is what to change.
          subject = "`\(SyntaxFacts.text(choice))`, which this file maps to `\(accessibility.name)`,"
          related.insert((context.offset(of: value.expression), "mapped to `\(accessibility.name)` here"), at: 0)
        }
        context.report(
          value.reportedExpression,
          message: message(accessibility, subject: subject, conditional: value.isConditional && value.choice == nil),
          confidence: value.isConditional && value.choice == nil ? .medium : nil,
          fix: isRaw || value.choice != nil ? nil : fix(accessibility, node: value.expression, context: context),
          related: related)
      }
    }
    for value in model.wrapperValues(.accessibility) {
      guard let accessibility = AccessibilityClass.named(value.meaning), weak.contains(accessibility.name) else {
        continue
      }
      let subject = "`\(SyntaxFacts.text(value.expression))` (\(value.library) for `\(accessibility.name)`)"
      context.report(
        value.expression, message: message(accessibility, subject: subject, conditional: value.isConditional),
        confidence: value.isConditional ? .medium : nil)
    }
    // A weak class passed to a function whose parameter reaches a stored item's accessibility.
    let passed = weak.sorted().flatMap { model.index.constantReferencesByName[$0] ?? [] }.map(ExprSyntax.init)
    context.reportPassed(passed, to: .accessibility) { atom, call in
      guard !isNamedForPublicKey(atom) else { return nil }
      return AccessibilityClass.denoted(by: atom).map { accessibility, isRaw in
        (
          message(accessibility, subject: subject(accessibility, isRaw: isRaw), conditional: false)
            + " (\(call.destination), which stores it as an item's accessibility.)",
          fix(accessibility, node: atom, context: context)
        )
      }
    }
  }

  /// Whether the statement choosing a passed value names it for a public key
  /// (`let publicAccessControl = AccessControl(protection: …)`, `publicKeyAttributes: .init(…)`):
  /// a public key's item holds nothing secret, and is often wanted readable while locked.
  static func isNamedForPublicKey(_ atom: ExprSyntax) -> Bool {
    var current = atom.parent
    while let node = current, !node.is(CodeBlockItemSyntax.self), !node.is(MemberBlockItemSyntax.self) {
      let name =
        node.as(PatternBindingSyntax.self).map { SyntaxFacts.text($0.pattern) }
        ?? node.as(LabeledExprSyntax.self)?.label?.text ?? ""
      if name.lowercased().contains("public") { return true }
      current = node.parent
    }
    return false
  }

  static func subject(_ accessibility: AccessibilityClass, isRaw: Bool) -> String {
    isRaw ? "`\"\(accessibility.rawValue)\"` (the raw value of `\(accessibility.name)`)" : "`\(accessibility.name)`"
  }

  static func message(_ accessibility: AccessibilityClass, subject: String, conditional: Bool) -> String {
    var text: String
    if let replacement = accessibility.replacement {
      text =
        "\(subject) makes this keychain item readable while the device is locked, so anyone holding the device can extract it without the passcode; it is deprecated since iOS 12. Use `\(replacement)` if background code needs the item, otherwise `kSecAttrAccessibleWhenUnlockedThisDeviceOnly`."
    } else {
      text =
        "\(subject) is listed as weak in this project's `weakAccessibilityAttributes`. Use a class that needs the device unlocked, such as `kSecAttrAccessibleWhenUnlockedThisDeviceOnly`."
    }
    if conditional { text += " (The weak class is chosen on at least one path.)" }
    return text
  }

  static func fix(_ accessibility: AccessibilityClass, node: ExprSyntax, context: RuleContext) -> Fix? {
    guard let replacement = accessibility.replacement else { return nil }
    let token: TokenSyntax
    if let reference = node.as(DeclReferenceExprSyntax.self) {
      token = reference.baseName
    } else if let member = node.as(MemberAccessExprSyntax.self) {
      token = member.declName.baseName
    } else {
      return nil
    }
    return Fix(
      description: "Replace `\(accessibility.name)` with `\(replacement)`", safe: true,
      edits: [context.replacement(of: token, with: replacement)])
  }
}
