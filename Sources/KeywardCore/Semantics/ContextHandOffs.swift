import SwiftSyntax

/// Where the `LAContext` held by a name can leave the file: the aliases made from each name
/// (`let c = context`, or this file's function called with it) and the calls that hand it to a
/// function or type the file does not declare.
///
/// Candidates are grouped by the name they mention, and a name's candidates are resolved to the
/// bindings they denote once, when the name is first asked about; so a file with thousands of
/// evaluations and context parameters costs about the number of its calls, not their square.
final class ContextHandOffGraph {
  private unowned let model: SemanticModel
  /// Bindings initialized from a name (`let c = context`), by that name.
  private var aliasCandidates: [String: [(alias: Binding, source: ExprSyntax)]] = [:]
  /// Arguments of calls of functions the file does not declare, by the name they pass.
  private var handOffCandidates: [String: [(site: ContextHandOffSite, source: ExprSyntax)]] = [:]
  private var resolvedNames: Set<String> = []
  private var aliasesByBinding: [SyntaxIdentifier: [Binding]] = [:]
  private var handOffsByBinding: [SyntaxIdentifier: [ContextHandOffSite]] = [:]

  init(model: SemanticModel) {
    self.model = model
    let index = model.index
    for binding in index.bindingsByName.values.joined() {
      if binding.kind == .parameter, binding.isDeclaredContext {
        for argument in model.resolver.arguments(passedTo: binding) {
          if let name = SyntaxFacts.storageName(argument) {
            aliasCandidates[name, default: []].append((binding, argument))
          }
        }
      } else if let initializer = binding.initializer, let name = SyntaxFacts.storageName(initializer) {
        aliasCandidates[name, default: []].append((binding, initializer))
      }
    }
    for (name, calls) in index.callsByName
    where !(index.bindingsByName[name] ?? []).contains(where: { $0.kind == .function })
      && !model.declaresInitializers(of: name)
    {
      // `.success(context)` is a value of the standard library, not a function: where the
      // value goes, the context goes; a continuation's `resume(returning:)` gives it back
      // (`contextWayBack(from:)`).
      for call in calls where !ContextWayBack.isCarryingCase(call) && !ContextWayBack.isResumption(call) {
        for (position, argument) in call.arguments.enumerated() {
          let value = ContextWayBack.carriedValue(argument.expression)
          guard let passed = SyntaxFacts.storageName(value) else { continue }
          handOffCandidates[passed, default: []].append((ContextHandOffSite(call: call, argument: position), value))
        }
      }
    }
  }

  /// The first call (in source order) that hands the context held by `contexts`, or by an alias
  /// of them, to a function or type the file does not declare.
  func handOff(from contexts: [Binding]) -> ContextHandOffSite? {
    let sites = withAliases(contexts).flatMap { handOffsByBinding[$0.id] ?? [] }
    guard var first = sites.min(by: { ($0.call.position, $0.argument) < ($1.call.position, $1.argument) }) else {
      return nil
    }
    first.receiverType = model.receiverType(of: first.call)
    return first
  }

  /// `contexts` and every alias made from them, directly or through other aliases.
  func withAliases(_ contexts: [Binding]) -> [Binding] {
    var seen = Set(contexts.map(\.id))
    var pending = contexts
    var all: [Binding] = []
    while let binding = pending.popLast() {
      resolve(binding.name)
      all.append(binding)
      for alias in aliasesByBinding[binding.id] ?? [] where seen.insert(alias.id).inserted { pending.append(alias) }
    }
    return all
  }

  private func resolve(_ name: String) {
    guard resolvedNames.insert(name).inserted else { return }
    let resolver = model.resolver
    for (alias, source) in aliasCandidates[name] ?? [] {
      guard let denoted = resolver.binding(denotedBy: source), denoted.id != alias.id else { continue }
      aliasesByBinding[denoted.id, default: []].append(alias)
    }
    for (site, source) in handOffCandidates[name] ?? [] {
      // A closure held by a parameter or a variable is no other file's function: one the
      // function was given takes the context back to its caller (`contextWayBack(from:)`).
      if let callee = site.call.calledExpression.as(DeclReferenceExprSyntax.self),
        let held = resolver.binding(denotedBy: ExprSyntax(callee)), held.kind != .function
      {
        continue
      }
      guard let denoted = resolver.binding(denotedBy: source) else { continue }
      handOffsByBinding[denoted.id, default: []].append(site)
    }
  }
}

extension SemanticModel {
  /// The type of a method call's receiver, as far as this file declares it: the enclosing type
  /// for `self`, a name's declared type or the type it is initialized with (`= SecureStore()`),
  /// or a type named directly (a static method).
  func receiverType(of call: FunctionCallExprSyntax) -> String? {
    SyntaxFacts.receiver(of: call).flatMap(typeName(ofReceiver:))
  }

  /// The type of `receiver` in `receiver.member`, as far as this file declares it (see
  /// `receiverType(of:)`).
  func typeName(ofReceiver receiver: ExprSyntax) -> String? {
    var receiver = receiver
    while true {
      if let chained = receiver.as(OptionalChainingExprSyntax.self) {
        receiver = chained.expression
      } else if let forced = receiver.as(ForceUnwrapExprSyntax.self) {
        receiver = forced.expression
      } else {
        break
      }
    }
    if let reference = receiver.as(DeclReferenceExprSyntax.self), reference.baseName.tokenKind == .keyword(.self) {
      return resolver.enclosingTypeName(of: Syntax(reference))
    }
    if let binding = resolver.binding(denotedBy: receiver) {
      if let type = binding.typeName { return type.hasPrefix("<") ? nil : type }
      guard let made = binding.initializer?.as(FunctionCallExprSyntax.self),
        let type = made.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
        type.first?.isUppercase == true
      else { return nil }
      return type
    }
    guard let reference = receiver.as(DeclReferenceExprSyntax.self), reference.baseName.text.first?.isUppercase == true
    else { return nil }
    return reference.baseName.text
  }

  /// The first call that hands the evaluation's context to a function or type this file does
  /// not declare (`store.retrieve(context: context)`): the context may reach a keychain query
  /// there, which a one-file analysis cannot see.
  public func contextHandOff(of evaluation: PolicyEvaluation) -> ContextHandOffSite? {
    evaluation.receiver.flatMap { contextHandOff(from: bindingsNamed(by: $0)) }
  }

  /// The first call that hands the context held by `contexts` (or by aliases of them, or by
  /// `LAContext` parameters of this file's functions it is passed to) to a function or type
  /// this file does not declare.
  func contextHandOff(from contexts: [Binding]) -> ContextHandOffSite? {
    contextHandOffs.handOff(from: contexts)
  }
}

/// A call handing an `LAContext` to a function the file does not declare.
public struct ContextHandOffSite: Equatable {
  public var call: FunctionCallExprSyntax
  /// The argument that carries the context.
  public var argument: Int
  /// See `CallShape.receiverType`.
  public var receiverType: String?

  /// The call as another file's declaration is matched against it.
  public var contextCall: CallShape {
    CallShape(
      name: SyntaxFacts.calledName(call) ?? "",
      labels: SyntaxFacts.argumentLabels(call), argument: argument, receiverType: receiverType)
  }
}
