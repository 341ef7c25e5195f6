import KeywardCore
import SwiftSyntax

/// Reports deprecated Security and LocalAuthentication APIs with their replacements.
public struct DeprecatedSecurityAPI: Rule {
  public static let metadata = RuleMetadata(
    id: "swift.deprecated_security_api",
    title: "Deprecated Security or LocalAuthentication API",
    severity: .info, confidence: .high, resource: "Authentication",
    tags: ["CWE:477", "MASVS-CODE-3"],
    profile: .standard,
    description: """
      Reports uses of deprecated keychain and biometric APIs, each with Apple's replacement: \
      `.touchIDAny` / `.touchIDCurrentSet` (iOS 11.3), `kSecUseOperationPrompt` (iOS 14), \
      `kSecUseAuthenticationUIAllow` / `kSecUseAuthenticationUIFail` (iOS 14), \
      `kSecUseNoAuthenticationUI` (iOS 9), `evaluatedPolicyDomainState` (iOS 18, macOS 15; read on an \
      `LAContext`, not an app's own property of that name), the watch \
      policies and flag (macOS 15), `LAError`'s `touchID...` codes (iOS 11), \
      `LABiometryType.typeNone` (iOS 11.2), and the key functions `SecKeyGeneratePair`, \
      `SecKeyRawSign`, `SecKeyRawVerify`, `SecKeyEncrypt` and `SecKeyDecrypt` (iOS 15), and the \
      legacy `SecKeychain…` item and search functions (macOS 10.7 and 10.10). `.touchIDAny` and \
      `kSecAttrAccessibleAlways` / `...AlwaysThisDeviceOnly` are reported, with their \
      deprecation, by `swift.weak_biometric_acl` and `swift.weak_keychain_accessibility`. Uses \
      on the fallback of an `#available` check, or inside a declaration marked deprecated \
      itself, are not reported.
      """,
    rationale: """
      Deprecated security APIs keep working until they do not; their replacements usually close a \
      gap (the deprecated "always" classes leave items readable while locked) or move the control \
      to a better place (`LAContext` instead of query keys).
      """,
    vulnerableExample: """
      query[kSecUseOperationPrompt as String] = "Authenticate to continue"
      """,
    remediation: """
      Pass an `LAContext` as `kSecUseAuthenticationContext` and set its `localizedReason`; set \
      `interactionNotAllowed` instead of `kSecUseAuthenticationUIFail`; use `domainState.biometry.stateHash` \
      instead of `evaluatedPolicyDomainState`; use the `biometry...` flags instead of `touchID...`; \
      use `SecKeyCreateRandomKey`, `SecKeyCreateSignature`, `SecKeyVerifySignature` and \
      `SecKeyCreateEncryptedData` / `SecKeyCreateDecryptedData` instead of the old key functions.
      """,
    fixedExample: """
      let context = LAContext()
      context.localizedReason = "Authenticate to continue"
      query[kSecUseAuthenticationContext as String] = context
      """,
    references: [
      Reference("CWE-477: Use of Obsolete Function", url: "https://cwe.mitre.org/data/definitions/477.html"),
      Reference(
        "Apple: kSecUseOperationPrompt",
        url: "https://developer.apple.com/documentation/security/ksecuseoperationprompt"),
      Reference(
        "Apple: LAContext.domainState",
        url: "https://developer.apple.com/documentation/localauthentication/lacontext/domainstate"),
    ])

  /// Deprecated constants and their replacements.
  static let constants: [String: String] = [
    "kSecUseOperationPrompt": "`kSecUseAuthenticationContext` with `LAContext.localizedReason`",
    "kSecUseAuthenticationUIAllow": "`kSecUseAuthenticationContext` with an `LAContext`",
    "kSecUseAuthenticationUIFail": "`kSecUseAuthenticationContext` with `LAContext.interactionNotAllowed = true`",
    "kSecUseNoAuthenticationUI": "`kSecUseAuthenticationContext` with `LAContext.interactionNotAllowed = true`",
  ]
  /// Deprecated names that other rules already report, with the deprecation in their message.
  static let reportedElsewhere: Set<String> = ["touchIDAny"]
  /// Deprecated `LAPolicy` cases and their replacements.
  static let policies: [String: String] = [
    "deviceOwnerAuthenticationWithWatch": "deviceOwnerAuthenticationWithCompanion",
    "deviceOwnerAuthenticationWithBiometricsOrWatch": "deviceOwnerAuthenticationWithBiometricsOrCompanion",
  ]

