import SwiftSyntax

/// A keychain query or attribute dictionary: every attribute written into one dictionary,
/// whether by its literal or later by subscripts and `updateValue`, and the `SecItem` calls
/// that use it.
public struct KeychainQuery {
  /// The variable holding the dictionary, if it is held in one.
  public var binding: Binding?
  /// The dictionary literal, when the query starts as one.
  public var literal: DictionaryExprSyntax?
  /// The empty dictionary the query starts as when it is made, not written
  /// (`var query = [String: AnyObject]()`), then filled by subscripts.
  public var emptyConstruction: FunctionCallExprSyntax?
  /// Where the dictionary starts: its literal, or the empty dictionary it is made as.
  public var site: Syntax? { literal.map(Syntax.init) ?? emptyConstruction.map(Syntax.init) }
  public var writes: [KeychainAttributeWrite]
  /// Attributes taken out again: `removeValue(forKey:)`, `CFDictionaryRemoveValue`, `query[key] = nil`.
  public var removals: [KeychainAttributeWrite] = []
  /// `SecItemAdd`, `SecItemUpdate`, `SecItemCopyMatching`, `SecItemDelete`, `SecKeyCreateRandomKey`.
  public var operations: [FunctionCallExprSyntax]
  /// What the Security calls taking the dictionary do with it, including the calls taking a
  /// dictionary it is nested in (`kSecPrivateKeyAttrs`).
  public var roles: Set<QueryRole> = []
  /// Where the dictionary goes, as far as the file shows.
  public var storage: QueryStorage = .unknown

  /// Whether the attributes may end up on a stored item: rules about stored items skip the rest
  /// (a search for old `kSecAttrAccessibleAlways` items in a migration stores nothing).
  public var mayStore: Bool { storage.mayStore }

  /// Whether the item is added and then deleted again, by the same dictionary or by one built
  /// for the delete in the same function under the same account: a probe (can this access group
  /// be written?), whose value does not stay in the keychain. A delete before the add (clearing
  /// the old item, then saving) is not one.
  public internal(set) var isProbe = false

  public func writes(forKey key: String) -> [KeychainAttributeWrite] { writes.filter { $0.key == key } }

  /// Whether `write`'s attribute is taken out of the dictionary somewhere after it (on some path).
  public func isRemoved(after write: KeychainAttributeWrite) -> Bool {
    removals.contains { $0.key == write.key && $0.node.position > write.node.position }
  }
  public func has(_ key: String) -> Bool { writes.contains { $0.key == key } }

  /// Whether a path can reach the query's operations with none of `keys` written: every write
  /// of them sits in the body of an `if` without an `else`, so the path that skips it writes
  /// none (`if authenticationRequired { query[kSecAttrAccessControl] = access }`).
  public func mayLackAll(_ keys: Set<String>) -> Bool {
    let found = writes.filter { keys.contains($0.key) }
    return !found.isEmpty
      && found.allSatisfy { write in
        guard let body = Self.bodyOfIfWithoutElse(around: write.node) else { return false }
        // An `if` around the add as well decides nothing between them (a read before it may
        // well sit outside: `if status == errSecItemNotFound { query[...] = ...; SecItemAdd(...) }`).
        return operations.contains {
          SyntaxFacts.calledName($0) == "SecItemAdd"
            && !($0.position >= body.position && $0.endPosition <= body.endPosition)
        }
      }
  }

  /// The body of the `if` without an `else` that is the innermost branch around `node` within
  /// its function, if that is what it is. Other branches (`else`, `switch`, loops) are taken as
  /// covering every path.
  static func bodyOfIfWithoutElse(around node: Syntax) -> CodeBlockSyntax? {
    var child = node
    while let parent = child.parent {
      if parent.is(FunctionDeclSyntax.self) || parent.is(ClosureExprSyntax.self)
        || parent.is(AccessorDeclSyntax.self) || parent.is(InitializerDeclSyntax.self)
      {
        return nil
      }
      if let branch = parent.as(IfExprSyntax.self) {
        return branch.elseBody == nil && branch.body.id == child.id ? branch.body : nil
      }
      if parent.is(SwitchCaseSyntax.self) || parent.is(GuardStmtSyntax.self) || parent.is(ForStmtSyntax.self)
        || parent.is(WhileStmtSyntax.self)
      {
        return nil
      }
      child = parent
    }
    return nil
  }

