import SwiftSyntax

extension SemanticModel {
  /// What each function and initializer of this file does with its `LAContext` parameters, for
  /// findings in other files that hand their context to it (`HandOff`).
  /// - Parameter location: the source location of a byte offset of this file.
  public func contextParameterUses(location: (Int) -> SourceLocation) -> [ContextParameterUse] {
    var uses: [ContextParameterUse] = []
    for binding in index.bindingsByName.values.joined()
    where binding.kind == .parameter && binding.isDeclaredContext {
      guard let (callable, position) = callable(declaring: binding, location: location) else { continue }
      uses.append(
        ContextParameterUse(
          name: callable.name, parameters: callable.parameters, parameter: position,
          outcome: outcome(ofContextParameter: binding), location: callable.location, owner: callable.owner))
    }
    return uses.sorted { $0.location.start.offset < $1.location.start.offset }
  }

  /// The function or initializer declaring `parameter`, as calls are matched against it, and the
  /// parameter's position; nil for a closure's parameter or a declaration without a body.
  func callable(declaring parameter: Binding, location: (Int) -> SourceLocation) -> (CallableShape, Int)? {
    guard let node = parameter.node.as(FunctionParameterSyntax.self),
      let list = node.parent?.as(FunctionParameterListSyntax.self),
      let function = SyntaxFacts.enclosingFunction(of: parameter.node), Self.hasBody(function),
      let (name, nameToken) = Self.callableName(of: function),
      let position = list.firstIndex(where: { $0.id == node.id })
    else { return nil }
    let callable = CallableShape(
      name: name, parameters: list.map { .init(label: $0.firstName.text, hasDefault: $0.defaultValue != nil) },
      owner: Self.owner(of: function), location: location(nameToken.positionAfterSkippingLeadingTrivia.utf8Offset))
    return (callable, list.distance(from: list.startIndex, to: position))
  }

  /// A protocol's requirement has no body and says nothing about where the context goes; its
  /// conformers do.
  private static func hasBody(_ function: Syntax) -> Bool {
    if let declaration = function.as(FunctionDeclSyntax.self) { return declaration.body != nil }
    return function.as(InitializerDeclSyntax.self)?.body != nil
  }

  /// The type whose member `function` is, with the supertypes its declaration (or extension)
  /// names; nil for a free or local function.
  private static func owner(of function: Syntax) -> ContextParameterUse.Owner? {
    guard let block = SyntaxFacts.memberBlock(holding: function), let type = SyntaxFacts.typeName(declaring: block),
      let group = block.parent.flatMap(SyntaxFacts.declarationGroup)
    else { return nil }
    let supertypes = group.inheritanceClause?.inheritedTypes.map { SyntaxFacts.typeName($0.type) } ?? []
    return .init(type: type, supertypes: supertypes)
  }

  private func outcome(ofContextParameter parameter: Binding) -> ContextParameterUse.Outcome {
    switch classify(contexts: [parameter]) {
    case .keychainBound: .keychainBound
    case .contextToUnprotectedItems: .unprotectedItems
    case .handedOff(let site): .handedOn(site.contextCall)
    // A parameter given back is the caller's own context again: nothing more is seen here.
    case .eventBound, .givenBack: .notToKeychain
    }
  }

  /// How calls name a function (`retrieve`) or an initializer (its type, `SecureStore`), and
  /// the token to point at.
  private static func callableName(of function: Syntax) -> (String, TokenSyntax)? {
    if let declaration = function.as(FunctionDeclSyntax.self) { return (declaration.name.text, declaration.name) }
    guard let initializer = function.as(InitializerDeclSyntax.self),
      let block = SyntaxFacts.memberBlock(holding: function),
      let type = SyntaxFacts.typeName(declaring: block)
    else { return nil }
    return (type, initializer.initKeyword)
  }
}
