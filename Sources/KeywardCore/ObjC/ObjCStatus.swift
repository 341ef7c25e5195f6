/// Whether the `OSStatus` a call returns is looked at, for the Objective-C rules.
extension ObjCModel {
  /// A call whose result is thrown away: used as a statement (`SecItemAdd(q, NULL);`, also after
  /// `if (...)`, `else` or a `(void)` cast), or stored in a local that nothing reads afterwards.
  public struct IgnoredStatus {
    public var call: ObjCToken
    /// The call's position in the file's tokens.
    public var index: Int
    /// The local the status goes into, when it is stored but never read.
    public var unreadVariable: String?
    /// Whether that local is read, but only inside assertions (`NSAssert`), which release builds leave out.
    public var onlyAsserted = false
    /// The failure codes that local is compared with, when that is all that reads it
    /// (`if (status == errSecDuplicateItem)`): any other failure passes as success.
    public var comparedCodes: [String] = []
    /// For `SecItemCopyMatching`: whether the result it writes through `&result` is read later
    /// in the method. A failure leaves it empty and reads as "no item", which fails closed.
    public var resultIsRead = false
  }

  /// The calls named `names` whose status is ignored, in source order.
  public func ignoredStatuses(of names: Set<String>) -> [IgnoredStatus] {
    var found: [IgnoredStatus] = []
    var made: ObjCDictionaryBuilder?
    func builder() -> ObjCDictionaryBuilder {
      if made == nil { made = ObjCDictionaryBuilder(model: self) }
      return made!
    }
    for index in tokens.indices where tokens[index].kind == .identifier && names.contains(tokens[index].text) {
      guard index + 1 < tokens.count, tokens[index + 1].text == "(" else { continue }
      let close = group(from: index + 1).1
      guard close + 1 < tokens.count, tokens[close + 1].text == ";" else { continue }
      var ignored: IgnoredStatus
      if startsStatement(at: index) {
        ignored = IgnoredStatus(call: tokens[index], index: index, unreadVariable: nil)
      } else if let (name, asserted, codes) = unreadLocal(storing: index, close: close, builder: builder()) {
        ignored = IgnoredStatus(
          call: tokens[index], index: index, unreadVariable: name, onlyAsserted: asserted, comparedCodes: codes)
      } else {
        continue
      }
      if tokens[index].text == "SecItemCopyMatching" {
        ignored.resultIsRead = readsResult(ofCallAt: index, close: close, builder: builder())
      }
      found.append(ignored)
    }
    return found
  }

  /// Whether the expression at `index` begins a statement: after `;`, a brace, `else`, `do`, the
  /// condition of `if` / `while` / `for`, or a `(void)` cast.
  func startsStatement(at index: Int) -> Bool {
    guard index > 0 else { return true }
    let before = tokens[index - 1]
    if [";", "{", "}"].contains(before.text) || (before.kind == .identifier && ["else", "do"].contains(before.text)) {
      return true
    }
    guard before.text == ")", let position = ObjCModel.openingParenthesis(of: index - 1, in: tokens) else {
      return false
    }
    if position + 2 == index - 1, tokens[position + 1].text == "void" { return startsStatement(at: position) }
    guard position > 0 else { return false }
    return ["if", "while", "for"].contains(tokens[position - 1].text)
  }

  /// `status = SecItemAdd(...)` or `OSStatus status = SecItemAdd(...)` into a local of the
  /// method that is never read afterwards (a read earlier inside a loop around the call, or
  /// inside a block, counts: it may run later). Members, ivars and out-parameters are not judged.
  func unreadLocal(storing index: Int, close: Int, builder: ObjCDictionaryBuilder) -> (
    String, asserted: Bool, codes: [String]
  )? {
    guard index >= 2, builder.isAssignment(index - 1), tokens[index - 2].kind == .identifier else { return nil }
    let target = index - 2
    let name = tokens[target].text
    if target > 0, [".", "->", "*"].contains(tokens[target - 1].text) { return nil }
    guard let body = builder.body(holding: index) else { return nil }
    let range = builder.bodies[body]
    let declaredHere = ObjCDictionaryBuilder.isDeclaration(at: target, in: tokens)
    let declared =
      declaredHere
      || range.contains { tokens[$0].text == name && ObjCDictionaryBuilder.isDeclaration(at: $0, in: tokens) }
    guard declared else { return nil }
    let loops = loopRanges(in: range)
    // Assertions are compiled out of release builds (`NS_BLOCK_ASSERTIONS`, `NDEBUG`): a status
    // only they look at is never looked at in the shipped app.
    let assertions = range.filter { tokens[$0].kind == .identifier && Self.assertions.contains(tokens[$0].text) }
      .compactMap { start -> ClosedRange<Int>? in
        guard start + 1 < tokens.count, tokens[start + 1].text == "(" else { return nil }
        return start...group(from: start + 1).1
      }
    var asserted = false
    var codes: [String] = []
    for position in range where position != target && tokens[position].kind == .identifier {
      guard tokens[position].text == name, !([".", "->"].contains(tokens[position - 1].text)) else { continue }
      if assertions.contains(where: { $0.contains(position) }) {
        asserted = true
        continue
      }
      // A write is not a read.
      if position + 1 < tokens.count, builder.isAssignment(position + 1) { continue }
      if ObjCDictionaryBuilder.isDeclaration(at: position, in: tokens) { continue }
      // A read compares with `errSecItemNotFound` to tell a missing item apart: that is a check.
      if position > close, tokens[index].text != "SecItemCopyMatching", let code = failureCodeCompared(at: position) {
        if !codes.contains(code) { codes.append(code) }
        continue
      }
      if position > close { return nil }
      if loops.contains(where: { $0.contains(index) && $0.contains(position) }) { return nil }
      if isInBlock(position, within: range) { return nil }
    }
    return (name, asserted, codes)
  }