  /// Whether the item's data is evidently no secret: only ever a flag, a number, a date or bytes
  /// written in the source (`Data([1])`), or an identifier, as the value converted to bytes is
  /// named (`deviceID.data(using: .utf8)`, `Data(installationUUID.utf8)`) or made (`UUID().uuidString`).
  public func storesNoSecret(in model: SemanticModel) -> Bool {
    let data = writes(forKey: "kSecValueData")
    return !data.isEmpty
      && data.allSatisfy { write in
        if SensitiveNames.holdsPlainValue(write.value, model: model) { return true }
        let values = [write.value] + model.resolver.values(of: write.value).map(\.expression)
        return values.contains { SensitiveNames.isIdentifier(SequenceShape.convertedValue($0), model: model) }
      }
  }

  public func isUsed(by operation: String) -> Bool {
    operations.contains { SyntaxFacts.calledName($0) == operation }
  }

  /// The values that set `kSecAttrSynchronizable` to true (`true`, `kCFBooleanTrue`, ...); with
  /// `includingCallerChoices` false, not those a caller's argument picks (`sync ? true : false`);
  /// with `includingRuntimeChoices` false, none that is one branch of a choice made as the app
  /// runs (`backupEnabled ? kCFBooleanTrue : kCFBooleanFalse`, a `switch` over a setting), though
  /// still a parameter's default, which holds wherever a caller does not choose.
  public func synchronizableTrueValues(
    in model: SemanticModel, includingCallerChoices: Bool = true, includingRuntimeChoices: Bool = true
  ) -> [ExprSyntax] {
    writes(forKey: "kSecAttrSynchronizable").flatMap { model.resolver.values(of: $0.value) }
      .filter { includingCallerChoices || !$0.chosenByCaller }
      .filter { includingRuntimeChoices || !$0.isConditional || $0.parameter != nil }
      .map(\.expression).filter(SyntaxFacts.isTrue)
  }

  /// Whether the item may be synchronized through iCloud Keychain: `kSecAttrSynchronizable` is
  /// set to anything but a certain false (`true`, or a setting such as `syncEnabled`).
  public func mayBeSynchronized(in model: SemanticModel) -> Bool {
    writes(forKey: "kSecAttrSynchronizable").flatMap { model.resolver.values(of: $0.value) }
      .contains { !SyntaxFacts.isFalse($0.expression) }
  }
}

