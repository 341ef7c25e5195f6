import SwiftSyntax

/// The inventory of a Swift file, from the semantic layer the rules use: its keychain queries
/// and their roles, the values resolved through constants, the access-control evaluator, the
/// wrapper mappings and the `evaluatePolicy` bindings.
extension SemanticModel {
  /// The keychain items and keys the file writes and its LocalAuthentication gates, placed by
  /// `place` (a byte offset to a path, line and column).
  public func inventory(place: (Int) -> InventoryPlace) -> FileInventory {
    FileInventory(
      keychainItems: storedItemRecords(place: place) + wrapperItemRecords(place: place),
      gates: gateRecords(place: place))
  }

  /// One record per storing call (`SecItemAdd`, `SecItemUpdate`'s attributes, key generation)
  /// and the dictionary it is given, with the attributes of the dictionaries nested in it
  /// (`kSecPrivateKeyAttrs`) and, for an update, the identity of the items it matches.
  private func storedItemRecords(place: (Int) -> InventoryPlace) -> [KeychainItemRecord] {
    var records: [KeychainItemRecord] = []
    for query in keychainQueries {
      var seen: Set<SyntaxIdentifier> = []
      for call in query.operations where seen.insert(call.id).inserted {
        guard let name = SyntaxFacts.calledName(call), let positions = QueryRole.calls[name] else { continue }
        for (position, role) in positions where role.stores {
          guard let argument = SyntaxFacts.argument(call, at: position), belongs(argument, to: query) else {
            continue
          }
          let kind: KeychainItemRecord.Kind = role == .keyGeneration ? .key : .item
          var record = KeychainItemRecord(
            place: place(call.positionAfterSkippingLeadingTrivia.utf8Offset), language: .swift, kind: kind,
            call: name)
          var writes = query.writes + nestedWrites(of: query)
          if role == .updateAttributes, let match = matchQuery(of: call) {
            // The identity of the updated items comes from the query that matches them.
            let identity: Set<String> = [
              "kSecClass", "kSecAttrService", "kSecAttrAccount", "kSecAttrApplicationTag", "kSecAttrAccessGroup",
            ]
            writes += match.writes.filter { identity.contains($0.key) && !query.has($0.key) }
          }
          describe(&record, writes: writes)
          record.attributesComplete = startsInThisFile(query)
          if kind == .key, record.itemClass == nil { record.itemClass = "kSecClassKey" }
          records.append(record)
        }
      }
    }
    return records
  }

  /// Whether `argument` of a storing call is `query`'s dictionary (the same call can take two).
  private func belongs(_ argument: ExprSyntax, to query: KeychainQuery) -> Bool {
    let unwrapped = SequenceShape.unwrapCasts(argument)
    if let binding = query.binding { return resolver.binding(denotedBy: unwrapped)?.id == binding.id }
    if let literal = query.literal { return unwrapped.id == ExprSyntax(literal).id }
    return query.writes.isEmpty || query.writes.contains { $0.container.id == argument.id }
  }

  /// Whether the dictionary starts in this file as a literal or an empty dictionary
  /// (`[String: Any]()`, `NSMutableDictionary()`), so that every attribute it gets is seen here.
  private func startsInThisFile(_ query: KeychainQuery) -> Bool {
    if query.literal != nil { return true }
    guard let binding = query.binding, binding.kind != .parameter, let initializer = binding.initializer,
      let call = SequenceShape.unwrapCasts(initializer).as(FunctionCallExprSyntax.self), call.arguments.isEmpty
    else { return false }
    return call.calledExpression.is(DictionaryExprSyntax.self)
      || ["Dictionary", "NSMutableDictionary"].contains(SyntaxFacts.calledName(call) ?? "")
  }

  /// The match query (`SecItemUpdate`'s first argument) of an update call.
  private func matchQuery(of call: FunctionCallExprSyntax) -> KeychainQuery? {
    keychainQueries.first { query in
      query.roles.contains(.updateMatch) && query.operations.contains { $0.id == call.id }
        && SyntaxFacts.argument(call, at: 0).map { belongs($0, to: query) } == true
    }
  }

  /// The attributes of the dictionary nested in `query` under `kSecPrivateKeyAttrs`: the key
  /// that key generation keeps in the keychain.
  private func nestedWrites(of query: KeychainQuery) -> [KeychainAttributeWrite] {
    query.writes.filter { $0.key == "kSecPrivateKeyAttrs" }.flatMap { write -> [KeychainAttributeWrite] in
      let value = SequenceShape.unwrapCasts(write.value)
      let nested = keychainQueries.first { nested in
        if let literal = nested.literal, ExprSyntax(literal).id == value.id { return true }
        if let binding = nested.binding { return resolver.binding(denotedBy: value)?.id == binding.id }
        return false
      }
      return nested?.writes ?? []
    }
  }

