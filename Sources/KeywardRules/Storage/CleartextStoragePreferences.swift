import KeywardCore
import SwiftSyntax

/// Flags secrets written to UserDefaults, iCloud key-value storage or `@AppStorage`.
public struct CleartextStoragePreferences: Rule {
  public static let metadata = RuleMetadata(
    id: "swift.cleartext_storage_preferences",
    title: "Secret stored in preferences",
    severity: .high, confidence: .medium, resource: "Information leak",
    tags: ["CWE:312", "CWE:922", "MASWE:0006", "OWASP:2021:A2", "MASVS-STORAGE-1"],
    profile: .standard,
    description: """
      `UserDefaults`, `NSUbiquitousKeyValueStore` and `@AppStorage` / `@SceneStorage` keep values \
      in a plain property list (or in iCloud), outside the keychain. Keyward reports values \
      written there whose key or value is named like a secret (`sensitiveNamePatterns`: token, \
      password, secret, ...). A secret handed to a function of the same file that writes what \
      it is given there (`store(secretKey, for: .vault)`) is reported where it is handed, once, \
      unless the write itself names the secret; so is a property the file wraps in its own \
      `@propertyWrapper` whose setter writes there (`@UserDefault("password")`). Helpers and \
      wrappers in other files are not followed.
      """,
    rationale: """
      The preferences plist is readable by anyone with a backup of the device or a jailbroken \
      phone, and iCloud key-value storage copies it to every device of the account. Secrets there \
      have none of the keychain's protection.
      """,
    vulnerableExample: """
      UserDefaults.standard.set(authToken, forKey: "authToken")
      """,
    remediation:
      "Store secrets in the keychain with a `ThisDeviceOnly` accessibility class; keep only non-secret settings in preferences.",
    fixedExample: """
      let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "authToken",
                                  kSecValueData as String: Data(authToken.utf8),
                                  kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly]
      let status = SecItemAdd(query as CFDictionary, nil)
      """,
    references: [
      Reference(
        "CWE-312: Cleartext Storage of Sensitive Information", url: "https://cwe.mitre.org/data/definitions/312.html"),
      Reference("OWASP MASTG: Data Storage on iOS (NSUserDefaults)"),
    ])

  public static let options = [SensitiveNames.option]

  public static func prefilterTokens(options: RuleOptions) -> [String] {
    SemanticModel.preferencesStores + ["AppStorage", "SceneStorage"]
  }

  /// Without a secret's name anywhere in the file, no store call can write one.
  /// A file is parsed for this rule only if it can write to a store (`set(`, `setValue(`,
  /// `setObject(`, a wrapper attribute) and can name a secret.
  public static func mayReport(in bytes: [UInt8], options: RuleOptions) -> Bool {
    ByteSearch.containsAny(["set(", "setValue(", "setObject(", "AppStorage", "SceneStorage"], in: bytes)
      && SensitiveNames.mayAppear(in: bytes, patterns: options.strings("sensitiveNamePatterns"))
  }

  public static let valueSinks: [ValueSink] = [.preferencesValue]

  public static func check(_ context: RuleContext) {
    let patterns = context.options.strings("sensitiveNamePatterns")
    let model = context.model
    for write in model.preferencesWrites {
      guard let word = secretWord(of: write.value, keys: [write.key], model: model, patterns: patterns) else {
        continue
      }
      context.report(write.value, message: message(word: word, store: write.store))
    }
    // `@AppStorage`, and the file's own wrappers whose setter writes to a store (`@UserDefault`).
    let wrappers = model.preferencesWrapperTypes
    for bindings in model.index.bindingsByName.values {
      for binding in bindings {
        guard let declaration = binding.node.parent?.parent?.as(VariableDeclSyntax.self) else { continue }
        for case .attribute(let attribute) in declaration.attributes {
          let name = SyntaxFacts.text(attribute.attributeName)
          let store =
            name == "AppStorage" || name == "SceneStorage"
            ? "@\(name)" : wrappers[name].map { "\($0) (through `@\(name)`)" }
          guard let store else { continue }
          let key = attribute.arguments.flatMap { $0.as(LabeledExprListSyntax.self)?.first?.expression }
          let words = (key.map { SensitiveNames.words(in: $0, model: model, asKey: true) } ?? []) + [binding.name]
          guard let word = SensitiveNames.secretWord(in: words, patterns: patterns),
            !isOnlyRead(binding, declaredBy: declaration, model: model)
          else { continue }
          context.report(attribute, message: message(word: word, store: store))
        }
      }
    }
    // A secret handed to a helper of the file that writes what it is given to a store
    // (`store(secretKey, for: .vault)`). Only such a file is looked at: reading every argument
    // of every file that names a store cost a tenth of a scan of real apps.
    guard model.declaresPreferencesHelper else { return }
    var handedWords: [SyntaxIdentifier: String] = [:]
    let named = SensitiveNames.NamedSites(in: model.tree, patterns: patterns)
    let handed = model.handedValues { value in
      guard let word = secretHandedToHelper(value, model: model, patterns: patterns, named: named) else {
        return false
      }
      handedWords[value.id] = word
      return true
    }
    context.reportPassed(handed, to: .preferencesValue) { atom, call in
      handedWords[atom.id].map { (handedMessage(word: $0, helper: call), nil) }
    }
  }

