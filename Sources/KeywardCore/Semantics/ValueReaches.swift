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
    }
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
      func take(_ sources: [ValueSource], path: [String], steps: [RelatedLocation]) {
        for source in sources {
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
            let reach = PropertyReach(
              owner: owner, property: name, memberPath: full, sink: sink,
              steps: [declared ?? step("read from `\(SyntaxFacts.text(read))` here", at: read)] + steps)
            facts.propertyReaches.append(reach)
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
  public func argumentHandOffs(of atoms: [ExprSyntax]) -> [(atom: ExprSyntax, call: CallShape, enclosing: CallShape?)]
  {
    atoms.compactMap { atom in
      guard let (call, shape) = argumentCall(holding: Syntax(atom)) else { return nil }
      // A value built for another call's argument (`Vault(settings: .init(protection: x))`):
      // that call is matched too, with the value as the built argument's member.
      var enclosing: CallShape?
      if shape.isInitializer || shape.name == "init", let label = shape.argumentLabel,
        let (_, outer) = argumentCall(holding: Syntax(call))
      {
        enclosing = outer
        enclosing?.memberPath = [label] + shape.memberPath
      }
      return (atom, shape, enclosing)
    }
  }

  /// The call `node` is an argument of, alone or through syntax that hands its value on
  /// unchanged, with the call's shape.
  private func argumentCall(holding node: Syntax) -> (FunctionCallExprSyntax, CallShape)? {
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
        return (call, shape)
      }
      guard Self.passesValueThrough(parent) else { return nil }
      current = parent
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
