/// Where an Objective-C file grants access although local authentication did not succeed: in an
/// `evaluatePolicy:` reply, the branch taken when `success` is false or `error` is set (or both,
/// as in `if (success || error)`); and the branch taken when `canEvaluatePolicy:` is false.
///
/// Granting is what the code does with a literal yes: `return YES;`, calling a block or function
/// with `YES` first (`completion(YES, nil)`), or setting a flag named for access
/// (`self.unlocked = YES`). A branch that evaluates a policy again authenticates anew, and is no
/// grant.
extension ObjCModel {
  public enum FailurePath: Sendable {
    /// `if (success || error)`: the error alone takes the branch.
    case successOrError
    /// The reply's branch where `success` is false or `error` is set.
    case failedEvaluation
    /// The branch where `canEvaluatePolicy:` is false.
    case unavailable
  }

  /// The literal yes of each grant on a failure path, with the path.
  public var failOpenGrants: [(grant: ObjCToken, path: FailurePath)] {
    var found: [(ObjCToken, FailurePath)] = []
    for reply in replyBlocks {
      for statement in ifStatements(in: reply.body) {
        let condition = Array(tokens[statement.condition])
        let parts = split(condition, at: "||")
        let mentionsError = { (part: [ObjCToken]) in Self.isSet(reply.error, in: part) }
        if parts.count > 1, parts.contains(where: { $0.count == 1 && $0[0].text == reply.success }),
          parts.contains(where: mentionsError)
        {
          found += grants(in: statement.then).map { ($0, .successOrError) }
        } else if Self.isFalse(reply.success, in: condition) || (parts.count == 1 && mentionsError(condition)) {
          found += grants(in: statement.then).map { ($0, .failedEvaluation) }
        } else if condition.count == 1, condition[0].text == reply.success, let otherwise = statement.otherwise {
          found += grants(in: otherwise).map { ($0, .failedEvaluation) }
        }
      }
    }
    for statement in ifStatements(in: tokens.indices) {
      let condition = tokens[statement.condition]
      guard let check = condition.firstIndex(where: { $0.text == "canEvaluatePolicy" }) else { continue }
      let negated = condition.first?.text == "!" && condition.dropFirst().first?.text == "[" && check > 0
      if negated {
        found += grants(in: statement.then).map { ($0, .unavailable) }
      } else if let otherwise = statement.otherwise, condition.first?.text == "[" {
        found += grants(in: otherwise).map { ($0, .unavailable) }
      }
    }
    var seen: Set<Int> = []
    return found.filter { seen.insert($0.0.start).inserted }.sorted { $0.0.start < $1.0.start }
  }

  /// `reply:^(BOOL success, NSError *error) { ... }`: the two parameter names and the body's
  /// token indices (inside the braces).
  private var replyBlocks: [(success: String, error: String, body: Range<Int>)] {
    var blocks: [(String, String, Range<Int>)] = []
    for index in tokens.indices.dropLast(4)
    where tokens[index].text == "reply" && tokens[index + 1].text == ":" && tokens[index + 2].text == "^"
      && tokens[index + 3].text == "("
    {
      let (parameters, close) = group(from: index + 3)
      let names = split(parameters, at: ",").compactMap { $0.last(where: { $0.kind == .identifier })?.text }
      guard names.count == 2, close + 1 < tokens.count, tokens[close + 1].text == "{" else { continue }
      let (_, end) = group(from: close + 1)
      blocks.append((names[0], names[1], (close + 2)..<end))
    }
    return blocks
  }

  /// The `if` statements in a token range (nested ones too): the condition's token indices and
  /// those of the branches (a braced block's inside, or one statement up to its `;`).
  private func ifStatements(in range: Range<Int>) -> [(condition: Range<Int>, then: Range<Int>, otherwise: Range<Int>?)]
  {
    var statements: [(Range<Int>, Range<Int>, Range<Int>?)] = []
    for index in range where tokens[index].text == "if" && index + 1 < range.upperBound && tokens[index + 1].text == "("
    {
      let (_, conditionEnd) = group(from: index + 1)
      guard let then = branch(at: conditionEnd + 1, within: range) else { continue }
      var otherwise: Range<Int>?
      // `then.upperBound` is the closing brace or the `;`.
      let afterThen = then.upperBound + 1
      if afterThen < range.upperBound, tokens[afterThen].text == "else" {
        otherwise = branch(at: afterThen + 1, within: range)
      }
      statements.append(((index + 2)..<conditionEnd, then, otherwise))
    }
    return statements
  }

  /// A branch starting at `start`: inside its braces, or the statement up to its `;`. Its
  /// `upperBound` is the closing brace or the `;`.
  private func branch(at start: Int, within range: Range<Int>) -> Range<Int>? {
    guard start < range.upperBound else { return nil }
    if tokens[start].text == "{" {
      let (_, end) = group(from: start)
      return end <= range.upperBound ? (start + 1)..<end : nil
    }
    var end = start
    while end < range.upperBound, tokens[end].text != ";" { end += 1 }
    return end < range.upperBound ? start..<end : nil
  }

  /// The literal yeses that grant in a branch, none if it evaluates a policy again.
  private func grants(in range: Range<Int>) -> [ObjCToken] {
    guard !tokens[range].contains(where: { $0.text == "evaluatePolicy" }) else { return [] }
    var found: [ObjCToken] = []
    for index in range where ["YES", "true"].contains(tokens[index].text) && index >= 2 {
      let before = tokens[index - 1].text
      let previous = tokens[index - 2]
      if before == "return" {
        found.append(tokens[index])
      } else if before == "(", previous.kind == .identifier, !Self.isMessagePart(index - 2, in: self) {
        found.append(tokens[index])
      } else if before == "=", previous.kind == .identifier, Self.namesAccess(previous.text) {
        found.append(tokens[index])
      }
    }
    return found
  }

  /// A message part (`animated:` in `[x popViewControllerAnimated:YES]`) is no completion.
  private static func isMessagePart(_ index: Int, in model: ObjCModel) -> Bool {
    index + 1 < model.tokens.count && model.tokens[index + 1].text == ":"
  }

  private static func namesAccess(_ name: String) -> Bool {
    let lower = name.lowercased()
    return ["unlock", "authenticat", "authoriz", "loggedin", "granted", "verified", "access"].contains {
      lower.contains($0)
    }
  }

  /// `!success`, `success == NO`, `success == false`, `NO == success` as the whole condition or one of
  /// its `&&` terms.
  private static func isFalse(_ flag: String, in condition: [ObjCToken]) -> Bool {
    let texts = condition.map(\.text)
    if texts.first == "!" && texts.dropFirst().first == flag && (texts.count == 2 || texts[2] == "&&") { return true }
    guard let position = texts.firstIndex(of: flag) else { return false }
    let neighbours = texts[max(0, position - 2)..<min(texts.count, position + 3)]
    return neighbours.contains("==") && (neighbours.contains("NO") || neighbours.contains("false"))
  }

  /// `error`, `error != nil`, `error.code == …`: the error is set.
  private static func isSet(_ error: String, in part: [ObjCToken]) -> Bool {
    guard let first = part.first, first.text == error else { return false }
    return part.count == 1 || (part.count >= 3 && part[1].text == "!=") || part[1].text == "."
  }
}