  /// Deprecated members of LocalAuthentication types, with the replacement of the same raw
  /// value, and the types they are written on.
  static let members: [String: (replacement: String, types: Set<String>)] = [
    "touchIDLockout": ("biometryLockout", errorTypes),
    "touchIDNotAvailable": ("biometryNotAvailable", errorTypes),
    "touchIDNotEnrolled": ("biometryNotEnrolled", errorTypes),
    "typeNone": ("none", ["LABiometryType"]),
  ]
  static let errorTypes: Set<String> = ["LAError", "LAError.Code", "LAErrorCode"]
  /// Deprecated key functions (iOS 15; `SecKeyGeneratePair` also macOS 12) and the legacy
  /// keychain functions (macOS 10.10), with what replaces them. Their signatures differ, so
  /// there is no automatic fix.
  static let functions: [String: (since: String, replacement: String)] = keyFunctions.mapValues { ("iOS 15", $0) }
    .merging(legacyKeychainFunctions.mapValues { ("macOS 10.10", $0 + legacyKeychainNote) }) { $1 }
    .merging(legacySearchFunctions.mapValues { ("macOS 10.7", $0 + legacyKeychainNote) }) { $1 }
  static let keyFunctions: [String: String] = [
    "SecKeyGeneratePair":
      "`SecKeyCreateRandomKey`, with `kSecAttrIsPermanent` in `kSecPrivateKeyAttrs` to keep the key in the keychain",
    "SecKeyRawSign": "`SecKeyCreateSignature` with a `SecKeyAlgorithm`",
    "SecKeyRawVerify": "`SecKeyVerifySignature` with a `SecKeyAlgorithm`",
    "SecKeyEncrypt": "`SecKeyCreateEncryptedData` with a `SecKeyAlgorithm`",
    "SecKeyDecrypt": "`SecKeyCreateDecryptedData` with a `SecKeyAlgorithm`",
  ]
  /// The `SecKeychain…` functions and the trusted-application access lists, which only serve the
  /// file-based keychain of macOS.
  static let legacyKeychainFunctions: [String: String] = [
    "SecKeychainAddGenericPassword": "`SecItemAdd` with `kSecClassGenericPassword`",
    "SecKeychainAddInternetPassword": "`SecItemAdd` with `kSecClassInternetPassword`",
    "SecKeychainFindGenericPassword": "`SecItemCopyMatching` with `kSecClassGenericPassword`",
    "SecKeychainFindInternetPassword": "`SecItemCopyMatching` with `kSecClassInternetPassword`",
    "SecKeychainItemModifyAttributesAndData": "`SecItemUpdate`",
    "SecKeychainItemModifyContent": "`SecItemUpdate`",
    "SecKeychainItemDelete": "`SecItemDelete`",
    "SecKeychainItemCopyContent": "`SecItemCopyMatching` with `kSecReturnData` or `kSecReturnAttributes`",
    "SecKeychainItemCopyAttributesAndData": "`SecItemCopyMatching` with `kSecReturnData` and `kSecReturnAttributes`",
    "SecAccessCreate": "an access group (`kSecAttrAccessGroup`) shared by the apps that need the item",
    "SecTrustedApplicationCreateFromPath":
      "an access group (`kSecAttrAccessGroup`) shared by the apps that need the item",
    "SecKeychainSetUserInteractionAllowed":
      "an `LAContext` with `interactionNotAllowed` as `kSecUseAuthenticationContext` of each query (this call changes a process-wide setting)",
    "SecKeychainGetUserInteractionAllowed":
      "an `LAContext` with `interactionNotAllowed` as `kSecUseAuthenticationContext` of each query",
    "SecKeychainItemCreateFromContent": "`SecItemAdd`",
  ]
  /// The keychain search functions, deprecated earlier than the rest.
  static let legacySearchFunctions: [String: String] = [
    "SecKeychainSearchCreateFromAttributes": "`SecItemCopyMatching` with `kSecMatchLimitAll`",
    "SecKeychainSearchCopyNext": "`SecItemCopyMatching` with `kSecMatchLimitAll`",
  ]
  static let legacyKeychainNote =
    ", and `kSecUseDataProtectionKeychain` so the item gets the data protection keychain's access classes and access controls"

