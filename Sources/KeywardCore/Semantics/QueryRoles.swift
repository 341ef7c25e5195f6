import SwiftSyntax

/// What a Security call does with a dictionary it is given.
public enum QueryRole: String, Sendable, CaseIterable, Comparable {
  case add, updateAttributes, updateMatch, read, delete, keyGeneration

  /// Whether the dictionary's attributes end up on a stored item or key: an add, the attributes
  /// of an update, or key generation. A read, a delete or an update's match query only
  /// searches, so an old accessibility class there finds old items instead of making new ones.
  public var stores: Bool { self == .add || self == .updateAttributes || self == .keyGeneration }

  /// The calls taking keychain dictionaries, and the role of each dictionary argument by position.
  public static let calls: [String: [Int: QueryRole]] = [
    "SecItemAdd": [0: .add],
    "SecItemUpdate": [0: .updateMatch, 1: .updateAttributes],
    "SecItemCopyMatching": [0: .read],
    "SecItemDelete": [0: .delete],
    "SecKeyCreateRandomKey": [0: .keyGeneration],
    "SecKeyGeneratePair": [0: .keyGeneration],
  ]

  /// Keys whose value is a dictionary that takes its parent's role (key-pair attributes).
  public static let nestingKeys: Set<String> = ["kSecPrivateKeyAttrs", "kSecPublicKeyAttrs"]

  /// A dictionary passed as argument `index` of `call`, if the call is one of `calls`.
  public static func role(ofArgument index: Int, in call: FunctionCallExprSyntax) -> QueryRole? {
    SyntaxFacts.calledName(call).flatMap { calls[$0]?[index] }
  }

  /// The role an app's own helper gives a dictionary it is handed, from the verb its name
  /// starts with (`removeItem(query:)`, `deleteEntry(_:)`, `loadItem(matching:)`): a helper whose
  /// name says it only removes or looks items up stores nothing. Names that also say they store
  /// (`removeAndSave`) say nothing.
  public static func role(ofHelperNamed name: String) -> QueryRole? {
    let words = SensitiveNames.nameWords(name).map { $0.lowercased() }
    guard let verb = words.first, !words.contains(where: storingVerbs.contains) else { return nil }
    if deletingVerbs.contains(verb) { return .delete }
    if readingVerbs.contains(verb) { return .read }
    return nil
  }

  /// The role of a dictionary an app's own helper takes under the label `matching:`
  /// (`migrateObjects(matching: query)`, `update(matching: query, with: changes)`), as
  /// `SecItemCopyMatching` names its query: the items it finds, not attributes to store.
  public static func role(ofArgumentLabeled label: String?) -> QueryRole? {
    label == "matching" ? .read : nil
  }

  static let deletingVerbs: Set<String> = ["remove", "delete"]
  static let readingVerbs: Set<String> = ["read", "load", "fetch", "find", "search", "lookup"]
  static let storingVerbs: Set<String> = [
    "add", "save", "set", "store", "update", "write", "insert", "replace", "put", "create", "upsert", "migrate",
  ]

  public static func < (lhs: QueryRole, rhs: QueryRole) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }
}

/// What the file shows of where a keychain dictionary goes.
public enum QueryStorage: String, Sendable {
  /// An add, an update's attributes or a key generation takes it.
  case stores
  /// Only reads, deletes or update match queries take it, and it goes nowhere else.
  case matchesOnly
  /// It is only compared with or asserted against another value.
  case compared
  /// A local dictionary that reaches no call and leaves its function in no other way.
  case unused
  /// It leaves what the file shows (returned, passed to another function, kept in a property):
  /// it may be stored, so rules treat it as stored.
  case unknown

  /// Whether attributes in it may end up on a stored item: rules drop only what is known not to.
  public var mayStore: Bool { self == .stores || self == .unknown }
}

/// How an expression's value is used where it stands, seen through wrappers that keep the value
/// (parentheses, casts, `try`, `!`).
public enum ValueUse {
  /// Equality and pattern operators: a value on either side is looked for, not stored.
  static let comparisonOperators: Set<String> = ["==", "!=", "===", "!==", "~="]
  /// Calls that compare their argument with their receiver.
  static let comparingCalls: Set<String> = ["isEqual", "isEqualToString", "isEqualTo", "elementsEqual", "CFEqual"]