  /// Whether the result the call at token `index` (closing at `close`) writes through its
  /// `&result` argument is read later in the method.
  private func readsResult(ofCallAt index: Int, close: Int, builder: ObjCDictionaryBuilder) -> Bool {
    let inside = tokens[(index + 2)..<close]
    guard let ampersand = inside.lastIndex(where: { $0.text == "&" }), ampersand + 1 < close,
      tokens[ampersand + 1].kind == .identifier
    else { return false }
    let name = tokens[ampersand + 1].text
    guard let body = builder.body(holding: index) else { return false }
    let range = builder.bodies[body]
    return ((close + 1)..<range.upperBound).contains { position in
      tokens[position].kind == .identifier && tokens[position].text == name
        && !(position + 1 < tokens.count && builder.isAssignment(position + 1))
    }
  }

  /// The failure code in `name == errSecX` or `errSecX == name` around the read at `position`,
  /// alone in its parentheses (`if (status == errSecDuplicateItem)`).
  private func failureCodeCompared(at position: Int) -> String? {
    guard position >= 2, position + 2 < tokens.count else { return nil }
    let (code, before, after): (ObjCToken, ObjCToken, ObjCToken)
    if tokens[position + 1].text == "==" {
      (code, before, after) = (
        tokens[position + 2], tokens[position - 1], tokens[position + 3 < tokens.count ? position + 3 : position + 2]
      )
    } else if tokens[position - 1].text == "==" {
      (code, before, after) = (tokens[position - 2], tokens[position - 3 >= 0 ? position - 3 : 0], tokens[position + 1])
    } else {
      return nil
    }
    guard code.kind == .identifier, code.text.hasPrefix("errSec"), code.text != "errSecSuccess",
      before.text == "(", after.text == ")"
    else { return nil }
    return code.text
  }

  static let assertions: Set<String> = ["NSAssert", "NSCAssert", "assert", "NSParameterAssert", "NSCParameterAssert"]

  /// Token ranges of the `for`, `while` and `do ... while` loops in `range`, headers included.
  func loopRanges(in range: Range<Int>) -> [Range<Int>] {
    var loops: [Range<Int>] = []
    for index in range where tokens[index].kind == .identifier {
      switch tokens[index].text {
      case "for", "while":
        guard index + 1 < range.upperBound, tokens[index + 1].text == "(" else { continue }
        let header = group(from: index + 1).1
        loops.append(index..<statementEnd(from: header + 1, limit: range.upperBound))
      case "do":
        guard index + 1 < range.upperBound, tokens[index + 1].text == "{" else { continue }
        let bodyEnd = group(from: index + 1).1
        loops.append(index..<statementEnd(from: bodyEnd + 1, limit: range.upperBound))
      default: continue
      }
    }
    return loops
  }

  /// The end of the statement starting at `start`: a braced block, or up to its `;`.
  private func statementEnd(from start: Int, limit: Int) -> Int {
    guard start < limit else { return limit }
    if tokens[start].text == "{" { return min(group(from: start).1 + 1, limit) }
    var depth = 0
    var position = start
    while position < limit {
      let text = tokens[position].text
      if ["(", "[", "{"].contains(text) { depth += 1 }
      if [")", "]", "}"].contains(text) { depth -= 1 }
      if depth <= 0, text == ";" { return position + 1 }
      position += 1
    }
    return limit
  }

  /// Whether `position` lies in a block literal (`^{ ... }`, `^(BOOL ok) { ... }`) inside `range`.
  private func isInBlock(_ position: Int, within range: Range<Int>) -> Bool {
    var depth = 0
    var index = position - 1
    while index >= range.lowerBound {
      let text = tokens[index].text
      if text == "}" { depth += 1 }
      if text == "{" {
        if depth == 0 {
          if index > 0, tokens[index - 1].text == "^" { return true }
          if index > 0, tokens[index - 1].text == ")" {
            var inner = 0
            var open = index - 1
            while open > range.lowerBound {
              if tokens[open].text == ")" { inner += 1 }
              if tokens[open].text == "(" {
                inner -= 1
                if inner == 0 { break }
              }
              open -= 1
            }
            if open > 0, tokens[open - 1].text == "^" { return true }
          }
        } else {
          depth -= 1
        }
      }
      index -= 1
    }
    return false
  }
}
