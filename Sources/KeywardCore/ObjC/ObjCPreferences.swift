extension ObjCModel {
  /// `[RECEIVER setObject:VALUE forKey:KEY]` and `setValue:forKey:` sent to one of `stores`: the
  /// receiver names it (`[NSUserDefaults standardUserDefaults]`), is a variable the file
  /// declares with that type (`NSUserDefaults *defaults`), or is `self` in a category or subclass
  /// implementation of it (`@implementation NSUserDefaults (Secrets)`).
  public func preferencesWrites(stores: [String]) -> [(store: String, value: [ObjCToken], key: [ObjCToken])] {
    var declared: [String: String] = [:]
    for index in tokens.indices.dropLast(2) where stores.contains(tokens[index].text) && tokens[index + 1].text == "*" {
      if tokens[index + 2].kind == .identifier { declared[tokens[index + 2].text] = tokens[index].text }
    }
    return keyedMessages.compactMap { write in
      guard let receiver = receiver(ofMessageAt: write.part) else { return nil }
      if receiver.count == 1, receiver.first?.text == "self" {
        return implementedClass(enclosing: write.part).flatMap {
          stores.contains($0) ? ($0, write.value, write.key) : nil
        }
      }
      guard
        let store = receiver.lazy.compactMap({ token in stores.first { $0 == token.text } ?? declared[token.text] })
          .first
      else { return nil }
      return (store, write.value, write.key)
    }
  }

  /// The class whose `@implementation` (of the class, or of a category of it) holds the token at
  /// `index`; nil outside one.
  private func implementedClass(enclosing index: Int) -> String? {
    let tokens = analyzed
    var position = index - 1
    while position > 0 {
      if tokens[position - 1].text == "@" {
        switch tokens[position].text {
        case "end": return nil
        case "implementation":
          return position + 1 < tokens.count && tokens[position + 1].kind == .identifier
            ? tokens[position + 1].text : nil
        default: break
        }
      }
      position -= 1
    }
    return nil
  }

  /// The receiver's tokens of the message whose first part is at `index`: from just after the
  /// `[` that opens it.
  private func receiver(ofMessageAt index: Int) -> ArraySlice<ObjCToken>? {
    let tokens = analyzed
    var depth = 0
    var position = index - 1
    while position >= 0 {
      let text = tokens[position].text
      if text == "]" || text == ")" { depth += 1 }
      if text == "[" || text == "(" {
        if depth == 0 { return text == "[" ? tokens[(position + 1)..<index] : nil }
        depth -= 1
      }
      if depth == 0, text == ";" || text == "{" || text == "}" { return nil }
      position -= 1
    }
    return nil
  }
}
