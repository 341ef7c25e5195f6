import SwiftSyntax

/// Questions about which branch of the code a node is on.
public enum BranchFacts {
  /// Whether two nodes lie on branches that exclude each other, so one run never executes both:
  /// the `if` and `else` of one `if`, two cases of one `switch`, two clauses of one `#if`.
  /// Also when the earlier one is followed by a `return` or `throw` that ends every way to the
  /// later one (a `case` that sets one attribute and returns before the code after the `switch`
  /// sets the other).
  public static func neverRunTogether(_ first: some SyntaxProtocol, _ second: some SyntaxProtocol) -> Bool {
    let (earlier, later) =
      first.position < second.position ? (Syntax(first), Syntax(second)) : (Syntax(second), Syntax(first))
    if leavesBefore(reaching: later, from: earlier) { return true }
    var childOnPath: [SyntaxIdentifier: SyntaxIdentifier] = [:]
    var child = Syntax(first)
    while let parent = child.parent {
      childOnPath[parent.id] = child.id
      child = parent
    }
    child = Syntax(second)
    while let parent = child.parent {
      if let firstChild = childOnPath[parent.id] {
        guard firstChild != child.id else { return false }
        return excludes(parent, firstChild, child.id)
      }
      child = parent
    }
    return false
  }

  /// Whether one run may execute either node without the other: they never run together
  /// (`neverRunTogether`), or they lie in different functions (a query a helper builds and its
  /// caller completes) and one of them runs only on a branch of its own function, whose
  /// condition the other function cannot be seen to share.
  public static func mayRunApart(_ first: some SyntaxProtocol, _ second: some SyntaxProtocol) -> Bool {
    if neverRunTogether(first, second) { return true }
    let isBoundary: (Syntax) -> Bool = { $0.is(FunctionDeclSyntax.self) || $0.is(ClosureExprSyntax.self) }
    let firstFunction = Syntax(first).ancestorOrSelf(mapping: { isBoundary($0) ? $0 : nil })
    let secondFunction = Syntax(second).ancestorOrSelf(mapping: { isBoundary($0) ? $0 : nil })
    guard firstFunction?.id != secondFunction?.id else { return false }
    return !branchConditions(around: first, stop: isBoundary).isEmpty
      || !branchConditions(around: second, stop: isBoundary).isEmpty
  }

  /// Whether a statement list holding `earlier` but not `later` has a `return` or `throw`
  /// after `earlier`'s statement, at its own level, so that running `earlier` means leaving the
  /// function before `later`. Closures and nested functions end the search: their `return`
  /// leaves only them.
  private static func leavesBefore(reaching later: Syntax, from earlier: Syntax) -> Bool {
    // Only within one function: a `return` hands the value on to the caller, which goes on.
    let isBoundary: (Syntax) -> Bool = {
      $0.is(ClosureExprSyntax.self) || $0.is(FunctionDeclSyntax.self) || $0.is(AccessorBlockSyntax.self)
    }
    guard
      earlier.ancestorOrSelf(mapping: { isBoundary($0) ? $0.id : nil })
        == later.ancestorOrSelf(mapping: { isBoundary($0) ? $0.id : nil })
    else { return false }
    let laterRange = later.position..<later.endPosition
    var child = earlier
    while let parent = child.parent {
      if parent.is(ClosureExprSyntax.self) || parent.is(FunctionDeclSyntax.self) || parent.is(AccessorBlockSyntax.self)
      {
        return false
      }
      if parent.position..<parent.endPosition ~= laterRange.lowerBound { return false }
      if let block = parent.as(CodeBlockItemListSyntax.self),
        block.contains(where: { item in
          item.position > child.position && (item.item.is(ReturnStmtSyntax.self) || item.item.is(ThrowStmtSyntax.self))
        })
      {
        return true
      }
      child = parent
    }
    return false
  }

  /// Whether `parent`'s children `a` and `b` are alternatives of one choice.
  private static func excludes(_ parent: Syntax, _ a: SyntaxIdentifier, _ b: SyntaxIdentifier) -> Bool {
    if let ifExpression = parent.as(IfExprSyntax.self), let elseBody = ifExpression.elseBody {
      let branches: Set<SyntaxIdentifier> = [ifExpression.body.id, elseBody.id]
      return branches.contains(a) && branches.contains(b)
    }
    // Two different cases of a `switch`, or two clauses of an `#if`.
    return parent.is(SwitchCaseListSyntax.self) || parent.is(IfConfigClauseListSyntax.self)
  }

  /// The conditions of the branches `node` is on, innermost first, with whether `node` runs
  /// where each holds: an `if`'s (its body, or its `else`), a `guard`'s whose `else` holds
  /// `node`, and those of the `guard`s before `node` in each enclosing statement list. The walk
  /// ends below the first ancestor `stop` accepts.
  public static func branchConditions(
    around node: some SyntaxProtocol, stop: (Syntax) -> Bool = { _ in false }
  ) -> [(condition: ConditionElementSyntax, holds: Bool)] {
    var found: [(condition: ConditionElementSyntax, holds: Bool)] = []
    var child = Syntax(node)
    while let parent = child.parent, !stop(parent) {
      if let ifExpression = parent.as(IfExprSyntax.self) {
        let onBody = ifExpression.body.id == child.id
        if onBody || ifExpression.elseBody?.id == child.id {
          found += ifExpression.conditions.map { ($0, holds: onBody) }
        }
      } else if let block = parent.as(CodeBlockItemListSyntax.self) {
        // `guard condition else { … }` decides the statements after it.
        for item in block {
          guard item.position < child.position else { break }
          if let guardStatement = item.item.as(GuardStmtSyntax.self) {
            found += guardStatement.conditions.map { ($0, holds: true) }
          } else if let exit = Self.earlyExit(item), exit.conditions.count == 1, let only = exit.conditions.first {
            // `if condition { …; return }` with one condition: what follows runs where it fails.
            found.append((only, holds: false))
          }
        }
      } else if let guardStatement = parent.as(GuardStmtSyntax.self), guardStatement.body.id == child.id {
        found += guardStatement.conditions.map { ($0, holds: false) }
      }
      child = parent
    }
    return found
  }