  public static let examples = RuleExamples(
    flagged: [
      #"query[↓kSecUseOperationPrompt as String] = "Authenticate to continue""#,
      "query[kSecUseAuthenticationUI as String] = ↓kSecUseAuthenticationUIFail",
      "let access = SecAccessControlCreateWithFlags(nil, protection, [↓.touchIDCurrentSet, .privateKeyUsage], nil)",
      "let state = context.↓evaluatedPolicyDomainState",
      // The app's own property of the same name does not hide the context's.
      """
      final class LockViewController: UIViewController {
          private var evaluatedPolicyDomainState: Data?
          func captureEnrollment(from reader: BiometricReader) {
              let context = LAContext()
              _ = context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: nil)
              self.evaluatedPolicyDomainState = context.↓evaluatedPolicyDomainState
              remember(reader.evaluatedPolicyDomainState)
          }
          func check(_ other: LAContext?) -> Bool { other?.↓evaluatedPolicyDomainState == evaluatedPolicyDomainState }
      }
      """,
      "context.evaluatePolicy(↓.deviceOwnerAuthenticationWithWatch, localizedReason: \"Unlock\") { _, _ in }",
      """
      import LocalAuthentication
      final class Authenticator {
          let context = LAContext()
          func evaluate(_ policy: LAPolicy) async throws -> Bool { try await context.evaluatePolicy(policy, localizedReason: "Unlock") }
          func unlock() async throws -> Bool { try await evaluate(↓.deviceOwnerAuthenticationWithBiometricsOrWatch) }
      }
      """,
      "if error.code == LAError.↓touchIDLockout.rawValue { showPasscode() }",
      """
      import LocalAuthentication
      switch LAError.Code(rawValue: code) {
      case .↓touchIDNotEnrolled: enroll()
      default: break
      }
      """,
      "let unsupported = context.biometryType == LABiometryType.↓typeNone",
      // A switch over LocalAuthentication's code, beside the module's own case of that name.
      """
      import LocalAuthentication
      enum BiometricsError: Error { case touchIDLockout, other }
      func translate(_ error: LAError) -> BiometricsError {
          switch error.code {
          case .↓touchIDLockout: return .touchIDLockout
          default: return .other
          }
      }
      """,
      // Renaming would repeat the case above it: the old one is dead and goes.
      """
      import LocalAuthentication
      func advice(for code: LAError.Code) -> String {
          switch code {
          case .biometryLockout: return "Enter your passcode"
          case .↓touchIDLockout: return "Enter your passcode"
          default: return ""
          }
      }
      """,
      "let status = ↓SecKeyGeneratePair(parameters as CFDictionary, &publicKey, &privateKey)",
      "_ = ↓SecKeyRawSign(privateKey, .PKCS1SHA256, digest, digest.count, &signature, &length)",
      // The legacy keychain API reaches only the file-based keychain.
      """
      let status = ↓SecKeychainFindGenericPassword(
          nil, UInt32(service.utf8.count), service, UInt32(account.utf8.count), account, &length, &bytes, &item)
      """,
      // Where the check holds, the replacement is there.
      """
      func keyFlags() -> SecAccessControlCreateFlags {
          if #available(iOS 11.3, *) {
              return ↓.touchIDCurrentSet
          } else {
              return .biometryCurrentSet
          }
      }
      """,
    ],
    clean: [
      // Supporting older systems: the replacement does not exist where the fallback runs.
      """
      func keyFlags() -> SecAccessControlCreateFlags {
          if #available(iOS 11.3, *) {
              return .biometryCurrentSet
          } else {
              return .touchIDCurrentSet
          }
      }
      """,
      // After an `if #available` that returns, only older systems run on.
      """
      func isUnavailable(_ code: LAError.Code) -> Bool {
          if #available(iOS 11, *) { return code == .biometryNotAvailable }
          return code == .touchIDNotAvailable
      }
      """,
      """
      func enrollmentState(of context: LAContext) -> Data? {
          guard #available(iOS 18, *) else { return context.evaluatedPolicyDomainState }
          return context.domainState.biometry.stateHash
      }
      """,

      // A view controller keeping the enrollment state it was handed in a property of that name.
      """
      final class ShareRootController: UINavigationController {
          private var evaluatedPolicyDomainState: Data?
          func authenticationFailed(with state: Data?) {
              self.evaluatedPolicyDomainState = state
          }
          func persist(into settings: Settings) {
              if let evaluatedPolicyDomainState {
                  settings.shareExtensionDomainState = evaluatedPolicyDomainState
                  self.evaluatedPolicyDomainState = nil
              }
          }
      }
      """,
      // A declaration marked deprecated itself: its users are warned, not its body.
      """
      @available(iOS, introduced: 8.0, deprecated: 9.0, message: "Use useAuthenticationUI instead.")
      private let useNoAuthenticationUI = String(kSecUseNoAuthenticationUI)
      """,
      "query[kSecUseAuthenticationUI as String] = kSecUseAuthenticationUISkip",
      "query[kSecUseAuthenticationContext as String] = context",
      "let state = context.domainState.biometry.stateHash",
      "enum Sensor { case touchIDAny }; let s: Sensor = .touchIDAny",
      "query[kSecAttrAccessible as String] = kSecAttrAccessibleAlways",
      "if error.code == LAError.biometryLockout.rawValue { showPasscode() }",
      "enum SensorState { case touchIDLockout }; let state: SensorState = .touchIDLockout",
      // The module's own error enum, with cases named like LocalAuthentication's.
      """
      import LocalAuthentication
      enum BiometricsError: Error {
          case touchIDLockout, other
          var code: String {
              switch self {
              case .touchIDLockout: return "LOCKOUT"
              case .other: return "OTHER"
              }
          }
          static func from(_ error: LAError) -> BiometricsError { error.code == .biometryLockout ? .touchIDLockout : .other }
      }
      """,
      "let privateKey = SecKeyCreateRandomKey(parameters as CFDictionary, &error)",
      "let pair = keys.SecKeyGeneratePair(parameters)",
      """
      func SecKeyEncrypt(_ data: Data) -> Data { data }
      let sealed = SecKeyEncrypt(message)
      """,
    ])

