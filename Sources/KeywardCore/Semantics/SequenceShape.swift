import SwiftSyntax

/// Reads the value structure of expressions the parser leaves unfolded.
///
/// swift-syntax parses `a as String`, `c ? a : b` and `a ?? b` into flat `SequenceExpr` element
/// lists; folding the whole tree with the operator table would rebuild most of it. The values
/// the rules care about need only a few operators, handled here by precedence, lowest first.
public enum SequenceShape {
  public struct Part {
    public var elements: ArraySlice<ExprSyntax>
    public var isConditional: Bool
    /// For a branch of `condition ? a : b`, the condition's elements.
    public var condition: ArraySlice<ExprSyntax>? = nil
  }

  /// Removes wrappers that do not change a value: parentheses, `try`, `await`, `!`, `?`, casts.
  public static func unwrap(_ expression: ExprSyntax) -> ExprSyntax {
    var current = expression
    while true {
      if let tuple = current.as(TupleExprSyntax.self), tuple.elements.count == 1,
        let only = tuple.elements.first, only.label == nil
      {
        current = only.expression
      } else if let tryExpression = current.as(TryExprSyntax.self) {
        current = tryExpression.expression
      } else if let awaitExpression = current.as(AwaitExprSyntax.self) {
        current = awaitExpression.expression
      } else if let unsafeExpression = current.as(UnsafeExprSyntax.self) {
        current = unsafeExpression.expression
      } else if let forced = current.as(ForceUnwrapExprSyntax.self) {
        current = forced.expression
      } else if let chained = current.as(OptionalChainingExprSyntax.self) {
        current = chained.expression
      } else if let cast = current.as(AsExprSyntax.self) {
        current = cast.expression
      } else if let sequence = current.as(SequenceExprSyntax.self), sequence.elements.count == 1,
        let only = sequence.elements.first
      {
        current = only
      } else {
        return current
      }
    }
  }

  /// What a stored value is converted from, through the conversions apps write before storing
  /// text or bytes: `x` of `Data(x.utf8)`, `Data(x)`, `Array(x.utf8)`, `x.data(using: .utf8)!`
  /// (casts and `!` around them); the expression, unwrapped, when it converts nothing.
  public static func convertedValue(_ expression: ExprSyntax) -> ExprSyntax {
    let value = unwrapCasts(expression)
    guard let call = value.as(FunctionCallExprSyntax.self) else { return value }
    let source: ExprSyntax?
    if let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "data" {
      source = member.base
    } else if let type = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
      ["Data", "NSData", "Array"].contains(type), call.arguments.count == 1, call.arguments.first?.label == nil
    {
      source = call.arguments.first?.expression
    } else {
      source = nil
    }
    guard let source else { return value }
    let inner = unwrapCasts(source)
    if let member = inner.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "utf8",
      let base = member.base
    {
      return unwrapCasts(base)
    }
    return inner
  }

  /// Removes wrappers and `as` casts (`query as CFDictionary`), keeping everything else.
  public static func unwrapCasts(_ expression: ExprSyntax) -> ExprSyntax {
    let unwrapped = unwrap(expression)
    guard let sequence = unwrapped.as(SequenceExprSyntax.self) else { return unwrapped }
    let elements = Array(sequence.elements)[...]
    guard elements.count > 1,
      elements.dropFirst().allSatisfy({ $0.is(UnresolvedAsExprSyntax.self) || $0.is(TypeExprSyntax.self) }),
      let first = elements.first
    else { return unwrapped }
    return unwrapCasts(first)
  }

  /// The parts of an operator sequence its value comes from, or nil where the value is
  /// computed (arithmetic, comparison) rather than chosen.
  public static func valueParts(_ elements: ArraySlice<ExprSyntax>) -> [Part]? {
    if let assignment = elements.firstIndex(where: { $0.is(AssignmentExprSyntax.self) }) {
      return [Part(elements: elements[(assignment + 1)...], isConditional: false)]
    }
    if let ternary = elements.firstIndex(where: { $0.is(UnresolvedTernaryExprSyntax.self) }),
      let operatorNode = elements[ternary].as(UnresolvedTernaryExprSyntax.self)
    {
      let condition = elements[..<ternary]
      return [
        Part(elements: [operatorNode.thenExpression][...], isConditional: true, condition: condition),
        Part(elements: elements[(ternary + 1)...], isConditional: true, condition: condition),
      ]
    }
    let coalescing = elements.indices.filter { isOperator(elements[$0], "??") }
    if !coalescing.isEmpty {
      var parts: [Part] = []
      var start = elements.startIndex
      for index in coalescing + [elements.endIndex] {
        parts.append(Part(elements: elements[start..<index], isConditional: true))
        start = index + 1
      }
      return parts
    }
    // `value as T`, `value as! T as U`: every operator is a cast followed by its type.
    var index = elements.startIndex + 1
    while index < elements.endIndex {
      let operatorNode = elements[index]
      guard operatorNode.is(UnresolvedAsExprSyntax.self), index + 1 < elements.endIndex,
        elements[index + 1].is(TypeExprSyntax.self)
      else { return nil }
      index += 2
    }
    return [Part(elements: elements.prefix(1), isConditional: false)]
  }

  private static func isOperator(_ expression: ExprSyntax, _ text: String) -> Bool {
    operatorText(expression) == text
  }

  /// The operator an element of an unfolded sequence is (`*` in `5 * 60`), if it is one.
  public static func operatorText(_ expression: ExprSyntax) -> String? {
    expression.as(BinaryOperatorExprSyntax.self)?.operator.text
  }
}