extension SemanticModel {
  /// Groups the file's keychain attribute writes by the dictionary they go into.
  func buildKeychainQueries() -> [KeychainQuery] {
    var order: [SyntaxIdentifier] = []
    var queries: [SyntaxIdentifier: KeychainQuery] = [:]
    func entry(_ id: SyntaxIdentifier, binding: Binding?, literal: DictionaryExprSyntax?) -> SyntaxIdentifier {
      if queries[id] == nil {
        order.append(id)
        queries[id] = KeychainQuery(binding: binding, literal: literal, writes: [], operations: [])
      }
      if queries[id]!.literal == nil, let literal { queries[id]!.literal = literal }
      return id
    }
    // The entries of one literal share their container; settle its identity once.
    var identityOfContainer: [SyntaxIdentifier: SyntaxIdentifier] = [:]
    func cachedIdentity(of expression: Syntax) -> SyntaxIdentifier {
      if let known = identityOfContainer[expression.id] { return known }
      let found = identity(of: expression)
      identityOfContainer[expression.id] = found
      return found
    }
    func identity(of expression: Syntax) -> SyntaxIdentifier {
      if let literal = expression.as(DictionaryExprSyntax.self) {
        if let binding = binding(initializedBy: literal) {
          return entry(binding.id, binding: binding, literal: literal)
        }
        return entry(literal.id, binding: nil, literal: literal)
      }
      if let expression = expression.as(ExprSyntax.self) {
        let unwrapped = SequenceShape.unwrapCasts(expression)
        if let binding = resolver.binding(denotedBy: unwrapped) {
          let literal = binding.initializer.flatMap { SequenceShape.unwrapCasts($0).as(DictionaryExprSyntax.self) }
          let id = entry(binding.id, binding: binding, literal: literal)
          if queries[id]!.emptyConstruction == nil {
            queries[id]!.emptyConstruction = binding.initializer.flatMap(Self.emptyDictionaryConstruction)
          }
          return id
        }
        if let literal = unwrapped.as(DictionaryExprSyntax.self) { return identity(of: Syntax(literal)) }
      }
      return entry(expression.id, binding: nil, literal: nil)
    }
    for write in keychainWrites {
      if write.value.is(NilLiteralExprSyntax.self) {
        queries[cachedIdentity(of: write.container)]!.removals.append(write)
      } else {
        queries[cachedIdentity(of: write.container)]!.writes.append(write)
      }
    }
    for removal in KeychainKeys.removals(in: index, resolver: resolver) {
      queries[cachedIdentity(of: removal.container)]!.removals.append(removal)
    }
    for (name, positions) in QueryRole.calls.sorted(by: { $0.key < $1.key }) {
      for call in index.calls(named: name) {
        for (position, role) in positions {
          guard let argument = SyntaxFacts.argument(call, at: position) else { continue }
          let id = identity(of: Syntax(argument))
          queries[id]!.operations.append(call)
          queries[id]!.roles.insert(role)
        }
      }
    }
    // Key-pair attributes (`kSecPrivateKeyAttrs: [...]`) take the role of the query holding them.
    for _ in 0..<2 {
      for id in order {
        let roles = queries[id]!.roles
        for write in queries[id]!.writes where QueryRole.nestingKeys.contains(write.key) && !roles.isEmpty {
          queries[identity(of: Syntax(SequenceShape.unwrapCasts(write.value)))]!.roles.formUnion(roles)
        }
      }
    }
    // A dictionary a function of the file builds and returns, kept in a local the caller adds to
    // (`var item = Self.keychainQuery(account:); item[kSecValueData] = data; SecItemAdd(item…)`):
    // the local's query also holds what the function wrote, and is reported at its dictionary.
    for id in order {
      guard let initializer = queries[id]!.binding?.initializer else { continue }
      let returned = returnedExpressions(ofFunctionCalledBy: initializer)
      guard returned.count == 1 else { continue }
      let helper = identity(of: Syntax(SequenceShape.unwrapCasts(returned[0])))
      guard helper != id, let built = queries[helper] else { continue }
      queries[id]!.writes += built.writes
      queries[id]!.removals += built.removals
      if queries[id]!.literal == nil { queries[id]!.literal = built.literal }
      if queries[id]!.emptyConstruction == nil { queries[id]!.emptyConstruction = built.emptyConstruction }
    }
    for id in order {
      let query = queries[id]!
      queries[id]!.writes.removeAll { Self.isOverwritten($0, in: query) }
    }
    for id in order { queries[id]!.storage = storage(of: queries[id]!) }
    var built = order.map { queries[$0]! }
    Self.markProbes(&built)
    return built
  }

  /// Whether a later write of the same attribute into the same variable replaces `write` before
  /// anything can use it: the later one follows in a block that holds `write` too, and between
  /// them the variable is named only to write into it (`query[key] = …`) and nothing leaves the
  /// block (`return`, `throw`, `break`, `continue`). The earlier value never reaches the keychain.
  static func isOverwritten(_ write: KeychainAttributeWrite, in query: KeychainQuery) -> Bool {
    guard let name = query.binding?.name else { return false }
    return query.writes.contains { later in
      guard later.key == write.key, later.node.position >= write.node.endPosition,
        let block = later.node.ancestorOrSelf(mapping: { $0.as(CodeBlockItemListSyntax.self) }),
        block.position <= write.node.position, write.node.endPosition <= block.endPosition,
        !SyntaxFacts.hasClosure(between: write.node, and: Syntax(block))
      else { return false }
      for token in block.tokens(viewMode: .sourceAccurate)
      where token.position >= write.node.endPosition && token.position < later.node.position {
        switch token.tokenKind {
        case .keyword(.return), .keyword(.throw), .keyword(.break), .keyword(.continue), .keyword(.fallthrough):
          return false
        case .identifier(let text) where text == name:
          if !isSubscriptAssignmentBase(token) { return false }
        default:
          continue
        }
      }
      return true
    }
  }

