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

  /// The parameters of this file's functions and initializers whose values reach one of `sinks`,
  /// directly or passed on through other functions of the file: what a call in any file that
  /// passes a weak value needs to know.
  /// - Parameter location: the source location of a byte offset of this file.
  public func parameterReaches(_ sinks: [ValueSink], location: (Int) -> SourceLocation) -> [ParameterReach] {
    var reaches: [ParameterReach] = []
    for sink in sinks {
      var seen: Set<SyntaxIdentifier> = []
      var pending: [(parameter: Binding, steps: [RelatedLocation])] = []
      for site in sinkSites(sink) {
        let step = RelatedLocation(
          message: site.note, location: location(site.at.positionAfterSkippingLeadingTrivia.utf8Offset))
        for parameter in parameters(reaching: site.value) where seen.insert(parameter.id).inserted {
          pending.append((parameter, [step]))
        }
      }
      // Worklist with a seen-set: a relay of thousands of functions costs one visit each.
      while let (parameter, steps) = pending.popLast() {
        guard let (callable, position) = callable(declaring: parameter, location: location) else { continue }
        let reach = ParameterReach(callable: callable, parameter: position, sink: sink, steps: steps)
        reaches.append(reach)
        for argument in resolver.arguments(passedTo: parameter) {
          let step = RelatedLocation(
            message: "passed on to `\(reach.callable.signature)` here",
            location: location(argument.positionAfterSkippingLeadingTrivia.utf8Offset))
          for next in parameters(reaching: argument) where seen.insert(next.id).inserted {
            pending.append((next, [step] + steps))
          }
        }
      }
    }
    return reaches.sorted {
      ($0.callable.location.start.offset, $0.parameter, $0.sink.rawValue)
        < ($1.callable.location.start.offset, $1.parameter, $1.sink.rawValue)
    }
  }

  /// The parameters `expression` may take its value from, inside array literals and option-set
  /// combinations (`[.privateKeyUsage, flags]`, `base.union(flags)`).
  func parameters(reaching expression: ExprSyntax, depth: Int = 0) -> [Binding] {
    guard depth < 4 else { return [] }
    var found: [Binding] = []
    for value in resolver.values(of: expression, mutatingMethods: AccessControlEvaluator.growingMethods) {
      if let parameter = value.parameter, parameter.node.is(FunctionParameterSyntax.self) {
        found.append(parameter)
      }
      if let array = value.expression.as(ArrayExprSyntax.self) {
        for element in array.elements { found += parameters(reaching: element.expression, depth: depth + 1) }
      } else if let call = value.expression.as(FunctionCallExprSyntax.self),
        let member = call.calledExpression.as(MemberAccessExprSyntax.self),
        AccessControlEvaluator.combiningMethods.contains(member.declName.baseName.text), let base = member.base
      {
        found += parameters(reaching: base, depth: depth + 1)
        if let argument = call.arguments.first?.expression { found += parameters(reaching: argument, depth: depth + 1) }
      }
    }
    return found
  }

  /// The calls that take one of `atoms` as an argument (alone, or in an array literal, a
  /// ternary, parentheses or a cast), as a declaration in any file is matched against them.
  /// Whether the value matters is settled once every file is scanned (`HandOff.sink`).
  public func argumentHandOffs(of atoms: [ExprSyntax]) -> [(atom: ExprSyntax, call: CallShape)] {
    atoms.compactMap { atom in
      var current = Syntax(atom)
      while let parent = current.parent {
        if let argument = parent.as(LabeledExprSyntax.self),
          let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self),
          let list = argument.parent?.as(LabeledExprListSyntax.self)
        {
          guard let name = SyntaxFacts.calledName(call), !name.isEmpty,
            let position = list.firstIndex(where: { $0.id == argument.id })
          else { return nil }
          let shape = CallShape(
            name: name, labels: SyntaxFacts.argumentLabels(call),
            argument: list.distance(from: list.startIndex, to: position), receiverType: receiverType(of: call))
          return (atom, shape)
        }
        guard Self.passesValueThrough(parent) else { return nil }
        current = parent
      }
      return nil
    }
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
