/// Where the Objective-C rules follow a value beyond the file's constants: locals assigned in the
/// same body (`f = kSecAccessControlBiometryAny; if (x) f = …;`), argument-less methods and
/// functions of the file that return it (`[self accessFlags]`), and function-like macros whose
/// body hands a parameter to a sink (`#define EVALUATE(policy) [context evaluatePolicy:policy …]`).
struct ObjCValueSources {
  /// Bodies of the file's methods and functions: byte ranges, in order.
  private(set) var bodies: [Range<Int>] = []
  /// `name = value;` (and `|=`) in each body, by body then name, in source order.
  private var assignments: [Int: [String: [[ObjCToken]]]] = [:]
  /// Returned token lists of the file's argument-less methods and functions, by name.
  private(set) var returns: [String: [[ObjCToken]]] = [:]
  /// What the file's C functions taking arguments return whatever they are given: the values of
  /// their unconditional `return`s (the default after the branches on their arguments), by name.
  private(set) var defaultReturns: [String: [[ObjCToken]]] = [:]

  init(tokens: [ObjCToken], group: (Int) -> ([ObjCToken], Int)) {
    var depth = 0
    var index = 0
    while index < tokens.count {
      let text = tokens[index].text
      if text == "{", depth == 0 {
        let (_, close) = group(index)
        let body = (index + 1)..<min(close, tokens.count)
        bodies.append(tokens[index].start..<(close < tokens.count ? tokens[close].end : Int.max))
        collectAssignments(in: body, of: tokens, number: bodies.count - 1)
        // A method that only switches over a value maps each case to its own value: it offers
        // them all, and the choice is made where the switched value is set.
        if let name = Self.argumentlessName(before: index, in: tokens),
          !Self.isSoleSwitch(body, of: tokens, group: group)
        {
          returns[name, default: []] += Self.returned(in: body, of: tokens)
        } else if let name = Self.functionName(before: index, in: tokens)
          ?? Self.methodSelector(before: index, in: tokens)
        {
          defaultReturns[name, default: []] += Self.returned(in: body, of: tokens, unconditionally: true)
        }
        index = close + 1
        continue
      }
      if text == "{" { depth += 1 }
      if text == "}" { depth = max(0, depth - 1) }
      index += 1
    }
  }

  /// The values assigned to the local `name` before byte `offset`, in the body holding it.
  func assignedValues(of name: String, at offset: Int) -> [[ObjCToken]]? {
    guard let body = bodyIndex(holding: offset), let values = assignments[body]?[name] else { return nil }
    let earlier = values.filter { ($0.first?.start ?? .max) < offset }
    return earlier.isEmpty ? nil : earlier
  }

  /// Every `name = value;` of the body holding byte `offset`: names and values, in source order.
  func assignments(inBodyHolding offset: Int) -> [(name: String, value: [ObjCToken])] {
    guard let body = bodyIndex(holding: offset), let byName = assignments[body] else { return [] }
    return byName.flatMap { name, values in values.map { (name, $0) } }
      .sorted { ($0.value.first?.start ?? 0) < ($1.value.first?.start ?? 0) }
  }

  private func bodyIndex(holding offset: Int) -> Int? { bodies.indexOfRange(containing: offset) }

  private mutating func collectAssignments(in body: Range<Int>, of tokens: [ObjCToken], number: Int) {
    // `=` and `|=` (two tokens), not `==`, `!=`, `<=`, `>=`.
    for index in body where tokens[index].text == "=" {
      guard index + 1 < body.upperBound, tokens[index + 1].text != "=" else { continue }
      let target = tokens[index - 1].text == "|" ? index - 2 : index - 1
      guard target >= body.lowerBound, tokens[target].kind == .identifier else { continue }
      // `a.b = …` and `a->b = …` set a member, not a local.
      if target - 1 >= body.lowerBound, [".", "->"].contains(tokens[target - 1].text) { continue }
      var stop = index + 1
      var depth = 0
      while stop < body.upperBound {
        let text = tokens[stop].text
        if ["(", "[", "{"].contains(text) { depth += 1 }
        if [")", "]", "}"].contains(text) {
          if depth == 0 { break }
          depth -= 1
        }
        if depth == 0, text == ";" || text == "," { break }
        stop += 1
      }
      guard stop > index + 1 else { continue }
      assignments[number, default: [:]][tokens[target].text, default: []].append(Array(tokens[(index + 1)..<stop]))
    }
  }

  /// `- (T)name {` or `T name(void) {` / `T name() {`: the name of a method or function taking no
  /// argument whose body opens at `open`.
  private static func argumentlessName(before open: Int, in tokens: [ObjCToken]) -> String? {
    guard open >= 2 else { return nil }
    let last = tokens[open - 1]
    if last.kind == .identifier, tokens[open - 2].text == ")" {
      // `- (SecAccessControlCreateFlags)accessFlags {`: a type in parentheses after `-`/`+`.
      var position = open - 2
      while position > 0, tokens[position].text != "(" { position -= 1 }
      guard position > 0, ["-", "+"].contains(tokens[position - 1].text) else { return nil }
      return last.text
    }
    if last.text == ")" {
      // `static T name(void) {` or `T name() {`.
      if tokens[open - 2].text == "(", open >= 3, tokens[open - 3].kind == .identifier { return tokens[open - 3].text }
      if tokens[open - 2].text == "void", open >= 4, tokens[open - 3].text == "(", tokens[open - 4].kind == .identifier
      {
        return tokens[open - 4].text
      }
    }
    return nil
  }