  /// `query` in `query[key] = value`.
  private static func isSubscriptAssignmentBase(_ token: TokenSyntax) -> Bool {
    guard let reference = token.parent?.as(DeclReferenceExprSyntax.self),
      let subscriptCall = reference.parent?.as(SubscriptCallExprSyntax.self),
      subscriptCall.calledExpression.id == reference.id
    else { return false }
    return SyntaxFacts.assignmentOperator(writing: ExprSyntax(subscriptCall)) == "="
  }

  /// `[String: Any]()` or `Dictionary<String, Any>()`: an empty dictionary made by its type.
  static func emptyDictionaryConstruction(_ expression: ExprSyntax) -> FunctionCallExprSyntax? {
    guard let call = SequenceShape.unwrapCasts(expression).as(FunctionCallExprSyntax.self), call.arguments.isEmpty,
      call.trailingClosure == nil
    else { return nil }
    let called = call.calledExpression
    if called.is(DictionaryExprSyntax.self) { return call }
    if let generic = called.as(GenericSpecializationExprSyntax.self),
      generic.expression.as(DeclReferenceExprSyntax.self)?.baseName.text == "Dictionary"
    {
      return call
    }
    return nil
  }

  /// See `KeychainQuery.isProbe`. Deletes are few: each is described once, then matched
  /// against the queries that add.
  private static func markProbes(_ queries: inout [KeychainQuery]) {
    struct Delete {
      var call: FunctionCallExprSyntax
      var position: AbsolutePosition
      var body: SyntaxIdentifier?
      var query: Int
      var account: String?
    }
    var deletes: [Delete] = []
    for (index, query) in queries.enumerated() {
      for call in query.operations where SyntaxFacts.calledName(call) == "SecItemDelete" {
        deletes.append(
          Delete(
            call: call, position: call.position, body: enclosingBody(of: Syntax(call))?.id, query: index,
            account: accountText(of: query)))
      }
    }
    guard !deletes.isEmpty else { return }
    for index in queries.indices {
      let adds = queries[index].operations.filter { SyntaxFacts.calledName($0) == "SecItemAdd" }
      guard let lastAdd = adds.max(by: { $0.position < $1.position }) else { continue }
      let body = enclosingBody(of: Syntax(adds[0]))?.id
      let account = accountText(of: queries[index])
      // A delete in the other branch (`if let value { add } else { delete }`) removes another
      // time's item, not this one.
      queries[index].isProbe = deletes.contains { delete in
        delete.position > lastAdd.position && delete.body == body
          && (delete.query == index || (account != nil && delete.account == account))
          && !BranchFacts.neverRunTogether(delete.call, lastAdd)
      }
    }
  }

  /// The account an item is stored under, as written (`itemKey`, `"probe"`), when it is a name
  /// or a literal.
  private static func accountText(of query: KeychainQuery) -> String? {
    guard let value = query.writes(forKey: "kSecAttrAccount").last.map({ SequenceShape.unwrapCasts($0.value) })
    else { return nil }
    if let name = value.as(DeclReferenceExprSyntax.self) { return name.baseName.text }
    return SyntaxFacts.stringLiteralValue(value).map { "\"" + $0 }
  }

  /// The function or closure whose body holds `node`.
  private static func enclosingBody(of node: Syntax) -> Syntax? {
    node.ancestorOrSelf {
      $0.is(FunctionDeclSyntax.self) || $0.is(InitializerDeclSyntax.self) || $0.is(ClosureExprSyntax.self) ? $0 : nil
    }
  }

  /// The dictionaries `query` holds under `key` (`kSecPrivateKeyAttrs`), as the file builds them.
  public func nestedQueries(of query: KeychainQuery, key: String) -> [KeychainQuery] {
    query.writes(forKey: key).compactMap { write in
      let value = SequenceShape.unwrapCasts(write.value)
      if let literal = value.as(DictionaryExprSyntax.self) {
        return keychainQueries.first { $0.literal?.id == literal.id }
      }
      guard let binding = resolver.binding(denotedBy: value) else { return nil }
      return keychainQueries.first { $0.binding?.id == binding.id }
    }
  }

