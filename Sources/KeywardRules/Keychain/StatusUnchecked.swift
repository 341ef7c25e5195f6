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
      `OSStatus` they return. A call used as a statement, or assigned to `_`, ignores it: a secret \
      that was never stored (duplicate item, missing entitlement, locked device, \
      `errSecInteractionNotAllowed`) looks stored. `SecItemDelete` before an add is best effort \
      and is not reported unless `includeDelete` is set.
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
    ],
    clean: [
      "let status = SecItemAdd(query as CFDictionary, nil)",
      "guard SecItemUpdate(query as CFDictionary, changes as CFDictionary) == errSecSuccess else { return }",
      "return SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess",
      "SecItemDelete(query as CFDictionary)",
      "let status = withUnsafeMutablePointer(to: &result) { SecItemCopyMatching(query as CFDictionary, UnsafeMutablePointer($0)) }",
      "func add() -> OSStatus { SecItemAdd(query as CFDictionary, nil) }",
    ])

  public static func prefilterTokens(options: RuleOptions) -> [String] { ["SecItem"] }

  public static func check(_ context: RuleContext) {
    var names = ["SecItemAdd", "SecItemUpdate", "SecItemCopyMatching"]
    if context.options.bool("includeDelete") { names.append("SecItemDelete") }
    for name in names {
      for call in context.model.index.calls(named: name) where isDiscarded(call) {
        context.report(
          call,
          message:
            "The `OSStatus` of `\(name)` is ignored, so a failure (duplicate item, locked device, missing entitlement) goes unnoticed and the app carries on as if the keychain had done its work. Check it against `errSecSuccess`."
        )
      }
    }
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
