import SwiftSyntax

/// One attribute put into a keychain query or attribute dictionary, however it was written:
/// a dictionary literal entry, `query[key] = value`, `updateValue(_:forKey:)`,
/// `setValue(_:forKey:)`, `setObject(_:forKey:)` or `CFDictionaryAddValue/SetValue`.
public struct KeychainAttributeWrite {
  /// The attribute's constant name (`kSecAttrAccessible`), also when written as its raw string.
  public var key: String
  public var keyExpression: ExprSyntax
  public var value: ExprSyntax
  /// The entry, assignment or call that writes it.
  public var node: Syntax
  /// The dictionary written to: the literal for entries, the receiver otherwise.
  public var container: Syntax
}

public enum KeychainKeys {
  /// Raw string values of the `kSec` keys, for code that spells keys as strings.
  public static let rawValues: [String: String] = [
    "class": "kSecClass",
    "acct": "kSecAttrAccount",
    "svce": "kSecAttrService",
    "pdmn": "kSecAttrAccessible",
    "accc": "kSecAttrAccessControl",
    "sync": "kSecAttrSynchronizable",
    "v_Data": "kSecValueData",
    "agrp": "kSecAttrAccessGroup",
  ]

  /// The key constant a resolved expression denotes, if any.
  public static func denoted(by expression: ExprSyntax) -> String? {
    if let reference = expression.as(DeclReferenceExprSyntax.self) {
      let name = reference.baseName.text
      return name.hasPrefix("kSec") ? name : nil
    }
    if let member = expression.as(MemberAccessExprSyntax.self), member.base != nil {
      let name = member.declName.baseName.text
      return name.hasPrefix("kSec") ? name : nil
    }
    return SyntaxFacts.stringLiteralValue(expression).flatMap { rawValues[$0] }
  }

  /// The writes of `keyExpression`'s attributes (one per constant it may denote).
  private static func writes(
    keyExpression: ExprSyntax, value: ExprSyntax, node: some SyntaxProtocol, container: some SyntaxProtocol,
    resolver: ConstantResolver
  ) -> [KeychainAttributeWrite] {
    Set(resolver.values(of: keyExpression).compactMap({ denoted(by: $0.expression) })).map { key in
      KeychainAttributeWrite(
        key: key, keyExpression: keyExpression, value: value, node: Syntax(node), container: Syntax(container))
    }
  }

  /// Attributes taken out of a dictionary by `removeValue(forKey:)` or `CFDictionaryRemoveValue`;
  /// `value` is the key expression.
  static func removals(in index: SyntaxIndex, resolver: ConstantResolver) -> [KeychainAttributeWrite] {
    var removals: [KeychainAttributeWrite] = []
    for call in index.calls(named: "removeValue") {
      guard let receiver = SyntaxFacts.receiver(of: call), call.arguments.count == 1,
        let key = SyntaxFacts.argument(call, labeled: "forKey")
      else { continue }
      removals += writes(keyExpression: key, value: key, node: call, container: receiver, resolver: resolver)
    }
    for call in index.calls(named: "CFDictionaryRemoveValue") {
      guard let dictionary = SyntaxFacts.argument(call, at: 0), let key = SyntaxFacts.argument(call, at: 1) else {
        continue
      }
      removals += writes(keyExpression: key, value: key, node: call, container: dictionary, resolver: resolver)
    }
    return removals
  }

  /// Every keychain attribute written in the file.
  static func writes(in index: SyntaxIndex, resolver: ConstantResolver) -> [KeychainAttributeWrite] {
    var writes: [KeychainAttributeWrite] = []
    func add(keyExpression: ExprSyntax, value: ExprSyntax, node: some SyntaxProtocol, container: some SyntaxProtocol) {
      writes += Self.writes(
        keyExpression: keyExpression, value: value, node: node, container: container, resolver: resolver)
    }
    for element in index.dictionaryElements {
      add(
        keyExpression: element.key, value: element.value, node: element,
        container: element.parent?.parent ?? Syntax(element))
    }
    for (subscriptCall, value) in index.subscriptAssignments {
      guard subscriptCall.arguments.count == 1, let key = subscriptCall.arguments.first?.expression else { continue }
      add(keyExpression: key, value: value, node: subscriptCall, container: subscriptCall.calledExpression)
    }
    for method in ["updateValue", "setValue", "setObject"] {
      for call in index.calls(named: method) {
        guard let receiver = SyntaxFacts.receiver(of: call), call.arguments.count == 2,
          let key = SyntaxFacts.argument(call, labeled: "forKey"), let value = SyntaxFacts.argument(call, at: 0)
        else { continue }
        add(keyExpression: key, value: value, node: call, container: receiver)
      }
    }
    for function in ["CFDictionaryAddValue", "CFDictionarySetValue"] {
      for call in index.calls(named: function) {
        guard let dictionary = SyntaxFacts.argument(call, at: 0), let key = SyntaxFacts.argument(call, at: 1),
          let value = SyntaxFacts.argument(call, at: 2)
        else { continue }
        add(keyExpression: key, value: value, node: call, container: dictionary)
      }
    }
    return writes.sorted { $0.node.position < $1.node.position }
  }
}
