import SwiftSyntax

/// One place in a file where a setting takes effect: the expression whose value a rule judges.
public struct ValueSinkSite {
  public var sink: ValueSink
  public var value: ExprSyntax
  /// Where to point a related location.
  public var at: Syntax
  /// What happens here, for that location ("passed to SecAccessControlCreateWithFlags here").
  public var note: String
}

extension SemanticModel {
  /// The file's sites of one sink, in source order: the one list rules and summaries share.
  public func sinkSites(_ sink: ValueSink) -> [ValueSinkSite] {
    switch sink {
    case .accessControlFlags:
      return accessControlCreations.compactMap { call in
        SyntaxFacts.argument(call, at: 2).map {
          ValueSinkSite(sink: sink, value: $0, at: Syntax($0), note: "passed to SecAccessControlCreateWithFlags here")
        }
      }
    case .accessibility:
      let stored = storedKeychainWrites(forKey: "kSecAttrAccessible").map {
        ValueSinkSite(sink: sink, value: $0.value, at: $0.node, note: "used here as the kSecAttrAccessible value")
      }
      return stored
        + accessControlCreations.compactMap { call in
          SyntaxFacts.argument(call, at: 1).map {
            ValueSinkSite(sink: sink, value: $0, at: Syntax($0), note: "passed to SecAccessControlCreateWithFlags here")
          }
        }
    case .policy:
      return policyEvaluations.compactMap { evaluation in
        evaluation.policyExpression.map {
          ValueSinkSite(sink: sink, value: $0, at: Syntax($0), note: "evaluated by `evaluatePolicy` here")
        }
      }
    case .valueData:
      // A probe item, added and deleted again, keeps no value.
      return keychainQueries.filter { $0.mayStore && !$0.isProbe }.flatMap { $0.writes(forKey: "kSecValueData") }.map {
        ValueSinkSite(
          sink: sink, value: Self.dataSource(of: $0.value), at: $0.node, note: "stored as kSecValueData here")
      }
    case .reuseDuration:
      // A window on a context that nothing evaluates or passes on affects no prompt.
      return (index.memberAssignmentsByName["touchIDAuthenticationAllowableReuseDuration"] ?? []).compactMap {
        target, value in
        if let base = target.base, isUnusedLocalContext(base) { return nil }
        return ValueSinkSite(
          sink: sink, value: value, at: Syntax(value), note: "set as the context's Touch ID reuse window here")
      }
    }
  }

  /// The value data is made from: `value` in `Data(value.utf8)`, `value.data(using: .utf8)!`,
  /// `Data(value)`, `(value ?? "")` and `value as CFData`.
  static func dataSource(of expression: ExprSyntax) -> ExprSyntax {
    var value = SequenceShape.unwrapCasts(expression)
    for _ in 0..<6 {
      if let forced = value.as(ForceUnwrapExprSyntax.self) {
        value = SequenceShape.unwrapCasts(forced.expression)
      } else if let call = value.as(FunctionCallExprSyntax.self), let name = SyntaxFacts.calledName(call),
        ["Data", "Array", "data"].contains(name)
      {
        guard let inner = name == "data" ? SyntaxFacts.receiver(of: call) : call.arguments.first?.expression else {
          break
        }
        value = SequenceShape.unwrapCasts(inner)
      } else if let member = value.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "utf8",
        let base = member.base
      {
        value = SequenceShape.unwrapCasts(base)
      } else if let sequence = value.as(SequenceExprSyntax.self), let first = sequence.elements.first,
        sequence.elements.dropFirst().first.flatMap(SequenceShape.operatorText) == "??"
      {
        value = SequenceShape.unwrapCasts(first)
      } else {
        break
      }
    }
    return value
  }

