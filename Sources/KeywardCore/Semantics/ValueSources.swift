import SwiftSyntax

/// Where a value read at a sink comes from, as far as code outside the reading function
/// chooses it.
enum ValueSource {
  /// A parameter of one of the file's functions, or a member of its value
  /// (`settings.protection` for a parameter `settings`).
  case parameter(Binding, memberPath: [String])
  /// A stored property of a type, or a member of its value, read at `read`: set by whoever
  /// builds the type (`Settings(protection: …)`).
  case property(owner: String, name: String, memberPath: [String], read: Syntax)
}

extension SemanticModel {
  /// The parameters and stored properties `expression` may take its value from, inside array
  /// literals and option-set combinations (`[.privateKeyUsage, flags]`, `base.union(flags)`) and
  /// through member reads (`settings.protection`, `self.options.flags`).
  func sources(reaching expression: ExprSyntax, depth: Int = 0) -> [ValueSource] {
    guard depth < 4 else { return [] }
    var found = sources(ofMemberRead: SequenceShape.unwrap(expression))
    for value in resolver.values(of: expression, mutatingMethods: AccessControlEvaluator.growingMethods) {
      if let parameter = value.parameter, parameter.node.is(FunctionParameterSyntax.self) {
        found.append(.parameter(parameter, memberPath: []))
        continue
      }
      if value.expression.id != SequenceShape.unwrap(expression).id {
        found += sources(ofMemberRead: value.expression)
      }
      if let array = value.expression.as(ArrayExprSyntax.self) {
        for element in array.elements { found += sources(reaching: element.expression, depth: depth + 1) }
      } else if let call = value.expression.as(FunctionCallExprSyntax.self),
        let member = call.calledExpression.as(MemberAccessExprSyntax.self),
        AccessControlEvaluator.combiningMethods.contains(member.declName.baseName.text), let base = member.base
      {
        found += sources(reaching: base, depth: depth + 1)
        if let argument = call.arguments.first?.expression { found += sources(reaching: argument, depth: depth + 1) }
      }
    }
    return found
  }

  /// The sources of a read of a stored property or of a member chain (`settings.protection`):
  /// the name at its root with the members read from it.
  func sources(ofMemberRead expression: ExprSyntax) -> [ValueSource] {
    var path: [String] = []
    var root = expression
    while let member = root.as(MemberAccessExprSyntax.self), let base = member.base {
      path.insert(member.declName.baseName.text, at: 0)
      root = base
    }
    // The root binding and the members read from its value.
    let binding: Binding
    let rest: [String]
    if let reference = root.as(DeclReferenceExprSyntax.self), reference.baseName.tokenKind == .keyword(.self) {
      guard let first = path.first, let type = resolver.enclosingTypeName(of: Syntax(root)),
        let member = resolver.member(first, ofType: type, from: Syntax(root))
      else { return [] }
      binding = member
      rest = Array(path.dropFirst())
    } else if let reference = root.as(DeclReferenceExprSyntax.self),
      let named = resolver.lookup(reference.baseName.text, from: Syntax(reference))
    {
      binding = Self.aliasedBinding(named, resolver: resolver)
      rest = path
    } else if let reference = root.as(DeclReferenceExprSyntax.self), let (owner, property) = setterValue(reference) {
      return [.property(owner: owner, name: property, memberPath: path, read: Syntax(expression))]
    } else {
      return []
    }
    var found: [ValueSource] = []
    if binding.kind == .parameter, binding.node.is(FunctionParameterSyntax.self), !rest.isEmpty {
      found.append(.parameter(binding, memberPath: rest))
    }
    if let owner = storedPropertyOwner(binding) {
      found.append(.property(owner: owner, name: binding.name, memberPath: rest, read: Syntax(expression)))
      // Set by this file's initializer from one of its parameters (`self.settings = settings`).
      if !rest.isEmpty {
        for value in resolver.values(of: binding) {
          if let parameter = value.parameter, parameter.node.is(FunctionParameterSyntax.self) {
            found.append(.parameter(parameter, memberPath: rest))
          }
        }
      }
    }
    // A member of a value whose type is known is that type's property (`settings.protection`
    // of `let settings: VaultSettings`), whoever built the value.
    // Not a member of an enum this file declares: no one builds a case with it (its members are
    // the file's own mapping of cases, followed where the case is chosen).
    if let first = rest.first, let type = declaredType(of: binding), !index.declaresEnum(type) {
      found.append(.property(owner: type, name: first, memberPath: Array(rest.dropFirst()), read: Syntax(expression)))
    }
    return found
  }

  /// The binding a local constant only renames (`if let settings = settings`, `guard let s =
  /// settings else …`, `let s = settings`), followed to the name it renames; `binding` itself
  /// otherwise.
  static func aliasedBinding(_ binding: Binding, resolver: ConstantResolver) -> Binding {
    var current = binding
    for _ in 0..<4 {
      guard current.kind == .constant, SyntaxFacts.memberBlock(declaring: current.node) == nil,
        let value = current.initializer.map(SequenceShape.unwrap)?.as(DeclReferenceExprSyntax.self),
        let renamed = resolver.lookup(value.baseName.text, from: Syntax(value)), renamed.id != current.id
      else { break }
      current = renamed
    }
    return current
  }

  /// `newValue` (or the setter's own name for it) in the setter of a property of a struct or
  /// class: what whoever sets the property gives it. The type and the property's name.
  func setterValue(_ reference: DeclReferenceExprSyntax) -> (String, String)? {
    guard let binding = SyntaxFacts.propertySet(byNewValue: reference),
      let property = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
      let block = SyntaxFacts.memberBlock(declaring: Syntax(binding)),
      block.parent?.is(StructDeclSyntax.self) == true || block.parent?.is(ClassDeclSyntax.self) == true,
      let owner = SyntaxFacts.typeName(declaring: block)
    else { return nil }
    return (owner, property)
  }

  /// The type a stored instance property belongs to, when something outside its declaration
  /// can set it: a `var`, or a `let` without a value (set by an initializer).
  func storedPropertyOwner(_ binding: Binding) -> String? {
    guard !binding.isStatic, binding.kind == .variable || (binding.kind == .constant && binding.initializer == nil),
      let block = SyntaxFacts.memberBlock(declaring: binding.node)
    else { return nil }
    // An enum's or protocol's members are not set by callers building it.
    guard block.parent?.is(StructDeclSyntax.self) == true || block.parent?.is(ClassDeclSyntax.self) == true
    else { return nil }
    return SyntaxFacts.typeName(declaring: block)
  }

  /// A binding's type as written, as its value is built (`= Settings(…)`), or the enclosing type
  /// for a copy of `self` (`var copy = self` in a builder).
  func declaredType(of binding: Binding) -> String? {
    if let type = binding.typeName { return type.first?.isUppercase == true && !type.hasPrefix("[") ? type : nil }
    if let value = binding.initializer?.as(DeclReferenceExprSyntax.self), value.baseName.tokenKind == .keyword(.self) {
      return resolver.enclosingTypeName(of: Syntax(value))
    }
    guard let made = binding.initializer?.as(FunctionCallExprSyntax.self),
      let type = made.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
      type.first?.isUppercase == true
    else { return nil }
    return type
  }
}
