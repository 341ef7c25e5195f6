import Foundation
import SwiftSyntax

/// Recognises names and strings that suggest a secret: `authToken`, `"user_password"`.
public enum SensitiveNames {
  public static let defaultPatterns = [
    "password", "passwd", "passcode", "passphrase", "secret", "token", "credential", "apikey", "api_key",
    "privatekey", "private_key", "privkey", "priv_key", "presharedkey", "pre_shared_key",
    "sessionid", "session_id", "sessionauth", "session_auth", "pincode", "pin_code", "bearer", "cookie",
    "mnemonic", "seedphrase", "seed_phrase", "recoveryphrase", "recovery_phrase",
  ]

  /// The option rules that judge names take, with the default patterns.
  public static let option = OptionSpec(
    key: "sensitiveNamePatterns", summary: "Case-insensitive fragments of names that suggest a secret.",
    defaultValue: .strings(defaultPatterns))

  /// Words that make a name that shares a word with secrets mean something else: a flag, count,
  /// date or label about the secret (`isPasswordSet`, `pinAttempts`, `passwordHint`), or a
  /// public value (`publicKey`, a canary).
  public static let notSecretWords: Set<String> = headOnlyWords.union([
    // Flags and states.
    "is", "has", "have", "had", "did", "should", "was", "will", "can", "needs", "enabled", "disabled", "enable",
    "disable", "required", "exists", "available", "flag", "status", "state", "mode", "type", "kind", "style",
    "policy", "option", "options", "setting", "settings", "preference", "preferences", "config", "configuration",
    "generator", "storage", "tag", "tags",
    // Counts, times and descriptions.
    "length", "count", "max", "min", "maximum", "minimum", "limit", "attempts", "attempt", "retries", "retry",
    "failures", "failed", "expiry", "expiration",
    "expires", "expire", "date", "time", "timestamp", "timeout", "interval", "duration", "last", "updated", "created",
    "hint", "prompt", "reminder", "strength", "format", "version", "requirement", "requirements", "complexity",
    "url", "endpoint", "host", "formatted", "salt", "canary", "dummy", "sample", "example", "public", "pub",
  ])

  /// Words of `notSecretWords` that veto only as the name's head, after the secret's word: a
  /// screen element (a `passwordField`), a certificate (public, but a `certificatePassword` is a
  /// password), a state (`passwordSaved`, `isTokenValid`). Before it they describe the secret
  /// itself: a `savedPassword`, the `Set-Cookie` header's cookies.
  static let headOnlyWords: Set<String> = [
    "placeholder", "title", "label", "field", "button", "view", "cell", "screen", "controller", "segue",
    "certificate", "cert", "set", "saved", "stored", "changed", "migrated", "valid", "invalid", "expired", "shown",
    "seen", "visible", "hidden",
  ]

  /// Words that make a "token" one that is not a credential: a push `deviceToken`, a CloudKit
  /// `changeToken` (or a record zone's token), a page cursor, a crypto asset (`tokenBalance`, `tokenAddress`).
  public static let notCredentialTokenWords: Set<String> = [
    "device", "push", "apns", "fcm", "gcm", "firebase", "notification", "notifications", "voip", "registration", "sync",
    "change", "zone", "page", "next", "continuation", "cursor", "pagination", "balance", "balances", "address",
    "symbol",
    "contract", "decimals", "amount", "price", "market", "asset", "assets", "erc20", "coin", "nft", "supply",
    "icon", "logo", "list",
  ]

  /// Whether `text`, lowercased with `-` and spaces read as `_`, contains a pattern, and its
  /// other words do not make it mean something that is not a secret.
  public static func matches(_ text: String, patterns: [String]) -> Bool {
    let named = namedPatterns(text, patterns: patterns)
    guard !named.isEmpty else { return false }
    let words = nameWords(text)
    // What follows "with" describes the thing named before it: `addressesWithPrivateKeys` are
    // addresses, `passwordWithSalt` a password.
    if let with = words.firstIndex(where: { $0 == "with" || $0 == "without" }), with > 0 {
      return matches(words[..<with].joined(separator: "_"), patterns: patterns)
    }
    // A screen element or a certificate names the thing only after the secret's word, as its
    // head: `passwordField` is a field, `easyViewPassword` and `certificatePassword` passwords.
    let secretAt = words.indices.first { isNamed(words[$0], patterns: patterns) } ?? 0
    if words.indices.contains(where: {
      notSecretWords.contains(words[$0]) && !(headOnlyWords.contains(words[$0]) && $0 < secretAt)
    }) {
      return false
    }
    return !(named.allSatisfy { $0 == "token" } && words.contains(where: notCredentialTokenWords.contains))
  }