  /// The parameters of this file's functions and initializers, and the stored properties of its
  /// types, whose values reach one of `sinks`, directly or passed on through other functions of
  /// the file: what a call in any file that passes a weak value (or builds a type with one)
  /// needs to know.
  /// - Parameter location: the source location of a byte offset of this file.
  public func valueReaches(_ sinks: [ValueSink], location: (Int) -> SourceLocation) -> CallFacts {
    var facts = CallFacts()
    func step(_ message: String, at node: some SyntaxProtocol) -> RelatedLocation {
      RelatedLocation(message: message, location: location(node.positionAfterSkippingLeadingTrivia.utf8Offset))
    }
    for sink in sinks {
      var seen: Set<String> = []
      var pending: [(parameter: Binding, path: [String], steps: [RelatedLocation])] = []
      func take(_ found: [ValueSource], path: [String], steps: [RelatedLocation]) {
        for source in found {
          switch source {
          case .parameter(let parameter, let memberPath):
            let full = memberPath + path
            guard seen.insert("\(parameter.position.utf8Offset) \(full)").inserted else { continue }
            pending.append((parameter, full, steps))
          case .property(let owner, let name, let memberPath, let read):
            let full = memberPath + path
            guard seen.insert("\(owner).\(name) \(full)").inserted else { continue }
            let declared = resolver.member(name, ofType: owner).map {
              step("stored in `\(owner).\(name)`, declared here", at: $0.node)
            }
            // Where the property is declared, else where it is read (unless that is the sink).
            let read = step("read from `\(SyntaxFacts.text(read))` here", at: read)
            let first = declared ?? (read.location == steps.first?.location ? nil : read)
            let reach = PropertyReach(
              owner: owner, property: name, memberPath: full, sink: sink, steps: (first.map { [$0] } ?? []) + steps)
            facts.propertyReaches.append(reach)
            // Built in this file from another value (`KeyPolicy(flags: flags)` in a builder's
            // `build()`): that value's sources reach the sink too.
            for call in index.calls(named: owner) {
              guard let argument = SyntaxFacts.argument(call, labeled: name) else { continue }
              take(
                self.sources(reaching: argument), path: full,
                steps: [step("passed to `\(owner)(\(name):)` here", at: argument)] + reach.steps)
            }
          }
        }
      }
      for site in sinkSites(sink) {
        take(sources(reaching: site.value), path: [], steps: [step(site.note, at: site.at)])
      }
      // Worklist with a seen-set: a relay of thousands of functions costs one visit each.
      while let (parameter, path, steps) = pending.popLast() {
        guard let (callable, position) = callable(declaring: parameter, location: location) else { continue }
        let reach = ParameterReach(callable: callable, parameter: position, sink: sink, steps: steps, memberPath: path)
        facts.parameterReaches.append(reach)
        for argument in resolver.arguments(passedTo: parameter) {
          take(
            sources(reaching: argument), path: path,
            steps: [step("passed on to `\(reach.callable.signature)` here", at: argument)] + steps)
        }
      }
    }
    facts.parameterReaches.sort {
      ($0.callable.location.start.offset, $0.parameter, $0.sink.rawValue, $0.memberPath.joined(separator: "."))
        < ($1.callable.location.start.offset, $1.parameter, $1.sink.rawValue, $1.memberPath.joined(separator: "."))
    }
    return facts
  }

  /// The calls that take one of `atoms` as an argument (alone, or in an array literal, a
  /// ternary, parentheses or a cast), as a declaration in any file is matched against them.
  /// Whether the value matters is settled once every file is scanned (`HandOff.sink`).
  public func argumentHandOffs(of atoms: [ExprSyntax]) -> [(atom: ExprSyntax, call: CallShape, enclosing: CallShape?)] {
    atoms.compactMap { atom in
      guard let (node, shape) = argumentCall(holding: Syntax(atom)) else { return nil }
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
      if let argument = parent.as(LabeledExprSyntax.self),
        let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self),
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

  /// Whether `node` runs only on a branch its function's caller picks: inside an `if`, a `switch`
  /// case or a ternary branch of the function whose condition reads a parameter
  /// (`if allowPasscode { … }`).
  /// Such code offers an option; the weakness is in the caller that picks it.
  public func isChosenByCaller(_ node: Syntax) -> Bool {
    var current = node
    while let parent = current.parent, !parent.is(FunctionDeclSyntax.self), !parent.is(ClosureExprSyntax.self) {
      if let branch = parent.as(IfExprSyntax.self), current.id != branch.conditions.id,
        resolver.isDecidedByCaller(branch.conditions.compactMap { $0.condition.as(ExprSyntax.self) }[...])
      {
        return true
      }
      if let sequence = parent.as(SequenceExprSyntax.self),
        let ternary = sequence.elements.firstIndex(where: { $0.is(UnresolvedTernaryExprSyntax.self) }),
        sequence.elements.first?.id != current.id,
        resolver.isDecidedByCaller(Array(sequence.elements[..<ternary])[...])
      {
        return true
      }
      if let switchCase = parent.as(SwitchCaseSyntax.self),
        let subject = switchCase.parent?.parent?.as(SwitchExprSyntax.self)?.subject,
        resolver.isDecidedByCaller([subject][...])
      {
        return true
      }
      current = parent
    }
    return false
  }

  /// Syntax that hands its element's value on unchanged, or as one of its alternatives.
  private static func passesValueThrough(_ node: Syntax) -> Bool {
    switch node.kind {
    case .arrayElement, .arrayElementList, .arrayExpr, .unresolvedTernaryExpr, .ternaryExpr, .asExpr:
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