  public static func prefilterTokens(options: RuleOptions) -> [String] {
    Array(constants.keys) + Array(policies.keys) + [
      "touchID", "evaluatedPolicyDomainState", "SecAccessControl", "typeNone",
    ] + Array(functions.keys)
  }

  public static func check(_ context: RuleContext) {
    let model = context.model
    for (name, replacement) in constants {
      for reference in model.index.constantReferencesByName[name] ?? []
      where !BranchFacts.isDeprecationAnswered(reference) {
        context.report(reference, message: "`\(name)` is deprecated; use \(replacement).")
      }
    }
    for access in model.index.memberAccessesByName["evaluatedPolicyDomainState"] ?? []
    where !BranchFacts.isDeprecationAnswered(access) && isContextMember(access, model: model) {
      context.report(
        access.declName,
        message:
          "`evaluatedPolicyDomainState` is deprecated since iOS 18 and macOS 15; use `domainState.biometry.stateHash` there, under `if #available(iOS 18, macOS 15, *)`, and keep this one for earlier systems."
      )
    }
    for evaluation in model.policyEvaluations {
      guard let argument = evaluation.policyExpression else { continue }
      // Also what the file's callers pass when the policy is a parameter of the evaluating function.
      let chosen = [argument] + model.policyArguments(of: evaluation)
      for value in chosen.flatMap({ model.resolver.values(of: $0) }) {
        guard let policy = model.policies(of: value.expression).first, let replacement = policies[policy.name],
          !BranchFacts.isDeprecationAnswered(value.expression)
        else { continue }
        context.report(
          value.expression, message: "`.\(policy.name)` is deprecated since macOS 15; use `.\(replacement)`.")
      }
    }
    reportDeprecatedMembers(context)
    reportDeprecatedFunctions(context)
    for root in model.accessControl.allFlagExpressions {
      for origin in model.accessControl.origins(of: root) {
        guard let replacement = origin.flag.replacement, !origin.fromRawValue,
          !reportedElsewhere.contains(origin.flag.name), !BranchFacts.isDeprecationAnswered(origin.node),
          let member = origin.node.as(MemberAccessExprSyntax.self)
        else { continue }
        context.report(
          origin.node, message: "`.\(origin.flag.name)` is deprecated; use `.\(replacement)`, which means the same.",
          fix: Fix(
            description: "Replace `.\(origin.flag.name)` with `.\(replacement)`", safe: true, changesBehavior: false,
            edits: [context.replacement(of: member.declName, with: replacement)]))
      }
    }
  }

