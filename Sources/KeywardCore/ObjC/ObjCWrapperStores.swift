/// A keychain wrapper store made without naming an accessibility class, in a file that writes
/// items through its stores: they get the library's own default class
/// (`[UICKeyChainStore keyChainStoreWithService:@"x"]` keeps its items `AfterFirstUnlock`).
public struct ObjCDefaultStore {
  public var library: String
  /// Bytes of the expression that makes the store (`[UICKeyChainStore keyChainStoreWithService:…]`),
  /// or of a class-method write that uses one made on the spot (`[UICKeyChainStore setString:…]`).
  public var creation: Range<Int>
  /// The `kSecAttrAccessible...` constant the library uses when none is named.
  public var meaning: String
  /// The values the file writes through its stores.
  public var writtenValues: [[ObjCToken]]
}

extension ObjCModel {
  /// The stores of wrappers the file uses (by type name) that are made without a class, when the
  /// file writes a value through a store and sets no class or synchronization on any store: the
  /// file's names for stores are those declared with the wrapper's type (`UICKeyChainStore
  /// *keychain`, a function returning one) or assigned a new store (`_keychain = [UICKeyChainStore
  /// …]`), so a store set up in one file and written in another is not judged.
  public var wrapperStoresOnDefaultAccessibility: [ObjCDefaultStore] {
    var found: [ObjCDefaultStore] = []
    for mapping in wrappers {
      guard let maker = mapping.storeMaker, let meaning = mapping.defaultAccessibility, mentions(maker),
        !configuresStores(mapping)
      else { continue }
      let stores = storeNames(of: maker)
      var creations: [Range<Int>] = []
      var written: [[ObjCToken]] = []
      for (index, token) in analyzed.enumerated() where token.kind == .identifier && token.text == maker {
        guard index > 0, analyzed[index - 1].text == "[", let part = analyzed[safe: index + 1] else { continue }
        let open = part.text == "alloc" || part.text == "new" ? index - 2 : index - 1
        guard open >= 0, analyzed[open].text == "[", let close = closingBracket(of: open),
          part.text.hasPrefix("keyChainStore") || open < index - 1
        else { continue }
        creations.append(analyzed[open].start..<analyzed[close].end)
      }
      for method in mapping.writeMethods {
        for (part, value) in messageArguments(method) where !Self.isLiteral(value) {
          guard let index = tokenIndex(startingAt: part.start), let receiver = receiverName(ofPartAt: index) else {
            continue
          }
          if receiver == maker, let open = openingBracket(ofPartAt: index),
            let close = closingBracket(of: open)
          {
            // A class method writes through a store it makes with the defaults.
            creations.append(analyzed[open].start..<analyzed[close].end)
            written.append(value)
          } else if stores.contains(receiver) {
            written.append(value)
          }
        }
      }
      guard !written.isEmpty else { continue }
      for creation in Set(creations).sorted(by: { $0.lowerBound < $1.lowerBound }) {
        found.append(
          ObjCDefaultStore(library: mapping.library, creation: creation, meaning: meaning, writtenValues: written))
      }
    }
    return found
  }

  /// Whether the file sets a class or synchronization on any store: `store.accessibility = …`,
  /// `[store setAccessibility:… authenticationPolicy:…]`, `store.synchronizable = YES`.
  private func configuresStores(_ mapping: WrapperMapping) -> Bool {
    let properties = mapping.accessibility.properties + mapping.synchronizable.properties
    let setters =
      mapping.accessibility.methods + mapping.synchronizable.methods
      + properties.map { "set" + $0.prefix(1).uppercased() + $0.dropFirst() }
    for (index, token) in analyzed.enumerated() where token.kind == .identifier {
      if properties.contains(token.text), analyzed[safe: index - 1]?.text == ".",
        analyzed[safe: index + 1]?.text == "="
      {
        return true
      }
      if setters.contains(token.text), analyzed[safe: index + 1]?.text == ":" { return true }
    }
    return false
  }

  /// Names declared with the store's type (`UICKeyChainStore *keychain`, `static UICKeyChainStore
  /// *store(void)`), and names assigned a new store (`_keychain = [UICKeyChainStore …]`), with a
  /// property's backing variable under both spellings.
  private func storeNames(of maker: String) -> Set<String> {
    var names: Set<String> = []
    for (index, token) in analyzed.enumerated() where token.kind == .identifier && token.text == maker {
      if analyzed[safe: index + 1]?.text == "*", let name = analyzed[safe: index + 2], name.kind == .identifier {
        names.insert(name.text)
      }
      var before = index - 1
      while analyzed[safe: before]?.text == "[" { before -= 1 }
      if before < index - 1, analyzed[safe: before]?.text == "=", let name = analyzed[safe: before - 1],
        name.kind == .identifier
      {
        names.insert(name.text)
      }
    }
    return names.union(names.map { $0.hasPrefix("_") ? String($0.dropFirst()) : "_" + $0 })
  }

  /// The name a message's receiver goes by: `keychain` in `[keychain setString:…]`, `[self.keychain
  /// …]` and `[__keychain() …]`; the class in `[UICKeyChainStore setString:…]`. Nil for other
  /// receivers (a nested message).
  private func receiverName(ofPartAt index: Int) -> String? {
    guard let open = openingBracket(ofPartAt: index), open + 1 < index else { return nil }
    var receiver = Array(analyzed[(open + 1)..<index])
    if receiver.count >= 3, receiver[receiver.count - 2].text == "(", receiver.last?.text == ")" {
      receiver.removeLast(2)
    }
    guard let last = receiver.last, last.kind == .identifier else { return nil }
    let names = receiver.filter { $0.kind == .identifier }
    let dots = receiver.filter { $0.text == "." }
    guard names.count == dots.count + 1, receiver.count == names.count + dots.count else { return nil }
    guard names.count == 1 || names.first?.text == "self" && names.count == 2 else { return nil }
    return last.text
  }

  /// The `[` opening the message whose first part is at `index` (the receiver stands between).
  private func openingBracket(ofPartAt index: Int) -> Int? {
    var depth = 0
    var position = index - 1
    while position >= 0 {
      switch analyzed[position].text {
      case ")", "]", "}": depth += 1
      case "(", "{": if depth == 0 { return nil } else { depth -= 1 }
      case "[": if depth == 0 { return position } else { depth -= 1 }
      case ";": if depth == 0 { return nil }
      default: break
      }
      position -= 1
    }
    return nil
  }

  /// The `]` closing the bracket at `open`.
  private func closingBracket(of open: Int) -> Int? {
    let close = group(from: open).1
    return close < analyzed.count ? close : nil
  }

  /// A string, number or `YES`/`NO` as written: a value in the source, not a secret.
  private static func isLiteral(_ value: [ObjCToken]) -> Bool {
    let tokens = value.first?.text == "@" ? Array(value.dropFirst()) : value
    guard tokens.count == 1, let token = tokens.first else { return false }
    return token.kind == .string || token.kind == .number || ["YES", "NO", "nil", "NULL"].contains(token.text)
  }
}

extension Array {
  fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
