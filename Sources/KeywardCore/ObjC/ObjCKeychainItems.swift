/// A keychain dictionary of an Objective-C file: the entries of one `@{ ... }` literal and those
/// later written into the variable holding it (`setObject:forKey:`, `query[key] = value`,
/// `CFDictionaryAddValue`), with what the file does with it, as `KeychainQuery` for Swift.
public struct ObjCKeychainDictionary {
  /// The variable holding it (`query`, `self.query`), if any.
  public var name: String?
  public var entries: [(key: [ObjCToken], value: [ObjCToken])] = []
  /// What the Security calls given the dictionary (or one it is nested in, `kSecPrivateKeyAttrs`) do.
  public var roles: Set<QueryRole> = []
  /// Where it goes, as far as the file shows.
  public var storage: QueryStorage = .unknown
  /// Whether every entry it can hold is in view: it starts as a literal or an empty dictionary,
  /// takes entries only by keyed writes and literals, and is handed to no function but Security
  /// calls (which only read it). The counterpart of `SemanticModel.isFullySeen`.
  public var isFullySeen = false
  /// Where it starts (byte offsets): its literal, or the expression making the empty dictionary.
  public var origin: Range<Int>?

  /// Whether its attributes may end up on a stored item: a dictionary only given to
  /// `SecItemCopyMatching` / `SecItemDelete` (or an update's match query), only compared, or
  /// unused stores nothing.
  public var mayStore: Bool { storage.mayStore }

  /// The values written under the keychain constant `constant` (or its raw value), as written.
  public func values(forKey constant: String, in model: ObjCModel) -> [[ObjCToken]] {
    entries.filter { model.isKeychainKey($0.key, named: constant) }.map(\.value)
  }

  /// Whether the item may be synchronized through iCloud Keychain: `kSecAttrSynchronizable` is
  /// set to anything but a certain false (`kCFBooleanFalse`, `@NO`, `NO`).
  public func mayBeSynchronized(in model: ObjCModel) -> Bool {
    values(forKey: "kSecAttrSynchronizable", in: model).contains { value in
      !(value.last.map { Self.falseWords.contains($0.text) } ?? false)
    }
  }

  private static let falseWords: Set<String> = ["kCFBooleanFalse", "NO", "false"]

  /// Whether the item evidently holds no secret: it stores a public key and no data. (A string
  /// written in the source may be a hard-coded password: it is not taken for a placeholder.)
  public func storesNoSecret(in model: ObjCModel) -> Bool {
    values(forKey: "kSecValueData", in: model).isEmpty
      && values(forKey: "kSecAttrKeyClass", in: model).contains { $0.last?.text == "kSecAttrKeyClassPublic" }
  }
}

extension ObjCModel {
  /// Raw values of keychain attribute keys (`@"sync"` for `kSecAttrSynchronizable`).
  static let rawKeychainKeys: [String: String] = [
    "kSecAttrSynchronizable": "sync", "kSecAttrAccessible": "pdmn", "kSecAttrAccount": "acct",
    "kSecAttrService": "svce", "kSecAttrLabel": "labl", "kSecAttrKeyClass": "kcls", "kSecValueData": "v_Data",
    "kSecAttrApplicationTag": "atag", "kSecAttrAccessControl": "accc", "kSecClass": "class", "kSecValueRef": "v_Ref",
    "kSecUseDataProtectionKeychain": "nleg",
  ]

  /// Whether `key` names the keychain constant, through `#define`s and casts, or is its raw value.
  public func isKeychainKey(_ key: [ObjCToken], named constant: String) -> Bool {
    let raw = Self.rawKeychainKeys[constant]
    return expand(key).contains {
      ($0.kind == .identifier && $0.text == constant) || ($0.kind == .string && $0.text == raw)
    }
  }

  /// The file's keychain dictionary a value written as written stands for: a nested
  /// `@{ ... }` literal, or a variable holding one (`kSecPrivateKeyAttrs: privateAttributes`).
  public func dictionary(heldBy value: [ObjCToken]) -> ObjCKeychainDictionary? {
    keychainDictionaries.first { candidate in
      candidate.origin?.lowerBound == value.first?.start
        || (value.count == 1 && candidate.name != nil && candidate.name == value[0].text)
    }
  }