  /// The conditions of the ternaries `node` is a branch of, innermost first, with whether it is
  /// the branch taken where the condition holds: `condition ? then : otherwise`, unfolded, whose
  /// condition is a single expression. The walk ends below the first ancestor `stop` accepts.
  public static func ternaryConditions(
    around node: some SyntaxProtocol, stop: (Syntax) -> Bool = { _ in false }
  ) -> [(condition: ExprSyntax, holds: Bool)] {
    var found: [(condition: ExprSyntax, holds: Bool)] = []
    var child = Syntax(node)
    while let parent = child.parent, !stop(parent) {
      if let list = parent.as(ExprListSyntax.self), list.parent?.is(SequenceExprSyntax.self) == true {
        let elements = Array(list)
        if let ternary = elements.firstIndex(where: { $0.is(UnresolvedTernaryExprSyntax.self) }), ternary == 1,
          let position = elements.firstIndex(where: { $0.id == child.id }), position == 1 || position == 2
        {
          found.append((elements[0], holds: position == 1))
        }
      }
      child = parent
    }
    return found
  }

  /// An `if` without `else` standing as a statement whose body ends by leaving the function.
  private static func earlyExit(_ item: CodeBlockItemSyntax) -> IfExprSyntax? {
    let expression = item.item.as(ExpressionStmtSyntax.self)?.expression ?? item.item.as(ExprSyntax.self)
    guard let ifExpression = expression?.as(IfExprSyntax.self), ifExpression.elseBody == nil,
      let last = ifExpression.body.statements.last?.item,
      last.is(ReturnStmtSyntax.self) || last.is(ThrowStmtSyntax.self)
    else { return nil }
    return ifExpression
  }

  /// The `if #available(…)` / `guard #available(…)` conditions `node` is under, with whether it
  /// is on the branch where the condition holds (`true`) or on the fallback (`false`).
  public static func availabilityChecks(around node: some SyntaxProtocol) -> [(
    AvailabilityConditionSyntax, holds: Bool
  )] {
    branchConditions(around: node).compactMap { element in
      element.condition.condition.as(AvailabilityConditionSyntax.self).map {
        ($0, holds: element.holds != isUnavailabilityCheck($0))
      }
    }
  }

  /// The conditions that decide whether a `return` inside a function body runs: those of the
  /// branches around it (`branchConditions`) and the subjects of the `switch`es it is in, up to
  /// its function, closure or accessor.
  public static func conditionsDeciding(_ returned: ExprSyntax) -> [ExprSyntax] {
    let isBoundary = { (node: Syntax) in
      node.is(FunctionDeclSyntax.self) || node.is(ClosureExprSyntax.self) || node.is(AccessorDeclSyntax.self)
        || node.is(InitializerDeclSyntax.self)
    }
    var conditions = branchConditions(around: returned, stop: isBoundary).compactMap { element in
      switch element.condition.condition {
      case .expression(let expression): expression
      case .optionalBinding(let binding): binding.initializer?.value
      case .matchingPattern(let pattern): pattern.initializer.value
      default: nil
      }
    }
    var current = returned.parent
    while let node = current, !isBoundary(node) {
      if let choice = node.as(SwitchExprSyntax.self) { conditions.append(choice.subject) }
      current = node.parent
    }
    return conditions
  }

  /// Whether `node` runs only where an `#available` check fails: the code that supports older
  /// systems, where the newer API it would replace does not exist yet.
  public static func isOnVersionFallback(_ node: some SyntaxProtocol) -> Bool {
    availabilityChecks(around: node).contains { !$0.holds }
  }

  /// Whether `node` uses a deprecated API where its deprecation is already answered for: on the
  /// fallback of an `#available` check, or inside a declaration itself marked deprecated
  /// (`@available(iOS, deprecated: 9.0)`), where the compiler does not warn either and the
  /// declaration's own users are.
  public static func isDeprecationAnswered(_ node: some SyntaxProtocol) -> Bool {
    isOnVersionFallback(node) || isInDeprecatedDeclaration(Syntax(node))
  }

  private static func isInDeprecatedDeclaration(_ node: Syntax) -> Bool {
    var current = node.parent
    while let candidate = current {
      if let attributes = SyntaxFacts.declarationAttributes(candidate), attributes.contains(where: isDeprecation) {
        return true
      }
      current = candidate.parent
    }
    return false
  }

  private static func isDeprecation(_ element: AttributeListSyntax.Element) -> Bool {
    guard case .attribute(let attribute) = element, SyntaxFacts.text(attribute.attributeName) == "available",
      let arguments = attribute.arguments
    else { return false }
    return arguments.tokens(viewMode: .sourceAccurate).contains { $0.text == "deprecated" }
  }

  private static func isUnavailabilityCheck(_ condition: AvailabilityConditionSyntax) -> Bool {
    condition.availabilityKeyword.tokenKind == .poundUnavailable
  }
}