  /// `T name(T1 a, T2 b) {`: the name of a C function taking arguments whose body opens at `open`.
  private static func functionName(before open: Int, in tokens: [ObjCToken]) -> String? {
    guard open >= 4, tokens[open - 1].text == ")",
      let position = ObjCModel.openingParenthesis(of: open - 1, in: tokens),
      position >= 2, position + 2 < open - 1, tokens[position - 1].kind == .identifier,
      tokens[position - 2].kind == .identifier || tokens[position - 2].text == "*",
      !ObjCModel.controlWords.contains(tokens[position - 1].text)
    else { return nil }
    return tokens[position - 1].text
  }

  /// The first part of a method taking arguments, with its colon: `- (LAPolicy)policyFor:(NSDictionary
  /// *)options {` → `policyFor:`. What it returns whatever it is given is what its unconditional
  /// `return`s give (the default after the branches on its arguments).
  static func methodSelector(before open: Int, in tokens: [ObjCToken]) -> String? {
    // Back to the `-` or `+` opening the header: the last one followed by `(` before the body.
    var start = open - 1
    while start > 0, ![";", "}", "{"].contains(tokens[start].text), tokens[start].kind != .directive,
      !(["-", "+"].contains(tokens[start].text) && tokens[start + 1].text == "(")
    {
      start -= 1
    }
    guard start >= 0, start + 4 < open, ["-", "+"].contains(tokens[start].text), tokens[start + 1].text == "(",
      let close = ObjCModel.closingParenthesis(of: start + 1, in: tokens), close + 2 < open,
      tokens[close + 1].kind == .identifier, tokens[close + 2].text == ":"
    else { return nil }
    return tokens[close + 1].text + ":"
  }

  /// `switch (x) { case …: return …; … }` as the body's only statement, with two cases or more.
  private static func isSoleSwitch(
    _ body: Range<Int>, of tokens: [ObjCToken], group: (Int) -> ([ObjCToken], Int)
  ) -> Bool {
    guard body.count > 4, tokens[body.lowerBound].text == "switch", tokens[body.lowerBound + 1].text == "(" else {
      return false
    }
    let (_, subjectClose) = group(body.lowerBound + 1)
    let open = subjectClose + 1
    guard open < body.upperBound, tokens[open].text == "{" else { return false }
    let (inside, close) = group(open)
    return close + 1 >= body.upperBound && inside.filter { $0.text == "case" }.count >= 2
  }

  /// The values of the body's `return`s; `unconditionally`, only of those outside any branch
  /// (not in braces, not after `if (…)` or `else`).
  private static func returned(in body: Range<Int>, of tokens: [ObjCToken], unconditionally: Bool = false)
    -> [[ObjCToken]]
  {
    var found: [[ObjCToken]] = []
    var depth = 0
    for index in body {
      if tokens[index].text == "{" { depth += 1 }
      if tokens[index].text == "}" { depth -= 1 }
      guard tokens[index].kind == .identifier, tokens[index].text == "return" else { continue }
      if unconditionally {
        let before = index > body.lowerBound ? tokens[index - 1].text : ";"
        guard depth == 0, [";", "}"].contains(before) || index == body.lowerBound else { continue }
      }
      var stop = index + 1
      while stop < body.upperBound, tokens[stop].text != ";" { stop += 1 }
      if stop > index + 1 { found.append(Array(tokens[(index + 1)..<stop])) }
    }
    return found
  }
}

extension ObjCModel {
  /// Identifiers whose presence in a macro's body makes its uses worth expanding.
  static let sinkNames: Set<String> = ["evaluatePolicy", "SecAccessControlCreateWithFlags", "kSecAttrAccessible"]

  /// Each use of a function-like macro whose body names a sink, as the body with the use's
  /// arguments in place of its parameters (the arguments keep their own positions, so findings
  /// land where the value is chosen); and the bodies of such object-like macros.
  func macroExpansions() -> [ObjCToken] {
    var expansions: [ObjCToken] = []
    var functionLike: [String: (parameters: [String], body: [ObjCToken])] = [:]
    for token in tokens where token.kind == .directive {
      let body = lexer.tokens(in: (token.start + 1)..<token.end, directives: false)
      guard body.count >= 3, body[0].text == "define", body[1].kind == .identifier,
        body.contains(where: { $0.kind == .identifier && Self.sinkNames.contains($0.text) })
      else { continue }
      if body[2].text == "(", body[2].start == body[1].end, let close = body.firstIndex(where: { $0.text == ")" }) {
        let parameters = body[3..<close].filter { $0.kind == .identifier }.map(\.text)
        functionLike[body[1].text] = (parameters, Array(body[(close + 1)...]))
      } else {
        expansions += body[2...] + [Self.separator(at: token.end)]
      }
    }
    guard !functionLike.isEmpty else { return expansions }
    for index in tokens.indices where tokens[index].kind == .identifier {
      guard let macro = functionLike[tokens[index].text], index + 1 < tokens.count, tokens[index + 1].text == "("
      else { continue }
      let arguments = split(group(from: index + 1).0, at: ",")
      for token in macro.body {
        if token.kind == .identifier, let position = macro.parameters.firstIndex(of: token.text),
          position < arguments.count
        {
          expansions += arguments[position]
        } else {
          expansions.append(token)
        }
      }
      expansions.append(Self.separator(at: tokens[index].end))
    }
    return expansions
  }

  /// Ends one expansion: nothing read across it joins two of them.
  private static func separator(at offset: Int) -> ObjCToken {
    ObjCToken(kind: .punctuation, start: offset, end: offset, text: ";")
  }
}

extension Array where Element == Range<Int> {
  /// The index of the range holding `value`, in ranges sorted and not overlapping (binary search).
  func indexOfRange(containing value: Int) -> Int? {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if self[middle].upperBound <= value { low = middle + 1 } else { high = middle }
    }
    return low < count && self[low].contains(value) ? low : nil
  }
}
