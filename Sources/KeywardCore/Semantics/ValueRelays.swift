import SwiftSyntax

extension SemanticModel {
  /// The stored properties (and initializer parameters) this file passes on, as they are or a
  /// member of them, to functions and types it does not declare (`KeychainHelper.save(value, protection:
  /// protection)`): where a value followed into this file goes next, in another file.
  /// Only arguments that name such a value are looked at, so the cost stays one lookup each.
  func valueRelays(location: (Int) -> SourceLocation) -> [ValueRelay] {
    var relays: [ValueRelay] = []
    for (name, calls) in index.callsByName where !declares(name) {
      for call in calls {
        for argument in call.arguments {
          // Most arguments name no parameter or property: ask that first, the call's shape after.
          let named = namedSources(of: argument.expression).filter(Self.isHeldValue)
          guard !named.isEmpty, let (_, shape) = argumentCall(holding: Syntax(argument.expression)) else { continue }
          let step = RelatedLocation(
            message: "passed on to `\(shape.signature)` here",
            location: location(argument.expression.positionAfterSkippingLeadingTrivia.utf8Offset))
          for source in named {
            switch source {
            case .parameter(let parameter, let path):
              guard let (callable, position) = callable(declaring: parameter, location: location) else { continue }
              relays.append(
                ValueRelay(
                  callable: callable, parameter: position, owner: nil, property: nil, memberPath: path, call: shape,
                  step: step))
            case .property(let owner, let property, let path, _):
              relays.append(
                ValueRelay(
                  callable: nil, parameter: 0, owner: owner, property: property, memberPath: path, call: shape,
                  step: step))
            }
          }
        }
      }
    }
    // Calls come grouped by name in no set order: sort fully, so the cache stays stable.
    func key(_ relay: ValueRelay) -> (Int, String, String, Int, String) {
      (
        relay.step.location.start.offset, relay.calledName, relay.property ?? "", relay.parameter,
        relay.memberPath.joined(separator: ".")
      )
    }
    return relays.sorted { key($0) < key($1) }
  }

  /// Values a type holds: its stored properties and its initializers' parameters (a property
  /// wrapper's setter passing `protection` to a helper). A plain function's parameters passed on
  /// are left out: they are everywhere, and following each costs more than the scan can spare.
  private static func isHeldValue(_ source: ValueSource) -> Bool {
    switch source {
    case .property: return true
    case .parameter(let parameter, _):
      return SyntaxFacts.enclosingFunction(of: parameter.node)?.is(InitializerDeclSyntax.self) == true
    }
  }

  /// A cheap first look: whether the name at the root of `expression` (`self` aside) is declared
  /// somewhere in the file as a stored property or an initializer's parameter.
  private func mayNameHeldValue(_ expression: ExprSyntax) -> Bool {
    var root = expression
    while let member = root.as(MemberAccessExprSyntax.self), let base = member.base { root = base }
    guard let reference = root.as(DeclReferenceExprSyntax.self) else { return false }
    if reference.baseName.tokenKind == .keyword(.self) { return true }
    // What a property's setter is given (a property wrapper's `wrappedValue`): `newValue`, or
    // the name the setter gives it (`set(token)`), which no declaration in the index carries.
    if reference.baseName.text == "newValue" { return setterValue(reference) != nil }
    let held =
      index.bindingsByName[reference.baseName.text]?.contains { binding in
        binding.kind == .parameter
          ? SyntaxFacts.enclosingFunction(of: binding.node)?.is(InitializerDeclSyntax.self) == true
          : SyntaxFacts.memberBlock(declaring: binding.node) != nil && !binding.isStatic
      } ?? false
    return held || setterValue(reference) != nil
  }

  /// Whether the file declares a function or type of this name: calls to it are followed within
  /// the file.
  private func declares(_ name: String) -> Bool {
    index.memberBlocksByType[name] != nil || (index.bindingsByName[name]?.contains { $0.kind == .function } ?? false)
  }

  /// The parameters and stored properties an argument names directly (`protection`,
  /// `self.settings`, `options.flags`), with a stored property's initializing parameter.
  private func namedSources(of argument: ExprSyntax) -> [ValueSource] {
    let expression = SequenceShape.unwrap(argument)
    guard expression.is(DeclReferenceExprSyntax.self) || expression.is(MemberAccessExprSyntax.self),
      mayNameHeldValue(expression)
    else { return [] }
    var found = sources(ofMemberRead: expression)
    if let reference = expression.as(DeclReferenceExprSyntax.self),
      let binding = resolver.lookup(reference.baseName.text, from: Syntax(reference))
    {
      if binding.kind == .parameter, binding.node.is(FunctionParameterSyntax.self) {
        found.append(.parameter(binding, memberPath: []))
      } else if storedPropertyOwner(binding) != nil {
        for value in resolver.values(of: binding) {
          if let parameter = value.parameter, parameter.node.is(FunctionParameterSyntax.self) {
            found.append(.parameter(parameter, memberPath: []))
          }
        }
      }
    }
    return found
  }
}
