import SwiftSyntax

/// Which values a function's caller chooses: options the code offers rather than picks.
extension ConstantResolver {
  /// Whether `expression` is returned, or assigned, only on a path the caller's arguments pick
  /// (`guard flags == pattern else { return flags }; return [.userPresence]`, or `flags = …` in
  /// one case of `switch mode` on a parameter): an option the function offers. Asked on every
  /// walk through a function's returned and assigned values, so each answer is kept.
  public func isGivenOnCallersChoice(_ expression: ExprSyntax) -> Bool {
    guard expression.parent?.is(ReturnStmtSyntax.self) == true || SyntaxFacts.isAssignedValue(expression) else {
      return false
    }
    if let known = givenOnCallersChoice[expression.id] { return known }
    let conditions = BranchFacts.conditionsDeciding(expression)
    let decided = !conditions.isEmpty && isDecidedByCaller(conditions[...])
    givenOnCallersChoice[expression.id] = decided
    return decided
  }

  /// Whether a condition is decided by the enclosing function's caller: it reads a parameter,
  /// directly, through a member (`config.allowPasscode`), or through a local computed from one.
  public func isDecidedByCaller(_ condition: ArraySlice<ExprSyntax>, depth: Int = 0) -> Bool {
    guard depth < 3 else { return false }
    for element in condition {
      for token in element.tokens(viewMode: .sourceAccurate) {
        guard case .identifier = token.tokenKind, let reference = token.parent?.as(DeclReferenceExprSyntax.self),
          reference.parent?.as(MemberAccessExprSyntax.self)?.declName.id != reference.id
        else { continue }
        guard let binding = binding(denotedBy: ExprSyntax(reference)) else {
          // A value a `case` pattern binds (`case .keychain(let requirePresence)`) is the caller's
          // when the switched value is.
          if let subject = Self.switchSubject(binding: reference.baseName.text, around: Syntax(reference)),
            isDecidedByCaller([subject][...], depth: depth + 1)
          {
            return true
          }
          continue
        }
        if binding.kind == .parameter || isSetByInitializers(binding, depth: depth) { return true }
        if binding.kind == .constant, SyntaxFacts.memberBlock(declaring: binding.node) == nil,
          let initializer = binding.initializer, isDecidedByCaller([initializer][...], depth: depth + 1)
        {
          return true
        }
      }
    }
    return false
  }

  /// Whether `binding` is a stored constant that only its type's initializers set, each from a
  /// parameter without a default (`self.options = options`): an option chosen by the code that
  /// makes the value. Where this file makes one, what it passes must be its own caller's choice
  /// too; a value written here (`requireBiometrics: false`) is this code's choice.
  private func isSetByInitializers(_ binding: Binding, depth: Int) -> Bool {
    guard depth < 2, binding.kind == .constant, binding.initializer == nil, !binding.isStatic,
      SyntaxFacts.memberBlock(declaring: binding.node) != nil
    else { return false }
    let assignments = assignments(to: binding)
    return !assignments.isEmpty
      && assignments.allSatisfy { assignment in
        guard Self.isInInitializer(assignment.node),
          let parameter = self.binding(denotedBy: SequenceShape.unwrapCasts(assignment.value)),
          parameter.kind == .parameter, parameter.node.as(FunctionParameterSyntax.self)?.defaultValue == nil
        else { return false }
        return arguments(passedTo: parameter).allSatisfy { isDecidedByCaller([$0][...], depth: depth + 1) }
      }
  }

  /// Whether `node` is in an initializer's body (not in a closure or function declared there).
  private static func isInInitializer(_ node: Syntax) -> Bool {
    var current = node.parent
    while let candidate = current {
      switch candidate.kind {
      case .initializerDecl: return true
      case .functionDecl, .closureExpr, .memberBlock, .sourceFile, .accessorBlock: return false
      default: current = candidate.parent
      }
    }
    return false
  }

  /// The subject of the innermost `switch` whose enclosing `case` binds `name` in its pattern
  /// (`case .option(let name)`, `case let .option(name)`), around `node`.
  static func switchSubject(binding name: String, around node: Syntax) -> ExprSyntax? {
    var current = node.parent
    while let ancestor = current, !ancestor.is(FunctionDeclSyntax.self), !ancestor.is(ClosureExprSyntax.self) {
      current = ancestor.parent
      guard let switchCase = ancestor.as(SwitchCaseSyntax.self), case .case(let label) = switchCase.label else {
        continue
      }
      let binds = label.caseItems.contains { item in
        item.pattern.tokens(viewMode: .sourceAccurate).contains { token in
          token.tokenKind == .identifier(name) && token.parent?.is(IdentifierPatternSyntax.self) == true
        }
      }
      guard binds else { continue }
      return switchCase.parent?.parent?.as(SwitchExprSyntax.self)?.subject
    }
    return nil
  }
}
