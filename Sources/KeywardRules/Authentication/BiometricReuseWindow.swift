import Foundation
import KeywardCore
import SwiftSyntax

/// Flags a Touch ID reuse window that lets a recent device unlock stand in for authentication.
public struct BiometricReuseWindow: Rule {
  public static let metadata = RuleMetadata(
    id: "swift.biometric_reuse_window",
    title: "Biometric authentication reused from a device unlock",
    severity: .low, confidence: .high, resource: "Authentication",
    tags: ["CWE:613", "CWE:287", "MASVS-AUTH-2"],
    profile: .standard,
    description: """
      `LAContext.touchIDAuthenticationAllowableReuseDuration` above zero lets a Touch ID unlock of \
      the device within that many seconds (up to five minutes) satisfy the app's own prompt, so \
      the user is never asked. Values above `maxReuseSeconds` (default 0) are reported, unless \
      they are set on a local context that nothing evaluates, passes on, stores or returns.
      """,
    rationale: """
      Whoever gets hold of a device the owner has just unlocked (a phone picked up, a Mac left \
      open) passes the app's biometric check without touching the sensor.
      """,
    vulnerableExample: """
      context.touchIDAuthenticationAllowableReuseDuration = LATouchIDAuthenticationMaximumAllowableReuseDuration
      """,
    remediation: "Leave the duration at 0 for anything sensitive, so that each action asks for the biometric.",
    fixedExample: """
      context.touchIDAuthenticationAllowableReuseDuration = 0
      """,
    references: [
      Reference(
        "Apple: touchIDAuthenticationAllowableReuseDuration",
        url:
          "https://developer.apple.com/documentation/localauthentication/lacontext/touchidauthenticationallowablereuseduration"
      ),
      Reference("CWE-613: Insufficient Session Expiration", url: "https://cwe.mitre.org/data/definitions/613.html"),
    ])

  public static let options = [
    OptionSpec(key: "maxReuseSeconds", summary: "Longest reuse window accepted, in seconds.", defaultValue: .int(0))
  ]

  public static let examples = RuleExamples(
    flagged: [
      // A settings value built once; a method reads its property into the context.
      """
      struct UnlockSettings {
          var graceSeconds: TimeInterval
          static let relaxed = UnlockSettings(graceSeconds: ↓45)
          func makeContext() -> LAContext {
              let context = LAContext()
              context.touchIDAuthenticationAllowableReuseDuration = graceSeconds
              return context
          }
      }
      """,
      "context.touchIDAuthenticationAllowableReuseDuration = ↓60",
      "context.touchIDAuthenticationAllowableReuseDuration = ↓LATouchIDAuthenticationMaximumAllowableReuseDuration",
      """
      let window: TimeInterval = ↓30.5
      context.touchIDAuthenticationAllowableReuseDuration = window
      """,
      RuleExample("context.touchIDAuthenticationAllowableReuseDuration = ↓120", options: ["maxReuseSeconds": .int(60)]),
      "context.touchIDAuthenticationAllowableReuseDuration = ↓5 * 60",
      """
      let minutes = 2.0
      context.touchIDAuthenticationAllowableReuseDuration = ↓TimeInterval(minutes * 60 + 1)
      """,
      """
      context.touchIDAuthenticationAllowableReuseDuration = ↓min(
        300, LATouchIDAuthenticationMaximumAllowableReuseDuration)
      """,
      "context.touchIDAuthenticationAllowableReuseDuration = ↓max(10, requested)",
      "context.touchIDAuthenticationAllowableReuseDuration = cached ?? ↓30 / 2",
      // The same local context, once it reaches the query, sets the window of the read's prompt.
      """
      func readQuery(account: String) -> [CFString: Any] {
          var query: [CFString: Any] = [kSecClass: kSecClassGenericPassword, kSecAttrAccount: account]
          let context = LAContext()
          context.localizedReason = "Read your recovery phrase"
          context.touchIDAuthenticationAllowableReuseDuration = ↓30
          query[kSecUseAuthenticationContext] = context
          return query
      }
      """,
      """
      func unlock() {
          let context = LAContext()
          context.touchIDAuthenticationAllowableReuseDuration = ↓60
          DispatchQueue.main.async { [context] in
              context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock") { _, _ in }
          }
      }
      """,
    ],
    clean: [
      // The same shape with no window; a number given to a property that sets none.
      """
      struct UnlockSettings {
          var graceSeconds: TimeInterval
          var retries: Int
          static let strict = UnlockSettings(graceSeconds: 0, retries: 5)
          func makeContext() -> LAContext {
              let context = LAContext()
              context.touchIDAuthenticationAllowableReuseDuration = graceSeconds
              return context
          }
      }
      """,
      "context.touchIDAuthenticationAllowableReuseDuration = 0",
      // A context configured and then forgotten: no prompt uses its window.
      """
      func writeQuery(account: String) -> [CFString: Any] {
          var query: [CFString: Any] = [kSecClass: kSecClassGenericPassword, kSecAttrAccount: account]
          let context = LAContext()
          context.touchIDAuthenticationAllowableReuseDuration = 30
          query[kSecAttrAccessible] = kSecAttrAccessibleWhenUnlocked
          return query
      }
      """,
      RuleExample("context.touchIDAuthenticationAllowableReuseDuration = 10", options: ["maxReuseSeconds": .int(10)]),
      "let reuse = context.touchIDAuthenticationAllowableReuseDuration",
      "context.touchIDAuthenticationAllowableReuseDuration = min(10, requested)",
      "context.touchIDAuthenticationAllowableReuseDuration = 60 - 60",
      "context.touchIDAuthenticationAllowableReuseDuration = 61 % 60",
      """
      var window = 0.0
      window = window * 2
      context.touchIDAuthenticationAllowableReuseDuration = window
      """,
    ])

