import SwiftSyntax

/// Which names in a file carry an `LAContext` into a keychain read, following the context
/// backwards from where the keychain takes it (`kSecUseAuthenticationContext`, or a wrapper's
/// `authenticationContext(_:)`) through aliases, function parameters (to the arguments of calls
/// of that function), stored properties (to what is assigned to them) and function results (to
/// what the function returns).
public struct AuthenticationContextFlow {
  public private(set) var reachingBindings: Set<SyntaxIdentifier> = []

  /// - Parameter contexts: the expressions the keychain takes as its authentication context.
  init(contexts: [ExprSyntax], model: SemanticModel) {
    var worklist: [Binding] = []
    func add(_ expression: ExprSyntax) {
      for binding in model.bindingsNamed(by: expression) where reachingBindings.insert(binding.id).inserted {
        worklist.append(binding)
      }
    }
    contexts.forEach(add)
    while let binding = worklist.popLast() {
      if binding.kind == .parameter {
        for argument in model.arguments(passedTo: binding) { add(argument) }
      }
      if let initializer = binding.initializer {
        for returned in model.returnedExpressions(ofFunctionCalledBy: initializer) { add(returned) }
      }
      for assignment in model.resolver.assignments(to: binding) {
        add(assignment.value)
        for returned in model.returnedExpressions(ofFunctionCalledBy: assignment.value) { add(returned) }
      }
    }
  }

  /// Whether any of `bindings` (a context and its aliases) carries the context to the keychain.
  public func reaches(_ bindings: [Binding]) -> Bool {
    bindings.contains { reachingBindings.contains($0.id) }
  }
}

extension SemanticModel {
  /// The bindings an expression names, directly or through aliases (`let c = context`).
  func bindingsNamed(by expression: ExprSyntax) -> [Binding] {
    var result: [Binding] = []
    var seen: Set<SyntaxIdentifier> = []
    var pending = [expression]
    while let next = pending.popLast(), result.count < 16 {
      let unwrapped = SequenceShape.unwrapCasts(next)
      guard let binding = resolver.binding(denotedBy: unwrapped), binding.kind != .function,
        seen.insert(binding.id).inserted
      else { continue }
      result.append(binding)
      if let initializer = binding.initializer { pending.append(initializer) }
    }
    return result
  }

  /// The arguments given for `parameter` at every call of its function in this file.
  func arguments(passedTo parameter: Binding) -> [ExprSyntax] {
    guard let parameterNode = parameter.node.as(FunctionParameterSyntax.self),
      let list = parameterNode.parent?.as(FunctionParameterListSyntax.self),
      let position = list.firstIndex(where: { $0.id == parameterNode.id }).map({
        list.distance(from: list.startIndex, to: $0)
      }),
      let function = SyntaxFacts.enclosingFunction(of: parameter.node)?.as(FunctionDeclSyntax.self)
    else { return [] }
    let label = parameterNode.firstName.tokenKind == .wildcard ? nil : parameterNode.firstName.text
    return index.calls(named: function.name.text).compactMap { call in
      if let label { return SyntaxFacts.argument(call, labeled: label) }
      return SyntaxFacts.argument(call, at: position)
    }
  }

  /// For `f(...)` or `x.f(...)` (with `try`/`await`), the expressions returned by the file's
  /// functions named `f`.
  func returnedExpressions(ofFunctionCalledBy expression: ExprSyntax) -> [ExprSyntax] {
    guard let call = SequenceShape.unwrapCasts(expression).as(FunctionCallExprSyntax.self),
      let name = SyntaxFacts.calledName(call)
    else { return [] }
    return (index.bindingsByName[name] ?? []).filter { $0.kind == .function }.flatMap(\.returnedExpressions)
  }
}
