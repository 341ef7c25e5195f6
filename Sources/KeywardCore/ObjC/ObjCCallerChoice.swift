/// Which values of an Objective-C file its methods' callers pick: a branch of a `?:` whose
/// condition reads a parameter of the method (`fallbackTitle ? LAPolicy…WithBiometrics :
/// LAPolicyDeviceOwnerAuthentication`) offers the caller a choice; the weakness, if any, is in
/// the caller that picks it.
extension ObjCModel {
  /// Whether `token`, inside the argument that starts at token index `argumentStart`, is a branch
  /// of a `?:` whose condition reads a parameter of the enclosing method or function.
  public func isChosenByCaller(_ token: ObjCToken, argumentStart: Int) -> Bool {
    guard let index = tokenIndex(startingAt: token.start), index > argumentStart, index < tokens.count else {
      return false
    }
    var depth = 0
    var question: Int?
    for position in argumentStart..<index {
      let text = tokens[position].text
      if ["(", "[", "{"].contains(text) { depth += 1 }
      if [")", "]", "}"].contains(text) { depth -= 1 }
      if depth == 0, text == "?", question == nil { question = position }
    }
    guard let question else { return false }
    let parameters = parameterNames(enclosing: index)
    return tokens[argumentStart..<question].contains { $0.kind == .identifier && parameters.contains($0.text) }
  }

  /// The parameter names of the method or function whose body holds token `index`:
  /// `- (BOOL)ask:(NSString *)reason fallback:(NSString *)title {` → reason, title;
  /// `static void ask(NSString *reason, BOOL strict) {` → reason, strict.
  func parameterNames(enclosing index: Int) -> Set<String> {
    guard let header = header(enclosing: index) else { return [] }
    var names: Set<String> = []
    // `: ( type ) name`: a method's parameters, also inside a macro declaring one
    // (`RCT_EXPORT_METHOD(authenticate:(NSDictionary *)options resolver:…)`).
    if header.first?.text == "-" || header.first?.text == "+" || header.contains(where: { $0.text == ":" }) {
      for position in header.indices.dropLast(2) where header[position].text == ":" && header[position + 1].text == "("
      {
        var depth = 0
        var close = position + 1
        while close < header.count {
          if header[close].text == "(" { depth += 1 }
          if header[close].text == ")" {
            depth -= 1
            if depth == 0 { break }
          }
          close += 1
        }
        if close + 1 < header.count, header[close + 1].kind == .identifier { names.insert(header[close + 1].text) }
      }
    } else if let open = header.firstIndex(where: { $0.text == "(" }) {
      // The last name before each `,` or the closing `)` of the parameter list.
      for position in header.indices
      where position > open && (header[position].text == "," || header[position].text == ")") {
        if header[position - 1].kind == .identifier { names.insert(header[position - 1].text) }
      }
    }
    return names
  }

  /// The tokens of the method or function header before the body that holds token `index`.
  private func header(enclosing index: Int) -> [ObjCToken]? {
    guard let body = valueSources.bodies.indexOfRange(containing: tokens[index].start),
      let open = tokenIndex(startingAt: valueSources.bodies[body].lowerBound), open < tokens.count
    else { return nil }
    var start = open
    while start > 0, ![";", "}", "{"].contains(tokens[start - 1].text), tokens[start - 1].kind != .directive {
      start -= 1
    }
    return Array(tokens[start..<open])
  }

  /// Whether the method or function holding token `index` is named for the device passcode
  /// (`+ (BOOL)generatePasscodeKeyPair`, `PasscodeNaming`): the parts of its selector, or a C
  /// function's name.
  public func isNamedForThePasscode(tokenAt index: Int) -> Bool {
    guard index < tokens.count, let header = header(enclosing: index) else { return false }
    var names: [String] = []
    if header.first?.text == "-" || header.first?.text == "+" {
      // Outside the parentheses: the selector's parts (before each `:`, or the only one) and the
      // parameters' names, which are left out.
      var depth = 0
      var outside: [(token: ObjCToken, beforeColon: Bool)] = []
      for (position, token) in header.enumerated() {
        if token.text == "(" { depth += 1 }
        if token.text == ")" { depth -= 1 }
        guard depth == 0, token.kind == .identifier else { continue }
        outside.append((token, position + 1 < header.count && header[position + 1].text == ":"))
      }
      let parts = outside.filter(\.beforeColon)
      names = (parts.isEmpty ? Array(outside.suffix(1)) : parts).map(\.token.text)
    } else if let open = header.firstIndex(where: { $0.text == "(" }), open > 0, header[open - 1].kind == .identifier {
      names.append(header[open - 1].text)
    }
    return names.contains(where: PasscodeNaming.declaresPasscode(function:))
  }

