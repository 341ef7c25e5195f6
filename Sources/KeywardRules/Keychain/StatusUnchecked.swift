import KeywardCore
import SwiftSyntax

/// Flags keychain calls whose `OSStatus` is thrown away.
public struct StatusUnchecked: Rule {
  public static let metadata = RuleMetadata(
    id: "swift.keychain_status_unchecked",
    title: "Keychain status not checked",
    severity: .low, confidence: .high, resource: "Information leak",
    tags: ["CWE:252", "CWE:391", "MASVS-STORAGE-1"],
    profile: .standard,
    description: """
      `SecItemAdd`, `SecItemUpdate` and `SecItemCopyMatching` report failure only through the \
      `OSStatus` they return. A call used as a statement, assigned to `_`, stored in a local \
      name that nothing reads afterwards (a retry's last status), or whose status is only \
      compared with a failure code (`== errSecDuplicateItem`) or checked only by `assert` \
      (left out of release builds) ignores it: a secret \
      that was never stored (duplicate item, missing entitlement, locked device, \
      `errSecInteractionNotAllowed`) looks stored. `SecItemDelete` before an add is best effort \
      and is not reported unless `includeDelete` is set. An item whose data is only a flag, \
      bytes written in the source (`Data([1])`) or an identifier (`deviceID`, \
      `UUID().uuidString`) holds no secret and is reported only by strict; \
      so is a `SecItemCopyMatching` whose result the code then looks at (`return result as? \
      Data`): a failure leaves it empty and reads as "no item", which fails closed.
      """,
    rationale: """
      When the add fails silently the app carries on as if the secret were protected: it may \
      keep it in memory or in a less protected store, or lose it and fall back to a weaker login \
      path. Failures of protected reads also go unnoticed and are easy to misread as "no item".
      """,
    vulnerableExample: """
      SecItemDelete(query as CFDictionary)
      SecItemAdd(query as CFDictionary, nil)
      """,
    remediation: "Keep the status and handle anything but `errSecSuccess` (and `errSecItemNotFound` for reads).",
    fixedExample: """
      SecItemDelete(query as CFDictionary)
      let status = SecItemAdd(query as CFDictionary, nil)
      guard status == errSecSuccess else { throw KeychainError.unexpectedStatus(status) }
      """,
    references: [
      Reference("CWE-252: Unchecked Return Value", url: "https://cwe.mitre.org/data/definitions/252.html"),
      Reference(
        "Apple: Security Framework Result Codes",
        url: "https://developer.apple.com/documentation/security/security-framework-result-codes"),
    ])

  public static let options = [
    OptionSpec(key: "includeDelete", summary: "Also report unchecked SecItemDelete calls.", defaultValue: .bool(false))
  ]

