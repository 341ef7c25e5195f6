import Foundation

/// What the Objective-C rules ask about a file, answered from its tokens: constants the file
/// defines, calls and their arguments, message sends, dictionary literals and key-value sets.
public final class ObjCModel {
  /// The file's tokens as written.
  public let tokens: [ObjCToken]
  /// `tokens` followed by the uses of macros that hand values to sinks, expanded
  /// (`macroExpansions()`): what the questions below read. Indices below `tokens.count` are the
  /// same in both.
  public private(set) var analyzed: [ObjCToken]
  let lexer: ObjCLexer
  /// What the file's project is built for (`ProjectPlatform`), as the scan found it.
  public var projectPlatform = ProjectPlatform.unspecified
  /// The keychain wrapper libraries the scan knows (`WrapperMapping`).
  public var wrappers = WrapperMapping.builtIn

  public init(bytes: [UInt8]) {
    lexer = ObjCLexer(bytes: bytes)
    tokens = lexer.tokens()
    analyzed = tokens
    analyzed += macroExpansions()
  }

  /// Locals, helpers' returned values: what `expand` follows besides constants.
  lazy var valueSources = ObjCValueSources(tokens: analyzed, group: { self.group(from: $0) })

  /// `#define NAME value` (object-like macros) and `const` declarations (`static const
  /// SecAccessControlCreateFlags kFlags = ...;`), by name, as token lists.
  public private(set) lazy var constants: [String: [ObjCToken]] = collectConstants()

  /// Byte ranges of the bodies of the file's enum declarations (`typedef NS_ENUM(…) { … }`,
  /// `NS_OPTIONS`, `enum Name { … }`): their names are declared there, not used.
  lazy var enumBodies: [Range<Int>] = collectEnumBodies()

  /// The file's keychain dictionaries, with what the file does with each (`ObjCKeychainItems.swift`).
  public var keychainDictionaries: [ObjCKeychainDictionary] { dictionaryBuild.dictionaries }
  /// The file's dictionaries and its subscript writes (`query[key] = value;`), found together.
  private lazy var dictionaryBuild = buildDictionaries()
  /// Access controls written only into searches (`isPutOnlyIntoSearches(creationAt:)`).
  private(set) lazy var accessControlsOnlySearched = findAccessControlsOnlySearched()
  /// The `setObject:forKey:` messages whose value is set again before anything uses the
  /// dictionary (`isOverwritten`), by their first part's index: found once for the
  /// accessibility values and the dictionaries the rules read.
  private(set) lazy var overwrittenKeyedMessages: Set<Int> = findOverwrittenKeyedMessages()

  /// A key and the value written under it, as written.
  public typealias KeyValueWrite = (key: [ObjCToken], value: [ObjCToken])

  /// The tokens with every name of a file constant replaced by its value, every local by the
  /// values assigned to it earlier in its body, every call of an argument-less method or
  /// function of the file (`[self accessFlags]`, `accessFlags()`) by what it returns, and every
  /// call of a C function of the file given arguments by what it returns whatever they are,
  /// recursively. The replacement tokens keep their own positions, so findings land where the
  /// value is written.
  public func expand(_ list: [ObjCToken]) -> [ObjCToken] {
    var budget = Self.expansionBudget(for: list)
    return expand(list, depth: 0, budget: &budget)
  }

  /// How many tokens one expansion may add. Values that mention each other (or, in broken code,
  /// a bracket left open so a value runs to the end of the file) would otherwise multiply at
  /// every level; past the budget, names stay as written.
  public static func expansionBudget(for list: [ObjCToken]) -> Int { max(8_192, list.count * 8) }

