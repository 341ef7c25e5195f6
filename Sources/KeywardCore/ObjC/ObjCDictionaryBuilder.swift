/// Builds `ObjCModel.keychainDictionaries` from the file's tokens.
struct ObjCDictionaryBuilder {
  let model: ObjCModel
  let tokens: [ObjCToken]
  /// Token ranges of the file's method and function bodies (the braces excluded).
  var bodies: [Range<Int>] = []
  /// Per body, the names declared in it or in its header (parameters).
  var locals: [Int: Set<String>] = [:]

  struct Group {
    var name: String?
    var entries: [(key: [ObjCToken], value: [ObjCToken])] = []
    var roles: Set<QueryRole> = []
    var leaves = false
    var compared = false
    var parents: [String] = []
    /// Token index where it starts, when that is a literal or an empty dictionary.
    var origin: Int?
    /// Whether something the file does not show may have put entries in it.
    var unseen = false
  }
  var groups: [String: Group] = [:]
  var order: [String] = []
  /// Token indices of names already accounted for (mutation receivers, assignment targets).
  var handled: Set<Int> = []
  /// `name[key] = value;` writes, in source order.
  var subscriptWrites: [ObjCModel.KeyValueWrite] = []

  init(model: ObjCModel) {
    self.model = model
    self.tokens = model.tokens
    var index = 0
    var headerStart = 0
    while index < tokens.count {
      let text = tokens[index].text
      if text == ";" || text == "}" { headerStart = index + 1 }
      if text == "{" && !(index > 0 && tokens[index - 1].text == "@") {
        let close = model.group(from: index).1
        let body = (index + 1)..<min(close, tokens.count)
        var names = Set<String>()
        for position in headerStart..<index where tokens[position].kind == .identifier {
          names.insert(tokens[position].text)
        }
        for position in body where Self.isDeclaration(at: position, in: tokens) { names.insert(tokens[position].text) }
        locals[bodies.count] = names
        bodies.append(body)
        index = close + 1
        headerStart = index
        continue
      }
      index += 1
    }
  }

  static let notTypes: Set<String> = ["return", "case", "else", "do", "goto", "sizeof", "in", "throw", "delete"]

  /// `TYPE NAME =`, `TYPE *NAME;`: the name declared at `position`.
  static func isDeclaration(at position: Int, in tokens: [ObjCToken]) -> Bool {
    guard tokens[position].kind == .identifier, position > 0, position + 1 < tokens.count,
      ["=", ";", ","].contains(tokens[position + 1].text)
    else { return false }
    let before = tokens[position - 1]
    if before.kind == .identifier { return !notTypes.contains(before.text) }
    return before.text == "*" && position > 1 && tokens[position - 2].kind == .identifier
      && !notTypes.contains(tokens[position - 2].text)
  }

  func body(holding index: Int) -> Int? { bodies.indexOfRange(containing: index) }

  /// The group key of the variable `name` used at `index`: its body's when declared there.
  func key(of name: String, at index: Int) -> String {
    if !name.contains("."), let body = body(holding: index), locals[body]?.contains(name) == true {
      return "\(body):\(name)"
    }
    return "file:\(name)"
  }

  mutating func group(_ key: String, name: String?) {
    if groups[key] == nil {
      groups[key] = Group(name: name)
      order.append(key)
    }
  }

  /// The name written at `index` (`query`, `self.query`) and the index of its first token.
  func name(endingAt index: Int) -> (String, Int)? {
    guard tokens[index].kind == .identifier else { return nil }
    if index >= 2, tokens[index - 1].text == ".", tokens[index - 2].text == "self" {
      return ("self." + tokens[index].text, index - 2)
    }
    if index >= 1, [".", "->"].contains(tokens[index - 1].text) { return nil }
    return (tokens[index].text, index)
  }

  /// The innermost bracket opened before `index` and still open there, within its statement.
  func enclosingOpener(of index: Int) -> Int? {
    var depth = 0
    var position = index - 1
    while position >= 0 {
      let text = tokens[position].text
      if [")", "]", "}"].contains(text) {
        depth += 1
      } else if ["(", "[", "{"].contains(text) {
        if depth == 0 { return position }
        depth -= 1
      } else if text == ";" && depth == 0 {
        return nil
      }
      position -= 1
    }
    return nil
  }

  /// The first token of the statement holding `index`. A preprocessor line before it
  /// (`#pragma clang diagnostic push`) ends the statement before, as a `;` does.
  func statementStart(of index: Int) -> Int {
    var depth = 0
    var position = index - 1
    while position >= 0 {
      let text = tokens[position].text
      if [")", "]"].contains(text) {
        depth += 1
      } else if ["(", "["].contains(text) {
        depth = max(0, depth - 1)
      } else if depth == 0 && (text == ";" || text == "{" || text == "}" || tokens[position].kind == .directive) {
        return position + 1
      }
      position -= 1
    }
    return 0
  }

