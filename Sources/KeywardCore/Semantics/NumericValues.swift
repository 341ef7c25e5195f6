import SwiftSyntax

/// A number an expression may have, and where it is written.
public struct ResolvedNumber {
  /// The expression that gives the number: a literal, a named constant, or the whole of a
  /// computation (`5 * 60`, `min(300, limit)`).
  public var expression: ExprSyntax
  /// The least the value can be on this path: exact where every part is known; for `max`
  /// with an unknown argument, the largest known one.
  public var atLeast: Double
  public var isConditional: Bool
}

extension ConstantResolver {
  /// The numbers `expression` may have, one per value the resolver finds: literals, the
  /// `constants` given by name, `+ - * /` over them, `min`/`max`, and `TimeInterval(...)` or
  /// `Double(...)` conversions, through the file's names. A value that is not a number, or
  /// needs an unknown part to be bounded from below, gives none.
  public func numbers(of expression: ExprSyntax, constants: [String: Double]) -> [ResolvedNumber] {
    values(of: expression).compactMap { value in
      // The resolver stands a computed sequence (`5 * 60`) by its first element.
      let (site, run) = arithmeticRun(startingAt: value.expression)
      guard let atLeast = evaluate(run, constants, 0, []) else { return nil }
      return ResolvedNumber(expression: site, atLeast: atLeast, isConditional: value.isConditional)
    }
  }

  /// The elements of the computation `first` begins, up to a `??` or the end, and the
  /// expression to point at: the whole sequence when the run is all of it.
  private func arithmeticRun(startingAt first: ExprSyntax) -> (ExprSyntax, ArraySlice<ExprSyntax>) {
    guard let list = first.parent?.as(ExprListSyntax.self), let sequence = list.parent?.as(SequenceExprSyntax.self)
    else { return (first, [first][...]) }
    let elements = Array(list)
    guard let start = elements.firstIndex(where: { $0.id == first.id }) else { return (first, [first][...]) }
    var end = start + 1
    while end + 1 < elements.count, Self.arithmetic.contains(SequenceShape.operatorText(elements[end]) ?? "") {
      end += 2
    }
    // Another operator after the run (`%`, `<<`) makes the value unknown; `??`, a cast or the
    // end closes it.
    if end < elements.count, let next = SequenceShape.operatorText(elements[end]), next != "??" { return (first, []) }
    let whole = start == 0 && end == elements.count
    return (whole ? ExprSyntax(sequence) : first, elements[start..<end])
  }

  /// `a op b op c ...` with `*` and `/` before `+` and `-`; nil for any other operator.
  private func evaluate(
    _ run: ArraySlice<ExprSyntax>, _ constants: [String: Double], _ depth: Int, _ names: Set<SyntaxIdentifier>
  ) -> Double? {
    guard depth < Self.maximumDepth, let first = run.first, var term = number(first, constants, depth, names) else {
      return nil
    }
    var sum = 0.0
    var sign = 1.0
    var index = run.startIndex + 1
    while index + 1 < run.endIndex {
      guard let symbol = SequenceShape.operatorText(run[index]),
        let operand = number(run[index + 1], constants, depth, names)
      else { return nil }
      switch symbol {
      case "*": term *= operand
      case "/": term /= operand
      case "+", "-":
        sum += sign * term
        (sign, term) = (symbol == "+" ? 1 : -1, operand)
      default: return nil
      }
      index += 2
    }
    return index == run.endIndex ? sum + sign * term : nil
  }

  /// One operand: a literal, a constant, a conversion, `min`/`max`, a parenthesised
  /// computation, or a name whose every value is a number (the least of them).
  private func number(
    _ expression: ExprSyntax, _ constants: [String: Double], _ depth: Int, _ names: Set<SyntaxIdentifier>
  ) -> Double? {
    let operand = SequenceShape.unwrap(expression)
    if let integer = SyntaxFacts.integerLiteralValue(operand) { return Double(integer) }
    if let float = operand.as(FloatLiteralExprSyntax.self) {
      return Double(float.literal.text.replacingOccurrences(of: "_", with: ""))
    }
    if let name = operand.as(DeclReferenceExprSyntax.self)?.baseName.text, let known = constants[name] {
      return known
    }
    if let sequence = operand.as(SequenceExprSyntax.self) {
      return evaluate(Array(sequence.elements)[...], constants, depth + 1, names)
    }
    if let call = operand.as(FunctionCallExprSyntax.self),
      let callee = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text
    {
      let arguments = call.arguments.map { number($0.expression, constants, depth + 1, names) }
      switch callee {
      case "TimeInterval" where arguments.count == 1, "Double" where arguments.count == 1: return arguments[0]
      case "min" where arguments.count > 1 && !arguments.contains(nil): return arguments.compactMap { $0 }.min()
      case "max": return arguments.compactMap { $0 }.max()
      default: break
      }
    }
    // A name counts once on the way down, so `x = x * 2` ends instead of multiplying out.
    guard depth < Self.maximumDepth, let name = binding(denotedBy: operand)?.id, !names.contains(name) else {
      return nil
    }
    let resolved = values(of: operand)
    guard !resolved.isEmpty else { return nil }
    let candidates = resolved.map {
      evaluate(arithmeticRun(startingAt: $0.expression).1, constants, depth + 1, names.union([name]))
    }
    return candidates.contains(nil) ? nil : candidates.compactMap { $0 }.min()
  }

  private static let arithmetic: Set<String> = ["+", "-", "*", "/"]
}
