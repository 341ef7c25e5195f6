import KeywardCore
import SwiftSyntax

/// Flags access controls that accept biometrics enrolled after the item was protected.
public struct WeakBiometricACL: Rule {
  public static let metadata = RuleMetadata(
    id: "swift.weak_biometric_acl",
    title: "Weak biometric access control flags",
    severity: .high, confidence: .high, resource: "Authentication",
    tags: [
      "CWE:287", "CWE:305", "MASVS:auth-8", "MASWE:0014", "NIST.SP.800-53", "OWASP:2021:A07", "PCI-DSS:8.2.1",
      "MASVS-AUTH-2", "MASTG-TEST-0270",
    ],
    description: """
      A keychain item or key protected with `SecAccessControlCreateWithFlags` is only as strong as \
      its flags. `.biometryAny` (alias `.touchIDAny`) accepts any biometric enrolled on the device, \
      including a finger or face added after the item was stored; `.userPresence` also accepts \
      the device passcode. Flags are followed back through constants, properties, arrays, \
      `insert`/`union` and `rawValue:` integers. `.biometryAny` beside `.or, .devicePasscode` is \
      left to the passcode fallback rule (enrolling a finger takes the passcode, which opens such \
      an item alone); a set also requiring `.applicationPassword` (no `.or`) is not weak, nor is \
      `.userPresence` where a biometric `canEvaluatePolicy` check failed; in code named for the \
      passcode (`makePasscodeKey()`) it is the stated purpose, reported under strict. An access \
      control only put into searches (`SecItemCopyMatching`) protects nothing. Wrappers' policies \
      (KeychainAccess, Valet, UICKeyChainStore, EllipticCurveKeyPair, `wrapperMappings`) are read \
      the same way.
      """,
    rationale: """
      Someone who learns the passcode or holds the unlocked device for a minute can enroll their \
      own fingerprint or face. With `.biometryAny` the protected item stays valid, so from then on \
      their biometric unlocks it; nothing tells the app that enrollment changed. `.userPresence` \
      additionally lets a shoulder-surfed passcode stand in for biometrics.
      """,
    vulnerableExample: """
      guard let access = SecAccessControlCreateWithFlags(
          kCFAllocatorDefault,
          kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
          .biometryAny,   // any enrolled biometric, including ones added later
          nil
      ) else { throw KeychainError.accessControlCreationFailed }
      """,
    remediation: """
      Use `.biometryCurrentSet`: the item is invalidated when biometrics are added or removed, and \
      the app falls back to its full login to re-create it. Combine it with `.privateKeyUsage` for \
      Secure Enclave keys. Keep `.userPresence` (or `.or, .devicePasscode`) for items where a \
      passcode fallback is an accepted risk, and list only the flags your policy rejects in \
      `weakBiometricFlags`.
      """,
    fixedExample: """
      guard let access = SecAccessControlCreateWithFlags(
          kCFAllocatorDefault,
          kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
          [.biometryCurrentSet, .privateKeyUsage],
          nil
      ) else { throw KeychainError.accessControlCreationFailed }
      """,
    references: [
      Reference("CWE-287: Improper Authentication", url: "https://cwe.mitre.org/data/definitions/287.html"),
      Reference(
        "CWE-305: Authentication Bypass by Primary Weakness", url: "https://cwe.mitre.org/data/definitions/305.html"),
      Reference(
        "OWASP Top 10 2021 A07: Identification and Authentication Failures",
        url: "https://owasp.org/Top10/A07_2021-Identification_and_Authentication_Failures/"),
      Reference(
        "Apple: Accessing Keychain Items with Face ID or Touch ID",
        url:
          "https://developer.apple.com/documentation/localauthentication/accessing-keychain-items-with-face-id-or-touch-id"
      ),
      Reference(
        "Apple: SecAccessControlCreateFlags",
        url: "https://developer.apple.com/documentation/security/secaccesscontrolcreateflags"),
      Reference("OWASP MASTG-TEST-0270: References to APIs Detecting Biometric Enrollment Changes"),
      Reference("MASWE-0014 (beta numbering): Cryptographic Keys Not Properly Protected at Rest"),
    ])

  public static let options = [
    OptionSpec(
      key: "weakBiometricFlags", summary: "SecAccessControlCreateFlags members to report.",
      defaultValue: .strings(["biometryAny", "touchIDAny", "userPresence"]), allowedValues: AccessControlFlag.names)
  ]

  public static let readsWrapperSettings = true

  public static func prefilterTokens(options: RuleOptions) -> [String] {
    ["SecAccessControl"] + options.strings("weakBiometricFlags")
  }

  public static let valueSinks: [ValueSink] = [.accessControlFlags]