  /// Whether `text` contains a pattern at all, whatever its other words say.
  static func isNamed(_ text: String, patterns: [String]) -> Bool { !namedPatterns(text, patterns: patterns).isEmpty }

  /// `text` with ASCII letters lowercased and `-` and spaces read as `_`; and the same without
  /// the underscores.
  static func folded(_ text: String) -> (folded: [UInt8], joined: [UInt8]) {
    let underscore = UInt8(ascii: "_")
    var folded: [UInt8] = []
    var joined: [UInt8] = []
    folded.reserveCapacity(text.utf8.count)
    joined.reserveCapacity(text.utf8.count)
    for byte in text.utf8 {
      let lowered = Self.folded(byte)
      folded.append(lowered)
      if lowered != underscore { joined.append(lowered) }
    }
    return (folded, joined)
  }

  /// An ASCII letter lowercased, `-` and a space read as `_`, as names are compared.
  static func folded(_ byte: UInt8) -> UInt8 {
    if byte == UInt8(ascii: "-") || byte == UInt8(ascii: " ") { return UInt8(ascii: "_") }
    return byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
  }

  /// The patterns `text`, lowercased with `-` and spaces read as `_`, contains.
  /// Compared as bytes, ASCII letters lowercased: every name and key of a dense file is asked,
  /// and Foundation's substring search cost a tenth of such a scan.
  private static func namedPatterns(_ text: String, patterns: [String]) -> [String] {
    let (folded, joined) = folded(text)
    return patterns.map { $0.lowercased() }.filter { pattern in
      let needle = Array(pattern.utf8)
      return needle.isEmpty || ByteSearch.contains(needle, in: folded) || ByteSearch.contains(needle, in: joined)
    }
  }

  /// The lowercased words of an identifier or key: `isPasswordSet` → is, password, set;
  /// `APNSToken` → apns, token; `refresh_token` → refresh, token; `openAIAPIKey` → open, ai, api, key.
  public static func nameWords(_ text: String) -> [String] {
    var words: [String] = []
    // Two acronyms in a row (`openAIAPIKey`) read as one run of capitals: an API at its end is a
    // word of its own (open, ai, api, key).
    func append(_ word: String) {
      if word.count > 3, word.hasSuffix("API"), word.allSatisfy(\.isUppercase) {
        words += [word.dropLast(3).lowercased(), "api"]
      } else {
        words.append(word.lowercased())
      }
    }
    var current = ""
    let characters = Array(text)
    for (index, character) in characters.enumerated() {
      guard character.isLetter || character.isNumber else {
        if !current.isEmpty { append(current) }
        current = ""
        continue
      }
      if let previous = current.last {
        let next = index + 1 < characters.count ? characters[index + 1] : nil
        let startsWord =
          (character.isUppercase && previous.isLowercase)
          || (character.isUppercase && previous.isUppercase && next?.isLowercase == true)
          || (character.isNumber != previous.isNumber
            && !(previous.isLetter && character.isNumber && current.count <= 3))
        if startsWord {
          append(current)
          current = ""
        }
      }
      current.append(character)
    }
    if !current.isEmpty { append(current) }
    return words
  }

  /// Whether an access control is made for a public key, by the name it is given
  /// (`publicAccessControl`, `publicKeyAccessControl:`): a public key is no secret, so how it is
  /// protected weakens nothing.
  public static func namesPublicKeyProtection(_ accessControl: some SyntaxProtocol) -> Bool {
    guard let name = SyntaxFacts.receivingName(of: accessControl) else { return false }
    let words = nameWords(name)
    return words.contains("public") || words.contains("pub")
  }

  /// Last words of a name that make the value an identifier of one thing: `deviceID`, `installUUID`.
  static let uniqueIdentifierWords: Set<String> = ["id", "uid", "identifier", "uuid", "guid"]

  /// Last words of a value's own name that say it is not a secret: `userId`, `accountEmail`.
  public static let identifierWords: Set<String> = uniqueIdentifierWords.union([
    "ids", "email", "username", "url", "uri", "name", "title",
  ])

  /// Whether a value shows that storing it reveals nothing secret: its own name says it is an
  /// identifier (`userId` stored under a key named like a token), or every value it may hold is a
  /// string written in the source, which ships in the app for anyone to read anyway.
  public static func revealsNothingSecret(_ expression: ExprSyntax, model: SemanticModel) -> Bool {
    let leaf = SequenceShape.unwrap(expression)
    if let name = ownName(of: leaf), namesIdentifier(name, among: identifierWords) { return true }
    if isCaseRawValue(leaf) { return true }
    if listsOnlyIdentifiers(leaf, model: model) { return true }
    let values = model.resolver.values(of: expression)
    return !values.isEmpty && values.allSatisfy { SyntaxFacts.stringLiteralValue($0.expression) != nil }
  }

