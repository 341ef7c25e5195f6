import SwiftSyntax

/// An expression a value may come from, after following names, casts and conversions.
public struct ResolvedValue {
  public var expression: ExprSyntax
  /// True where the value is one of several alternatives: a ternary or `??` branch, one of
  /// several assignments, or a parameter's default that callers may override.
  public var isConditional: Bool
  /// The place where the value was used, when it was reached through a name declared elsewhere.
  public var reachedThroughName: Bool
  /// Where a mapping table's case was chosen (`.always` in `save(x, protection: .always)`),
  /// when the value came out of one: the choice is the weakness, not the table offering it.
  public var choice: ExprSyntax? = nil

  /// Whether the value is one branch of a choice the function's caller makes
  /// (`useDeviceCredentials ? .deviceOwnerAuthentication : ...` on a parameter): code that offers
  /// an option, where the weakness is in the caller that picks it.
  public var chosenByCaller = false

  /// The parameter the value came through: the value is its default, or (when `expression`
  /// names it) whatever the callers pass. Callers may override it, so it is conditional.
  public var parameter: Binding? = nil

  /// Whether the value is added to a variable's value by a mutating call (`flags.insert(x)`)
  /// rather than being a value it holds.
  public var isAddedByMutation = false

  /// Where a finding about the value belongs: the choice, else the value itself.
  public var reportedExpression: ExprSyntax { choice ?? expression }
}

/// Resolves an expression to the expressions its value may come from, within one file: local,
/// instance, static and global constants and variables, parameters' defaults, computed
/// properties and functions of the file (given arguments, only what they return whatever
/// the arguments pick), enum properties that switch over their cases
/// (`SwitchedValues`), `as` casts, `String(...)` conversions, ternaries and `??`. What it
/// cannot follow (a call into another file, an operator) is returned as is.
public final class ConstantResolver {
  public let index: SyntaxIndex
  static let maximumDepth = 24
  /// Calls that only convert their single argument (`String(kSecAttrAccessible)`).
  static let conversions: Set<String> = ["String", "NSString", "CFString", "AnyHashable", "NSNumber"]

  private var assignmentGroups = GroupsByBinding<Assignment>()
  private var receiverCallGroups = GroupsByBinding<MemberCall>()
  /// `isOverriddenByEveryCaller` by parameter: asked on every walk through a defaulted one.
  private var overriddenDefaults: [SyntaxIdentifier: Bool] = [:]
  /// `isGivenOnCallersChoice` by returned or assigned expression.
  var givenOnCallersChoice: [SyntaxIdentifier: Bool] = [:]

  public init(index: SyntaxIndex) { self.index = index }

  /// The assignments whose target denotes `binding` (`x = …`, `self.x = …`). Each name's
  /// assignments are resolved once: a file with thousands of functions declaring `var flags`
  /// would otherwise resolve every `flags = …` for each of them.
  public func assignments(to binding: Binding) -> [Assignment] {
    assignmentGroups.items(
      for: binding, candidates: index.assignmentsByName[binding.name], naming: \.target,
      resolve: self.binding(denotedBy:))
  }

  /// The arguments given for `parameter` at every call of its function, or of its type's
  /// initializer, in this file.
  public func arguments(passedTo parameter: Binding) -> [ExprSyntax] {
    guard let parameterNode = parameter.node.as(FunctionParameterSyntax.self),
      let list = parameterNode.parent?.as(FunctionParameterListSyntax.self),
      let position = list.firstIndex(where: { $0.id == parameterNode.id }).map({
        list.distance(from: list.startIndex, to: $0)
      }),
      let function = SyntaxFacts.enclosingFunction(of: parameter.node),
      let calledName = function.as(FunctionDeclSyntax.self)?.name.text
        ?? (function.is(InitializerDeclSyntax.self) ? enclosingTypeName(of: function) : nil)
    else { return [] }
    let label = parameterNode.firstName.tokenKind == .wildcard ? nil : parameterNode.firstName.text
    return index.calls(named: calledName).compactMap { call in
      // More arguments than parameters: a call of an overload with the same name.
      let given = call.arguments.count + (call.trailingClosure == nil ? 0 : 1) + call.additionalTrailingClosures.count
      guard given <= list.count else { return nil }
      if let label { return SyntaxFacts.argument(call, labeled: label) }
      return SyntaxFacts.argument(call, at: position)
    }
  }

