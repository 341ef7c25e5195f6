import SwiftSyntax

extension SemanticModel {
  /// What each function and initializer of this file does with its `LAContext` parameters, for
  /// findings in other files that hand their context to it (`HandOff`).
  /// - Parameter location: the source location of a byte offset of this file.
  public func contextParameterUses(location: (Int) -> SourceLocation) -> [ContextParameterUse] {
    var uses: [ContextParameterUse] = []
    for binding in index.bindingsByName.values.joined()
    where binding.kind == .parameter && binding.isDeclaredContext {
      guard let parameter = binding.node.as(FunctionParameterSyntax.self),
        let list = parameter.parent?.as(FunctionParameterListSyntax.self),
        let function = SyntaxFacts.enclosingFunction(of: binding.node),
        Self.hasBody(function),
        let (name, nameToken) = Self.callableName(of: function),
        let position = list.firstIndex(where: { $0.id == parameter.id })
      else { continue }
      uses.append(
        ContextParameterUse(
          name: name,
          parameters: list.map { .init(label: $0.firstName.text, hasDefault: $0.defaultValue != nil) },
          parameter: list.distance(from: list.startIndex, to: position), outcome: outcome(ofContextParameter: binding),
          location: location(nameToken.positionAfterSkippingLeadingTrivia.utf8Offset), owner: Self.owner(of: function)))
    }
    return uses.sorted { $0.location.start.offset < $1.location.start.offset }
  }

  /// A protocol's requirement has no body and says nothing about where the context goes; its
  /// conformers do.
  static func hasBody(_ function: Syntax) -> Bool {
    if let declaration = function.as(FunctionDeclSyntax.self) { return declaration.body != nil }
    return function.as(InitializerDeclSyntax.self)?.body != nil
  }

  /// The type whose member `function` is, with the supertypes its declaration (or extension)
  /// names; nil for a free or local function.
  static func owner(of function: Syntax) -> ContextParameterUse.Owner? {
    guard let block = SyntaxFacts.memberBlock(holding: function), let type = SyntaxFacts.typeName(declaring: block),
      let group = block.parent?.asProtocol(DeclGroupSyntax.self)
    else { return nil }
    let supertypes = group.inheritanceClause?.inheritedTypes.map { SyntaxFacts.typeName($0.type) } ?? []
    return .init(type: type, supertypes: supertypes)
  }

  private func outcome(ofContextParameter parameter: Binding) -> ContextParameterUse.Outcome {
    switch classify(contexts: [parameter]) {
    case .keychainBound: .keychainBound
    case .contextToUnprotectedItems: .unprotectedItems
    case .handedOff(let site): .handedOn(site.contextCall)
    case .eventBound: .notToKeychain
    }
  }

  /// How calls name a function (`retrieve`) or an initializer (its type, `SecureStore`), and
  /// the token to point at.
  static func callableName(of function: Syntax) -> (String, TokenSyntax)? {
    if let declaration = function.as(FunctionDeclSyntax.self) { return (declaration.name.text, declaration.name) }
    guard let initializer = function.as(InitializerDeclSyntax.self),
      let block = SyntaxFacts.memberBlock(holding: function),
      let type = SyntaxFacts.typeName(declaring: block)
    else { return nil }
    return (type, initializer.initKeyword)
  }
}