  public static let examples = RuleExamples(
    flagged: [
      "↓SecItemAdd(query as CFDictionary, nil)",
      "_ = ↓SecItemUpdate(query as CFDictionary, changes as CFDictionary)",
      "func load() { var result: AnyObject?; ↓SecItemCopyMatching(query as CFDictionary, &result) }",
      RuleExample("↓SecItemDelete(query as CFDictionary)", options: ["includeDelete": .bool(true)]),
      """
      func store() {
        var status = ↓SecItemAdd(query as CFDictionary, nil)
        if status == errSecDuplicateItem {
          SecItemDelete(query as CFDictionary)
          status = ↓SecItemAdd(query as CFDictionary, nil)
        }
      }
      """,
      "func save() { let status = ↓SecItemAdd(query as CFDictionary, nil); assert(status == errSecSuccess) }",
      // Only the duplicate is handled: a locked device or a missing entitlement passes as stored.
      """
      func store(token: Data) throws {
        let status = ↓SecItemAdd(item(token) as CFDictionary, nil)
        if status == errSecDuplicateItem {
          let updated = SecItemUpdate(match as CFDictionary, [kSecValueData: token] as CFDictionary)
          guard updated == errSecSuccess else { throw KeychainError.status(updated) }
        }
      }
      """,
      "func save() { let status = ↓SecItemUpdate(query as CFDictionary, changes as CFDictionary) }",
      RuleExample(
        """
        func remember(_ strict: Bool) {
          let flag = Data([strict ? 1 : 0])
          var item: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "mode"]
          item[kSecValueData as String] = flag
          ↓SecItemAdd(item as CFDictionary, nil)
        }
        """, profile: .strict),
      RuleExample(
        """
        func load() -> Data? {
          var result: AnyObject?
          ↓SecItemCopyMatching(query as CFDictionary, &result)
          return result as? Data
        }
        """, profile: .strict),
      RuleExample(deviceIdentifier(marker: "↓"), profile: .strict),
      // A session's id is its credential.
      """
      func save(sessionID: String) {
        let item: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: Data(sessionID.utf8)]
        ↓SecItemAdd(item as CFDictionary, nil)
      }
      """,
    ],
    clean: [
      "let status = SecItemAdd(query as CFDictionary, nil); return status",
      // A failed read leaves `result` empty: the caller gets nil, as for a missing item.
      """
      func load() -> Data? {
        var result: AnyObject?
        SecItemCopyMatching(query as CFDictionary, &result)
        guard let data = result as? Data else { return nil }
        return data
      }
      """,
      """
      func store() -> Bool {
        var status = SecItemAdd(query as CFDictionary, nil)
        if status == errSecDuplicateItem { status = SecItemUpdate(query as CFDictionary, changes as CFDictionary) }
        return status == errSecSuccess
      }
      """,
      """
      func retry() {
        var status = errSecSuccess
        defer { log(status) }
        repeat { status = SecItemAdd(query as CFDictionary, nil) } while status == errSecInteractionNotAllowed
      }
      """,
      """
      final class Store {
        var lastStatus: OSStatus = 0
        func add() { lastStatus = SecItemAdd(query as CFDictionary, nil) }
      }
      """,
      "guard SecItemUpdate(query as CFDictionary, changes as CFDictionary) == errSecSuccess else { return }",
      """
      func store(token: Data) throws {
        let status = SecItemAdd(item(token) as CFDictionary, nil)
        if status == errSecDuplicateItem {
          try update(token)
        } else if status != errSecSuccess {
          throw KeychainError.status(status)
        }
      }
      """,
      "return SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess",
      "SecItemDelete(query as CFDictionary)",
      "let status = withUnsafeMutablePointer(to: &result) { SecItemCopyMatching(query as CFDictionary, UnsafeMutablePointer($0)) }",
      "func add() -> OSStatus { SecItemAdd(query as CFDictionary, nil) }",
      """
      func remember(_ strict: Bool) {
        let flag = Data([strict ? 1 : 0])
        var item: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "mode"]
        item[kSecValueData as String] = flag
        SecItemAdd(item as CFDictionary, nil)
      }
      """,
      // A device identifier the app mints again when it is missing is no secret.
      RuleExample(deviceIdentifier(marker: "")),
      """
      func markSeen(_ seen: Bool) {
        let data = seen ? Data([1]) : Data([0])
        let item: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: data]
        _ = SecItemAdd(item as CFDictionary, nil)
      }
      """,
    ])

  public static func prefilterTokens(options: RuleOptions) -> [String] { ["SecItem"] }

  /// What can go wrong with each call (keyed by the code that reports it), and what the app
  /// then wrongly assumes: a read that fails is not an add that fails.
  static let failures: [String: (causes: [(code: String, cause: String)], assumes: String)] = [
    "SecItemAdd": (
      [
        ("errSecDuplicateItem", "a duplicate item"), ("errSecInteractionNotAllowed", "a locked device"),
        ("errSecMissingEntitlement", "a missing entitlement"),
      ], "the item were stored"
    ),
    "SecItemUpdate": (
      [
        ("errSecItemNotFound", "no matching item"), ("errSecInteractionNotAllowed", "a locked device"),
        ("errSecUserCanceled", "a cancelled authentication"),
      ], "the item were changed"
    ),
    "SecItemCopyMatching": (
      [
        ("errSecItemNotFound", "no matching item"), ("errSecInteractionNotAllowed", "a locked device"),
        ("errSecUserCanceled", "a cancelled authentication"),
      ], "it had read the item"
    ),
    "SecItemDelete": (
      [("errSecInteractionNotAllowed", "a locked device"), ("errSecMissingEntitlement", "a missing entitlement")],
      "the item were gone"
    ),
  ]

