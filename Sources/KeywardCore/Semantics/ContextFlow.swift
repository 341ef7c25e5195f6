import SwiftSyntax

/// Which names in a file carry an `LAContext` into a keychain read, following the context
/// backwards from where the keychain takes it (`kSecUseAuthenticationContext`, or a wrapper's
/// `authenticationContext(_:)`) through aliases, function parameters (to the arguments of calls
/// of that function), stored properties (to what is assigned to them) and function results (to
/// what the function returns).
public struct AuthenticationContextFlow {
  public private(set) var reachingBindings: Set<SyntaxIdentifier> = []
  /// Properties of other files' types read here into the keychain (`existing.context`, where
  /// `existing` is of a type this file does not declare): a context kept there by another file
  /// reaches the keychain through them.
  public private(set) var propertyReads: [MemberAccessExprSyntax] = []

  /// - Parameter contexts: the expressions the keychain takes as its authentication context.
  init(contexts: [ExprSyntax], model: SemanticModel) {
    var worklist: [Binding] = []
    func add(_ expression: ExprSyntax) {
      let bindings = model.bindingsNamed(by: expression)
      if bindings.isEmpty, let read = SequenceShape.unwrapCasts(expression).as(MemberAccessExprSyntax.self),
        read.base != nil
      {
        propertyReads.append(read)
      }
      for binding in bindings where reachingBindings.insert(binding.id).inserted {
        worklist.append(binding)
      }
    }
    contexts.forEach(add)
    while let binding = worklist.popLast() {
      if binding.kind == .parameter {
        for argument in model.resolver.arguments(passedTo: binding) { add(argument) }
      }
      for argument in model.memberwiseArguments(initializing: binding) { add(argument) }
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
  /// The bindings an expression names, directly or through aliases (`let c = context`) and
  /// the sides of `??` and `?:`. A property read on a value of unknown type (`holder.context`)
  /// names the file's stored `LAContext` properties of that name.
  func bindingsNamed(by expression: ExprSyntax) -> [Binding] {
    var result: [Binding] = []
    var seen: Set<SyntaxIdentifier> = []
    var pending = [expression]
    while let next = pending.popLast(), result.count < 16 {
      let unwrapped = SequenceShape.unwrapCasts(next)
      // `context ?? LAContext()`, `strict ? a : b`: either side may be the context.
      if let sequence = unwrapped.as(SequenceExprSyntax.self),
        let parts = SequenceShape.valueParts(Array(sequence.elements)[...])
      {
        pending += parts.compactMap { $0.elements.count == 1 ? $0.elements.first : nil }
        continue
      }
      let denoted = resolver.binding(denotedBy: unwrapped).map { [$0] } ?? contextProperties(readBy: unwrapped)
      for binding in denoted where binding.kind != .function && seen.insert(binding.id).inserted {
        result.append(binding)
        if let initializer = binding.initializer { pending.append(initializer) }
      }
    }
    return result
  }

  /// For `holder.context`, the stored properties named `context` and declared `LAContext` in
  /// the file's types.
  private func contextProperties(readBy expression: ExprSyntax) -> [Binding] {
    guard let member = expression.as(MemberAccessExprSyntax.self), member.base != nil else { return [] }
    return contextPropertiesByName[member.declName.baseName.text] ?? []
  }

  /// For a stored property of a struct that declares no initializer, the arguments its
  /// memberwise initializer is given for it in this file (`Holder(context: c)`).
  func memberwiseArguments(initializing property: Binding) -> [ExprSyntax] {
    guard property.kind == .variable || (property.kind == .constant && property.initializer == nil),
      !property.isStatic,
      let block = SyntaxFacts.memberBlock(declaring: property.node),
      let structure = block.parent?.as(StructDeclSyntax.self),
      !block.members.contains(where: { $0.decl.is(InitializerDeclSyntax.self) })
    else { return [] }
    return index.calls(named: structure.name.text).compactMap { SyntaxFacts.argument($0, labeled: property.name) }
  }

  /// Whether the file declares how `type` is constructed: an initializer of it, or a struct
  /// with its memberwise initializer. Calls of it do not hand anything out of the file.
  func declaresInitializers(of type: String) -> Bool {
    (index.memberBlocksByType[type] ?? []).contains { block in
      block.parent?.is(StructDeclSyntax.self) == true
        || block.members.contains { $0.decl.is(InitializerDeclSyntax.self) }
    }
  }

  /// Stored `LAContext` properties of the file's types, by name.
  func findContextProperties() -> [String: [Binding]] {
    var found: [String: [Binding]] = [:]
    for block in index.memberBlocksByType.values.joined() {
      for binding in (index.bindingsByScope[block.id] ?? [:]).values.joined()
      where (binding.kind == .constant || binding.kind == .variable) && binding.isDeclaredContext {
        found[binding.name, default: []].append(binding)
      }
    }
    return found
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