  /// Whether every call of a parameter's function passes that argument, and no other file can
  /// call it (`private`, `fileprivate` or local): the default is then never used.
  public func isOverriddenByEveryCaller(_ parameter: Binding) -> Bool {
    guard parameter.kind == .parameter, parameter.initializer != nil else { return false }
    if let known = overriddenDefaults[parameter.id] { return known }
    let overridden = everyCallerPasses(parameter)
    overriddenDefaults[parameter.id] = overridden
    return overridden
  }

  private func everyCallerPasses(_ parameter: Binding) -> Bool {
    guard let function = SyntaxFacts.enclosingFunction(of: parameter.node) else { return false }
    let name = function.as(FunctionDeclSyntax.self)?.name.text ?? enclosingTypeName(of: function)
    let modifiers =
      function.as(FunctionDeclSyntax.self)?.modifiers ?? function.as(InitializerDeclSyntax.self)?.modifiers
    let isFilePrivate = modifiers?.contains { ["private", "fileprivate"].contains($0.name.text) } ?? false
    let isLocal = function.parent?.is(CodeBlockItemSyntax.self) == true
    guard let name, isFilePrivate || isLocal else { return false }
    let calls = index.calls(named: name)
    return !calls.isEmpty && arguments(passedTo: parameter).count == calls.count
  }

  /// The method calls whose receiver denotes `binding` (`flags.insert(…)`), resolved once per
  /// name as `assignments(to:)` is.
  public func receiverCalls(on binding: Binding) -> [MemberCall] {
    receiverCallGroups.items(
      for: binding, candidates: index.memberCallsByReceiver[binding.name], naming: \.receiver,
      resolve: self.binding(denotedBy:))
  }

  /// The values `expression` may have. `mutatingMethods` names calls on a variable whose first
  /// argument adds to its value (`insert`, `formUnion` for option sets).
  public func values(of expression: ExprSyntax, mutatingMethods: Set<String> = []) -> [ResolvedValue] {
    var walk = Walk(resolver: self, mutatingMethods: mutatingMethods)
    walk.collect([expression][...], conditional: false, throughName: false, depth: 0)
    return walk.results
  }

  /// The values a binding may hold, with the same rules as `values(of:)`.
  public func values(of binding: Binding, mutatingMethods: Set<String> = []) -> [ResolvedValue] {
    var walk = Walk(resolver: self, mutatingMethods: mutatingMethods)
    walk.collect(binding: binding, conditional: false, depth: 0)
    return walk.results
  }

  // MARK: Name lookup

  /// The binding `name` denotes at `node`, following Swift's lexical scoping: the innermost
  /// scope wins, statement lists see only earlier declarations, and a type's members include
  /// those declared in its extensions in the same file.
  public func lookup(_ name: String, from node: Syntax) -> Binding? {
    // Most names looked up (platform constants, types) are declared nowhere in the file.
    guard index.bindingsByName[name] != nil else { return nil }
    var current: Syntax? = node
    while let scope = current {
      // A later condition of an `if` or `while` sees what earlier ones bind
      // (`if let flags = …, let access = SecAccessControlCreateWithFlags(…, flags, …)`); those
      // names belong to the body.
      if let condition = scope.as(ConditionElementSyntax.self), let body = SyntaxFacts.bodyOfConditions(condition),
        let found = bestBinding(named: name, in: body.id, ordered: true, from: node)
      {
        return found
      }
      if SyntaxFacts.isScope(scope) {
        if let found = bestBinding(named: name, in: scope.id, ordered: SyntaxFacts.isOrderedScope(scope), from: node) {
          return found
        }
        if let block = scope.as(MemberBlockSyntax.self), let type = SyntaxFacts.typeName(declaring: block),
          let found = member(name, ofType: type, from: node)
        {
          return found
        }
      }
      current = scope.parent
    }
    return nil
  }

  /// `Type.name` or, from inside the type, `self.name`.
  public func member(_ name: String, ofType type: String, from node: Syntax? = nil) -> Binding? {
    guard index.bindingsByName[name] != nil else { return nil }
    for block in index.memberBlocksByType[type] ?? [] {
      if let found = bestBinding(named: name, in: block.id, ordered: false, from: node) { return found }
    }
    return nil
  }

