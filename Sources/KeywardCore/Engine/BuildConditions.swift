import SwiftSyntax

/// The condition of an `#if` clause, reduced to what decides whether code ships: `DEBUG`, the
/// simulator, and everything else (unknown).
indirect enum ClauseCondition: Equatable, PreprocessorConditionValue {
  case debug, simulator
  /// `arch(x86_64)`, `arch(i386)`: simulator builds of old, only when both stand together.
  case arch(String)
  case unknown
  case not(ClauseCondition)
  case all([ClauseCondition])
  case any([ClauseCondition])

  /// The build condition that must hold for the condition to be `value`: `DEBUG && X` true
  /// needs a debug build, `!DEBUG` false needs one too; `DEBUG || X` true needs nothing.
  func requires(_ value: Bool) -> BuildCondition? {
    switch self {
    case .debug: return value ? .debug : nil
    case .simulator: return value ? .simulator : nil
    case .arch, .unknown: return nil
    case .not(let inner): return inner.requires(!value)
    case .all(let parts):
      return value ? parts.lazy.compactMap { $0.requires(true) }.first : Self.every(parts, false)
    case .any(let parts):
      if value && Self.isSimulatorArchitectures(parts) { return .simulator }
      return value ? Self.every(parts, true) : parts.lazy.compactMap { $0.requires(false) }.first
    }
  }

  /// What each part needs to be `value`, when every part needs something (the first's).
  private static func every(_ parts: [ClauseCondition], _ value: Bool) -> BuildCondition? {
    let needs = parts.map { $0.requires(value) }
    return needs.contains(nil) ? nil : needs.first ?? nil
  }

  /// `arch(i386) || arch(x86_64)`, the simulator test before `targetEnvironment(simulator)`.
  private static func isSimulatorArchitectures(_ parts: [ClauseCondition]) -> Bool {
    let names = Set(parts.compactMap { if case .arch(let name) = $0 { name } else { nil } })
    return names.count == parts.count && names == ["i386", "x86_64"]
  }

  /// The build condition of the clause at `position` of an `#if` whose clauses have
  /// `conditions` (nil for `#else`): its own condition true and every earlier one false.
  static func requirement(ofClause position: Int, conditions: [ClauseCondition?]) -> BuildCondition? {
    if let own = conditions[position]?.requires(true) { return own }
    return conditions[..<position].lazy.compactMap { $0?.requires(false) }.first
  }
}

/// Build conditions of Swift code, from the `#if` clauses around an offset: the innermost clause
/// that decides one. The syntax tree is climbed from the finding's token, never walked; outside
/// such clauses, a `private` function nothing in the file names is code no build runs.
final class SwiftBuildConditions {
  let tree: SourceFileSyntax
  /// Byte ranges of `private` / `fileprivate` functions whose name the file uses nowhere else,
  /// found on the first question.
  private lazy var uncalledFunctions: [Range<Int>] = UncalledFunctions.ranges(in: tree, namesUsed: namesUsed)
  /// The names the file uses, also asked by `FunctionsCalledElsewhere`.
  let namesUsed: NamesUsed

  init(tree: SourceFileSyntax) {
    self.tree = tree
    namesUsed = NamesUsed(tree: tree)
  }

  func condition(at offset: Int) -> BuildCondition? {
    guard let token = tree.token(at: AbsolutePosition(utf8Offset: offset)) else { return nil }
    var node: Syntax? = Syntax(token)
    while let current = node {
      if let clause = current.as(IfConfigClauseSyntax.self), let list = clause.parent?.as(IfConfigClauseListSyntax.self)
      {
        let clauses = Array(list)
        if let index = clauses.firstIndex(where: { $0.id == clause.id }),
          let found = ClauseCondition.requirement(
            ofClause: index, conditions: clauses.map { $0.condition.map(Self.condition) })
        {
          return found
        }
      }
      node = current.parent
    }
    return uncalledFunctions.contains { $0.contains(offset) } ? .uncalled : nil
  }

