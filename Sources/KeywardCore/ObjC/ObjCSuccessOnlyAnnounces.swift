/// A reply block whose `success` decides nothing but a message, in Objective-C: every use of it is
/// the whole condition of an `if` whose body only logs (`NSLog`) or shows an alert whose texts
/// are written in the source (`[Alerts showAlert:@"Authenticated" withTitle:@"Success"]`), also
/// inside `dispatch_async(…, ^{ … })`. What runs on success then runs on failure too, less the
/// message, so the result guards nothing. The Swift twin is `SuccessOnlyLogs`.
extension ObjCModel {
  /// Whether the reply of the `evaluatePolicy:` part `part` uses its `success` only so.
  public func successOnlyAnnounces(part: ObjCToken) -> Bool {
    guard let start = tokenIndex(startingAt: part.start) else { return false }
    // `reply:^(BOOL success, NSError *error) { … }`, within the message.
    var caret = start
    while caret + 1 < analyzed.count, caret - start < 64, analyzed[caret].text != "^" { caret += 1 }
    guard caret - start < 64, caret >= 2, analyzed[caret - 2].text == "reply", caret + 1 < analyzed.count,
      analyzed[caret + 1].text == "("
    else { return false }
    let (parameters, close) = group(from: caret + 1)
    guard let success = split(parameters, at: ",").first?.last, success.kind == .identifier,
      close + 1 < analyzed.count, analyzed[close + 1].text == "{"
    else { return false }
    let body = group(from: close + 1).0
    let uses = body.indices.filter { body[$0].kind == .identifier && body[$0].text == success.text }
    return !uses.isEmpty && uses.allSatisfy { decidesOnlyAMessage(use: $0, in: body) }
  }

  /// `if (success) { … }` or `if (success) statement;`, whose statements only announce.
  private func decidesOnlyAMessage(use: Int, in body: [ObjCToken]) -> Bool {
    guard use >= 2, use + 2 < body.count, body[use - 1].text == "(", body[use - 2].text == "if",
      body[use + 1].text == ")"
    else { return false }
    let first = use + 2
    if body[first].text == "{" {
      guard let close = Self.closing(of: first, in: body, pair: ("{", "}")) else { return false }
      return onlyAnnounce(Array(body[(first + 1)..<close]))
    }
    guard let end = body[first...].firstIndex(where: { $0.text == ";" }) else { return false }
    return onlyAnnounce(Array(body[first..<end]))
  }

  /// Whether `statements` are all `NSLog(…)`, fixed alerts, or such statements sent to the main
  /// queue; and there is at least one.
  private func onlyAnnounce(_ statements: [ObjCToken]) -> Bool {
    let parts = split(statements, at: ";")
    return !parts.isEmpty && parts.allSatisfy(announces)
  }

  private func announces(_ statement: [ObjCToken]) -> Bool {
    guard let head = statement.first else { return false }
    switch head.text {
    case "NSLog":
      return true
    case "dispatch_async":
      guard let caret = statement.firstIndex(where: { $0.text == "^" }), caret + 1 < statement.count,
        statement[caret + 1].text == "{",
        let close = Self.closing(of: caret + 1, in: statement, pair: ("{", "}"))
      else { return false }
      return onlyAnnounce(Array(statement[(caret + 2)..<close]))
    case "[":
      return Self.isFixedAlert(statement)
    default:
      return false
    }
  }

  /// `[receiver showAlert:@"…" withTitle:@"…"]`: a selector naming an alert or toast whose
  /// arguments are all string literals or `self`.
  private static func isFixedAlert(_ message: [ObjCToken]) -> Bool {
    guard message.count >= 5, message.last?.text == "]",
      let firstPart = message.indices.first(where: { $0 + 1 < message.count && message[$0 + 1].text == ":" }),
      firstPart >= 2, message[firstPart].kind == .identifier
    else { return false }
    let selector = message[firstPart].text.lowercased()
    guard selector.contains("alert") || selector.contains("toast") else { return false }
    // Between the parts: one argument token each, then the next part's name.
    var index = firstPart + 2
    while index < message.count - 1 {
      let argument = message[index]
      guard argument.kind == .string || argument.text == "self" else { return false }
      index += 1
      if index < message.count - 1 {
        guard message[index].kind == .identifier, index + 1 < message.count, message[index + 1].text == ":" else {
          return false
        }
        index += 2
      }
    }
    return true
  }
}