  /// The message for a call whose status `ignored` describes; `handled` are the failure codes
  /// the code does compare it with, so they are not named among what goes unnoticed.
  static func message(for name: String, ignored: String, handled: [String] = []) -> String {
    let failure = failures[name] ?? ([("", "an error")], "the keychain had done its work")
    let causes = failure.causes.filter { !handled.contains($0.code) }.map(\.cause).joined(separator: ", ")
    let unnoticed = handled.isEmpty ? "a failure (\(causes))" : "any other failure (\(causes))"
    return
      "The `OSStatus` of `\(name)` \(ignored), so \(unnoticed) goes unnoticed and the app carries on as if \(failure.assumes). Check it against `errSecSuccess` (and `errSecItemNotFound` where a missing item is expected)."
  }

  /// A fresh device identifier kept in the keychain.
  static func deviceIdentifier(marker: String) -> String {
    """
    func deviceIdentifier() -> String {
      let newIdentifier = UUID().uuidString
      let item: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                 kSecValueData as String: newIdentifier.data(using: .utf8)!]
      \(marker)SecItemAdd(item as CFDictionary, nil)
      return newIdentifier
    }
    """
  }

  public static func check(_ context: RuleContext) {
    var names = ["SecItemAdd", "SecItemUpdate", "SecItemCopyMatching"]
    if context.options.bool("includeDelete") { names.append("SecItemDelete") }
    for name in names {
      for call in context.model.index.calls(named: name) {
        let ignored: String
        var handled: [String] = []
        if isDiscarded(call) {
          ignored = "is ignored"
        } else if let unheeded = unheededStatus(of: call, named: name, resolver: context.model.resolver) {
          (ignored, handled) = unheeded
        } else {
          continue
        }
        // A lost flag is a reliability problem, not a weakness: only strict reports items whose
        // data is evidently no secret. Nor is a read whose result the code then looks at: a
        // failure leaves the result empty and reads as "no item", which fails closed.
        if !context.options.reportsWeakEvidence,
          storesNoSecret(call, model: context.model)
            || (name == "SecItemCopyMatching" && resultIsInspected(call, resolver: context.model.resolver))
        {
          continue
        }
        context.report(call, message: message(for: name, ignored: ignored, handled: handled))
      }
    }
  }

  /// Whether every dictionary `call` writes from holds no secret (`Data([1])`, a flag, a device id).
  static func storesNoSecret(_ call: FunctionCallExprSyntax, model: SemanticModel) -> Bool {
    let written = model.keychainQueries.filter { query in
      query.operations.contains { $0.id == call.id } && query.has("kSecValueData")
    }
    return !written.isEmpty && written.allSatisfy { $0.storesNoSecret(in: model) }
  }

  /// How a call's status kept in a local is left unheeded, and the failure codes it is compared
  /// with: nothing reads the local afterwards (`let status =` never looked at, a retry's last
  /// `status = SecItemAdd(...)`); only `assert(...)` reads it, which optimized builds do not
  /// evaluate; or every read is `status == errSecDuplicateItem` or the like, so success is never
  /// confirmed. Comparisons are not judged for `SecItemCopyMatching`, whose `errSecItemNotFound`
  /// branch is how a missing item is told apart (its result then says more). Nil when the status
  /// is heeded or not kept in a local that can be judged.
  static func unheededStatus(of call: FunctionCallExprSyntax, named name: String, resolver: ConstantResolver)
    -> (ignored: String, handled: [String])?
  {
    guard let binding = storingBinding(of: call, resolver: resolver),
      let reads = reads(of: binding, after: call, resolver: resolver)
    else { return nil }
    let variable = "`\(binding.name)`"
    if reads.isEmpty { return ("goes into \(variable), which nothing reads after this call", []) }
    let asserted = reads.allSatisfy { reference in
      reference.ancestorOrSelf { node in
        node.as(FunctionCallExprSyntax.self).flatMap { SyntaxFacts.calledName($0) == "assert" ? $0 : nil }
      } != nil
    }
    if asserted { return ("goes into \(variable), which only `assert` looks at (release builds leave it out)", []) }
    guard name != "SecItemCopyMatching" else { return nil }
    var codes: [String] = []
    for reference in reads {
      guard let code = failureCodeCompared(with: reference) else { return nil }
      if !codes.contains(code) { codes.append(code) }
    }
    let compared = codes.map { "`\($0)`" }.joined(separator: " and ")
    return ("goes into \(variable), which is only compared with \(compared) afterwards", codes)
  }

  /// Whether `SecItemCopyMatching(query, &result)` is followed by a read of `result`.
  static func resultIsInspected(_ call: FunctionCallExprSyntax, resolver: ConstantResolver) -> Bool {
    guard let argument = SyntaxFacts.argument(call, at: 1)?.as(InOutExprSyntax.self),
      let binding = resolver.binding(denotedBy: argument.expression)
    else { return false }
    return isRead(binding, after: call, resolver: resolver) == true
  }