  /// Whether a preferences key names a secret's word only to say its value is something else
  /// (`"cachedDeviceToken"`, `"passwordHint"`): what is written under it is that, whatever the value
  /// is called where it is handed over. Judged with the default patterns, because a function's
  /// summary is shared by every rule's options.
  public static func keySaysNotSecret(_ key: ExprSyntax, model: SemanticModel) -> Bool {
    words(in: key, model: model, asKey: true).contains {
      isNamed($0, patterns: defaultPatterns) && !matches($0, patterns: defaultPatterns)
    }
  }

  /// Whether a value is an identifier: named as one (`deviceID`, `newIdentifier`), or a fresh
  /// UUID (`UUID().uuidString`, every value its name may hold).
  public static func isIdentifier(_ expression: ExprSyntax, model: SemanticModel) -> Bool {
    let leaf = SequenceShape.unwrap(expression)
    if let name = ownName(of: leaf), namesIdentifier(name, among: uniqueIdentifierWords) { return true }
    func isFreshUUID(_ value: ExprSyntax) -> Bool {
      let member = SequenceShape.unwrap(value).as(MemberAccessExprSyntax.self)
      guard let member, ["uuidString", "UUIDString"].contains(member.declName.baseName.text),
        let call = member.base.map(SequenceShape.unwrap)?.as(FunctionCallExprSyntax.self)
      else { return false }
      return ["UUID", "NSUUID"].contains(SyntaxFacts.calledName(call) ?? "") && call.arguments.isEmpty
    }
    let values = model.resolver.values(of: expression)
    return !values.isEmpty && values.allSatisfy { isFreshUUID($0.expression) }
  }

  /// Whether a name's last word is one of `words` (`deviceID`, `userEmail`), unless it names a
  /// session's id: that one is the session's credential (`sessionID`).
  static func namesIdentifier(_ name: String, among words: Set<String>) -> Bool {
    let parts = nameWords(name)
    guard let last = parts.last else { return false }
    return words.contains(last) && !parts.contains("session")
  }

  /// The name an expression reads: `token` in `token`, `self.token` or `Session.token`.
  static func ownName(of expression: ExprSyntax) -> String? {
    expression.as(DeclReferenceExprSyntax.self)?.baseName.text
      ?? expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
  }

  /// `AuthType.clientToken.rawValue`, `.sessionToken.rawValue`: a case's raw value is written in
  /// the source and names a kind of thing; it holds nothing the app binary does not.
  static func isCaseRawValue(_ expression: ExprSyntax) -> Bool {
    guard let member = expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "rawValue",
      let chosen = member.base?.as(MemberAccessExprSyntax.self)
    else { return false }
    guard let type = chosen.base else { return true }
    return type.as(DeclReferenceExprSyntax.self)?.baseName.text.first?.isUppercase == true
  }

  /// Whether every value an expression may hold is a flag, number, date or nothing: whatever its
  /// name, such a value is not a secret (`set(true, forKey: "passcodeEnabled")`).
  public static func holdsPlainValue(_ expression: ExprSyntax, model: SemanticModel) -> Bool {
    let unwrapped = SequenceShape.unwrap(expression)
    // `String(version)`: the digits of a flag or number.
    if let call = unwrapped.as(FunctionCallExprSyntax.self), SyntaxFacts.calledName(call) == "String",
      call.arguments.count == 1, let only = call.arguments.first, only.label == nil
    {
      return holdsPlainValue(only.expression, model: model)
    }
    // A variable declared without a type has its first value's: `var version = Int(text) ?? 0`
    // holds an `Int` whatever is assigned to it later.
    if let variable = model.resolver.binding(denotedBy: unwrapped), variable.kind == .variable,
      variable.type == nil, let initializer = variable.initializer
    {
      let first = model.resolver.values(of: initializer)
      if !first.isEmpty && first.allSatisfy({ isOfPlainType(SequenceShape.unwrap($0.expression), model: model) }) {
        return true
      }
    }
    let values = model.resolver.values(of: expression)
    return !values.isEmpty
      && values.allSatisfy { value in
        let leaf = SequenceShape.unwrap(value.expression)
        if leaf.is(NilLiteralExprSyntax.self) || isOfPlainType(leaf, model: model) { return true }
        return leaf.as(FunctionCallExprSyntax.self).map(isBytesWritten) ?? false
      }
  }