  /// An `=` that assigns (not `==`, `<=`, `>=`, `!=`).
  func isAssignment(_ position: Int) -> Bool {
    guard tokens[position].text == "=", tokens[position].kind == .punctuation else { return false }
    if position + 1 < tokens.count, tokens[position + 1].text == "=" { return false }
    if position > 0, ["=", "<", ">", "!"].contains(tokens[position - 1].text) { return false }
    return true
  }

  enum Use {
    case role(QueryRole)
    case leaves, compared, ignored
    case assigned(String, Int)
    case mergedInto(String, Int)
    case nested(opener: Int)
  }

  /// What the expression starting at `start` and ending at `end` (a literal or a name) is used
  /// for where it stands, looking outward through parentheses, casts and copies.
  func use(from start: Int, to end: Int) -> Use {
    var position = start
    while true {
      guard let opener = enclosingOpener(of: position) else { return statementLevel(position) }
      let text = tokens[opener].text
      let before = opener > 0 ? tokens[opener - 1] : nil
      if text == "{" {
        if before?.text == "@" { return .nested(opener: opener) }
        // A block or compound statement: the statement level.
        return statementLevel(position)
      }
      if text == "(" {
        if let before, before.kind == .identifier, !ObjCModel.controlWords.contains(before.text) {
          if let roles = QueryRole.calls[before.text] {
            var commas = 0
            var depth = 0
            for token in tokens[(opener + 1)..<position] {
              if ["(", "[", "{"].contains(token.text) { depth += 1 }
              if [")", "]", "}"].contains(token.text) { depth -= 1 }
              if depth == 0, token.text == "," { commas += 1 }
            }
            return roles[commas].map { .role($0) } ?? .ignored
          }
          if ObjCModel.dictionaryReaders.contains(before.text) { return .ignored }
          if ["CFDictionaryAddValue", "CFDictionarySetValue"].contains(before.text) {
            return tokens[(opener + 1)..<position].contains { $0.text == "," } ? .leaves : .ignored
          }
          return .leaves
        }
        position = opener
        continue
      }
      // `[receiver part:argument ...]`.
      if opener + 1 == start {
        // This is the receiver: a read, a comparison, or a copy.
        let part = end + 1 < tokens.count ? tokens[end + 1].text : ""
        if ["isEqual", "isEqualToDictionary"].contains(part) { return .compared }
        if ["mutableCopy", "copy"].contains(part) {
          position = opener
          continue
        }
        return ObjCModel.receiverReads.contains(part) ? .ignored : .leaves
      }
      guard start >= 2, tokens[start - 1].text == ":" else { return .leaves }
      let part = tokens[start - 2].text
      if ["isEqual", "isEqualToDictionary"].contains(part) { return .compared }
      if part == "addEntriesFromDictionary", let (name, first) = self.name(endingAt: start - 3), first == opener + 1 {
        return .mergedInto(name, first)
      }
      if ["dictionaryWithDictionary", "initWithDictionary"].contains(part) {
        position = opener
        continue
      }
      return .leaves
    }
  }

  func statementLevel(_ position: Int) -> Use {
    let first = statementStart(of: position)
    if first < tokens.count, tokens[first].text == "return" { return .leaves }
    var index = first
    var depth = 0
    while index < position {
      let text = tokens[index].text
      if ["(", "[", "{"].contains(text) { depth += 1 }
      if [")", "]", "}"].contains(text) { depth -= 1 }
      if depth == 0, isAssignment(index), index > first, let (name, _) = self.name(endingAt: index - 1) {
        return .assigned(name, index - 1)
      }
      index += 1
    }
    return .ignored
  }

  /// The group of the literal opened by the `{` at `opener`.
  func literalKey(_ opener: Int) -> String { "literal:\(opener)" }

  /// The entry key of the nested value at `position` in the literal opened at `opener`.
  func entryKey(in opener: Int, before position: Int) -> [ObjCToken] {
    var depth = 0
    var index = position - 1
    var colon: Int?
    while index > opener {
      let text = tokens[index].text
      if [")", "]", "}"].contains(text) { depth += 1 }
      if ["(", "[", "{"].contains(text) { depth -= 1 }
      if depth == 0 && text == ":" && colon == nil { colon = index }
      if depth == 0 && text == "," { break }
      index -= 1
    }
    guard let colon else { return [] }
    return Array(tokens[(index + 1)..<colon])
  }