  /// Whether a local is read after `call`: later in the text, or in a loop around the call, a
  /// `defer` or a closure (those may run later). Nil for properties and names whose scope is
  /// not an ordered list of statements: they are not judged.
  static func isRead(_ binding: Binding, after call: FunctionCallExprSyntax, resolver: ConstantResolver) -> Bool? {
    reads(of: binding, after: call, resolver: resolver).map { !$0.isEmpty }
  }

  /// The code in `reference == errSecX` (either side) when it names a failure, not success.
  private static func failureCodeCompared(with reference: DeclReferenceExprSyntax) -> String? {
    guard let list = reference.parent?.as(ExprListSyntax.self), list.count == 3,
      list.parent?.is(SequenceExprSyntax.self) == true
    else { return nil }
    let elements = Array(list)
    guard elements[1].as(BinaryOperatorExprSyntax.self)?.operator.text == "==" else { return nil }
    let other = elements[0].id == reference.id ? elements[2] : elements[0]
    guard let code = other.as(DeclReferenceExprSyntax.self)?.baseName.text, code.hasPrefix("errSec"),
      code != "errSecSuccess"
    else { return nil }
    return code
  }

  /// The references that read a local after `call` (see `isRead`); nil when not judged.
  private static func reads(
    of binding: Binding, after call: FunctionCallExprSyntax, resolver: ConstantResolver
  ) -> [DeclReferenceExprSyntax]? {
    guard binding.kind == .variable || binding.kind == .constant,
      let (scope, references) = resolver.references(to: binding), SyntaxFacts.isOrderedScope(scope)
    else { return nil }
    let loop = call.ancestorOrSelf {
      $0.is(ForStmtSyntax.self) || $0.is(WhileStmtSyntax.self) || $0.is(RepeatStmtSyntax.self) ? $0 : nil
    }
    // Writes are not reads: the index's assignments to the name give their targets.
    let writes = Set((resolver.index.assignmentsByName[binding.name] ?? []).map(\.target.id))
    return references.filter { reference in
      guard !writes.contains(reference.id) else { return false }
      let runsLater = reference.ancestorOrSelf {
        $0.is(DeferStmtSyntax.self) || $0.is(ClosureExprSyntax.self) || $0.is(FunctionDeclSyntax.self) ? $0 : nil
      }
      return reference.position >= call.endPosition
        || (loop.map { $0.position <= reference.position && reference.endPosition <= $0.endPosition } ?? false)
        || (runsLater.map { $0.position > scope.position } ?? false)
    }
  }

  /// The binding `call`'s value is stored in: `let status = call` or `status = call`.
  private static func storingBinding(of call: FunctionCallExprSyntax, resolver: ConstantResolver) -> Binding? {
    if let binding = resolver.binding(initializedWith: call) { return binding }
    guard let list = call.parent?.as(ExprListSyntax.self), let target = list.first,
      let name = SyntaxFacts.storageName(target),
      let assignment = resolver.index.assignmentsByName[name]?.first(where: { $0.value.id == call.id })
    else { return nil }
    return resolver.binding(denotedBy: assignment.target)
  }

  /// A call used as a statement, or assigned to `_`. The only statement of a closure, or of a
  /// function that returns a value, is its implicit result and is not discarded.
  static func isDiscarded(_ call: FunctionCallExprSyntax) -> Bool {
    if let item = call.parent?.as(CodeBlockItemSyntax.self) {
      guard let list = item.parent?.as(CodeBlockItemListSyntax.self), list.count == 1 else { return true }
      if list.parent?.is(ClosureExprSyntax.self) == true { return false }
      if let function = list.parent?.parent?.as(FunctionDeclSyntax.self) {
        return function.signature.returnClause == nil
      }
      return true
    }
    guard let list = call.parent?.as(ExprListSyntax.self), let sequence = list.parent?.as(SequenceExprSyntax.self)
    else {
      return false
    }
    let elements = Array(sequence.elements)
    return elements.count == 3 && elements[0].is(DiscardAssignmentExprSyntax.self)
      && elements[1].is(AssignmentExprSyntax.self) && elements[2].id == call.id
      && sequence.parent?.is(CodeBlockItemSyntax.self) == true
  }
}
