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
    guard let scope = binding.node.ancestorOrSelf(mapping: { $0.id == binding.scope ? $0 : nil }) else { return nil }
    var found: [DeclReferenceExprSyntax] = []
    for token in scope.tokens(viewMode: .sourceAccurate) where token.tokenKind == .identifier(binding.name) {
      guard let reference = token.parent?.as(DeclReferenceExprSyntax.self),
        self.binding(denotedBy: ExprSyntax(reference))?.id == binding.id
      else { continue }
      found.append(reference)
    }
    return (scope, found)
  }
}
