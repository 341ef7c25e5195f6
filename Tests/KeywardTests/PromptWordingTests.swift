import KeywardCore
import SwiftParser
import Testing

/// What an `evaluatePolicy` prompt asks the user to confirm, read from its literal or from the
/// key of its localized string.
@Suite struct PromptWordingTests {
  /// Whether the one evaluation of `reason` confirms a deletion and a lock setting.
  static func judged(_ reason: String) -> (deletion: Bool, lockSetting: Bool) {
    let code = """
      let context = LAContext()
      context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: \(reason)) { ok, _ in finish(ok) }
      """
    let evaluation = SemanticModel(tree: Parser.parse(source: code)).policyEvaluations[0]
    return (evaluation.confirmsDeletion, evaluation.confirmsLockSetting)
  }

  @Test(arguments: [
    #""Authenticate to delete your key pair""#, #""Leave the \(team.name) team?""#,
    #"NSLocalizedString("EraseAllNotes", comment: "")"#, #"String(localized: "Remove this wallet")"#,
    #""wipe_device_data".localize()"#, #""DeleteAccountPrompt".localized"#,
  ])
  func deletionsAreConfirmations(_ reason: String) {
    #expect(Self.judged(reason) == (true, false))
  }

  /// A prompt that also shows, exports or opens something, or whose text is not in the source.
  @Test(arguments: [
    #""View and delete your recovery phrase""#, #""Delete and export your keys""#, #""Unlock to remove items""#,
    #""Approve the transfer""#, "reasonText", #"NSLocalizedString(key, comment: "")"#,
    #"String(format: "Delete %@", name)"#,
  ])
  func otherPromptsAreNot(_ reason: String) {
    #expect(Self.judged(reason).deletion == false)
  }

  @Test(arguments: [
    #""Enable Face ID""#, #"NSLocalizedString("DisableAppLock", comment: "")"#, #""Turn off Touch ID""#,
  ])
  func lockSettingsAreReadFromLiteralsAndKeys(_ reason: String) {
    #expect(Self.judged(reason) == (false, true))
  }
}