  static func condition(_ expression: ExprSyntax) -> ClauseCondition {
    if let name = expression.as(DeclReferenceExprSyntax.self) {
      return name.baseName.text == "DEBUG" ? .debug : .unknown
    }
    if let call = expression.as(FunctionCallExprSyntax.self),
      let callee = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
      let argument = call.arguments.first?.expression.trimmedDescription
    {
      if callee == "targetEnvironment" { return argument == "simulator" ? .simulator : .unknown }
      if callee == "arch" { return .arch(argument) }
      return .unknown
    }
    if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!" {
      return .not(condition(prefix.expression))
    }
    if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
      return condition(only.expression)
    }
    if let infix = expression.as(InfixOperatorExprSyntax.self),
      let name = infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text
    {
      let parts = [condition(infix.leftOperand), condition(infix.rightOperand)]
      return name == "&&" ? .all(parts) : name == "||" ? .any(parts) : .unknown
    }
    if let sequence = expression.as(SequenceExprSyntax.self) {
      return Self.condition(sequence: Array(sequence.elements))
    }
    return .unknown
  }

  /// An unfolded `a && b || c`: `||` binds looser than `&&`.
  private static func condition(sequence elements: [ExprSyntax]) -> ClauseCondition {
    var alternatives: [[ClauseCondition]] = [[]]
    for (position, element) in elements.enumerated() {
      guard position % 2 == 1 else {
        alternatives[alternatives.count - 1].append(condition(element))
        continue
      }
      switch element.as(BinaryOperatorExprSyntax.self)?.operator.text {
      case "&&": continue
      case "||": alternatives.append([])
      default: return .unknown
      }
    }
    let groups = alternatives.map { $0.count == 1 ? $0[0] : .all($0) }
    return groups.count == 1 ? groups[0] : .any(groups)
  }
}

/// Build conditions of Objective-C code, from its preprocessor lines: `#if DEBUG`, `#ifdef
/// DEBUG`, `#if TARGET_OS_SIMULATOR` (or `TARGET_IPHONE_SIMULATOR`), their `#elif`, `#else`.
struct ObjCBuildConditions {
  /// Byte ranges of clauses that decide a build condition, with their nesting depth.
  private var regions: [(range: Range<Int>, depth: Int, condition: BuildCondition)] = []

  init(tokens: [ObjCToken], lexer: ObjCLexer) {
    var open: [(conditions: [ClauseCondition?], start: Int)] = []
    for token in tokens where token.kind == .directive {
      let words = lexer.tokens(in: (token.start + 1)..<token.end, directives: false)
      guard let keyword = words.first?.text else { continue }
      let rest = Array(words.dropFirst())
      switch keyword {
      case "if", "ifdef", "ifndef":
        let condition: ClauseCondition =
          keyword == "if"
          ? Self.condition(rest) : keyword == "ifdef" ? Self.name(rest.first?.text) : .not(Self.name(rest.first?.text))
        open.append(([condition], token.end))
      case "elif", "else", "endif":
        guard var current = open.popLast() else { continue }
        close(current, at: token.start, depth: open.count)
        if keyword == "endif" { continue }
        current.conditions.append(keyword == "elif" ? Self.condition(rest) : nil)
        current.start = token.end
        open.append(current)
      default: continue
      }
    }
  }

  private mutating func close(_ clause: (conditions: [ClauseCondition?], start: Int), at end: Int, depth: Int) {
    let position = clause.conditions.count - 1
    guard let condition = ClauseCondition.requirement(ofClause: position, conditions: clause.conditions),
      clause.start <= end
    else { return }
    regions.append((clause.start..<end, depth, condition))
  }

  /// The condition of the innermost deciding clause around `offset`.
  func condition(at offset: Int) -> BuildCondition? {
    regions.filter { $0.range.contains(offset) }.max { $0.depth < $1.depth }?.condition
  }

  static func name(_ text: String?) -> ClauseCondition {
    switch text {
    case "DEBUG": .debug
    case "TARGET_OS_SIMULATOR", "TARGET_IPHONE_SIMULATOR": .simulator
    default: .unknown
    }
  }

  /// `#if` expressions: `||`, `&&`, `!`, parentheses, `defined(X)`, `defined X`, names.
  static func condition(_ tokens: [ObjCToken]) -> ClauseCondition {
    PreprocessorExpression.read(tokens.map(\.text))
  }
}

extension ClauseCondition {
  /// `DEBUG` and `defined(DEBUG)` alike: the build defines it or not.
  static func named(_ name: String?, isDefinedTest: Bool) -> ClauseCondition { ObjCBuildConditions.name(name) }
}
