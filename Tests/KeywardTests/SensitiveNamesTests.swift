import KeywardCore
import Testing

/// Reading names as evidence of a secret: words, vetoes, and the byte-level check that decides
/// whether a file can name a secret at all.
@Suite struct SensitiveNamesTests {
  let patterns = SensitiveNames.defaultPatterns

  @Test func namesSplitIntoWords() {
    #expect(SensitiveNames.nameWords("isPasswordSet") == ["is", "password", "set"])
    #expect(SensitiveNames.nameWords("APNSToken") == ["apns", "token"])
    #expect(SensitiveNames.nameWords("refresh_token") == ["refresh", "token"])
    #expect(SensitiveNames.nameWords("erc20Balance") == ["erc20", "balance"])
    #expect(SensitiveNames.nameWords("openAIAPIKey") == ["open", "ai", "api", "key"])
    #expect(SensitiveNames.nameWords("APIKey") == ["api", "key"])
  }

  @Test func aNameIsReadAsAWhole() {
    #expect(SensitiveNames.matches("refreshToken", patterns: patterns))
    #expect(SensitiveNames.matches("user_password", patterns: patterns))
    #expect(!SensitiveNames.matches("isPasswordSet", patterns: patterns))
    #expect(!SensitiveNames.matches("pushDeviceToken", patterns: patterns))
    #expect(!SensitiveNames.matches("tokenBalance", patterns: patterns))
    // A limit on a model's output tokens is a number.
    #expect(!SensitiveNames.matches("llm.max_tokens", patterns: patterns))
    #expect(!SensitiveNames.matches("maxPasswordAge", patterns: patterns))
    // The host a cookie is cleared for, and an amount formatted for display.
    #expect(!SensitiveNames.matches("SEAF_COOKIE_CLEAR_HOST", patterns: patterns))
    #expect(!SensitiveNames.matches("tokenFormattedString", patterns: patterns))
    // A screen element is what a name is about only as its last part.
    #expect(!SensitiveNames.matches("passwordField", patterns: patterns))
    #expect(SensitiveNames.matches("easyViewPassword", patterns: patterns))
    // A certificate is public; the password of one is a password.
    #expect(!SensitiveNames.matches("tokenSigningCertificate", patterns: patterns))
    #expect(SensitiveNames.matches("certificatePassword", patterns: patterns))
    #expect(SensitiveNames.matches("sslClientCertPassphrase", patterns: patterns))
    // Abbreviations and recovery words name secrets too; a count of them does not.
    #expect(SensitiveNames.matches("signerPrivkey", patterns: patterns))
    #expect(SensitiveNames.matches("walletMnemonic", patterns: patterns))
    #expect(!SensitiveNames.matches("mnemonicWordCount", patterns: patterns))
    // Push and asset words veto a token, not a password.
    #expect(SensitiveNames.matches("devicePassword", patterns: patterns))
  }

  @Test func oneNonSecretKindVetoesTheKeysWord() {
    #expect(SensitiveNames.secretWord(in: ["token", "fcmToken"], patterns: patterns) == nil)
    #expect(SensitiveNames.secretWord(in: ["token", "session"], patterns: patterns) == "token")
  }

  @Test(arguments: [
    ("let k = API_KEY", true), ("defaults.set(apiKey, forKey: k)", true), ("\"user password\"", true),
    ("var PassCode = 1", true), ("UserDefaults.standard.set(theme, forKey: \"themeColor\")", false),
  ])
  func aFileCanNameASecretOnlyIfItsBytesDo(_ text: String, _ expected: Bool) {
    #expect(SensitiveNames.mayAppear(in: Array(text.utf8), patterns: patterns) == expected)
  }
}
