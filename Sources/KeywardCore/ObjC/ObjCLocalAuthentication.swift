/// LocalAuthentication facts of an Objective-C file, shared by its rules.
extension ObjCModel {
  /// Each `evaluatePolicy:` part of a message, with the policies its argument names (through
  /// `#define`s and `static const`s): `LAPolicyDeviceOwnerAuthentication`, the older
  /// `kLAPolicy…` spelling, or a raw value (`(LAPolicy)2`).
  public var policyEvaluations: [(part: ObjCToken, policies: [(token: ObjCToken, policy: LAPolicyCase)])] {
    messageArguments("evaluatePolicy").map { part, argument in
      (part, expand(argument).compactMap { token in Self.policy(named: token).map { (token, $0) } })
    }
  }

  /// Whether `policy`, one of the policies of the `evaluatePolicy:` part `part`, is picked by the
  /// method's caller (`isChosenByCaller(_:argumentStart:)`, `isOnBranchChosenByCaller`).
  public func isPolicyChosenByCaller(_ policy: ObjCToken, part: ObjCToken) -> Bool {
    guard let index = tokenIndex(startingAt: part.start) else { return false }
    if isChosenByCaller(policy, argumentStart: index + 2) { return true }
    return tokenIndex(startingAt: policy.start).map { isOnBranchChosenByCaller(tokenAt: $0) } ?? false
  }

  private static func policy(named token: ObjCToken) -> LAPolicyCase? {
    if token.kind == .number {
      return ObjCIntegers.value(of: token).flatMap { raw in LAPolicyCase.all.first { $0.rawValue == raw } }
    }
    let name = token.text.hasPrefix("kLAPolicy") ? String(token.text.dropFirst()) : token.text
    return LAPolicyCase.all.first { "LAPolicy" + $0.name.prefix(1).uppercased() + $0.name.dropFirst() == name }
  }

  /// Whether the file binds its evaluations to the keychain: it passes a context as
  /// `kSecUseAuthenticationContext` and protects items with `SecAccessControlCreateWithFlags`.
  /// In Objective-C the file is the unit.
  public var bindsEvaluationsToKeychain: Bool {
    mentions("kSecUseAuthenticationContext") && mentions("SecAccessControlCreateWithFlags")
  }
}

extension ObjCModel {
  /// Token index ranges of the `else` blocks of `if (@available(...)) { ... } else { ... }`:
  /// code that runs only on systems older than the version checked, where an API deprecated
  /// since then is the one there is.
  public var availabilityFallbacks: [ClosedRange<Int>] {
    var ranges: [ClosedRange<Int>] = []
    for index in tokens.indices.dropFirst(3)
    where tokens[index].text == "available" && tokens[index - 1].text == "@" && tokens[index - 2].text == "("
      && tokens[index - 3].text == "if"
    {
      let (_, conditionEnd) = group(from: index - 2)
      guard conditionEnd + 1 < tokens.count, tokens[conditionEnd + 1].text == "{" else { continue }
      let (_, thenEnd) = group(from: conditionEnd + 1)
      guard thenEnd + 2 < tokens.count, tokens[thenEnd + 1].text == "else", tokens[thenEnd + 2].text == "{" else {
        continue
      }
      let (_, elseEnd) = group(from: thenEnd + 2)
      ranges.append((thenEnd + 2)...min(elseEnd, tokens.count - 1))
    }
    return ranges + deploymentTargetFallbacks
  }

  /// Token ranges under `#if __IPHONE_OS_VERSION_MIN_REQUIRED < __IPHONE_9_0` (or the macOS
  /// twin), up to its `#else`, `#elif` or `#endif`: code built only for deployment targets older
  /// than the version named, where the newer API may be missing.
  private var deploymentTargetFallbacks: [ClosedRange<Int>] {
    var ranges: [ClosedRange<Int>] = []
    var open: [(start: Int, isFallback: Bool)] = []
    for (index, token) in tokens.enumerated() where token.kind == .directive {
      let words = lexer.tokens(in: (token.start + 1)..<token.end, directives: false).map(\.text)
      switch words.first {
      case "if", "ifdef", "ifndef":
        let isFallback =
          words.count >= 4 && words[0] == "if" && words[2] == "<"
          && ["__IPHONE_OS_VERSION_MIN_REQUIRED", "__MAC_OS_X_VERSION_MIN_REQUIRED"].contains(words[1])
        open.append((index, isFallback))
      case "else", "elif", "endif":
        guard let last = open.last else { continue }
        if last.isFallback, index > last.start + 1 { ranges.append((last.start + 1)...(index - 1)) }
        if words.first == "endif" { open.removeLast() } else { open[open.count - 1].isFallback = false }
      default: continue
      }
    }
    return ranges
  }
}
