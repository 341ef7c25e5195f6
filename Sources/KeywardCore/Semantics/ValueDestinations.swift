import SwiftSyntax

extension SemanticModel {
  /// The expressions given directly as call arguments or assigned to a name or property, in
  /// source order: where a literal can be handed on. Read from the index, not by walking the
  /// tree, since every file naming a sink asks.
  /// - Parameters:
  ///   - throughConversions: give what a value is converted from (`x` of `Data(x.utf8)`,
  ///     `x.data(using: .utf8)!`, `Data([…])`), for sinks that keep text or bytes.
  ///   - wanted: picks the values wanted before they are sorted (most are not).
  public func handedValues(throughConversions: Bool = false, including wanted: (ExprSyntax) -> Bool = { _ in true })
    -> [ExprSyntax]
  {
    let look: (ExprSyntax) -> ExprSyntax = { expression in
      let value = SequenceShape.unwrap(expression)
      return throughConversions && value.is(FunctionCallExprSyntax.self) ? SequenceShape.convertedValue(value) : value
    }
    var values: [ExprSyntax] = []
    for calls in index.callsByName.values {
      for call in calls {
        for argument in call.arguments {
          let value = look(argument.expression)
          if wanted(value) { values.append(value) }
        }
      }
    }
    for assignments in index.assignmentsByName.values {
      for assignment in assignments {
        let value = look(assignment.value)
        if wanted(value) { values.append(value) }
      }
    }
    return values.sorted { $0.position < $1.position }
  }

  /// The calls that take one of `atoms` as an argument (alone, or in an array literal, a
  /// ternary, parentheses or a cast), as a declaration in any file is matched against them.
  /// Whether the value matters is settled once every file is scanned (`HandOff.sink`).
  public func argumentHandOffs(of atoms: [ExprSyntax]) -> [(atom: ExprSyntax, call: CallShape, enclosing: CallShape?)] {
    atoms.compactMap { atom in
      guard let (node, found) = argumentCall(holding: Syntax(atom)) else { return nil }
      var shape = found
      if let member = atom.as(MemberAccessExprSyntax.self), member.base == nil, shape.memberPath.isEmpty {
        shape.valueName = member.declName.baseName.text
      }
      // A value built for another call's argument (`Vault(settings: .init(protection: x))`):
      // that call is matched too, with the value as the built argument's member.
      var enclosing: CallShape?
      if !shape.isProperty, shape.isInitializer || shape.name == "init", let label = shape.argumentLabel,
        let (_, outer) = argumentCall(holding: node), !outer.isProperty
      {
        enclosing = outer
        enclosing?.memberPath = [label] + shape.memberPath
      }
      return (atom, shape, enclosing)
    }
  }

  /// Where `node`'s value goes, alone or through syntax that hands it on unchanged: the call it
  /// is an argument of, or the stored property it is assigned to (`copy.flags = value`,
  /// `self.protection = value`), or the computed property returning it (`var policy: LAPolicy
  /// { … }`), each with the call's or the property's shape.
  func argumentCall(holding node: Syntax) -> (node: Syntax, shape: CallShape)? {
    var current = node
    while let parent = current.parent {
      if let conversion = Self.conversion(of: current) {
        current = Syntax(conversion)
        continue
      }
      if let (call, argument) = SyntaxFacts.callTaking(current),
        let list = argument.parent?.as(LabeledExprListSyntax.self)
      {
        guard var name = SyntaxFacts.calledName(call), !name.isEmpty,
          let position = list.firstIndex(where: { $0.id == argument.id })
        else { return nil }
        // `Settings.init(…)` builds a `Settings`, as `Settings(…)` does.
        if name == "init", let type = SyntaxFacts.receiver(of: call)?.as(DeclReferenceExprSyntax.self)?.baseName.text,
          type.first?.isUppercase == true
        {
          name = type
        }
        let shape = CallShape(
          name: name, labels: SyntaxFacts.argumentLabels(call),
          argument: list.distance(from: list.startIndex, to: position), receiverType: receiverType(of: call))
        return (Syntax(call), shape)
      }
      // `@KeychainBacked("session", protection: value) var session`: the wrapper's initializer.
      if let argument = parent.as(LabeledExprSyntax.self), let list = argument.parent?.as(LabeledExprListSyntax.self),
        let attribute = list.parent?.as(AttributeSyntax.self),
        let position = list.firstIndex(where: { $0.id == argument.id })
      {
        let labels = list.map { $0.label?.text ?? "_" }
        let shape = CallShape(
          name: SyntaxFacts.typeName(attribute.attributeName), labels: labels,
          argument: list.distance(from: list.startIndex, to: position))
        return (Syntax(attribute), shape)
      }
      if let list = parent.as(ExprListSyntax.self) {
        let elements = Array(list)
        if elements.count == 3, elements[1].is(AssignmentExprSyntax.self), elements[2].id == current.id {
          return propertyWritten(by: elements[0]).map { (Syntax(list), $0) }
        }
      }
      if parent.is(ReturnStmtSyntax.self)
        || (parent.is(CodeBlockItemSyntax.self) && parent.parent?.as(CodeBlockItemListSyntax.self)?.count == 1)
      {
        return computedPropertyReturning(parent).map { (parent, $0) }
      }
      guard Self.passesValueThrough(parent) else { return nil }
      current = parent
    }
    return nil
  }