  /// Besides the property itself, words naming a window where a settings value is built in
  /// another file than the one setting the context (`UnlockSettings(graceSeconds: 45)`).
  public static func prefilterTokens(options: RuleOptions) -> [String] {
    [
      "touchIDAuthenticationAllowableReuseDuration", "grace", "Grace", "ReuseDuration", "reuseDuration", "ReuseWindow",
      "reuseWindow",
    ]
  }

  /// "grace" in prose or a word list (`gracefully`, `"grace"`, `grab grace grain`) names no
  /// window: a file is parsed for this rule only if it holds the property, a reuse word, or
  /// "grace" as code (part of a name, `gracePeriod`, `kGrace`; or a name of its own followed by
  /// `:`, `=`, `)`, `,` or `.`).
  public static func mayReport(in bytes: [UInt8], options: RuleOptions) -> Bool {
    let named = [
      "touchIDAuthenticationAllowableReuseDuration", "ReuseDuration", "reuseDuration", "ReuseWindow", "reuseWindow",
    ]
    if ByteSearch.containsAny(named, in: bytes) { return true }
    func isNameByte(_ byte: UInt8) -> Bool {
      (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
    }
    let prose = Array("ful".utf8)
    let follows = Set(":=),.".utf8)
    return bytes.withUnsafeBufferPointer { buffer in
      ["grace", "Grace"].contains { word in
        let needle = Array(word.utf8)
        var start = 0
        while let hit = ByteSearch.firstIndex(of: needle, in: buffer, from: start) {
          var after = hit + needle.count
          start = after
          if after + prose.count <= buffer.count && buffer[after..<(after + prose.count)].elementsEqual(prose) {
            continue
          }
          if (hit > 0 && isNameByte(buffer[hit - 1])) || (after < buffer.count && isNameByte(buffer[after])) {
            return true
          }
          while after < buffer.count && buffer[after] == UInt8(ascii: " ") { after += 1 }
          if after < buffer.count && follows.contains(buffer[after]) { return true }
        }
        return false
      }
    }
  }

  public static let valueSinks: [ValueSink] = [.reuseDuration]

  public static func check(_ context: RuleContext) {
    let limit = Double(context.options.int("maxReuseSeconds"))
    let model = context.model
    for (target, value) in model.index.memberAssignmentsByName["touchIDAuthenticationAllowableReuseDuration"] ?? [] {
      // A window on a context that nothing evaluates or passes on affects no prompt.
      if let base = target.base, model.isUnusedLocalContext(base) { continue }
      for window in model.resolver.numbers(of: value, constants: systemConstants) where window.atLeast > limit {
        // A lower bound at the system's cap is the cap itself.
        let seconds = Int(min(window.atLeast, systemMaximum))
        let span =
          window.isExact || window.atLeast >= systemMaximum ? "\(seconds) seconds" : "\(seconds) seconds or more"
        context.report(window.expression, message: message(seconds: seconds, span: span))
      }
    }
    reportPassedWindows(context, limit: limit)
  }

  /// A number passed to a function or type whose parameter or property becomes a context's
  /// reuse window.
  static func reportPassedWindows(_ context: RuleContext, limit: Double) {
    let literals = context.model.handedValues {
      $0.is(IntegerLiteralExprSyntax.self) || $0.is(FloatLiteralExprSyntax.self)
    }
    context.reportPassed(literals, to: .reuseDuration) { atom, call in
      guard let window = context.model.resolver.numbers(of: atom, constants: systemConstants).first,
        window.isExact, window.atLeast > limit
      else { return nil }
      return (
        message(seconds: Int(min(window.atLeast, systemMaximum)), span: nil)
          + " (\(call.destination), which sets it as a context's reuse window.)", nil
      )
    }
  }

  static func message(seconds: Int, span: String?) -> String {
    "A Touch ID unlock of the device in the last \(span ?? "\(seconds) seconds") will satisfy this prompt, so whoever gets hold of the recently unlocked device passes without touching the sensor. Keep the reuse duration at 0 for sensitive actions."
  }

  /// The system's cap on the window, five minutes; longer values act as this.
  static let systemMaximum = 300.0
  static let systemConstants = ["LATouchIDAuthenticationMaximumAllowableReuseDuration": systemMaximum]
}