  /// Whether the token at `index` is returned by one `case` of a `switch` over a parameter of
  /// the enclosing method or function (`case ModeNone: return NSFileProtectionNone;`): a table
  /// offering the value, which is chosen where the caller picks the case.
  public func isReturnedOnCallersChoice(tokenAt index: Int) -> Bool {
    guard index < tokens.count else { return false }
    // The statement holding the token starts with `return`, right after a case label.
    var start = index
    var depth = 0
    while start > 0 {
      let text = tokens[start - 1].text
      if [")", "]"].contains(text) { depth += 1 }
      if ["(", "["].contains(text) { depth -= 1 }
      if depth == 0, [";", "{", "}", ":"].contains(text) { break }
      start -= 1
    }
    guard start > 0, tokens[start].text == "return", tokens[start - 1].text == ":" || tokens[start - 1].text == "{"
    else { return false }
    // The block around it is a `switch (subject) { … }`.
    guard let position = enclosingBrace(of: start), position > 2, tokens[position - 1].text == ")",
      let open = Self.openingParenthesis(of: position - 1, in: tokens), open > 0, tokens[open - 1].text == "switch"
    else { return false }
    let parameters = parameterNames(enclosing: index)
    return tokens[(open + 1)..<(position - 1)].contains { $0.kind == .identifier && parameters.contains($0.text) }
  }
}

extension ObjCModel {
  /// Whether the token at `index` sits in a block run only on a branch the method's caller
  /// decides: the body (or the `else`) of an `if` whose condition reads a parameter, or a local
  /// given a value that reads one (`BOOL allowPasscode = [options[@"allowPasscode"] boolValue];
  /// if (allowPasscode) { policy = LAPolicyDeviceOwnerAuthentication; }`).
  public func isOnBranchChosenByCaller(tokenAt index: Int) -> Bool {
    guard index < tokens.count, let body = valueSources.bodies.indexOfRange(containing: tokens[index].start) else {
      return false
    }
    let bodyStart = valueSources.bodies[body].lowerBound
    var decided = parameterNames(enclosing: index)
    guard !decided.isEmpty else { return false }
    // Locals whose value reads a parameter (or such a local), in the order they are given one.
    for (name, value) in valueSources.assignments(inBodyHolding: tokens[index].start)
    where (value.first?.start ?? .max) < tokens[index].start
      && value.contains(where: { $0.kind == .identifier && decided.contains($0.text) })
    {
      decided.insert(name)
    }
    // Each block around the token, innermost first, up to the body.
    var depth = 0
    var position = index
    while position > 0, tokens[position - 1].start > bodyStart {
      position -= 1
      if tokens[position].text == "}" {
        depth += 1
      } else if tokens[position].text == "{" {
        if depth > 0 {
          depth -= 1
          continue
        }
        if let condition = ifCondition(ofBlockAt: position),
          condition.contains(where: { $0.kind == .identifier && decided.contains($0.text) })
        {
          return true
        }
      }
    }
    return false
  }

  /// The condition tokens of the `if` whose body, or whose `else` body, opens at `open`.
  private func ifCondition(ofBlockAt open: Int) -> ArraySlice<ObjCToken>? {
    guard open > 1 else { return nil }
    if tokens[open - 1].text == ")", let start = Self.openingParenthesis(of: open - 1, in: tokens), start > 0,
      tokens[start - 1].text == "if"
    {
      return tokens[(start + 1)..<(open - 1)]
    }
    // `} else {`: the `if` before the block that closes there.
    guard tokens[open - 1].text == "else", tokens[open - 2].text == "}",
      let thenBlock = Self.opening(of: open - 2, in: tokens, pair: ("{", "}"))
    else { return nil }
    return ifCondition(ofBlockAt: thenBlock)
  }
}