  /// Whether a value's type is a flag, number or date: a literal of one, a conversion to one
  /// (`Int(text)`, `Date()`), a preferences store's typed read, or a name declared with one.
  private static func isOfPlainType(_ leaf: ExprSyntax, model: SemanticModel) -> Bool {
    if leaf.is(BooleanLiteralExprSyntax.self) || leaf.is(IntegerLiteralExprSyntax.self)
      || leaf.is(FloatLiteralExprSyntax.self)
    {
      return true
    }
    if let call = leaf.as(FunctionCallExprSyntax.self), let name = SyntaxFacts.calledName(call) {
      return ["Date", "NSDate", "Bool", "Int", "Double", "NSNumber"].contains(name) || isNumberRead(call)
    }
    let type =
      model.resolver.binding(denotedBy: leaf)?.typeName
      ?? leaf.as(DeclReferenceExprSyntax.self).flatMap(SyntaxFacts.setterValueType).map(SyntaxFacts.typeName)
    return type.map(plainTypes.contains) ?? false
  }

  /// A preferences store's typed read of a flag or number (`defaults.integer(forKey: key)`):
  /// whatever its key is named, the value is a number.
  static func isNumberRead(_ call: FunctionCallExprSyntax) -> Bool {
    guard let name = SyntaxFacts.calledName(call), ["integer", "bool", "double", "float"].contains(name),
      call.arguments.count == 1
    else { return false }
    return call.arguments.first?.label?.text == "forKey"
  }

  /// Types whose values are flags, numbers or dates: never a secret, whatever their name.
  static let plainTypes: Set<String> = ["Bool", "Int", "Double", "Float", "Date", "TimeInterval", "UInt"]

  /// `Data([1])`, `Data([flag ? 1 : 0])`: bytes written in the source, a flag's encoding rather
  /// than a secret.
  static func isBytesWritten(_ call: FunctionCallExprSyntax) -> Bool {
    guard SyntaxFacts.calledName(call) == "Data", call.arguments.count == 1,
      let first = call.arguments.first, first.label == nil,
      let array = first.expression.as(ArrayExprSyntax.self), !array.elements.isEmpty
    else { return false }
    func isWrittenByte(_ element: ExprSyntax) -> Bool {
      let leaf = SequenceShape.unwrap(element)
      if leaf.is(IntegerLiteralExprSyntax.self) { return true }
      guard let sequence = leaf.as(SequenceExprSyntax.self),
        let parts = SequenceShape.valueParts(Array(sequence.elements)[...]), parts.count > 1
      else { return false }
      return parts.allSatisfy { part in
        part.elements.count == 1 && part.elements.first.map(isWrittenByte) == true
      }
    }
    return array.elements.allSatisfy { isWrittenByte($0.expression) }
  }

  /// The names and strings an expression is made of that could reveal what it holds: string
  /// literals it resolves to, and the names it is read from. For a key (`asKey`), values
  /// interpolated into a string say which item it is, not what it holds: `"\(prefix)-\(sessionID)"`
  /// is a state kept per session, not a session id. A variable also holds what the file puts
  /// into it by subscript.
  public static func words(in expression: ExprSyntax, model: SemanticModel, asKey: Bool = false) -> [String] {
    ownWords(in: expression, model: model, asKey: asKey)
      + (asKey ? [] : subscriptedWords(into: expression, model: model))
  }

  static func ownWords(in expression: ExprSyntax, model: SemanticModel, asKey: Bool, depth: Int = 0)
    -> [String]
  {
    var words: [String] = []
    var sources = [expression]
    for value in model.resolver.values(of: expression) {
      if let text = SyntaxFacts.stringLiteralValue(value.expression) {
        words.append(text)
      } else if value.expression.id != expression.id {
        sources.append(value.expression)
      }
    }
    if !asKey && depth == 0 { words += sources.flatMap { serializedWords(of: $0, model: model) } }
    // Names it is made from, their declared types (`CKServerChangeToken`), and strings inside
    // it (`Identifier(nonEmpty: "tokens")`), one step into where it comes from.
    for source in sources {
      for token in source.tokens(viewMode: .sourceAccurate)
      where !(asKey && isDiscriminator(token, within: Syntax(source)))
        && !isInPredicate(token, within: Syntax(source))
      {
        switch token.tokenKind {
        case .identifier:
          words.append(asKey ? keySubject(token.text) : token.text)
          if let reference = token.parent?.as(DeclReferenceExprSyntax.self),
            let type = model.resolver.binding(denotedBy: ExprSyntax(reference))?.typeName
          {
            words.append(type)
          }
        case .stringSegment: words.append(token.text)
        default: continue
        }
      }
    }
    return words
  }