  private func expand(_ list: [ObjCToken], depth: Int, budget: inout Int) -> [ObjCToken] {
    guard depth < 8, budget > 0 else { return list }
    var result: [ObjCToken] = []
    var index = 0
    while index < list.count {
      let token = list[index]
      guard budget > 0 else {
        result += list[index...]
        break
      }
      let (called, length) = calledHelper(in: list, at: index)
      if let called, let returned = valueSources.returns[called] ?? valueSources.defaultReturns[called] {
        for value in returned {
          budget -= value.count + 1
          result += expand(value, depth: depth + 1, budget: &budget) + [Self.alternative(at: token.start)]
        }
        index += length
        continue
      }
      if token.kind == .identifier, let value = constants[token.text] {
        budget -= value.count
        result += expand(value, depth: depth + 1, budget: &budget)
      } else if token.kind == .identifier, let values = valueSources.assignedValues(of: token.text, at: token.start) {
        for value in values {
          budget -= value.count + 1
          result += expand(value, depth: depth + 1, budget: &budget) + [Self.alternative(at: token.start)]
        }
      } else {
        result.append(token)
      }
      index += 1
    }
    return result
  }

  /// `[receiver name]` or `name()` at `index`: the name and the call's length in tokens.
  private func calledHelper(in list: [ObjCToken], at index: Int) -> (String?, Int) {
    if list[index].text == "[", index + 3 < list.count, list[index + 2].kind == .identifier,
      list[index + 3].text == "]"
    {
      return (list[index + 2].text, 4)
    }
    if list[index].kind == .identifier, index + 2 < list.count, list[index + 1].text == "(", list[index + 2].text == ")"
    {
      return (list[index].text, 3)
    }
    // `[receiver name:argument …]` of a method of the file that takes arguments.
    if list[index].text == "[", index + 4 < list.count, list[index + 2].kind == .identifier,
      list[index + 3].text == ":", valueSources.defaultReturns[list[index + 2].text + ":"] != nil,
      let close = Self.closingBracket(of: index, in: list)
    {
      return (list[index + 2].text + ":", close - index + 1)
    }
    // `name(arguments)` of a C function of the file that takes them.
    if list[index].kind == .identifier, index + 1 < list.count, list[index + 1].text == "(",
      valueSources.defaultReturns[list[index].text] != nil,
      let close = Self.closingParenthesis(of: index + 1, in: list)
    {
      return (list[index].text, close - index + 1)
    }
    return (nil, 1)
  }

  /// Separates alternative values in an expansion (a `,` reads as no operator between them).
  private static func alternative(at offset: Int) -> ObjCToken {
    ObjCToken(kind: .punctuation, start: offset, end: offset, text: ",")
  }

  /// Argument token lists of every call `name(...)`.
  public func calls(named name: String) -> [(name: ObjCToken, arguments: [[ObjCToken]])] {
    var found: [(ObjCToken, [[ObjCToken]])] = []
    for index in analyzed.indices where analyzed[index].kind == .identifier && analyzed[index].text == name {
      guard index + 1 < analyzed.count, analyzed[index + 1].text == "(" else { continue }
      let (inside, _) = group(from: index + 1)
      found.append((analyzed[index], split(inside, at: ",")))
    }
    return found
  }

  /// For every message send part `name:` (as in `[ctx evaluatePolicy:x localizedReason:y]`), the
  /// tokens of its argument, up to the next part or the closing bracket.
  public func messageArguments(_ part: String) -> [(part: ObjCToken, argument: [ObjCToken])] {
    var found: [(ObjCToken, [ObjCToken])] = []
    for index in analyzed.indices where analyzed[index].kind == .identifier && analyzed[index].text == part {
      guard index + 1 < analyzed.count, analyzed[index + 1].text == ":", index > 0, analyzed[index - 1].text != "."
      else {
        continue
      }
      found.append((analyzed[index], argument(from: index + 2)))
    }
    return found
  }

  /// `key: value` entries of `@{ ... }` literals.
  public var dictionaryEntries: [KeyValueWrite] {
    var found: [([ObjCToken], [ObjCToken])] = []
    for index in analyzed.indices where analyzed[index].text == "@" {
      guard index + 1 < analyzed.count, analyzed[index + 1].text == "{" else { continue }
      let (inside, _) = group(from: index + 1)
      for entry in split(inside, at: ",") {
        let parts = split(entry, at: ":", limit: 1)
        if parts.count == 2 { found.append((parts[0], parts[1])) }
      }
    }
    return found
  }

