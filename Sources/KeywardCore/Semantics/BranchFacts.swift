import SwiftSyntax

/// Questions about which branch of the code a node is on.
public enum BranchFacts {
  /// Whether two nodes lie on branches that exclude each other, so one run never executes both:
  /// the `if` and `else` of one `if`, two cases of one `switch`, two clauses of one `#if`.
  public static func neverRunTogether(_ first: some SyntaxProtocol, _ second: some SyntaxProtocol) -> Bool {
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

  /// Whether `parent`'s children `a` and `b` are alternatives of one choice.
  private static func excludes(_ parent: Syntax, _ a: SyntaxIdentifier, _ b: SyntaxIdentifier) -> Bool {
    if let ifExpression = parent.as(IfExprSyntax.self), let elseBody = ifExpression.elseBody {
      let branches: Set<SyntaxIdentifier> = [ifExpression.body.id, elseBody.id]
      return branches.contains(a) && branches.contains(b)
    }
    // Two different cases of a `switch`, or two clauses of an `#if`.
    return parent.is(SwitchCaseListSyntax.self) || parent.is(IfConfigClauseListSyntax.self)
  }

  /// The `if #available(…)` / `guard #available(…)` conditions `node` is under, with whether it
  /// is on the branch where the condition holds (`true`) or on the fallback (`false`).
  public static func availabilityChecks(around node: some SyntaxProtocol) -> [(
    AvailabilityConditionSyntax, holds: Bool
  )] {
    var found: [(AvailabilityConditionSyntax, holds: Bool)] = []
    var child = Syntax(node)
    while let parent = child.parent {
      if let ifExpression = parent.as(IfExprSyntax.self) {
        let onBody = ifExpression.body.id == child.id
        let onElse = ifExpression.elseBody?.id == child.id
        if onBody || onElse {
          for condition in ifExpression.conditions {
            if let availability = condition.condition.as(AvailabilityConditionSyntax.self) {
              found.append((availability, holds: onBody != isUnavailabilityCheck(availability)))
            }
          }
        }
      }
      if let block = parent.as(CodeBlockItemListSyntax.self) {
        // `guard #available(iOS 15, *) else { fallback }` guards the statements after it.
        for item in block {
          guard item.position < child.position else { break }
          if let guardStatement = item.item.as(GuardStmtSyntax.self) {
            for condition in guardStatement.conditions {
              if let availability = condition.condition.as(AvailabilityConditionSyntax.self) {
                found.append((availability, holds: !isUnavailabilityCheck(availability)))
              }
            }
          }
        }
      }
      if let guardStatement = parent.as(GuardStmtSyntax.self), guardStatement.body.id == child.id {
        for condition in guardStatement.conditions {
          if let availability = condition.condition.as(AvailabilityConditionSyntax.self) {
            found.append((availability, holds: isUnavailabilityCheck(availability)))
          }
        }
      }
      child = parent
    }
    return found
  }

  /// Whether `node` runs only where an `#available` check fails: the code that supports older
  /// systems, where the newer API it would replace does not exist yet.
  public static func isOnVersionFallback(_ node: some SyntaxProtocol) -> Bool {
    availabilityChecks(around: node).contains { !$0.holds }
  }

  private static func isUnavailabilityCheck(_ condition: AvailabilityConditionSyntax) -> Bool {
    condition.availabilityKeyword.tokenKind == .poundUnavailable
  }
}