  /// Fills the record's attributes from the writes of its dictionaries.
  private func describe(_ record: inout KeychainItemRecord, writes: [KeychainAttributeWrite]) {
    func values(_ key: String) -> [ExprSyntax] {
      writes.filter { $0.key == key }.flatMap { throughCallers($0.value) }
    }
    record.itemClass = Self.single(values("kSecClass").compactMap(Self.itemClassName))
    record.keyType = Self.single(values("kSecAttrKeyType").compactMap(Self.constantName))
    record.keySizeInBits = Self.single(values("kSecAttrKeySizeInBits").compactMap(SyntaxFacts.integerLiteralValue))
      .map(Int.init)
    record.tokenID = Self.single(values("kSecAttrTokenID").compactMap(Self.constantName))
    record.service = Self.single(values("kSecAttrService").compactMap(Self.constantText))
    record.account = Self.single(values("kSecAttrAccount").compactMap(Self.constantText))
    record.applicationTag = Self.single(values("kSecAttrApplicationTag").compactMap(Self.constantText))
    record.accessGroup = Self.single(values("kSecAttrAccessGroup").compactMap(Self.constantText))
    record.accessibility = Set(
      values("kSecAttrAccessible").compactMap { AccessibilityClass.denoted(by: $0)?.value.name }
    )
    .sorted()
    record.synchronizable = setting(of: writes.filter { $0.key == "kSecAttrSynchronizable" })
    record.dataProtectionKeychain = setting(of: writes.filter { $0.key == "kSecUseDataProtectionKeychain" })
    let accessControls = writes.filter { $0.key == "kSecAttrAccessControl" }
    if !accessControls.isEmpty { record.accessControl = accessControl(of: accessControls.map(\.value)) }
  }

  /// The access control the values denote, followed to `SecAccessControlCreateWithFlags`.
  private func accessControl(of expressions: [ExprSyntax]) -> AccessControlRecord {
    let creations = expressions.flatMap { throughCallers($0) }.compactMap { value -> FunctionCallExprSyntax? in
      let call = SequenceShape.unwrap(value).as(FunctionCallExprSyntax.self)
      return call.flatMap { SyntaxFacts.calledName($0) == "SecAccessControlCreateWithFlags" ? $0 : nil }
    }
    guard !creations.isEmpty else { return AccessControlRecord(protection: [], flags: [], resolved: false) }
    var protection: Set<String> = []
    var flags: Set<String> = []
    for creation in creations {
      if let argument = SyntaxFacts.argument(creation, at: 1) {
        for value in resolver.values(of: argument) {
          if let name = AccessibilityClass.denoted(by: value.expression)?.value.name { protection.insert(name) }
        }
      }
      if let argument = SyntaxFacts.argument(creation, at: 2) {
        flags.formUnion(accessControl.origins(of: argument).map(\.flag.name))
      }
    }
    return AccessControlRecord(protection: protection.sorted(), flags: flags.sorted(), resolved: true)
  }

  /// The values `expression` may have, and where a value is a parameter of its function, the
  /// values the file's calls of that function pass for it (`makeKey(tag:access:)` called with
  /// three access controls).
  private func throughCallers(_ expression: ExprSyntax, depth: Int = 0) -> [ExprSyntax] {
    resolver.values(of: expression).flatMap { value -> [ExprSyntax] in
      guard depth < 3, let parameter = value.parameter,
        value.expression.as(DeclReferenceExprSyntax.self)?.baseName.text == parameter.name
      else { return [value.expression] }
      let passed = resolver.arguments(passedTo: parameter)
      return passed.isEmpty ? [value.expression] : passed.flatMap { throughCallers($0, depth: depth + 1) }
    }
  }

  /// What a boolean attribute is set to, over every write of it.
  private func setting(of writes: [KeychainAttributeWrite]) -> AttributeSetting? {
    guard !writes.isEmpty else { return nil }
    var seen: Set<Bool> = []
    for value in writes.flatMap({ throughCallers($0.value) }) {
      if SyntaxFacts.isTrue(value) {
        seen.insert(true)
      } else if Self.isFalse(value) {
        seen.insert(false)
      } else {
        return .unresolved
      }
    }
    if seen.count == 2 { return .conditional }
    return seen.first.map { $0 ? .true : .false } ?? .unresolved
  }