  /// `[dict setObject:value forKey:key]`, `setValue:forKey:`, `CFDictionaryAddValue/SetValue` and
  /// `dict[key] = value;`.
  public var keyValueWrites: [KeyValueWrite] {
    var found =
      keyedMessages.filter { !overwrittenKeyedMessages.contains($0.part) }.map { ($0.key, $0.value) }
      + dictionaryBuild.subscriptWrites
    for function in ["CFDictionaryAddValue", "CFDictionarySetValue"] {
      for call in calls(named: function) where call.arguments.count == 3 {
        found.append((call.arguments[1], call.arguments[2]))
      }
    }
    return found
  }

  /// `[receiver setObject:value forKey:key]` and `setValue:forKey:`, with the index of the first
  /// part's token in `analyzed`.
  var keyedMessages: [(part: Int, value: [ObjCToken], key: [ObjCToken])] {
    var found: [(Int, [ObjCToken], [ObjCToken])] = []
    for method in ["setObject", "setValue"] {
      for (part, value) in messageArguments(method) {
        guard let start = analyzed.firstIndex(of: part) else { continue }
        let after = start + 2 + value.count
        guard after + 1 < analyzed.count, analyzed[after].text == "forKey", analyzed[after + 1].text == ":" else {
          continue
        }
        found.append((start, value, argument(from: after + 2)))
      }
    }
    return found
  }

  /// Whether a later `[name setObject:… forKey:key]` into the same variable replaces `message`
  /// before anything can use it: it follows in a brace block that holds `message` too, with no
  /// block literal (`^`) in that block before it, and between them the variable is named only
  /// as such a message's receiver and nothing leaves the block (`return`, `break`, `continue`,
  /// `goto`, `@throw`).
  private func isOverwritten(
    _ message: (part: Int, value: [ObjCToken], key: [ObjCToken]),
    among messages: [(part: Int, value: [ObjCToken], key: [ObjCToken])]
  ) -> Bool {
    guard let receiver = singleReceiver(of: message.part) else { return false }
    let key = expand(message.key).map(\.text)
    return messages.contains { later in
      guard later.part > message.part, singleReceiver(of: later.part) == receiver,
        expand(later.key).map(\.text) == key, let open = enclosingBrace(of: later.part), open < message.part
      else { return false }
      if analyzed[open..<later.part].contains(where: { $0.text == "^" }) { return false }
      for index in (message.part + 1)..<later.part {
        let text = analyzed[index].text
        if ["return", "break", "continue", "goto", "throw"].contains(text) { return false }
        if text == receiver,
          !(analyzed[index - 1].text == "["
            && ["setObject", "setValue"].contains(analyzed[index + 1].text))
        {
          return false
        }
      }
      return true
    }
  }

  private func findOverwrittenKeyedMessages() -> Set<Int> {
    let messages = keyedMessages
    return Set(messages.filter { isOverwritten($0, among: messages) }.map(\.part))
  }

  /// `name` in `[name setObject:…]`, where `part` is the index of `setObject`.
  private func singleReceiver(of part: Int) -> String? {
    guard part > 1, analyzed[part - 1].kind == .identifier, analyzed[part - 2].text == "[" else { return nil }
    return analyzed[part - 1].text
  }

  /// The index of the `{` of the innermost brace block holding the token at `index`.
  func enclosingBrace(of index: Int) -> Int? {
    var depth = 0
    for position in stride(from: index - 1, through: 0, by: -1) {
      switch analyzed[position].text {
      case "}": depth += 1
      case "{":
        if depth == 0 { return position }
        depth -= 1
      default: continue
      }
    }
    return nil
  }

  /// Whether the file mentions an identifier (outside comments and strings).
  public func mentions(_ identifier: String) -> Bool {
    analyzed.contains { $0.kind == .identifier && $0.text == identifier }
  }

  // MARK: Structure

  private static let openers: [String: String] = ["(": ")", "[": "]", "{": "}"]