  /// Whether `x.evaluatedPolicyDomainState` reads `LAContext`'s member rather than a property of
  /// the app's own: the base is a context, or is of unknown type and the file declares no
  /// property of that name; never `self.name` where the file's types declare `name`.
  static func isContextMember(_ access: MemberAccessExprSyntax, model: SemanticModel) -> Bool {
    let name = access.declName.baseName.text
    let ownProperty = (model.index.bindingsByName[name] ?? []).contains { binding in
      binding.kind != .parameter && binding.kind != .function
        && SyntaxFacts.memberBlock(declaring: binding.node) != nil
    }
    guard let base = access.base else { return true }
    if let reference = SequenceShape.unwrap(base).as(DeclReferenceExprSyntax.self),
      reference.baseName.tokenKind == .keyword(.self)
    {
      return !ownProperty
    }
    return model.denotesContext(base) ?? !ownProperty
  }

  /// Calls of the deprecated key functions by their bare name, unless the file declares a
  /// function of that name itself.
  private static func reportDeprecatedFunctions(_ context: RuleContext) {
    let index = context.model.index
    for (name, replacement) in functions {
      let ownFunction = (index.bindingsByName[name] ?? []).contains { $0.kind == .function }
      guard !ownFunction else { continue }
      for call in index.calls(named: name) where !BranchFacts.isDeprecationAnswered(call) {
        guard let callee = call.calledExpression.as(DeclReferenceExprSyntax.self) else { continue }
        context.report(
          callee, message: "`\(name)` is deprecated since \(replacement.since); use \(replacement.replacement).")
      }
    }
  }

  /// Whether an implicit `.touchIDLockout` names a case of the file's own enum: the file declares
  /// such a case, and the access is not a pattern of a `switch` over something else than `self`
  /// (`switch error.code` is LocalAuthentication's; `switch self` and `return .touchIDLockout`
  /// are the enum's own).
  private static func isOwnCase(_ access: MemberAccessExprSyntax, ownCases: Set<String>) -> Bool {
    guard ownCases.contains(access.declName.baseName.text) else { return false }
    guard access.ancestorOrSelf(mapping: { $0.as(SwitchCaseLabelSyntax.self) }) != nil,
      let subject = access.ancestorOrSelf(mapping: { $0.as(SwitchExprSyntax.self) })?.subject
    else { return true }
    return SyntaxFacts.isSelf(subject)
  }

  /// Whether `access` is a case pattern of a `switch` that names `replacement` in another
  /// case: renaming it would repeat that pattern.
  private static func switchAlreadyHandles(_ replacement: String, besides access: MemberAccessExprSyntax) -> Bool {
    guard let label = access.ancestorOrSelf(mapping: { $0.as(SwitchCaseLabelSyntax.self) }),
      let switchExpr = label.ancestorOrSelf(mapping: { $0.as(SwitchExprSyntax.self) })
    else { return false }
    return switchExpr.cases.contains { element in
      guard let other = element.as(SwitchCaseSyntax.self)?.label.as(SwitchCaseLabelSyntax.self), other.id != label.id
      else { return false }
      return other.caseItems.contains { item in
        item.pattern.tokens(viewMode: .sourceAccurate).contains { $0.text == replacement }
      }
    }
  }

  /// `LAError.touchIDLockout`, or `.touchIDLockout` where LocalAuthentication is imported (a
  /// file's own enum may have a case of that name otherwise).
  private static func reportDeprecatedMembers(_ context: RuleContext) {
    let index = context.model.index
    // The file's own enum cases, read once, the first time an implicit member asks.
    var ownCases: Set<String>?
    func declaredCases() -> Set<String> {
      if ownCases == nil {
        ownCases = Set(
          context.model.tree.tokens(viewMode: .sourceAccurate).filter {
            $0.parent?.is(EnumCaseElementSyntax.self) == true
          }
          .map(\.text))
      }
      return ownCases!
    }
    for (name, (replacement, types)) in members {
      for access in index.memberAccessesByName[name] ?? [] where !BranchFacts.isDeprecationAnswered(access) {
        if let base = access.base {
          guard types.contains(SyntaxFacts.text(base)) else { continue }
        } else if !index.importedModules.contains("LocalAuthentication") || isOwnCase(access, ownCases: declaredCases())
        {
          continue
        }
        if switchAlreadyHandles(replacement, besides: access) {
          context.report(
            access.declName,
            message:
              "`.\(name)` is deprecated and has the value of `.\(replacement)`, which this `switch` already handles, so this pattern never matches; remove it."
          )
          continue
        }
        context.report(
          access.declName, message: "`.\(name)` is deprecated; use `.\(replacement)`, which has the same value.",
          fix: Fix(
            description: "Replace `.\(name)` with `.\(replacement)`", safe: true, changesBehavior: false,
            edits: [context.replacement(of: access.declName, with: replacement)]))
      }
    }
  }
}