  /// The conversion right around `node` that keeps its text or bytes (`Data(x.utf8)`,
  /// `x.data(using: .utf8)`, `Data([…])`, `Array(x.utf8)`): the value handed on is still `node`'s.
  static func conversion(of node: Syntax) -> FunctionCallExprSyntax? {
    var candidate = node.parent
    for _ in 0..<4 {
      guard let current = candidate else { return nil }
      if let call = current.as(FunctionCallExprSyntax.self) {
        return SequenceShape.convertedValue(ExprSyntax(call)).id == node.id ? call : nil
      }
      candidate = current.parent
    }
    return nil
  }

  /// The property an assignment's target denotes, as the type it belongs to and its name:
  /// `self.p`, a stored `p` of the enclosing type, or `x.p` on a value of a known type (`var copy
  /// = self` in a builder).
  private func propertyWritten(by target: ExprSyntax) -> CallShape? {
    let owner: String
    let name: String
    if let member = target.as(MemberAccessExprSyntax.self), let base = member.base {
      name = member.declName.baseName.text
      if let reference = base.as(DeclReferenceExprSyntax.self), reference.baseName.tokenKind == .keyword(.self) {
        guard let type = resolver.enclosingTypeName(of: Syntax(target)) else { return nil }
        owner = type
      } else if let binding = resolver.binding(denotedBy: base), let type = declaredType(of: binding) {
        owner = type
      } else {
        return nil
      }
    } else if let binding = resolver.binding(denotedBy: target), let type = storedPropertyOwner(binding) {
      // A wrapped property (`@KeychainBacked(…) var session`) is set through its wrapper.
      if let wrapper = Self.propertyWrapper(of: binding) {
        return CallShape(name: wrapper, labels: ["wrappedValue"], argument: 0, isProperty: true)
      }
      name = binding.name
      owner = type
    } else {
      return nil
    }
    return CallShape(name: owner, labels: [name], argument: 0, isProperty: true)
  }

  /// The property wrapper a stored property is declared with (`@KeychainBacked(…) var session`).
  static func propertyWrapper(of binding: Binding) -> String? {
    guard let declaration = binding.node.parent?.parent?.as(VariableDeclSyntax.self) else { return nil }
    for element in declaration.attributes {
      guard case .attribute(let attribute) = element else { continue }
      let name = SyntaxFacts.typeName(attribute.attributeName)
      if name.first?.isUppercase == true { return name }
    }
    return nil
  }

  /// The computed property whose getter returns the statement `node` (`return value`, or the
  /// getter's single expression), as its type and name.
  private func computedPropertyReturning(_ node: Syntax) -> CallShape? {
    var current = node.parent
    while let candidate = current {
      if candidate.is(ClosureExprSyntax.self) || candidate.is(FunctionDeclSyntax.self) { return nil }
      // A `switch self` is a table of the type's cases: whoever picks the case makes the choice.
      if let switchCase = candidate.as(SwitchCaseSyntax.self),
        switchCase.parent?.parent?.as(SwitchExprSyntax.self)?.subject.as(DeclReferenceExprSyntax.self)?.baseName
          .tokenKind == .keyword(.self)
      {
        return nil
      }
      if let binding = candidate.as(PatternBindingSyntax.self) {
        guard binding.accessorBlock != nil,
          let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
          let block = SyntaxFacts.memberBlock(declaring: Syntax(binding)),
          block.parent?.is(StructDeclSyntax.self) == true || block.parent?.is(ClassDeclSyntax.self) == true,
          let type = SyntaxFacts.typeName(declaring: block)
        else { return nil }
        return CallShape(name: type, labels: [name], argument: 0, isProperty: true)
      }
      current = candidate.parent
    }
    return nil
  }

  /// Syntax that hands its element's value on unchanged, or as one of its alternatives.
  static func passesValueThrough(_ node: Syntax) -> Bool {
    switch node.kind {
    case .arrayElement, .arrayElementList, .arrayExpr, .unresolvedTernaryExpr, .ternaryExpr, .asExpr, .forceUnwrapExpr:
      return true
    case .exprList, .sequenceExpr:
      // A value in an operation (`flags == .biometryAny`) is not handed on; one in a ternary
      // branch or a cast is.
      return !(node.as(SequenceExprSyntax.self)?.elements.contains { $0.is(BinaryOperatorExprSyntax.self) } ?? false)
    case .labeledExpr:
      // Parentheses: a one-element tuple.
      return node.parent?.parent?.as(TupleExprSyntax.self)?.elements.count == 1
    case .labeledExprList, .tupleExpr:
      return node.as(TupleExprSyntax.self)?.elements.count ?? 1 == 1
    default:
      return false
    }
  }
}
