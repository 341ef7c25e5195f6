/// The keychain questions of the Objective-C rules, answered once for all of them.
extension ObjCModel {
  /// UICKeyChainStore and SAMKeychain names that stand for keychain constants.
  static let wrapperAccessibility: [String: String] = Dictionary(
    uniqueKeysWithValues: AccessibilityClass.all.map {
      ("UICKeyChainStoreAccessibility" + $0.name.dropFirst("kSecAttrAccessible".count), $0.name)
    })
  static let wrapperPolicies: [String: String] = [
    "UICKeyChainStoreAuthenticationPolicyUserPresence": "userPresence",
    "UICKeyChainStoreAuthenticationPolicyTouchIDAny": "touchIDAny",
    "UICKeyChainStoreAuthenticationPolicyTouchIDCurrentSet": "touchIDCurrentSet",
    "UICKeyChainStoreAuthenticationPolicyDevicePasscode": "devicePasscode",
  ]

  /// Accessibility classes given to the keychain: as the `kSecAttrAccessible` value of `@{}`
  /// literals, `setObject:forKey:`, subscripts and `CFDictionaryAddValue`, as the protection of
  /// `SecAccessControlCreateWithFlags`, through SAMKeychain's `setAccessibilityType:`, and
  /// UICKeyChainStore's accessibility constants; through `#define`s and `const`s of the file.
  public var accessibilityValues: [(token: ObjCToken, value: AccessibilityClass, isRaw: Bool)] {
    var sinks: [[ObjCToken]] = []
    for (key, value) in dictionaryEntries + keyValueWrites where isAccessibilityKey(key) { sinks.append(value) }
    sinks += calls(named: "SecAccessControlCreateWithFlags").compactMap {
      $0.arguments.count > 1 ? $0.arguments[1] : nil
    }
    sinks += messageArguments("setAccessibilityType").map(\.argument)
    var found: [(ObjCToken, AccessibilityClass, Bool)] = []
    for token in sinks.flatMap({ expand($0) }) {
      if let (value, isRaw) = AccessibilityClass.denoted(by: token) { found.append((token, value, isRaw)) }
    }
    return found + wrapperAccessibilityValues.map { ($0.token, $0.value, false) }
  }

  /// UICKeyChainStore's accessibility constants where the file chooses one
  /// (`store.accessibility = UICKeyChainStoreAccessibilityAfterFirstUnlock`).
  public var wrapperAccessibilityValues: [(token: ObjCToken, value: AccessibilityClass)] {
    tokens.indices.compactMap { index in
      let token = tokens[index]
      guard token.kind == .identifier, let name = Self.wrapperAccessibility[token.text],
        let value = AccessibilityClass.named(name), !namesWithoutChoosing(at: index)
      else { return nil }
      return (token, value)
    }
  }

  /// Whether the identifier at `index` names a wrapper's constant without choosing it: an
  /// enumerator of the enum that declares it, or the `case` label of a table that maps it.
  func namesWithoutChoosing(at index: Int) -> Bool {
    if index > 0, tokens[index - 1].text == "case" { return true }
    return enumBodies.contains { $0.contains(tokens[index].start) }
  }

  /// Flags given to `SecAccessControlCreateWithFlags` (`kSecAccessControl...` constants combined
  /// with `|`, plain integers, `1 << n`) and UICKeyChainStore's policy constants, with the token
  /// that carries each.
  public var accessControlFlags: [(token: ObjCToken, flags: [AccessControlFlag], fromInteger: Bool)] {
    var found = accessControlCreations.flatMap(\.self)
    for (index, token) in tokens.enumerated() where token.kind == .identifier {
      if let name = Self.wrapperPolicies[token.text], let flag = AccessControlFlag.named(name),
        !namesWithoutChoosing(at: index)
      {
        found.append((token, [flag], false))
      }
    }
    return found
  }

  /// The flags of each `SecAccessControlCreateWithFlags` call (`kSecAccessControl...` constants,
  /// plain integers, `1 << n`, through `#define`s, `const`s, locals and helpers), one list per call;
  /// not those of a call whose access control only goes into searches (`isPutOnlyIntoSearches`).
  public var accessControlCreations: [[(token: ObjCToken, flags: [AccessControlFlag], fromInteger: Bool)]] {
    calls(named: "SecAccessControlCreateWithFlags").filter { call in
      call.arguments.count > 2
        && !(tokenIndex(startingAt: call.name.start).map { isPutOnlyIntoSearches(creationAt: $0) } ?? false)
    }.map { call in
      var found: [(ObjCToken, [AccessControlFlag], Bool)] = []
      let expanded = expand(call.arguments[2])
      var index = 0
      while index < expanded.count {
        let token = expanded[index]
        if token.kind == .identifier, let flag = AccessControlFlag.all.first(where: { $0.objcName == token.text }) {
          found.append((token, [flag], false))
        } else if var value = ObjCIntegers.value(of: token) {
          if index + 2 < expanded.count, expanded[index + 1].text == "<<",
            let shift = ObjCIntegers.value(of: expanded[index + 2]),
            shift < 64
          {
            value <<= shift
            index += 2
          }
          found.append((token, AccessControlFlag.decode(value), true))
        }
        index += 1
      }
      return found
    }
  }

  private func isAccessibilityKey(_ key: [ObjCToken]) -> Bool {
    expand(key).contains {
      ($0.kind == .identifier && $0.text == "kSecAttrAccessible") || ($0.kind == .string && $0.text == "pdmn")
    }
  }
}

extension ObjCModel {
  /// The `key: value` entries of each `@{ ... }` literal, one list per literal.
  public var dictionaryLiterals: [[(key: [ObjCToken], value: [ObjCToken])]] {
    var literals: [[([ObjCToken], [ObjCToken])]] = []
    for index in tokens.indices where tokens[index].text == "@" {
      guard index + 1 < tokens.count, tokens[index + 1].text == "{" else { continue }
      let (inside, _) = group(from: index + 1)
      literals.append(
        split(inside, at: ",").compactMap { entry in
          let parts = split(entry, at: ":", limit: 1)
          return parts.count == 2 ? (parts[0], parts[1]) : nil
        })
    }
    return literals
  }

  /// Whether `key` (through `#define`s, with `(__bridge id)` casts) names the keychain constant.
  public func isKey(_ key: [ObjCToken], named constant: String) -> Bool {
    expand(key).contains { $0.kind == .identifier && $0.text == constant }
  }
}
