import SwiftSyntax

/// Where code runs only because biometrics cannot be used: the side of an `if`, `guard` or
/// ternary on which a biometric `canEvaluatePolicy` check failed. There, an access control that
/// accepts the passcode is the only one the device can satisfy, not a weaker choice.
extension SemanticModel {
  /// Whether `node` runs only where a biometric policy cannot be evaluated: the check is made
  /// there, or kept in a local, or returned by a function of this file that makes it.
  public func isWhereBiometricsAreUnavailable(_ node: some SyntaxProtocol) -> Bool {
    let boundary: (Syntax) -> Bool = { $0.is(FunctionDeclSyntax.self) || $0.is(ClosureExprSyntax.self) }
    for (condition, holds) in BranchFacts.branchConditions(around: node, stop: boundary) {
      guard let expression = condition.condition.as(ExprSyntax.self),
        let available = biometricsAvailable(when: expression, depth: 0)
      else { continue }
      if available != holds { return true }
    }
    return BranchFacts.ternaryConditions(around: node, stop: boundary).contains { condition, holds in
      biometricsAvailable(when: condition, depth: 0).map { $0 != holds } ?? false
    }
  }

  /// What `expression` being true says about biometrics: `true` when it means they can be used,
  /// `false` when it means they cannot, nil when it says nothing about them.
  private func biometricsAvailable(when expression: ExprSyntax, depth: Int) -> Bool? {
    guard depth < 4 else { return nil }
    let value = SequenceShape.unwrap(expression)
    if let negation = value.as(PrefixOperatorExprSyntax.self), negation.operator.text == "!" {
      return biometricsAvailable(when: negation.expression, depth: depth + 1).map { !$0 }
    }
    if let call = value.as(FunctionCallExprSyntax.self), let name = SyntaxFacts.calledName(call) {
      if name == "canEvaluatePolicy" {
        let policies = SyntaxFacts.argument(call, at: 0).map(policies(of:)) ?? []
        return !policies.isEmpty && policies.allSatisfy { $0.rawValue == 1 } ? true : nil
      }
      // A function of this file answering the question (`isBiometrySupported(context)`).
      let meanings = returnedExpressions(ofFunctionCalledBy: value).map {
        biometricsAvailable(when: $0, depth: depth + 1)
      }
      guard let first = meanings.first, let meaning = first, meanings.allSatisfy({ $0 == meaning }) else { return nil }
      return meaning
    }
    if value.is(DeclReferenceExprSyntax.self), let binding = resolver.binding(denotedBy: value),
      binding.kind == .constant, let initializer = binding.initializer
    {
      return biometricsAvailable(when: initializer, depth: depth + 1)
    }
    return nil
  }
}