  /// Records what the dictionary `key` (a literal, or a variable's use at `position`) is used for.
  mutating func record(_ use: Use, for key: String, at position: Int, isLiteral: Bool) {
    switch use {
    case .role(let role): groups[key]?.roles.insert(role)
    case .leaves: groups[key]?.leaves = true
    case .compared: groups[key]?.compared = true
    case .ignored: break
    case .assigned(let name, let index), .mergedInto(let name, let index):
      handled.insert(index)
      let target = self.key(of: name, at: index)
      guard target != key else { return }
      group(target, name: name)
      if case .mergedInto = use, !isLiteral { groups[target]?.unseen = true }
      if isLiteral, let entries = groups[key]?.entries {
        // The variable holds the literal: its entries are the variable's.
        let literalOrigin = groups[key]?.origin
        if case .assigned = use, groups[target]?.origin == nil { groups[target]?.origin = literalOrigin }
        groups[target]?.entries.insert(contentsOf: entries, at: 0)
        groups[key]?.entries = []
        merged[key] = target
      } else {
        // Another variable takes it: it goes where that one goes.
        groups[key]?.parents.append(target)
      }
    case .nested(let opener):
      let entry = entryKey(in: opener, before: position)
      if QueryRole.nestingKeys.contains(where: { model.isKey(entry, named: $0) }) {
        let parent = literalKey(opener)
        groups[key]?.parents.append(parent)
      } else {
        groups[key]?.leaves = true
      }
    }
  }

  /// Literals whose entries went into the variable holding them.
  var merged: [String: String] = [:]

  mutating func collect() {
    // Literals: each its own group, merged into the variable it is assigned to.
    var literalUses: [(String, Int, Use)] = []
    for index in tokens.indices where tokens[index].text == "@" {
      guard index + 1 < tokens.count, tokens[index + 1].text == "{" else { continue }
      let (inside, close) = model.group(from: index + 1)
      let key = literalKey(index + 1)
      group(key, name: nil)
      groups[key]?.origin = index
      groups[key]?.entries = model.split(inside, at: ",").compactMap { entry in
        let parts = model.split(entry, at: ":", limit: 1)
        return parts.count == 2 ? (parts[0], parts[1]) : nil
      }
      literalUses.append((key, index, use(from: index, to: close)))
    }
    for (key, index, use) in literalUses { record(use, for: key, at: index, isLiteral: true) }
    // Writes into variables.
    // A value set again before anything uses the dictionary never reaches the keychain.
    for (part, value, keyTokens) in model.keyedMessages
    where part < tokens.count && !model.overwrittenKeyedMessages.contains(part) {
      guard let opener = enclosingOpener(of: part), tokens[opener].text == "[", part >= 1,
        let (name, first) = self.name(endingAt: part - 1), first == opener + 1
      else { continue }
      add(name: name, at: first, key: keyTokens, value: value)
    }
    for index in tokens.indices where tokens[index].text == "[" && index > 0 {
      guard let (name, first) = self.name(endingAt: index - 1), statementStart(of: first) == first else { continue }
      let close = model.group(from: index).1
      guard close + 1 < tokens.count, isAssignment(close + 1) else { continue }
      var stop = close + 2
      while stop < tokens.count, tokens[stop].text != ";" { stop += 1 }
      let (key, value) = (Array(tokens[(index + 1)..<close]), Array(tokens[(close + 2)..<stop]))
      subscriptWrites.append((key, value))
      add(name: name, at: first, key: key, value: value)
    }
    for function in ["CFDictionaryAddValue", "CFDictionarySetValue"] {
      for index in tokens.indices where tokens[index].text == function && tokens[index].kind == .identifier {
        guard index + 1 < tokens.count, tokens[index + 1].text == "(" else { continue }
        let arguments = model.split(model.group(from: index + 1).0, at: ",")
        guard arguments.count == 3, let last = arguments[0].last,
          let position = model.tokenIndex(startingAt: last.start), position < tokens.count,
          let (name, first) = self.name(endingAt: position)
        else { continue }
        add(name: name, at: first, key: arguments[1], value: arguments[2])
      }
    }
    // Uses of the variables; a variable a dictionary is copied into (`final =
    // [NSDictionary dictionaryWithDictionary:query]`) has its uses read in the next round.
    var seen: Set<String> = []
    var names = Set(order.compactMap { groups[$0]?.name })
    while !names.isSubset(of: seen) {
      let fresh = names.subtracting(seen)
      seen.formUnion(fresh)
      for index in tokens.indices where tokens[index].kind == .identifier && !handled.contains(index) {
        guard let (name, first) = self.name(endingAt: index), fresh.contains(name) else { continue }
        if index + 1 < tokens.count, isAssignment(index + 1) || tokens[index + 1].text == "[" { continue }
        if Self.isDeclaration(at: index, in: tokens) { continue }
        let key = self.key(of: name, at: first)
        guard groups[key] != nil else { continue }
        record(use(from: first, to: index), for: key, at: first, isLiteral: false)
      }
      names = Set(order.compactMap { groups[$0]?.name })
    }
    noteStarts()
  }

