/// What an `#if` expression is read into: build conditions (`ClauseCondition`), what it says
/// about macOS (`ObjCTargetPlatform.Implication`).
protocol PreprocessorConditionValue {
  /// An expression not judged (a comparison, arithmetic, something malformed).
  static var unknown: Self { get }
  static func not(_ operand: Self) -> Self
  static func all(_ parts: [Self]) -> Self
  static func any(_ parts: [Self]) -> Self
  /// A macro name standing alone (`DEBUG`), or tested by `defined` when `isDefinedTest`.
  static func named(_ name: String?, isDefinedTest: Bool) -> Self
}

/// Reads `#if` expressions: `||`, `&&`, `!`, parentheses, `defined(X)`, `defined X`, names.
enum PreprocessorExpression {
  static func read<Value: PreprocessorConditionValue>(_ tokens: [String], as _: Value.Type = Value.self) -> Value {
    var parser = Parser<Value>(tokens: tokens)
    let result = parser.any()
    return parser.position == tokens.count ? result : .unknown
  }

  private struct Parser<Value: PreprocessorConditionValue> {
    let tokens: [String]
    var position = 0

    var next: String? { position < tokens.count ? tokens[position] : nil }

    mutating func any() -> Value {
      var parts = [all()]
      while next == "||" {
        position += 1
        parts.append(all())
      }
      return parts.count == 1 ? parts[0] : .any(parts)
    }

    mutating func all() -> Value {
      var parts = [unary()]
      while next == "&&" {
        position += 1
        parts.append(unary())
      }
      return parts.count == 1 ? parts[0] : .all(parts)
    }

    mutating func unary() -> Value {
      guard let token = next else { return .unknown }
      position += 1
      switch token {
      case "!": return .not(unary())
      case "(":
        let inner = any()
        if next == ")" { position += 1 }
        return inner
      case "defined":
        let parenthesized = next == "("
        if parenthesized { position += 1 }
        let name = next
        position += 1
        if parenthesized, next == ")" { position += 1 }
        return .named(name, isDefinedTest: true)
      default:
        // A comparison (`DEBUG == 1`, `X > 2`) is not judged.
        if let operatorText = next,
          ["=", "<", ">"].contains(operatorText)
            || (operatorText == "!" && position + 1 < tokens.count && tokens[position + 1] == "=")
        {
          while let rest = next, rest != "&&", rest != "||", rest != ")" { position += 1 }
          return .unknown
        }
        return .named(token, isDefinedTest: false)
      }
    }
  }
}