  private func collectEnumBodies() -> [Range<Int>] {
    let introducers: Set<String> = ["enum", "NS_ENUM", "NS_OPTIONS", "NS_CLOSED_ENUM", "NS_ERROR_ENUM"]
    var bodies: [Range<Int>] = []
    var index = 0
    while index < tokens.count {
      defer { index += 1 }
      guard tokens[index].kind == .identifier, introducers.contains(tokens[index].text) else { continue }
      // The body opens before the declaration's end: `enum X : T {`, `NS_ENUM(T, X) {`.
      var open = index + 1
      while open < tokens.count, open - index < 32, tokens[open].text != "{", tokens[open].text != ";" { open += 1 }
      guard open < tokens.count, tokens[open].text == "{" else { continue }
      let (_, close) = group(from: open)
      bodies.append(tokens[open].start..<(close < tokens.count ? tokens[close].end : Int.max))
      index = close
    }
    return bodies
  }

  /// The index of the `)` that closes the `(` at `open`, if `tokens` holds one.
  static func closingParenthesis(of open: Int, in tokens: [ObjCToken]) -> Int? {
    closing(of: open, in: tokens, pair: ("(", ")"))
  }

  /// The index of the `]` that closes the `[` at `open`, if `tokens` holds one.
  static func closingBracket(of open: Int, in tokens: [ObjCToken]) -> Int? {
    closing(of: open, in: tokens, pair: ("[", "]"))
  }

  /// The index of the token closing the group that the `pair.open` token at `open` opens.
  static func closing(of open: Int, in tokens: [ObjCToken], pair: (open: String, close: String)) -> Int? {
    var depth = 0
    for position in open..<tokens.count {
      if tokens[position].text == pair.open { depth += 1 }
      if tokens[position].text == pair.close {
        depth -= 1
        if depth == 0 { return position }
      }
    }
    return nil
  }

  /// The index of the `(` that the `)` at `close` closes, if `tokens` holds one.
  static func openingParenthesis(of close: Int, in tokens: [ObjCToken]) -> Int? {
    opening(of: close, in: tokens, pair: ("(", ")"))
  }

  /// The index of the token opening the group that the `pair.close` token at `close` closes.
  static func opening(of close: Int, in tokens: [ObjCToken], pair: (open: String, close: String)) -> Int? {
    var depth = 0
    var position = close
    while position >= 0 {
      if tokens[position].text == pair.close { depth += 1 }
      if tokens[position].text == pair.open {
        depth -= 1
        if depth == 0 { return position }
      }
      position -= 1
    }
    return nil
  }

  /// The tokens inside the bracket at `open`, and the index of its closing bracket.
  func group(from open: Int) -> ([ObjCToken], Int) {
    var depth = 0
    var index = open
    while index < analyzed.count {
      let text = analyzed[index].text
      if Self.openers[text] != nil {
        depth += 1
      } else if Self.openers.values.contains(text) {
        depth -= 1
        if depth == 0 { return (Array(analyzed[(open + 1)..<index]), index) }
      }
      index += 1
    }
    return (Array(analyzed[min(open + 1, analyzed.count)...]), analyzed.count)
  }

  /// The index in `analyzed` of the first token starting at byte `offset`: the file's own tokens
  /// are in order and searched by halves; macro expansions after them, one by one.
  public func tokenIndex(startingAt offset: Int) -> Int? {
    var low = 0
    var high = tokens.count
    while low < high {
      let middle = (low + high) / 2
      if tokens[middle].start < offset { low = middle + 1 } else { high = middle }
    }
    if low < tokens.count && tokens[low].start == offset { return low }
    return analyzed[tokens.count...].firstIndex { $0.start == offset }
  }

  /// The tokens inside the innermost bracket holding the token at `index` (empty at top level).
  func enclosingGroup(of index: Int) -> [ObjCToken] {
    var depth = 0
    var position = index - 1
    while position >= 0 {
      let text = analyzed[position].text
      if Self.openers.values.contains(text) {
        depth += 1
      } else if Self.openers[text] != nil {
        if depth == 0 { return group(from: position).0 }
        depth -= 1
      } else if text == ";" && depth == 0 {
        return []
      }
      position -= 1
    }
    return []
  }