  /// What the file puts into a variable by subscript, keys and values:
  /// `servers[index][tokenKey] = token` before `defaults.set(servers, …)`, and one step further
  /// through a copy put back (`server[passwordKey] = password; servers[index] = server`).
  private static func subscriptedWords(into expression: ExprSyntax, model: SemanticModel, depth: Int = 0) -> [String] {
    guard !model.index.subscriptAssignments.isEmpty,
      let binding = model.resolver.binding(denotedBy: expression), binding.kind == .variable
    else { return [] }
    var words: [String] = []
    for (target, value) in model.index.subscriptAssignments {
      var root = target.calledExpression
      while let inner = root.as(SubscriptCallExprSyntax.self) { root = inner.calledExpression }
      // Compared by name first: resolving every subscript write of the file for every value
      // judged would cost a lookup per pair.
      guard ownName(of: root) == binding.name, model.resolver.binding(denotedBy: root)?.id == binding.id else {
        continue
      }
      let keys = target.arguments.map(\.expression)
      words += keys.flatMap { ownWords(in: $0, model: model, asKey: true) }
      words += value.tokens(viewMode: .sourceAccurate).compactMap { token in
        if case .identifier = token.tokenKind { return token.text }
        return nil
      }
      if depth == 0, value.is(DeclReferenceExprSyntax.self) {
        words += subscriptedWords(into: value, model: model, depth: 1)
      }
    }
    return words
  }

  /// What a key's name says is stored under it: `privateKeyStorageKey` names where a private key
  /// is kept (`private_key`), `tokenDefaultsKey` a token; the trailing "key" and the store's
  /// name say it is a key, not what it holds. An API key and a private key are keys themselves
  /// (`nightscoutAPIKey`).
  static func keySubject(_ name: String) -> String {
    var words = nameWords(name)
    guard words.count > 1, ["key", "keys"].contains(words.last),
      !["api", "private"].contains(words[words.count - 2])
    else { return name }
    words.removeLast()
    while words.count > 1, ["storage", "store", "defaults", "preferences", "prefs", "user"].contains(words.last) {
      words.removeLast()
    }
    return words.joined(separator: "_")
  }

  /// Calls whose closure only picks or orders elements: its names say which elements are
  /// kept (`names.filter { $0.matches(searchTokens) }`), not what they are.
  static let predicateCalls: Set<String> = [
    "filter", "first", "last", "firstIndex", "lastIndex", "contains", "allSatisfy", "sorted", "min", "max",
    "drop", "prefix", "removeAll",
  ]

  /// Whether `token` sits in a closure handed to one of the `predicateCalls` inside `source`.
  private static func isInPredicate(_ token: TokenSyntax, within source: Syntax) -> Bool {
    var node = token.parent
    while let current = node, current.id != source.id {
      if current.is(ClosureExprSyntax.self) {
        let call =
          current.parent?.as(FunctionCallExprSyntax.self)
          ?? current.parent?.parent?.parent?.as(FunctionCallExprSyntax.self)
        if let call, let name = SyntaxFacts.calledName(call), predicateCalls.contains(name) { return true }
      }
      node = current.parent
    }
    return false
  }

  /// Whether `token` is part of a value a key is made from rather than a name of what it holds:
  /// interpolated into a string literal of `source` (`"feed-\(sessionID)"`), or a variable
  /// passed to a function that makes the key (`digestKey(from: accessToken)`); a literal or a
  /// constant passed there (`key(for: .password)`) still names the item.
  private static func isDiscriminator(_ token: TokenSyntax, within source: Syntax) -> Bool {
    var node = token.parent
    while let current = node, current.id != source.id {
      if current.is(ExpressionSegmentSyntax.self) { return true }
      if let argument = current.as(LabeledExprSyntax.self),
        argument.parent?.parent?.is(FunctionCallExprSyntax.self) == true,
        argument.expression.is(DeclReferenceExprSyntax.self)
      {
        return true
      }
      node = current.parent
    }
    return false
  }

  /// The word that shows `words` (of one value and its key) name a secret, or nil when none does
  /// or one of them names a kind of value that is not secret (`fcmToken` stored under "token").
  public static func secretWord(in words: [String], patterns: [String]) -> String? {
    let named = words.filter { isNamed($0, patterns: patterns) }
    guard named.allSatisfy({ matches($0, patterns: patterns) }) else { return nil }
    return named.first
  }

}