  /// The type whose body contains `node`.
  public func enclosingTypeName(of node: Syntax) -> String? {
    SyntaxFacts.enclosingMemberBlock(of: node).flatMap(SyntaxFacts.typeName(declaring:))
  }

  private func bestBinding(named name: String, in scope: SyntaxIdentifier, ordered: Bool, from node: Syntax?)
    -> Binding?
  {
    guard let candidates = index.bindingsByScope[scope]?[name] else { return nil }
    let usePosition = node?.position
    // A declaration does not see itself: `let x = x` refers to an outer `x`.
    let visible = candidates.filter { candidate in
      guard let node, let usePosition else { return true }
      if candidate.node.range.contains(usePosition) && candidate.kind != .function
        && candidate.kind != .computed
      {
        return false
      }
      return !ordered || candidate.position < node.position
    }
    return ordered ? visible.last : visible.first
  }

  /// The binding a name-like expression denotes: `x`, `self.x`, `Self.x`, `Type.x`.
  public func binding(denotedBy expression: ExprSyntax) -> Binding? {
    if let reference = expression.as(DeclReferenceExprSyntax.self) {
      // The member name in `Error.status` or `.status` is no local of that name.
      if reference.parent?.as(MemberAccessExprSyntax.self)?.declName.id == reference.id { return nil }
      return lookup(reference.baseName.text, from: Syntax(reference))
    }
    guard let member = expression.as(MemberAccessExprSyntax.self),
      let base = member.base?.as(DeclReferenceExprSyntax.self)
    else { return nil }
    let name = member.declName.baseName.text
    switch base.baseName.tokenKind {
    case .keyword(.self), .keyword(.Self):
      guard let type = enclosingTypeName(of: Syntax(member)) else { return nil }
      return self.member(name, ofType: type, from: Syntax(member))
    default:
      let type = base.baseName.text
      guard type.first?.isUppercase == true else { return nil }
      return self.member(name, ofType: type, from: Syntax(member))
    }
  }

  /// Declarations of the binding's name in the same scope but in the other clauses of the
  /// `#if` that declares it: lookup finds the last one written, and each build sees one.
  public func declarationsInOtherBuilds(of binding: Binding) -> [Binding] {
    // Most names are declared once in their scope: the dictionary answers before any walk up.
    guard let candidates = index.bindingsByScope[binding.scope]?[binding.name], candidates.count > 1,
      let clause = Self.buildClause(of: binding), let directive = clause.parent?.parent
    else { return [] }
    return candidates.filter { other in
      guard other.id != binding.id, let otherClause = Self.buildClause(of: other) else { return false }
      return otherClause.id != clause.id && otherClause.parent?.parent?.id == directive.id
    }
  }

  /// The `#if` clause nearest around a declaration, within its scope.
  private static func buildClause(of binding: Binding) -> IfConfigClauseSyntax? {
    var current = binding.node.parent
    while let node = current, node.id != binding.scope {
      if let clause = node.as(IfConfigClauseSyntax.self) { return clause }
      current = node.parent
    }
    return nil
  }

  // MARK: The walk

  private struct Walk {
    let resolver: ConstantResolver
    let mutatingMethods: Set<String>
    var results: [ResolvedValue] = []
    var visiting: Set<SyntaxIdentifier> = []

