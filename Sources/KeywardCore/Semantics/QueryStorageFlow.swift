import SwiftSyntax

/// Follows a keychain dictionary through the names that hold it, to learn whether anything can
/// store it: which Security calls take it, whether it is only compared, and whether it leaves
/// what the file shows (returned, passed elsewhere, kept in a property another file can read).
struct QueryStorageFlow {
  let model: SemanticModel
  var roles: Set<QueryRole> = []
  var leaves = false
  var compared = false
  private var followed: Set<SyntaxIdentifier> = []
  /// Aliases followed from one dictionary (`let cf = query as CFDictionary`).
  static let maximumAliases = 4

  init(model: SemanticModel) { self.model = model }

  /// The verdict for a query whose own calls gave `roles`.
  static func storage(of query: KeychainQuery, model: SemanticModel) -> QueryStorage {
    if query.roles.contains(where: \.stores) { return .stores }
    var flow = QueryStorageFlow(model: model)
    flow.roles = query.roles
    if let binding = query.binding {
      flow.follow(binding)
    } else if let literal = query.literal {
      flow.classify(ValueUse.outermostHolder(of: Syntax(literal)))
    } else {
      return .unknown
    }
    if flow.roles.contains(where: \.stores) { return .stores }
    if flow.leaves { return flow.roles.isEmpty && isSearch(query) ? .matchesOnly : .unknown }
    if !flow.roles.isEmpty { return .matchesOnly }
    return flow.compared ? .compared : .unused
  }

  /// Whether the dictionary asks for results (`kSecReturnData`, `kSecMatchLimit`) and carries no
  /// value to store: a search, wherever it goes.
  static func isSearch(_ query: KeychainQuery) -> Bool {
    let keys = query.writes.map(\.key)
    return keys.contains { $0.hasPrefix("kSecReturn") || $0.hasPrefix("kSecMatch") }
      && !keys.contains { $0.hasPrefix("kSecValue") }
  }

  /// Every use of the name `binding` declares, in the part of the file that can see it.
  mutating func follow(_ binding: Binding) {
    guard followed.insert(binding.id).inserted, followed.count <= Self.maximumAliases + 1 else {
      leaves = true
      return
    }
    guard let region = Self.region(of: binding) else {
      leaves = true
      return
    }
    let finder = ReferenceFinder(name: binding.name, declaration: binding.node)
    finder.walk(region)
    for reference in finder.references { classify(ValueUse.outermostHolder(of: reference)) }
  }

  /// Where a binding's uses can be: its block for a local, the file for a private property;
  /// nil where other files can use it too (parameters, globals, other properties).
  static func region(of binding: Binding) -> Syntax? {
    guard binding.kind == .constant || binding.kind == .variable else { return nil }
    if let block = SyntaxFacts.memberBlock(declaring: binding.node) {
      let declaration = binding.node.parent?.parent?.as(VariableDeclSyntax.self)
      let isPrivate =
        declaration?.modifiers.contains {
          $0.name.tokenKind == .keyword(.private) || $0.name.tokenKind == .keyword(.fileprivate)
        } == true
      return isPrivate ? Syntax(block.root) : nil
    }
    var current = binding.node.parent
    while let candidate = current {
      if candidate.is(SourceFileSyntax.self) { return nil }
      if SyntaxFacts.isScope(candidate) { return candidate }
      current = candidate.parent
    }
    return nil
  }

