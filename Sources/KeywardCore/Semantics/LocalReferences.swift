import SwiftSyntax

/// Where a value is kept in a local, and where that local is named again: the questions the
/// status, wrapper-store and enclave-key checks ask of the same name.
extension ConstantResolver {
  /// The local or property whose initial value is `expression`, unwrapped or not
  /// (`let access = Create(...)!`, `let status = try Add(...)`, `guard let access = Create(...)`).
  public func binding(initializedWith expression: some ExprSyntaxProtocol) -> Binding? {
    var node = Syntax(expression)
    while let parent = node.parent,
      parent.is(ForceUnwrapExprSyntax.self) || parent.is(OptionalChainingExprSyntax.self)
        || parent.is(TryExprSyntax.self)
    {
      node = parent
    }
    guard let initializer = node.parent?.as(InitializerClauseSyntax.self) else { return nil }
    if let pattern = initializer.parent?.as(PatternBindingSyntax.self) {
      return index.binding(declaredBy: pattern)
    }
    guard let condition = initializer.parent?.as(OptionalBindingConditionSyntax.self),
      let name = condition.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
    else { return nil }
    return (index.bindingsByName[name] ?? []).first { $0.node.id == condition.id || $0.node.id == condition.pattern.id }
  }

  /// Every reference to `binding` in its scope, in source order, with that scope; nil when the
  /// scope is not found. Writes (`name = ...`) are references too.
  public func references(to binding: Binding) -> (scope: Syntax, references: [DeclReferenceExprSyntax])? {
    // An `if let` or `while let` binding's scope is the body beside its condition.
    guard
      let scope = binding.node.ancestorOrSelf(mapping: { node in
        if node.id == binding.scope { return node }
        if let body = node.as(IfExprSyntax.self)?.body, body.id == binding.scope { return Syntax(body) }
        if let body = node.as(WhileStmtSyntax.self)?.body, body.id == binding.scope { return Syntax(body) }
        return nil
      })
    else { return nil }
    var found: [DeclReferenceExprSyntax] = []
    // An `if let` binding's scope is the body, but the conditions after it see it too
    // (`if let made = Create(...), CFEqual(existing, made)`).
    if let condition = binding.node.as(OptionalBindingConditionSyntax.self),
      let element = condition.parent?.as(ConditionElementSyntax.self),
      let list = element.parent?.as(ConditionElementListSyntax.self)
    {
      for later in list where later.position > element.position {
        for token in later.tokens(viewMode: .sourceAccurate) where token.tokenKind == .identifier(binding.name) {
          if let reference = token.parent?.as(DeclReferenceExprSyntax.self) { found.append(reference) }
        }
      }
    }
    for token in scope.tokens(viewMode: .sourceAccurate) where token.tokenKind == .identifier(binding.name) {
      guard let reference = token.parent?.as(DeclReferenceExprSyntax.self),
        self.binding(denotedBy: ExprSyntax(reference))?.id == binding.id
      else { continue }
      found.append(reference)
    }
    return (scope, found)
  }

  /// Whether `use` holds for the value `expression` makes wherever it goes: where it is made, or,
  /// kept in a local, at every reference to that local (none at all is no use that holds).
  public func everyUse(of expression: some ExprSyntaxProtocol, satisfies use: (Syntax) -> Bool) -> Bool {
    if use(Syntax(expression)) { return true }
    guard let binding = binding(initializedWith: expression),
      let references = references(to: binding)?.references, !references.isEmpty
    else { return false }
    return references.allSatisfy { use(Syntax($0)) }
  }
}
