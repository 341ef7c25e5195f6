import KeywardCore
import KeywardRules
import Testing

/// Messages that depend on what the code does, beyond the location the examples check.
@Suite struct RuleMessageTests {
  static func failOpenMessage(policy: String, profile: Profile = .standard) -> [String] {
    let code = """
      func canOpen() -> Bool {
          var error: NSError?
          guard LAContext().canEvaluatePolicy(\(policy), error: &error) else { return true }
          return false
      }
      """
    return Scan.findings(code, rule: LocalAuthFailOpen.self, profile: profile).map(\.message)
  }

  /// A read that fails is not an add that fails: each call's message names its own failures.
  @Test func uncheckedStatusSpeaksOfTheCallItIs() {
    let read = Scan.findings("SecItemCopyMatching(query as CFDictionary, &result)", rule: StatusUnchecked.self)
    let add = Scan.findings("SecItemAdd(query as CFDictionary, nil)", rule: StatusUnchecked.self)
    #expect(read.count == 1 && add.count == 1)
    #expect(read.allSatisfy { $0.message.contains("as if it had read the item") && !$0.message.contains("duplicate") })
    #expect(add.allSatisfy { $0.message.contains("as if the item were stored") && $0.message.contains("duplicate") })
  }

  /// Dropping the attribute is not the whole fix when the access control carries a weak class.
  @Test func conflictingAttributesNameTheAccessControlsWeakClass() {
    func message(protection: String) -> [String] {
      let code = """
        func save(_ data: Data) {
            let access = SecAccessControlCreateWithFlags(nil, \(protection), .biometryCurrentSet, nil)!
            let query: [String: Any] = [kSecValueData as String: data, kSecAttrAccessControl as String: access,
                                        kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly]
            SecItemAdd(query as CFDictionary, nil)
        }
        """
      return Scan.findings(code, rule: ConflictingAttributes.self).map(\.message)
    }
    let weak = message(protection: "kSecAttrAccessibleAlways")
    let strong = message(protection: "kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly")
    #expect(weak.count == 1 && weak.allSatisfy { $0.contains("which it carries now") })
    #expect(strong.count == 1 && strong.allSatisfy { $0.contains("Pass the accessibility to") })
  }

  /// A passcode-accepting gate is not told to bind a biometric-only item.
  @Test func eventBoundAdviceMatchesThePolicy() {
    func message(_ policy: String) -> [String] {
      let code = """
        func unlock() {
            LAContext().evaluatePolicy(\(policy), localizedReason: "Unlock") { ok, _ in if ok { self.showVault() } }
        }
        """
      return Scan.findings(code, rule: EventBoundBiometricAuth.self).map(\.message)
    }
    let passcode = message(".deviceOwnerAuthentication")
    let biometric = message(".deviceOwnerAuthenticationWithBiometrics")
    #expect(passcode.count == 1 && passcode.allSatisfy { $0.contains("`.userPresence` accepts") })
    #expect(biometric.count == 1 && biometric.allSatisfy { $0.contains("(`.biometryCurrentSet`)") })
  }

  /// `.touchIDCurrentSet` → `.biometryCurrentSet` keeps the same value; `.biometryAny` →
  /// `.biometryCurrentSet` changes what the item survives. Only the second is held back.
  @Test func onlyFixesThatChangeMeaningAreMarkedAsChangingBehaviour() {
    let code = "let access = SecAccessControlCreateWithFlags(nil, protection, [.touchIDCurrentSet, .biometryAny], nil)"
    let renamed = Scan.findings(code, rule: DeprecatedSecurityAPI.self).compactMap(\.fix)
    let strengthened = Scan.findings(code, rule: WeakBiometricACL.self).compactMap(\.fix)
    #expect(renamed.count == 1 && renamed.allSatisfy { !$0.changesBehavior })
    #expect(strengthened.count == 1 && strengthened.allSatisfy(\.changesBehavior))
  }

  @Test func failOpenSaysWhoTakesThePath() {
    let passcode = Self.failOpenMessage(policy: ".deviceOwnerAuthentication", profile: .strict)
    // Its holder could set a passcode and pass: only the strict profile reports it, and says so.
    #expect(Self.failOpenMessage(policy: ".deviceOwnerAuthentication").isEmpty)
    #expect(passcode.allSatisfy { $0.contains("could also set a passcode") })
    let biometrics = Self.failOpenMessage(policy: ".deviceOwnerAuthenticationWithBiometrics")
    #expect(passcode.count == 1 && biometrics.count == 1)
    #expect(passcode.allSatisfy { $0.contains("when the device has no passcode: on a device without a passcode") })
    #expect(biometrics.allSatisfy { $0.contains("when biometrics cannot be evaluated: whoever cancels the prompt") })
    // A watch policy fails without a paired watch, not without a passcode.
    let watch = Self.failOpenMessage(policy: ".deviceOwnerAuthenticationWithWatch")
    #expect(watch.count == 1 && watch.allSatisfy { !$0.contains("no passcode") })
  }

  @Test func failOpenSaysAReplyIgnoresTheResult() {
    let code = """
      context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock") { _, _ in
          self.isUnlocked = true
      }
      """
    let messages = Scan.findings(code, rule: LocalAuthFailOpen.self).map(\.message)
    #expect(messages.count == 1)
    #expect(messages.allSatisfy { $0.contains("whatever the outcome (the reply ignores `success` and `error`)") })
  }
}