  /// Empty dictionaries a variable is made from (receivers and messages, or a C function).
  static let emptyDictionaryMakers: [[String]] = [
    ["[", "NSMutableDictionary", "dictionary", "]"], ["[", "NSMutableDictionary", "new", "]"],
    ["[", "[", "NSMutableDictionary", "alloc", "]", "init", "]"],
    ["[", "NSMutableDictionary", "dictionaryWithCapacity"],
    ["[", "[", "NSMutableDictionary", "alloc", "]", "initWithCapacity"], ["CFDictionaryCreateMutable", "("],
  ]

  /// Records where each variable's dictionary starts: a literal (already merged) or an empty
  /// dictionary is in view; anything else (`[self baseQuery]`, a copy) is not.
  mutating func noteStarts() {
    for index in tokens.indices where tokens[index].kind == .identifier && index + 1 < tokens.count {
      guard isAssignment(index + 1), let (name, first) = self.name(endingAt: index) else { continue }
      let key = self.key(of: name, at: first)
      guard groups[key] != nil else { continue }
      let start = index + 2
      let rest = tokens[start..<min(tokens.count, start + 7)].map(\.text)
      let literal = rest.starts(with: ["@", "{"]) || rest.starts(with: ["[", "@", "{"])
      if literal { continue }
      if Self.emptyDictionaryMakers.contains(where: { rest.starts(with: $0) }) {
        if groups[key]?.origin == nil { groups[key]?.origin = start }
      } else {
        groups[key]?.unseen = true
      }
    }
  }

  mutating func add(name: String, at first: Int, key: [ObjCToken], value: [ObjCToken]) {
    handled.insert(first + (name.hasPrefix("self.") ? 2 : 0))
    let groupKey = self.key(of: name, at: first)
    group(groupKey, name: name)
    groups[groupKey]?.entries.append((key, value))
  }

  func dictionaries() -> [ObjCKeychainDictionary] {
    // Roles and leaving flow from the dictionaries a group goes into (two steps).
    func effective(_ key: String, depth: Int) -> (Set<QueryRole>, Bool, Bool) {
      guard let group = groups[merged[key] ?? key] else { return ([], false, false) }
      var roles = group.roles
      var leaves = group.leaves
      var compared = group.compared
      if depth < 3 {
        for parent in group.parents where (merged[parent] ?? parent) != (merged[key] ?? key) {
          let (parentRoles, parentLeaves, parentCompared) = effective(parent, depth: depth + 1)
          roles.formUnion(parentRoles)
          leaves = leaves || parentLeaves
          compared = compared || parentCompared
        }
      }
      return (roles, leaves, compared)
    }
    return order.compactMap { key in
      guard let group = groups[key], !group.entries.isEmpty else { return nil }
      let (roles, leaves, compared) = effective(key, depth: 0)
      let storage: QueryStorage =
        roles.contains(where: \.stores)
        ? .stores : leaves ? .unknown : !roles.isEmpty ? .matchesOnly : compared ? .compared : .unused
      var dictionary = ObjCKeychainDictionary(
        name: group.name, entries: group.entries, roles: roles, storage: storage)
      dictionary.origin = group.origin.map { start in
        // The literal's `@` or the maker's first token, to the bracket that closes it.
        let opener = tokens[start].text == "@" ? start + 1 : start
        let close = min(model.group(from: opener).1, tokens.count - 1)
        return tokens[start].start..<tokens[close].end
      }
      dictionary.isFullySeen = group.origin != nil && !group.unseen && !leaves
      return dictionary
    }
  }
}

/// Objective-C spellings of true in a value.
public enum ObjCBooleans {
  static let trueNames: Set<String> = ["kCFBooleanTrue", "YES", "true", "TRUE"]

  /// The spans of `list` that stand for true: `kCFBooleanTrue`, `YES`, `@YES`, `@(YES)`, `@1`.
  public static func trueSpans(in list: [ObjCToken]) -> [(start: Int, end: Int)] {
    var spans: [(Int, Int)] = []
    for (index, token) in list.enumerated() {
      let boxed = index > 0 && list[index - 1].text == "@" && list[index - 1].end == token.start
      if token.kind == .identifier, trueNames.contains(token.text) {
        spans.append((boxed ? list[index - 1].start : token.start, token.end))
      } else if token.kind == .number, boxed, ObjCIntegers.value(of: token) == 1 {
        spans.append((list[index - 1].start, token.end))
      }
    }
    return spans
  }
}