  /// The keychain dictionary a Security call at `index` is given first (`SecItemAdd((__bridge
  /// CFDictionaryRef)query, NULL)`): the nearest one of that name made before the call.
  public func dictionary(passedToCallAt index: Int) -> ObjCKeychainDictionary? {
    guard index + 1 < tokens.count, tokens[index + 1].text == "(" else { return nil }
    let (inside, _) = group(from: index + 1)
    let first = inside.prefix { $0.text != "," }
    guard let argument = first.last, argument.kind == .identifier else { return nil }
    return keychainDictionaries.filter {
      $0.name == argument.text && ($0.origin?.lowerBound ?? 0) < tokens[index].start
    }
    .max { ($0.origin?.lowerBound ?? 0) < ($1.origin?.lowerBound ?? 0) }
  }

  /// Calls that only read or release a dictionary they are given: passing it there is no use.
  static let dictionaryReaders: Set<String> = [
    "CFDictionaryGetValue", "CFDictionaryContainsKey", "CFDictionaryGetCount", "CFDictionaryRemoveValue",
    "CFRelease", "CFRetain", "NSLog", "CFShow", "sizeof",
  ]
  /// Words before `(` that open a condition or an expression, not a call.
  static let controlWords: Set<String> = [
    "if", "while", "for", "switch", "return", "sizeof", "typeof", "__typeof__", "@synchronized", "case",
  ]
  /// Messages whose receiver is read, not stored (nor kept: manual reference counting's
  /// `release` gives the dictionary up).
  static let receiverReads: Set<String> = [
    "objectForKey", "valueForKey", "count", "allKeys", "allValues", "removeObjectForKey", "removeAllObjects",
    "description", "setObject", "setValue", "enumerateKeysAndObjectsUsingBlock", "containsObject", "release",
    "autorelease", "retain",
  ]

  /// Where the tokens of `kSecAttrAccessControl` values written only into dictionaries that store
  /// nothing start; a value a dictionary that may store also holds is not only searched for.
  func findAccessControlsOnlySearched() -> Set<Int> {
    func values(_ mayStore: Bool) -> Set<Int> {
      Set(
        keychainDictionaries.filter { $0.mayStore == mayStore }.flatMap {
          $0.values(forKey: "kSecAttrAccessControl", in: self)
        }.joined().map(\.start))
    }
    return values(false).subtracting(values(true))
  }

  func buildDictionaries() -> (dictionaries: [ObjCKeychainDictionary], subscriptWrites: [KeyValueWrite]) {
    var builder = ObjCDictionaryBuilder(model: self)
    builder.collect()
    return (builder.dictionaries(), builder.subscriptWrites)
  }
}

extension ObjCModel {
  /// Whether the access control made by the `SecAccessControlCreateWithFlags` call named at
  /// `index` (in `tokens`) protects no item: it is written, or kept in a local whose every use
  /// but `CFRelease` is written, only as the `kSecAttrAccessControl` value of dictionaries that
  /// store nothing (a `SecItemCopyMatching` query). A search ignores the access control, so its
  /// flags decide nothing.
  public func isPutOnlyIntoSearches(creationAt index: Int) -> Bool {
    let searchValues = accessControlsOnlySearched
    guard !searchValues.isEmpty, index < tokens.count else { return false }
    if searchValues.contains(tokens[index].start) { return true }
    // `access = SecAccessControlCreateWithFlags(…)`, `SecAccessControlRef access = …`.
    guard index >= 2, tokens[index - 1].text == "=", tokens[index - 2].kind == .identifier,
      index < 3 || ![".", "->"].contains(tokens[index - 3].text),
      let body = valueSources.bodies.first(where: { $0.contains(tokens[index].start) })
    else { return false }
    let name = tokens[index - 2].text
    var uses = 0
    for position in tokens.indices
    where tokens[position].kind == .identifier && tokens[position].text == name
      && body.contains(tokens[position].start) && position != index - 2
    {
      let before = position > 0 ? tokens[position - 1].text : ""
      if [".", "->"].contains(before) { continue }
      // Its declaration (`SecAccessControlRef access;`) and its release use nothing.
      if ObjCDictionaryBuilder.isDeclaration(at: position, in: tokens) && tokens[position + 1].text == ";" { continue }
      if position >= 2, before == "(", tokens[position - 2].text == "CFRelease" { continue }
      guard searchValues.contains(tokens[position].start) else { return false }
      uses += 1
    }
    return uses > 0
  }
}
