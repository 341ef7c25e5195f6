import SwiftSyntax

/// A number an expression may have, and where it is written.
public struct ResolvedNumber {
  /// The expression that gives the number: a literal, a named constant, or the whole of a
  /// computation (`5 * 60`, `min(300, limit)`).
  public var expression: ExprSyntax
  /// The least the value can be on this path: exact where every part is known; for `max`
  /// with an unknown argument, the largest known one.
  public var atLeast: Double
  /// Whether `atLeast` is the value itself rather than only a lower bound of it.
  public var isExact: Bool
  public var isConditional: Bool
}

/// A number, or the least a number can be.
private struct Bound {
  var value: Double
  var isExact: Bool
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
      guard let bound = evaluate(run, constants, 0, []) else { return nil }
      return ResolvedNumber(
        expression: site, atLeast: bound.value, isExact: bound.isExact, isConditional: value.isConditional)
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

  /// `a op b op c ...` with `*` and `/` before `+` and `-`; nil for any other operator. A
  /// lower bound stays one only in an added term, multiplied by values that are not negative.
  private func evaluate(
    _ run: ArraySlice<ExprSyntax>, _ constants: [String: Double], _ depth: Int, _ names: Set<SyntaxIdentifier>
  ) -> Bound? {
    guard depth < Self.maximumDepth, let first = run.first, let firstOperand = number(first, constants, depth, names)
    else { return nil }
    var total = 0.0
    var isExact = true
    var term = Term(sign: 1, first: firstOperand)
    var index = run.startIndex + 1
    while index + 1 < run.endIndex {
      guard let symbol = SequenceShape.operatorText(run[index]),
        let operand = number(run[index + 1], constants, depth, names)
      else { return nil }
      switch symbol {
      case "*", "/": term.combine(operand, dividing: symbol == "/")
      case "+", "-":
        guard term.keepsBound else { return nil }
        total += term.value
        isExact = isExact && term.isExact
        term = Term(sign: symbol == "+" ? 1 : -1, first: operand)
      default: return nil
      }
      index += 2
    }
    guard index == run.endIndex, term.keepsBound else { return nil }
    return Bound(value: total + term.value, isExact: isExact && term.isExact)
  }

  /// A product of operands in a sum, and whether a lower bound among them still bounds it.
  private struct Term {
    var sign: Double
    var product: Double
    var isExact: Bool
    var nonNegative: Bool
    var boundDivides = false

    init(sign: Double, first: Bound) {
      (self.sign, product, isExact, nonNegative) = (sign, first.value, first.isExact, first.value >= 0)
    }

    mutating func combine(_ operand: Bound, dividing: Bool) {
      product = dividing ? product / operand.value : product * operand.value
      isExact = isExact && operand.isExact
      nonNegative = nonNegative && operand.value >= 0
      boundDivides = boundDivides || (dividing && !operand.isExact)
    }

    var value: Double { sign * product }
    var keepsBound: Bool { isExact || (sign > 0 && nonNegative && !boundDivides) }
  }

  /// One operand: a literal, a constant, a conversion, `min`/`max`, a parenthesised
  /// computation, or a name whose every value is a number (the least of them).
  private func number(
    _ expression: ExprSyntax, _ constants: [String: Double], _ depth: Int, _ names: Set<SyntaxIdentifier>
  ) -> Bound? {
    let operand = SequenceShape.unwrap(expression)
    if let integer = SyntaxFacts.integerLiteralValue(operand) { return Bound(value: Double(integer), isExact: true) }
    if let float = operand.as(FloatLiteralExprSyntax.self),
      let value = Double(float.literal.text.replacingOccurrences(of: "_", with: ""))
    {
      return Bound(value: value, isExact: true)
    }
    if let name = operand.as(DeclReferenceExprSyntax.self)?.baseName.text, let known = constants[name] {
      return Bound(value: known, isExact: true)
    }
    if let sequence = operand.as(SequenceExprSyntax.self) {
      return evaluate(Array(sequence.elements)[...], constants, depth + 1, names)
    }
    if let call = operand.as(FunctionCallExprSyntax.self),
      let callee = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text
    {
      let arguments = call.arguments.map { number($0.expression, constants, depth + 1, names) }
      let known = arguments.compactMap { $0 }
      let allExact = known.count == arguments.count && known.allSatisfy(\.isExact)
      switch callee {
      case "TimeInterval" where arguments.count == 1, "Double" where arguments.count == 1: return arguments[0]
      case "min" where arguments.count > 1 && known.count == arguments.count:
        return known.map(\.value).min().map { Bound(value: $0, isExact: allExact) }
      case "max": return known.map(\.value).max().map { Bound(value: $0, isExact: allExact) }
      default: break
      }
    }
    // A name counts once on the way down, so `x = x * 2` ends instead of multiplying out.
    guard depth < Self.maximumDepth, let name = binding(denotedBy: operand)?.id, !names.contains(name) else {
      return nil
    }
    let resolved = values(of: operand)
    guard !resolved.isEmpty else { return nil }
    var candidates: [Bound] = []
    for value in resolved {
      let run = arithmeticRun(startingAt: value.expression).1
      guard let candidate = evaluate(run, constants, depth + 1, names.union([name])) else { return nil }
      candidates.append(candidate)
    }
    let least = candidates.map(\.value).min()!
    // Several different values: only the least of them is known.
    let isExact = candidates.allSatisfy { $0.isExact && $0.value == least }
    return Bound(value: least, isExact: isExact)
  }

  private static let arithmetic: Set<String> = ["+", "-", "*", "/"]
}