  /// The secret's word when `value`, handed to a call that is not itself a store's setter, is
  /// named as a secret, alone or with the call's key (an argument labelled `key`, `forKey`, `for`).
  static func secretHandedToHelper(
    _ value: ExprSyntax, model: SemanticModel, patterns: [String], named: SensitiveNames.NamedSites
  ) -> String? {
    let argument = value.parent?.as(LabeledExprSyntax.self)
    let call = argument?.parent?.parent?.as(FunctionCallExprSyntax.self)
    // Most arguments name no secret, nor do the others of their call: ruled out at one look.
    guard named.occur(in: call.map { Syntax($0.arguments) } ?? Syntax(value)) else { return nil }
    var keys: [ExprSyntax] = []
    for other in call?.arguments ?? [] where other.id != argument?.id && isKeyLabel(other.label?.text) {
      keys.append(other.expression)
    }
    guard named.occur(in: value) || keys.contains(where: { named.occur(in: $0) }) else { return nil }
    // A store's own setter is judged as a write.
    if let call, model.preferencesWrites.contains(where: { $0.call.id == call.id }) { return nil }
    // The helper's name says what it is given, as a key does (`didReceivePushToken(token)`).
    let helper = call.flatMap(SyntaxFacts.calledName).map { [$0] } ?? []
    return secretWord(of: value, keys: keys, model: model, patterns: patterns, names: helper)
  }

  /// The secret's word when `value`'s name, or a key it is kept under, names a secret and the
  /// value can hold one (not a flag, number or date, an identifier or a string in the source).
  /// `names` are other names the value goes by (the helper it is handed to); like the key's,
  /// they can also say it is not a secret.
  static func secretWord(
    of value: ExprSyntax, keys: [ExprSyntax], model: SemanticModel, patterns: [String], names: [String] = []
  ) -> String? {
    guard !SensitiveNames.holdsPlainValue(value, model: model),
      !SensitiveNames.revealsNothingSecret(value, model: model)
    else { return nil }
    let words =
      keys.flatMap { SensitiveNames.words(in: $0, model: model, asKey: true) }
      + SensitiveNames.words(in: value, model: model) + names
    return SensitiveNames.secretWord(in: words, patterns: patterns)
  }

  /// Whether a wrapped property only reads the store: it is `private` (or `fileprivate`) and the
  /// file neither assigns it nor hands out its binding (`$passcode`). Its initial value is a
  /// default, which the wrapper never writes.
  static func isOnlyRead(_ binding: Binding, declaredBy declaration: VariableDeclSyntax, model: SemanticModel) -> Bool {
    guard declaration.modifiers.contains(where: { ["private", "fileprivate"].contains($0.name.text) }) else {
      return false
    }
    if model.index.assignmentsByName[binding.name] != nil || model.index.memberAssignmentsByName[binding.name] != nil {
      return false
    }
    let projected = "$" + binding.name
    return !model.tree.tokens(viewMode: .sourceAccurate).contains { $0.text == projected }
  }

  static func isKeyLabel(_ label: String?) -> Bool {
    guard let label = label?.lowercased() else { return false }
    return label == "for" || label.hasSuffix("key")
  }

  static func handedMessage(word: String, helper call: CallShape) -> String {
    let helper = call.isProperty ? "\(call.name).\(call.labels.first ?? "")" : call.signature
    return "A secret (`\(word)`) is handed to `\(helper)`, which writes it to preferences, \(whyAndFix)"
  }

  static func message(word: String, store: String) -> String {
    "A secret (`\(word)`) is written to \(store), \(whyAndFix)"
  }

  static let whyAndFix =
    "a plain property list outside the keychain that backups and jailbroken devices expose. Store it in the keychain with a `ThisDeviceOnly` accessibility class."
}