  /// Judges one place holding the dictionary's value.
  mutating func classify(_ holder: Syntax) {
    if ValueUse.isOnlyInspected(holder) {
      compared = true
      return
    }
    guard let parent = holder.parent else { return }
    switch parent.kind {
    case .labeledExpr:
      guard let list = parent.parent?.as(LabeledExprListSyntax.self),
        let call = list.parent?.as(FunctionCallExprSyntax.self),
        let position = list.firstIndex(where: { $0.id == parent.id }).map({
          list.distance(from: list.startIndex, to: $0)
        })
      else {
        leaves = true
        return
      }
      if let role = QueryRole.role(ofArgument: position, in: call) {
        roles.insert(role)
      } else if let role = SyntaxFacts.calledName(call).flatMap(QueryRole.role(ofHelperNamed:))
        ?? QueryRole.role(ofArgumentLabeled: parent.as(LabeledExprSyntax.self)?.label?.text)
      {
        roles.insert(role)
      } else if Self.isMerge(call) {
        // `base.merging(query) { … }`: the attributes go on in the merged dictionary.
        classify(ValueUse.outermostHolder(of: Syntax(call)))
      } else {
        leaves = true
      }
    case .subscriptCallExpr:
      // `query[key]` reads or writes one attribute; the dictionary stays where it is.
      if parent.as(SubscriptCallExprSyntax.self)?.calledExpression.id != holder.id { leaves = true }
    case .memberAccessExpr:
      // `query.updateValue(...)`, `query.count`: the dictionary itself stays; a copy made by
      // `merging` or `filter` is another dictionary that can go anywhere.
      let member = parent.as(MemberAccessExprSyntax.self)!
      if member.base?.id == holder.id, let call = member.parent?.as(FunctionCallExprSyntax.self), Self.isMerge(call) {
        // `query.merging(extra) { … }`: a copy with this dictionary's attributes, followed on.
        classify(ValueUse.outermostHolder(of: Syntax(call)))
      } else if member.base?.id != holder.id || Self.copyingMembers.contains(member.declName.baseName.text) {
        leaves = true
      }
    case .initializerClause:
      if let pattern = parent.parent?.as(PatternBindingSyntax.self),
        let alias = model.index.binding(declaredBy: pattern)
      {
        follow(alias)
      } else {
        leaves = true
      }
    case .dictionaryElement:
      let element = parent.as(DictionaryElementSyntax.self)!
      let key = model.resolver.values(of: element.key).compactMap { KeychainKeys.denoted(by: $0.expression) }
      if element.value.id != holder.id || !key.contains(where: QueryRole.nestingKeys.contains) { leaves = true }
    case .exprList:
      // Only `name = other` keeps the dictionary here; `x = name` copies it elsewhere.
      let elements = Array(parent.as(ExprListSyntax.self)!)
      let isAssignedTo = elements.count >= 2 && elements[0].id == holder.id && elements[1].is(AssignmentExprSyntax.self)
      if !isAssignedTo { leaves = true }
    case .codeBlockItem:
      // A lone expression statement is unused, unless it is a body's implicit result.
      if let list = parent.parent?.as(CodeBlockItemListSyntax.self), list.count == 1,
        list.parent.map({ !$0.is(SourceFileSyntax.self) }) == true
      {
        leaves = true
      }
    default:
      leaves = true
    }
  }

  /// `a.merging(b) { … }` (or `uniquingKeysWith:`): a new dictionary holding both.
  static func isMerge(_ call: FunctionCallExprSyntax) -> Bool {
    call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "merging"
  }

  /// Dictionary members whose result is a new dictionary built from this one.
  static let copyingMembers: Set<String> = ["merging", "filter", "mapValues", "compactMapValues", "map", "reduce"]
}

/// The references to one name (`name`, `self.name`) below a node, except its declaration.
final class ReferenceFinder: SyntaxVisitor {
  let name: String
  let declaration: Syntax
  var references: [Syntax] = []

  init(name: String, declaration: Syntax) {
    self.name = name
    self.declaration = declaration
    super.init(viewMode: .sourceAccurate)
  }

  override func visitPost(_ node: DeclReferenceExprSyntax) {
    guard node.baseName.text == name else { return }
    if let member = node.parent?.as(MemberAccessExprSyntax.self), member.declName.id == node.id {
      // `self.name` is this name; `other.name` is another value's member.
      guard member.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self) else { return }
      references.append(Syntax(member))
      return
    }
    references.append(Syntax(node))
  }
}

extension SemanticModel {
  func storage(of query: KeychainQuery) -> QueryStorage { QueryStorageFlow.storage(of: query, model: self) }

  /// Whether the access control `creation` makes protects no item: its value is only compared
  /// (`CFEqual(existing, made)`), where it is made or through the local it is kept in, as a
  /// template that recognises another item's access control.
  public func isMadeOnlyForComparison(_ creation: FunctionCallExprSyntax) -> Bool {
    resolver.everyUse(of: creation, satisfies: ValueUse.isCompared)
  }

  /// Whether the access control `creation` makes protects no item because it only goes into
  /// searches: every use of it, where it is made or through the local it is kept in, is the
  /// `kSecAttrAccessControl` value of a dictionary that stores nothing (a `SecItemCopyMatching`
  /// query, a delete). A search ignores the access control, so its flags decide nothing.
  public func isPutOnlyIntoSearches(_ creation: FunctionCallExprSyntax) -> Bool {
    let searchValues = accessControlsOnlySearched
    guard !searchValues.isEmpty else { return false }
    return resolver.everyUse(of: creation) { use in
      searchValues.contains(use.id) || searchValues.contains(ValueUse.outermostHolder(of: use).id)
    }
  }