  public static func check(_ context: RuleContext) {
    let weak = Set(context.options.strings("weakBiometricFlags"))
    let model = context.model
    let sinkArguments = Set(
      model.accessControlCreations.compactMap { SyntaxFacts.argument($0, at: 2)?.id })
    // The flags of an access control made for a public key guard no secret; those of one made
    // only to be compared with another protect no item.
    let protectingNothing = Set(
      model.accessControlCreations.filter(SensitiveNames.namesPublicKeyProtection).compactMap {
        SyntaxFacts.argument($0, at: 2)?.id
      }
    ).union(model.flagsProtectingNoItem)
    var weakByNode: [SyntaxIdentifier: (node: ExprSyntax, origins: [FlagOrigin], sink: ExprSyntax)] = [:]
    var order: [SyntaxIdentifier] = []
    for root in model.accessControl.allFlagExpressions where !protectingNothing.contains(root.id) {
      let origins = model.accessControl.origins(of: root)
      let sets = AccessControlEvaluator.flagSets(origins)
      // Flags only compared with (`flags == [.userPresence]`) protect no item.
      for origin in origins
      where isWeak(origin.flag, fromRawValue: origin.fromRawValue, weak) && !model.isOnlyLookedFor(origin.node)
        && (!isOffered(origin, model: model) || context.options.reportsWeakEvidence)
        && !enrollmentIsMoot(origin, in: sets)
        && !alsoNeedsApplicationPassword(origin, in: sets) && !isOnlyChoiceWithoutBiometrics(origin, model: model)
      {
        let id = origin.reportedNode.id
        if weakByNode[id] == nil {
          order.append(id)
          weakByNode[id] = (origin.reportedNode, [], root)
        }
        if !weakByNode[id]!.origins.contains(where: { $0.flag == origin.flag }) {
          weakByNode[id]!.origins.append(origin)
        }
      }
    }
    for id in order {
      let (node, origins, sink) = weakByNode[id]!
      let conditional = origins.allSatisfy(\.isConditional)
      var related: [(offset: Int, note: String)] = []
      if let mapped = origins.first(where: { $0.choice != nil })?.node {
        related.append((context.offset(of: mapped), "mapped to `.\(origins[0].flag.name)` here"))
      }
      if origins.contains(where: \.reachedThroughName), sinkArguments.contains(sink.id) {
        related.append(
          (sink.positionAfterSkippingLeadingTrivia.utf8Offset, "reaches SecAccessControlCreateWithFlags here"))
      }
      context.report(
        node, message: message(for: origins, node: node, conditional: conditional),
        confidence: conditional ? .medium : nil, fix: fix(for: origins, node: node, context: context), related: related)
    }
    for value in model.wrapperValues(.authenticationPolicy) {
      guard let flag = AccessControlFlag.named(value.meaning), weak.contains(flag.name),
        !(value.call.map(SensitiveNames.namesPublicKeyProtection) ?? false)
      else { continue }
      let origin = FlagOrigin(
        flag: flag, node: value.expression, isConditional: value.isConditional, fromRawValue: false,
        reachedThroughName: false)
      context.report(
        value.expression,
        message: "\(value.library): "
          + message(for: [origin], node: value.expression, conditional: value.isConditional),
        confidence: value.isConditional ? .medium : nil)
    }
    // A weak flag passed to a function whose parameter reaches an access control.
    let passed = weak.sorted().flatMap { model.index.memberAccessesByName[$0] ?? [] }.map(ExprSyntax.init)
    context.reportPassed(passed, to: .accessControlFlags) { atom, call in
      guard let flag = AccessControlFlag.named(atom.as(MemberAccessExprSyntax.self)?.declName.baseName.text ?? ""),
        !AccessControlEvaluator.writtenBesideApplicationPassword(atom)
      else { return nil }
      let origins = [
        FlagOrigin(flag: flag, node: atom, isConditional: false, fromRawValue: false, reachedThroughName: true)
      ]
      guard context.options.reportsWeakEvidence || !isOffered(origins[0], model: model) else { return nil }
      return (
        message(for: origins, node: atom, conditional: false)
          + " (\(call.destination), which makes it the flags of an access control.)",
        fix(for: origins, node: atom, context: context)
      )
    }
  }

  /// Whether every set holding `.biometryAny` also has `.or, .devicePasscode`: enrolling a finger
  /// takes the passcode, and the passcode alone already opens the item, so the enrollment
  /// weakness adds nothing (the passcode fallback rule reports the set).
  static func enrollmentIsMoot(_ origin: FlagOrigin, in sets: [[FlagOrigin]]) -> Bool {
    guard AccessControlFlag.sameBit(as: "biometryAny").contains(origin.flag.name) else { return false }
    let holding = sets.filter { set in set.contains { $0.node.id == origin.node.id && $0.flag == origin.flag } }
    return !holding.isEmpty
      && holding.allSatisfy { AccessControlEvaluator.acceptsPasscodeInstead(Set($0.map(\.flag.name))) }
  }