    mutating func collect(_ elements: ArraySlice<ExprSyntax>, conditional: Bool, throughName: Bool, depth: Int) {
      guard depth < ConstantResolver.maximumDepth, let first = elements.first else { return }
      guard elements.count == 1 else {
        guard let parts = SequenceShape.valueParts(elements) else {
          results.append(ResolvedValue(expression: first, isConditional: conditional, reachedThroughName: throughName))
          return
        }
        for part in parts {
          let before = results.count
          collect(
            part.elements, conditional: conditional || part.isConditional, throughName: throughName, depth: depth + 1)
          if let condition = part.condition, resolver.isDecidedByCaller(condition) {
            for index in before..<results.count { results[index].chosenByCaller = true }
          }
        }
        return
      }
      let expression = SequenceShape.unwrap(first)
      if let sequence = expression.as(SequenceExprSyntax.self) {
        collect(Array(sequence.elements)[...], conditional: conditional, throughName: throughName, depth: depth + 1)
        return
      }
      if let call = expression.as(FunctionCallExprSyntax.self), let inner = conversionArgument(call) {
        collect([inner][...], conditional: conditional, throughName: throughName, depth: depth + 1)
        return
      }
      // A name with no known value (a parameter without default) stays as the name itself.
      let named = boundName(expression)
      if let binding = named, hasValueSources(binding) {
        let before = results.count
        collect(binding: binding, conditional: conditional, depth: depth + 1)
        // A call given arguments: what the function returns whatever it is given (a default it
        // starts from), not the options its arguments pick or the parameters themselves.
        if let call = expression.as(FunctionCallExprSyntax.self), !call.arguments.isEmpty {
          let kept = results[before...].filter { !$0.chosenByCaller && $0.parameter == nil && !$0.isAddedByMutation }
          results.replaceSubrange(before..<results.count, with: kept)
          if results.count == before {
            results.append(ResolvedValue(expression: expression, isConditional: conditional, reachedThroughName: false))
          }
        }
        return
      }
      // A table whose case is chosen where this file cannot see (none known) leaves the read
      // itself as the value: what reads it may still follow where the case comes from.
      if let switched = switchedValues(of: expression), !switched.isEmpty {
        for (value, choice) in switched {
          let before = results.count
          collect(
            [value][...], conditional: conditional || switched.count > 1, throughName: true, depth: depth + 1)
          for index in before..<results.count where results[index].choice == nil { results[index].choice = choice }
        }
        return
      }
      var leaf = ResolvedValue(expression: expression, isConditional: conditional, reachedThroughName: throughName)
      if let named, named.kind == .parameter { leaf.parameter = named }
      results.append(leaf)
    }

    /// What a table read (`level.flags`) or a table method's call (`level.flags()`) may give.
    private func switchedValues(of expression: ExprSyntax) -> [(value: ExprSyntax, choice: ExprSyntax)]? {
      if let member = expression.as(MemberAccessExprSyntax.self) { return resolver.switchedValues(of: member) }
      guard let call = expression.as(FunctionCallExprSyntax.self), call.arguments.isEmpty,
        call.trailingClosure == nil, let member = call.calledExpression.as(MemberAccessExprSyntax.self)
      else { return nil }
      return resolver.switchedValues(of: member, called: true)
    }

    mutating func collect(binding: Binding, conditional: Bool, depth: Int) {
      guard depth < ConstantResolver.maximumDepth, visiting.insert(binding.id).inserted else { return }
      defer { visiting.remove(binding.id) }
      var alternatives: [ExprSyntax] = []
      if let initializer = binding.initializer, !resolver.isOverriddenByEveryCaller(binding) {
        alternatives.append(initializer)
      }
      alternatives += binding.returnedExpressions
      if Self.isAssignedLater(binding) {
        alternatives += resolver.assignments(to: binding).map(\.value)
      }
      // The same name declared in the other clauses of an `#if` (`let flags = …` for the device
      // and again in `#else` for the simulator): one build or the other holds each value.
      let otherBuilds = resolver.declarationsInOtherBuilds(of: binding).filter { visiting.insert($0.id).inserted }
      defer { for other in otherBuilds { visiting.remove(other.id) } }
      for other in otherBuilds {
        alternatives += other.initializer.map { [$0] } ?? []
        alternatives += other.returnedExpressions
      }
      let isAlternative = conditional || alternatives.count > 1 || binding.kind == .parameter
      let before = results.count
      for alternative in alternatives {
        let start = results.count
        collect([alternative][...], conditional: isAlternative, throughName: true, depth: depth)
        if resolver.isGivenOnCallersChoice(alternative) {
          for index in start..<results.count { results[index].chosenByCaller = true }
        }
      }
      if binding.kind == .parameter {
        for index in before..<results.count where results[index].parameter == nil { results[index].parameter = binding }
      }
      guard !mutatingMethods.isEmpty, binding.kind == .variable else { return }
      for call in resolver.receiverCalls(on: binding) where mutatingMethods.contains(call.method) {
        if let argument = call.call.arguments.first?.expression {
          let added = results.count
          collect([argument][...], conditional: conditional, throughName: true, depth: depth)
          // An addition made only where the caller's arguments say (`if requirePresence {
          // flags.insert(.userPresence) }`) is an option the function offers.
          let deciding = BranchFacts.branchConditions(around: call.call, stop: { $0.id == binding.scope })
            .compactMap { $0.condition.condition.as(ExprSyntax.self) }
          let offered = !deciding.isEmpty && resolver.isDecidedByCaller(deciding[...])
          for index in added..<results.count {
            results[index].isAddedByMutation = true
            if offered { results[index].chosenByCaller = true }
          }
        }
      }
    }