  /// Whether the constant at `index` is only looked for: compared (`==`, `!=`,
  /// `isEqualToString:`, `isEqual:`), or one of a list naming three or more constants of its
  /// family (`[NSSet setWithObjects:NSFileProtectionNone, NSFileProtectionComplete, ...]`), which
  /// enumerates the choices rather than making one.
  public func isOnlyLookedFor(tokenAt index: Int, family prefix: String) -> Bool {
    let before = index > 0 ? analyzed[index - 1].text : ""
    let after = index + 1 < analyzed.count ? analyzed[index + 1].text : ""
    if ["==", "!="].contains(before) || ["==", "!="].contains(after) { return true }
    if before == ":", index > 1, ["isEqualToString", "isEqual"].contains(analyzed[index - 2].text) { return true }
    let family = Set(
      enclosingGroup(of: index).filter { $0.kind == .identifier && $0.text.hasPrefix(prefix) }.map(\.text))
    return family.count >= 3
  }

  /// Splits at `separator` tokens outside brackets.
  func split(_ list: [ObjCToken], at separator: String, limit: Int = .max) -> [[ObjCToken]] {
    var parts: [[ObjCToken]] = [[]]
    var depth = 0
    for token in list {
      if Self.openers[token.text] != nil { depth += 1 }
      if Self.openers.values.contains(token.text) { depth -= 1 }
      if depth == 0, token.text == separator, parts.count <= limit, token.kind == .punctuation {
        parts.append([])
      } else {
        parts[parts.count - 1].append(token)
      }
    }
    return parts.filter { !$0.isEmpty }
  }

  /// A message argument: tokens from `start` to the next `name:` part or closing bracket at the
  /// same depth.
  private func argument(from start: Int) -> [ObjCToken] {
    var depth = 0
    var index = start
    var result: [ObjCToken] = []
    while index < analyzed.count {
      let token = analyzed[index]
      if Self.openers[token.text] != nil { depth += 1 }
      if Self.openers.values.contains(token.text) {
        if depth == 0 { break }
        depth -= 1
      }
      if depth == 0, token.kind == .identifier, index + 1 < analyzed.count, analyzed[index + 1].text == ":",
        !result.isEmpty,
        index > 0, analyzed[index - 1].text != "?"
      {
        break
      }
      if depth == 0, token.text == ";" { break }
      result.append(token)
      index += 1
    }
    return result
  }

  private func collectConstants() -> [String: [ObjCToken]] {
    var found: [String: [ObjCToken]] = [:]
    for token in tokens where token.kind == .directive {
      let body = lexer.tokens(in: (token.start + 1)..<token.end, directives: false)
      guard body.count >= 3, body[0].text == "define", body[1].kind == .identifier,
        body[2].text != "(" || body[2].start > body[1].end
      else { continue }
      found[body[1].text] = Array(body[2...])
    }
    // `const TYPE NAME = value;` at any depth: the name before `=`, a `const` earlier in the statement.
    var statementStart = 0
    for index in tokens.indices {
      let text = tokens[index].text
      if text == ";" || text == "{" || text == "}" {
        statementStart = index + 1
        continue
      }
      guard text == "=", index > statementStart, tokens[index - 1].kind == .identifier,
        tokens[statementStart..<index].contains(where: { $0.text == "const" })
      else { continue }
      var stop = index + 1
      while stop < tokens.count, tokens[stop].text != ";" { stop += 1 }
      found[tokens[index - 1].text] = Array(tokens[(index + 1)..<stop])
    }
    return found
  }
}

/// Evaluates C integer expressions made of literals, `|`, `<<` and parentheses.
public enum ObjCIntegers {
  public static func value(of token: ObjCToken) -> UInt64? {
    guard token.kind == .number else { return nil }
    var text = token.text.lowercased().replacingOccurrences(of: "'", with: "")
    while let last = text.last, last == "u" || last == "l" { text.removeLast() }
    if text.hasPrefix("0x") { return UInt64(text.dropFirst(2), radix: 16) }
    if text.hasPrefix("0b") { return UInt64(text.dropFirst(2), radix: 2) }
    if text.count > 1, text.hasPrefix("0") { return UInt64(text.dropFirst(), radix: 8) }
    return UInt64(text)
  }
}