  /// The `kSecAttrAccessControl` values written only into queries that store nothing. One write
  /// can belong to several queries (a helper's dictionary, and each caller's copy of its
  /// result): it goes only into searches when no query holding it may store.
  func findAccessControlsOnlySearched() -> Set<SyntaxIdentifier> {
    func values(_ mayStore: Bool) -> Set<SyntaxIdentifier> {
      Set(
        keychainQueries.filter { $0.mayStore == mayStore }.flatMap { $0.writes(forKey: "kSecAttrAccessControl") }.map {
          Self.assignedValue($0.value).id
        })
    }
    return values(false).subtracting(values(true))
  }

  /// The value a write holds: for an assignment written with casts after its value
  /// (`query[key] = access as Any`, kept as the whole sequence), the value before the casts.
  private static func assignedValue(_ value: ExprSyntax) -> ExprSyntax {
    guard let sequence = value.as(SequenceExprSyntax.self) else { return value }
    let elements = Array(sequence.elements)
    guard elements.count > 3, elements[1].is(AssignmentExprSyntax.self),
      elements[3...].allSatisfy({ $0.is(UnresolvedAsExprSyntax.self) || $0.is(TypeExprSyntax.self) })
    else { return value }
    return elements[2]
  }

  /// Whether a constant is only looked for, never put anywhere: compared or asserted, or an
  /// element of a collection that is only searched (`[.none, .complete].contains(x)`, or a
  /// constant set whose every use is `contains` or a comparison).
  public func isOnlyLookedFor(_ node: some SyntaxProtocol) -> Bool {
    let node = Syntax(node)
    if ValueUse.isOnlyInspected(node) { return true }
    let holder = ValueUse.outermostHolder(of: node)
    guard let array = holder.parent?.parent?.parent?.as(ArrayExprSyntax.self),
      holder.parent?.is(ArrayElementSyntax.self) == true
    else { return false }
    let collection = ValueUse.outermostHolder(of: Syntax(array))
    if Self.isSearched(collection) { return true }
    guard let pattern = collection.parent?.parent?.as(PatternBindingSyntax.self),
      let binding = index.binding(declaredBy: pattern),
      let region = QueryStorageFlow.region(of: binding)
    else { return false }
    let finder = ReferenceFinder(name: binding.name, declaration: binding.node)
    finder.walk(region)
    return !finder.references.isEmpty
      && finder.references.allSatisfy { Self.isSearched(ValueUse.outermostHolder(of: $0)) }
  }

  /// Whether the constant `literal` is the value of is also compared where it is visible
  /// (`retrieved == expected`): a sentinel an item is written with to test the keychain, and
  /// recognised when read back, rather than a secret. Only locals and private members, whose
  /// every use is in view.
  public func isSentinel(_ literal: ExprSyntax) -> Bool {
    guard let pattern = literal.parent?.as(InitializerClauseSyntax.self)?.parent?.as(PatternBindingSyntax.self),
      let binding = index.binding(declaredBy: pattern), binding.kind == .constant,
      let region = QueryStorageFlow.region(of: binding)
    else { return false }
    let finder = ReferenceFinder(name: binding.name, declaration: binding.node)
    finder.walk(region)
    return finder.references.contains { ValueUse.isCompared($0) }
  }

  /// A collection that is compared, searched (`set.contains(x)`) or searched for (`flags.contains(set)`).
  private static func isSearched(_ collection: Syntax) -> Bool {
    if ValueUse.isOnlyInspected(collection) { return true }
    if let member = collection.parent?.as(MemberAccessExprSyntax.self), member.base?.id == collection.id {
      return searchingMethods.contains(member.declName.baseName.text)
    }
    if let call = SyntaxFacts.callTaking(collection)?.call, let name = SyntaxFacts.calledName(call) {
      return searchingMethods.contains(name)
    }
    return false
  }

  private static let searchingMethods: Set<String> = [
    "contains", "isSuperset", "isSubset", "isStrictSuperset", "isStrictSubset", "intersection", "isDisjoint",
    "firstIndex", "index",
  ]
}