    /// A variable, or a constant declared without a value and given one on each path
    /// (`let flags: T` then `flags = …` in each `switch` case).
    static func isAssignedLater(_ binding: Binding) -> Bool {
      binding.kind == .variable || (binding.kind == .constant && binding.initializer == nil)
    }

    private func hasValueSources(_ binding: Binding) -> Bool {
      (binding.initializer != nil && !resolver.isOverriddenByEveryCaller(binding))
        || !binding.returnedExpressions.isEmpty
        || (Self.isAssignedLater(binding) && resolver.index.assignmentsByName[binding.name] != nil)
        // Only a variable grows by method calls (`flags.insert(…)`); a parameter or constant
        // that is merely the receiver of one (`secret.data(using:)`) keeps its own value.
        || (!mutatingMethods.isEmpty && binding.kind == .variable
          && resolver.index.memberCallsByReceiver[binding.name] != nil)
    }

    /// The binding an expression names, including calls of the file's functions.
    private func boundName(_ expression: ExprSyntax) -> Binding? {
      if let call = expression.as(FunctionCallExprSyntax.self) {
        guard call.trailingClosure == nil, call.additionalTrailingClosures.isEmpty,
          let binding = resolver.binding(denotedBy: call.calledExpression), binding.kind == .function,
          Self.accepts(binding, call)
        else { return nil }
        return binding
      }
      guard let binding = resolver.binding(denotedBy: expression), binding.kind != .function else { return nil }
      return binding
    }

    /// Whether `call` can be a call of the function `binding` declares: its argument labels are
    /// the function's, in order (parameters with defaults may be left out).
    static func accepts(_ binding: Binding, _ call: FunctionCallExprSyntax) -> Bool {
      guard let function = binding.node.as(FunctionDeclSyntax.self) else { return call.arguments.isEmpty }
      var parameters = function.signature.parameterClause.parameters[...]
      for argument in call.arguments {
        while let parameter = parameters.first, parameter.firstName.text != (argument.label?.text ?? "_"),
          parameter.defaultValue != nil
        {
          parameters = parameters.dropFirst()
        }
        guard let parameter = parameters.first, parameter.firstName.text == (argument.label?.text ?? "_") else {
          return false
        }
        parameters = parameters.dropFirst()
      }
      return parameters.allSatisfy { $0.defaultValue != nil }
    }

    private func conversionArgument(_ call: FunctionCallExprSyntax) -> ExprSyntax? {
      guard let callee = call.calledExpression.as(DeclReferenceExprSyntax.self),
        ConstantResolver.conversions.contains(callee.baseName.text),
        call.arguments.count == 1, call.trailingClosure == nil,
        let argument = call.arguments.first
      else { return nil }
      return argument.expression
    }
  }
}

/// Items found by a name (assignments to `x`, calls on `x`), grouped by the binding the name
/// denotes at each; a name's items are resolved the first time a binding of that name is asked
/// about.
private struct GroupsByBinding<Item> {
  private var resolvedNames: Set<String> = []
  private var byBinding: [SyntaxIdentifier: [Item]] = [:]

  mutating func items(
    for binding: Binding, candidates: [Item]?, naming: (Item) -> ExprSyntax, resolve: (ExprSyntax) -> Binding?
  ) -> [Item] {
    if resolvedNames.insert(binding.name).inserted {
      for item in candidates ?? [] {
        guard let denoted = resolve(naming(item)) else { continue }
        byBinding[denoted.id, default: []].append(item)
      }
    }
    return byBinding[binding.id] ?? []
  }
}
