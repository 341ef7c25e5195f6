import SwiftSyntax

extension SemanticModel {
  /// A stored property that code outside this file can read (not `private` / `fileprivate`)
  /// into which the evaluation's context is stored: directly (`self.context = context`) or
  /// through a parameter of this file's function or initializer it is passed to
  /// (`Session(context: context)` whose initializer keeps it). Other files may read the context
  /// there and hand it to the keychain or a Secure Enclave key, which this file cannot see.
  public func exposingProperty(of evaluation: PolicyEvaluation) -> Binding? {
    guard let receiver = evaluation.receiver else { return nil }
    var seen: Set<SyntaxIdentifier> = []
    var pending = bindingsNamed(by: receiver).filter { seen.insert($0.id).inserted }
    let contextParameters = index.bindingsByName.values.joined().filter {
      $0.kind == .parameter && $0.isDeclaredContext
    }
    let assignments = AssignmentCollector.assignments(in: Syntax(tree))
    var steps = 0
    while let holder = pending.popLast(), steps < 32 {
      steps += 1
      for assignment in assignments
      where resolver.binding(denotedBy: SequenceShape.unwrapCasts(assignment.value))?.id == holder.id {
        guard let property = resolver.binding(denotedBy: assignment.target), property.id != holder.id,
          property.kind == .constant || property.kind == .variable,
          SyntaxFacts.memberBlock(declaring: property.node) != nil
        else { continue }
        if Self.isReadableElsewhere(property) { return property }
      }
      for parameter in contextParameters where !seen.contains(parameter.id) {
        let passed = resolver.arguments(passedTo: parameter).contains {
          resolver.binding(denotedBy: SequenceShape.unwrapCasts($0))?.id == holder.id
        }
        if passed, seen.insert(parameter.id).inserted { pending.append(parameter) }
      }
    }
    return nil
  }

  /// What a finding about `evaluation` waits on in other files: the function its context is
  /// handed to, or the property other files can read it from; nil when this file settles it.
  public func pendingHandOff(of evaluation: PolicyEvaluation) -> HandOff? {
    switch binding(of: evaluation) {
    case .handedOff(let site): HandOff(call: site.contextCall, settledMessage: nil)
    case .eventBound: exposingProperty(of: evaluation).map(handOff(keptIn:))
    case .keychainBound, .contextToUnprotectedItems, .givenBack: nil
    }
  }

  /// The hand-off of a finding whose evaluated context is kept in `property` (see
  /// `exposingProperty(of:)`): settled by another file reading the property into a protected
  /// keychain item or key (`boundContextPropertyReads`).
  public func handOff(keptIn property: Binding) -> HandOff {
    let owner = SyntaxFacts.memberBlock(declaring: property.node).flatMap(SyntaxFacts.typeName(declaring:))
    return HandOff(
      call: CallShape(name: property.name, labels: [], argument: -1, receiverType: owner), settledMessage: nil,
      isPropertyRead: true)
  }

  /// Properties of values of other files' types that this file reads and carries, as the
  /// authentication context, to a Secure Enclave key or to a keychain query for items protected
  /// by an access control (as `classify(contexts:)` judges a binding): where another file's
  /// kept context is used.
  public func boundContextPropertyReads(location: (Int) -> SourceLocation) -> [ContextPropertyRead] {
    var reads = enclaveKeyContextFlow.propertyReads
    if !storesItemsWithoutAccessControl { reads += contextFlow.propertyReads }
    if givesWrapperAnAccessControl { reads += wrapperContextFlow.propertyReads }
    return reads.map { read in
      ContextPropertyRead(
        name: read.declName.baseName.text, receiverType: read.base.flatMap(typeName(ofReceiver:)),
        location: location(read.declName.positionAfterSkippingLeadingTrivia.utf8Offset))
    }
  }

  /// Where this file reads an `LAContext`'s `evaluatedPolicyDomainState` or `domainState` (not
  /// a property of that name on a value known to be something else): an enrollment check.
  public func enrollmentChecks(location: (Int) -> SourceLocation) -> [SourceLocation] {
    ["evaluatedPolicyDomainState", "domainState"].flatMap { index.memberAccessesByName[$0] ?? [] }
      .filter { read in read.base.map { denotesContext($0) != false } ?? false }
      .map { location($0.declName.positionAfterSkippingLeadingTrivia.utf8Offset) }
  }

  private static func isReadableElsewhere(_ property: Binding) -> Bool {
    guard let declaration = property.node.parent?.parent?.as(VariableDeclSyntax.self) else { return false }
    return !declaration.modifiers.contains {
      $0.name.tokenKind == .keyword(.private) || $0.name.tokenKind == .keyword(.fileprivate)
    }
  }

}

/// `target = value` statements, with `unsafe self.x = y` read as `self.x = y` (the index leaves
/// those out).
private final class AssignmentCollector: SyntaxVisitor {
  var found: [(target: ExprSyntax, value: ExprSyntax)] = []

  static func assignments(in root: Syntax) -> [(target: ExprSyntax, value: ExprSyntax)] {
    let collector = AssignmentCollector(viewMode: .sourceAccurate)
    collector.walk(root)
    return collector.found
  }

  override func visitPost(_ node: SequenceExprSyntax) {
    let elements = Array(node.elements)
    guard elements.count == 3, elements[1].is(AssignmentExprSyntax.self) else { return }
    var target = elements[0]
    if let unsafe = target.as(UnsafeExprSyntax.self) { target = unsafe.expression }
    found.append((target, elements[2]))
  }
}