  /// Whether every set holding the flag also requires the app's own password (`.applicationPassword`
  /// without `.or`): neither the passcode nor a newly enrolled finger opens the item alone.
  static func alsoNeedsApplicationPassword(_ origin: FlagOrigin, in sets: [[FlagOrigin]]) -> Bool {
    if AccessControlEvaluator.writtenBesideApplicationPassword(origin.node) { return true }
    let holding = sets.filter { set in set.contains { $0.node.id == origin.node.id && $0.flag == origin.flag } }
    return !holding.isEmpty
      && holding.allSatisfy { AccessControlEvaluator.requiresApplicationPassword(Set($0.map(\.flag.name))) }
  }

  /// A flag the caller picks among this code's options; or one that accepts the passcode, chosen
  /// in code named for the passcode (`generatePasscodeKeyPair()`): that is its stated purpose.
  private static func isOffered(_ origin: FlagOrigin, model: SemanticModel) -> Bool {
    origin.chosenByCaller
      || (["userPresence", "devicePasscode"].contains(origin.flag.name)
        && model.isNamedForThePasscode(Syntax(origin.node)))
  }

  /// `.userPresence` chosen where a biometric check failed: the passcode is all such a device
  /// can ask for, so no biometric flag could take its place.
  private static func isOnlyChoiceWithoutBiometrics(_ origin: FlagOrigin, model: SemanticModel) -> Bool {
    origin.flag.name == "userPresence" && model.isWhereBiometricsAreUnavailable(origin.node)
  }

  /// Whether a flag is on the weak list; a raw value decodes to current names, so a list naming
  /// a deprecated alias (`touchIDAny`) still matches its bit.
  static func isWeak(_ flag: AccessControlFlag, fromRawValue: Bool, _ weak: Set<String>) -> Bool {
    fromRawValue ? !AccessControlFlag.sameBit(as: flag.name).isDisjoint(with: weak) : weak.contains(flag.name)
  }

  static func message(for origins: [FlagOrigin], node: ExprSyntax, conditional: Bool) -> String {
    let names = origins.map(\.flag.name)
    var text: String
    if origins.first?.fromRawValue == true {
      let listed = names.map { "`.\($0)`" }.joined(separator: " and ")
      text = "`rawValue: \(SyntaxFacts.text(node))` includes \(listed). `.\(names[0])` " + consequence(of: names[0])
    } else {
      let alias = names[0] == "touchIDAny" ? " (a deprecated alias of `.biometryAny`)" : ""
      // A mapping table's case is reported where it is chosen; the message names the flag.
      let isMapped = origins.first?.choice != nil && SyntaxFacts.text(node) != ".\(names[0])"
      let subject =
        isMapped ? "`\(SyntaxFacts.text(node))` is mapped to `.\(names[0])`, which" : "`.\(names[0])`\(alias)"
      text = subject + " " + consequence(of: names[0])
    }
    if conditional { text += " (The weak flag is chosen on at least one path.)" }
    return text
  }

  /// What a weak flag lets an attacker do, and what to use instead.
  static func consequence(of flag: String) -> String {
    switch flag {
    case "biometryAny", "touchIDAny":
      "keeps the item unlockable after a new fingerprint or face is enrolled, so anyone who can add their own biometrics to the device gets in. Use `.biometryCurrentSet`, which invalidates the item when enrollment changes."
    case "userPresence":
      "accepts any enrolled biometric or the device passcode, so a newly enrolled face or a shoulder-surfed passcode unlocks the item. Use `.biometryCurrentSet` for sensitive items; keep a passcode fallback only where that risk is accepted."
    default:
      "is listed as weak in this project's `weakBiometricFlags`. Use `.biometryCurrentSet`, which invalidates the item when enrollment changes."
    }
  }

  static func fix(for origins: [FlagOrigin], node: ExprSyntax, context: RuleContext) -> Fix? {
    guard origins.count == 1, let origin = origins.first, !origin.fromRawValue, origin.choice == nil,
      let member = node.as(MemberAccessExprSyntax.self)
    else { return nil }
    let name = origin.flag.name
    return Fix(
      description: "Replace `.\(name)` with `.biometryCurrentSet`",
      safe: name == "biometryAny" || name == "touchIDAny", changesBehavior: true,
      edits: [context.replacement(of: member.declName, with: "biometryCurrentSet")])
  }
}