  /// The outermost expression that still holds `node`'s value unchanged.
  public static func outermostHolder(of node: Syntax) -> Syntax {
    var current = node
    while let parent = current.parent {
      switch parent.kind {
      case .tupleExpr:
        guard parent.as(TupleExprSyntax.self)?.elements.count == 1 else { return current }
        current = parent
      case .labeledExpr where parent.parent?.parent?.is(TupleExprSyntax.self) == true:
        current = parent
      case .labeledExprList where parent.parent?.is(TupleExprSyntax.self) == true:
        current = parent
      case .forceUnwrapExpr, .optionalChainingExpr, .tryExpr, .awaitExpr, .asExpr:
        current = parent
      case .labeledExpr where isOptionalWrapping(parent.parent?.parent):
        // `.some(value)`, `Optional(value)`: the same value, made optional to compare.
        current = parent.parent!.parent!
      case .exprList:
        // `value as T`: the sequence holds the value when everything after it is a cast.
        guard let sequence = parent.parent?.as(SequenceExprSyntax.self),
          sequence.elements.first?.id == current.id,
          sequence.elements.dropFirst().allSatisfy({ $0.is(UnresolvedAsExprSyntax.self) || $0.is(TypeExprSyntax.self) })
        else { return current }
        current = Syntax(sequence)
      default:
        return current
      }
    }
    return current
  }

  /// `.some(x)`, `Optional.some(x)` or `Optional(x)` with one unlabelled argument.
  static func isOptionalWrapping(_ node: Syntax?) -> Bool {
    guard let call = node?.as(FunctionCallExprSyntax.self), call.arguments.count == 1,
      call.arguments.first?.label == nil, call.trailingClosure == nil
    else { return false }
    if let member = call.calledExpression.as(MemberAccessExprSyntax.self) {
      let base = member.base.map(SyntaxFacts.text)
      return member.declName.baseName.text == "some" && (base == nil || base == "Optional")
    }
    return call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "Optional"
  }

  /// Whether the value is an operand of `==`, `!=`, `~=`, a `case` pattern or `isEqual(_:)`.
  public static func isCompared(_ node: Syntax) -> Bool {
    let holder = outermostHolder(of: node)
    guard let parent = holder.parent else { return false }
    if parent.is(ExpressionPatternSyntax.self) { return true }
    if let list = parent.as(ExprListSyntax.self) {
      let elements = Array(list)
      guard let index = elements.firstIndex(where: { $0.id == holder.id }) else { return false }
      let neighbours = [index - 1, index + 1].filter(elements.indices.contains).map { elements[$0] }
      return neighbours.contains { SequenceShape.operatorText($0).map(comparisonOperators.contains) == true }
    }
    if let call = SyntaxFacts.callTaking(holder)?.call, let name = SyntaxFacts.calledName(call) {
      return comparingCalls.contains(name)
    }
    return false
  }

  /// Whether the value sits inside the arguments of a test assertion (`XCTAssert…`, `#expect`,
  /// `#require`, Nimble's `expect`), within its statement.
  public static func isAsserted(_ node: Syntax) -> Bool {
    var current = node.parent
    while let candidate = current, !candidate.is(CodeBlockItemSyntax.self), !candidate.is(MemberBlockItemSyntax.self) {
      if let call = candidate.as(FunctionCallExprSyntax.self), let name = SyntaxFacts.calledName(call),
        name.hasPrefix("XCTAssert") || name == "expect"
      {
        return true
      }
      if let macro = candidate.as(MacroExpansionExprSyntax.self),
        ["expect", "require"].contains(macro.macroName.text)
      {
        return true
      }
      current = candidate.parent
    }
    return false
  }

  /// Compared or asserted: looked for, not stored.
  public static func isOnlyInspected(_ node: Syntax) -> Bool { isCompared(node) || isAsserted(node) }
}