  /// Whether every attribute `query` can hold is in view: it starts as a dictionary literal,
  /// and if a variable holds it, that is a local one changed only by subscripts (no `merge`,
  /// no reassignment, never passed `inout`). Only then does a missing attribute mean missing.
  public func isFullySeen(_ query: KeychainQuery) -> Bool {
    guard query.site != nil else { return false }
    // Every key must be one Keyward reads (`SecKeys.accessible.rawValue` may be anything).
    let keys = (query.writes + query.removals).map(\.keyExpression.position)
    func namesAKey(_ node: some SyntaxProtocol) -> Bool { keys.contains { node.range.contains($0) } }
    if let elements = query.literal?.content.as(DictionaryElementListSyntax.self),
      !elements.allSatisfy({ namesAKey($0.key) })
    {
      return false
    }
    guard let binding = query.binding else { return true }
    let subscripts = index.subscriptAssignments.filter {
      resolver.binding(denotedBy: $0.0.calledExpression)?.id == binding.id
    }
    guard subscripts.allSatisfy({ namesAKey($0.0.arguments) }) else { return false }
    guard SyntaxFacts.memberBlock(declaring: binding.node) == nil, binding.kind != .parameter else { return false }
    let reassigned = (index.assignmentsByName[binding.name] ?? []).contains {
      resolver.binding(denotedBy: $0.target)?.id == binding.id
    }
    let merged = (index.memberCallsByReceiver[binding.name] ?? []).contains {
      !["removeValue", "removeAll", "updateValue"].contains($0.method)
        && resolver.binding(denotedBy: $0.receiver)?.id == binding.id
    }
    guard !reassigned, !merged, let scope = binding.node.ancestorOrSelf(mapping: { $0.id == binding.scope ? $0 : nil })
    else { return false }
    return !scope.tokens(viewMode: .sourceAccurate).contains { token in
      token.tokenKind == .identifier(binding.name) && token.parent?.parent?.is(InOutExprSyntax.self) == true
    }
  }

  /// The variable whose initial value is `literal` (through casts), if any.
  func binding(initializedBy literal: DictionaryExprSyntax) -> Binding? {
    var node = Syntax(literal)
    while let parent = node.parent {
      if let clause = parent.as(InitializerClauseSyntax.self),
        let pattern = clause.parent?.as(PatternBindingSyntax.self)
      {
        return index.binding(declaredBy: pattern)
      }
      guard
        parent.is(SequenceExprSyntax.self) || parent.is(ExprListSyntax.self) || parent.is(AsExprSyntax.self)
          || parent.is(TupleExprSyntax.self) || parent.is(LabeledExprListSyntax.self)
          || parent.is(LabeledExprSyntax.self)
      else { return nil }
      node = parent
    }
    return nil
  }
}

/// Where native macOS code keeps an item: Security routes a query to the file-based keychain
/// unless it opts into the data protection keychain or names something only that keychain holds.
public enum MacKeychainRouting {
  /// Keys the file-based keychain cannot hold: a query naming one goes to the data protection
  /// keychain (Security's `SecItemCategorizeQuery`), whose classes apply.
  public static let dataProtectionOnlyKeys = ["kSecAttrAccessControl", "kSecAttrTokenID"]
}

extension SemanticModel {
  /// Whether `query` runs only in native macOS code and stores its item in the file-based
  /// keychain, which has no accessibility classes: no query for the item (an update's match query
  /// too) sets `kSecUseDataProtectionKeychain` or `kSecAttrSynchronizable` to true, or names an
  /// access control or a token.
  /// With `write`, also when only that write is built for macOS alone (`#if os(macOS)` around
  /// `query[kSecAttrAccessible] = ...`, the add after `#endif`): on macOS the item gets it.
  public func goesToFileBasedKeychain(_ query: KeychainQuery, write: KeychainAttributeWrite? = nil) -> Bool {
    guard
      query.operations.contains(where: { TargetPlatform.isMacOSOnly($0, in: self) })
        || write.map({ TargetPlatform.isMacOSOnly($0.node, in: self) }) == true
    else { return false }
    let partners = keychainQueries.filter { other in
      other.operations.contains { call in query.operations.contains { $0.id == call.id } }
    }
    return !partners.contains(where: usesDataProtectionKeychain)
  }

  private func usesDataProtectionKeychain(_ query: KeychainQuery) -> Bool {
    let optIn = query.writes(forKey: "kSecUseDataProtectionKeychain").contains { write in
      resolver.values(of: write.value).contains { SyntaxFacts.isTrue($0.expression) }
    }
    return optIn || !query.synchronizableTrueValues(in: self).isEmpty
      || MacKeychainRouting.dataProtectionOnlyKeys.contains(where: query.has)
  }
}
