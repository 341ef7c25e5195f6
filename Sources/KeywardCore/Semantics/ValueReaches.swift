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
    case .storedValue:
      return storedKeychainWrites(forKey: "kSecValueData", includingProbes: false).map {
        ValueSinkSite(
          sink: sink, value: SequenceShape.convertedValue($0.value), at: $0.node,
          note: "stored as the item's value (kSecValueData) here")
      }
    case .preferencesValue:
      // A key that says what else the value is (`"cachedDeviceToken"`) stores no secret.
      return preferencesWrites.filter { !SensitiveNames.keySaysNotSecret($0.key, model: self) }.map {
        ValueSinkSite(sink: sink, value: $0.value, at: Syntax($0.value), note: "written to \($0.store) here")
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
          // A function that passes a member of its parameter back to itself (or to an overload
          // of the same name) would lengthen the path on every round: real paths are short.
          guard Self.memberPathLength(of: source) + path.count <= Self.longestMemberPath else { continue }
          switch source {
          case .parameter(let parameter, let memberPath):
            let full = memberPath + path
            if sink == .storedValue, full.isEmpty, !Self.mayReceiveLiteral(parameter) { continue }
            if sink == .preferencesValue, full.isEmpty, Self.holdsPlainType(parameter) { continue }
            guard seen.insert("\(parameter.position.utf8Offset) \(full)").inserted else { continue }
            pending.append((parameter, full, steps))
          case .property(let owner, let name, let memberPath, let read):
            let full = memberPath + path
            let member = resolver.member(name, ofType: owner)
            if sink == .storedValue, full.isEmpty, let member, !Self.mayReceiveLiteral(member) { continue }
            guard seen.insert("\(owner).\(name) \(full)").inserted else { continue }
            let declared = member.map { step("stored in `\(owner).\(name)`, declared here", at: $0.node) }
            // Where the property is declared, else where it is read (unless that is the sink).
            let read = step("read from `\(SyntaxFacts.text(read))` here", at: read)
            let first = declared ?? (read.location == steps.first?.location ? nil : read)
            let reach = PropertyReach(
              owner: owner, property: name, memberPath: full, sink: sink, steps: (first.map { [$0] } ?? []) + steps)
            facts.propertyReaches.append(reach)
            // Set by a method of the type from what its caller gives (`func require(_ flags:)
            // { self.flags = flags }`): that value's sources reach the sink too.
            for assignment in member.map(resolver.assignments(to:)) ?? [] {
              take(
                self.sources(reaching: assignment.value), path: full,
                steps: [step("assigned to `\(owner).\(name)` here", at: assignment.value)] + reach.steps)
            }
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
        let mirrored =
          path.count == 1 ? parameter.typeName.flatMap { resolver.mirroredCases(of: path[0], in: $0) } : nil
        let reach = ParameterReach(
          callable: callable, parameter: position, sink: sink, steps: steps, memberPath: path, mirroredCases: mirrored)
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

  /// Only a literal handed on is followed to an item's value (`swift.hardcoded_keychain_secret`):
  /// a parameter or property typed `Data`, a key or a custom type cannot receive one, and its
  /// summaries would only cost memory. Text types, `Any` and a generic `T` can; so can an
  /// undeclared type.
  static func mayReceiveLiteral(_ binding: Binding) -> Bool {
    guard let type = binding.typeName else { return true }
    return textualTypes.contains(type) || (type.count == 1 && type.first?.isUppercase == true)
  }

  /// Only a secret handed on is followed into preferences (`swift.cleartext_storage_preferences`):
  /// a parameter declared as a flag, number or date cannot hold one.
  static func holdsPlainType(_ binding: Binding) -> Bool {
    binding.typeName.map(SensitiveNames.plainTypes.contains) ?? false
  }

  /// Types a literal's text or bytes can be given as (`Data("…".utf8)`, `Data([…])`).
  static let textualTypes: Set<String> = [
    "String", "NSString", "Substring", "StaticString", "Any", "AnyObject", "Data", "NSData",
  ]

  /// The most members a followed value is read through (`settings.protection.level`).
  static let longestMemberPath = 4

  static func memberPathLength(of source: ValueSource) -> Int {
    switch source {
    case .parameter(_, let memberPath): memberPath.count
    case .property(_, _, let memberPath, _): memberPath.count + 1
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

}