  /// The file's `evaluatePolicy` calls, with how each is tied to the keychain. Overloads of
  /// `evaluatePolicy` are not gates themselves: their callers are.
  private func gateRecords(place: (Int) -> InventoryPlace) -> [AuthenticationGateRecord] {
    policyEvaluations.filter { !$0.isOverloadBody }.map { evaluation in
      var record = AuthenticationGateRecord(
        place: place(evaluation.reportRange.start), language: .swift,
        policies: Array(Set(evaluation.policies.map(\.name))).sorted(), binding: .eventBound)
      // The event-bound rule settles a context that leaves the file, but does not judge a reply
      // that ignores the result: such a gate keeps what this file shows.
      let settles = !evaluation.replyIgnoresResult
      switch binding(of: evaluation) {
      case .keychainBound:
        record.binding = .keychainBound
      case .eventBound:
        record.binding = .eventBound
        if let property = exposingProperty(of: evaluation) {
          record.binding = .undetermined
          record.bindingNote =
            "the context is kept in `\(property.name)`, which code in other files can read; no scanned file reads it into a protected keychain item or key"
          if settles { record.pending = .keptIn(property.name) }
        }
      case .contextToUnprotectedItems(let wrapper):
        record.binding = .contextToUnprotectedItems
        record.bindingNote =
          wrapper.map { "the context goes to \($0), which this file gives no access control" }
          ?? "the context reaches a keychain query, but the items this file stores have no access control"
      case .givenBack(let way):
        record.binding = .undetermined
        record.bindingNote = "the context is \(way.destination)"
      case .handedOff(let site):
        let callee = site.contextCall.signature
        record.binding = .undetermined
        record.bindingNote = "the context is handed to `\(callee)`, which no scanned file settles"
        if settles { record.pending = .handedOff(callee) }
      }
      return record
    }
  }

  // MARK: Values

  /// The only value, or nil when there are none or several.
  static func single<T: Hashable>(_ values: [T]) -> T? {
    let distinct = Set(values)
    return distinct.count == 1 ? distinct.first : nil
  }

  /// `kSecClassGenericPassword`, also for the raw values (`"genp"`).
  static func itemClassName(_ expression: ExprSyntax) -> String? {
    let raw = [
      "genp": "kSecClassGenericPassword", "inet": "kSecClassInternetPassword", "cert": "kSecClassCertificate",
      "keys": "kSecClassKey", "idnt": "kSecClassIdentity",
    ]
    if let text = SyntaxFacts.stringLiteralValue(expression) { return raw[text] }
    return constantName(expression).flatMap { $0.hasPrefix("kSecClass") ? $0 : nil }
  }

  /// The `kSec…` constant an expression names, bare or qualified.
  static func constantName(_ expression: ExprSyntax) -> String? {
    let expression = SequenceShape.unwrapCasts(expression)
    if let reference = expression.as(DeclReferenceExprSyntax.self), reference.baseName.text.hasPrefix("kSec") {
      return reference.baseName.text
    }
    if let member = expression.as(MemberAccessExprSyntax.self), member.base != nil,
      member.declName.baseName.text.hasPrefix("kSec")
    {
      return member.declName.baseName.text
    }
    return nil
  }

  /// The text of a string literal, also inside a conversion to `Data`
  /// (`"tag".data(using: .utf8)!`, `Data("tag".utf8)`): the one literal such a call holds.
  static func constantText(_ expression: ExprSyntax) -> String? {
    let expression = SequenceShape.unwrapCasts(expression)
    if let text = SyntaxFacts.stringLiteralValue(expression) { return text }
    guard expression.is(FunctionCallExprSyntax.self) || expression.is(ForceUnwrapExprSyntax.self) else { return nil }
    let literals = expression.tokens(viewMode: .sourceAccurate).compactMap { token -> String? in
      guard case .stringSegment(let text) = token.tokenKind else { return nil }
      return text
    }
    let quotes = expression.tokens(viewMode: .sourceAccurate).filter { $0.tokenKind == .stringQuote }.count
    return literals.count == 1 && quotes == 2 ? literals[0] : nil
  }

  static func isFalse(_ expression: ExprSyntax) -> Bool {
    if let literal = expression.as(BooleanLiteralExprSyntax.self) {
      return literal.literal.tokenKind == .keyword(.false)
    }
    return expression.as(DeclReferenceExprSyntax.self)?.baseName.text == "kCFBooleanFalse"
  }
}
