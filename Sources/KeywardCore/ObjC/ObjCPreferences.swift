extension ObjCModel {
  /// `[RECEIVER setObject:VALUE forKey:KEY]` and `setValue:forKey:` sent to one of `stores`: the
  /// receiver names it (`[NSUserDefaults standardUserDefaults]`) or is a variable the file
  /// declares with that type (`NSUserDefaults *defaults`).
  public func preferencesWrites(stores: [String]) -> [(store: String, value: [ObjCToken], key: [ObjCToken])] {
    var declared: [String: String] = [:]
    for index in tokens.indices.dropLast(2) where stores.contains(tokens[index].text) && tokens[index + 1].text == "*" {
      if tokens[index + 2].kind == .identifier { declared[tokens[index + 2].text] = tokens[index].text }
    }
    return keyedMessages.compactMap { write in
      guard let receiver = receiver(ofMessageAt: write.part),
        let store = receiver.lazy.compactMap({ token in stores.first { $0 == token.text } ?? declared[token.text] })
          .first
      else { return nil }
      return (store, write.value, write.key)
    }
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
