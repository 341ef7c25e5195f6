import KeywardCore
import KeywardRules
import Testing

/// A rule's last look at a file's bytes before it is parsed for it: files that cannot hold a
/// finding are not parsed, and files that can always are.
@Suite struct MayReportTests {
  func mayReport(_ rule: any Rule.Type, _ text: String) -> Bool {
    let configured = Configuration().configuredRules(from: .standard).first { $0.metadata.id == rule.metadata.id }!
    return rule.mayReport(in: Array(text.utf8), options: configured.options)
  }

  @Test func graceIsAWindowOnlyAsCode() {
    for code in [
      "let settings = UnlockSettings(graceSeconds: 45)", "static let kGrace = 30", "init(grace: TimeInterval)",
      "let grace = 60", "context.touchIDAuthenticationAllowableReuseDuration = 10", "var reuseWindow = 5",
    ] {
      #expect(mayReport(BiometricReuseWindow.self, code), "\(code)")
    }
    for prose in [
      "// fails gracefully when offline", "let words = \"grab grace grain\"", "let word = \"grace\"",
      "/* a graceful shutdown */",
    ] {
      #expect(!mayReport(BiometricReuseWindow.self, prose), "\(prose)")
    }
  }

  @Test func preferencesAreJudgedOnlyWhereTheyAreWritten() {
    #expect(mayReport(CleartextStoragePreferences.self, #"UserDefaults.standard.set(token, forKey: "authToken")"#))
    #expect(mayReport(CleartextStoragePreferences.self, #"@AppStorage("apiKey") var key = """#))
    #expect(
      !mayReport(CleartextStoragePreferences.self, #"let token = UserDefaults.standard.string(forKey: "authToken")"#))
    #expect(!mayReport(CleartextStoragePreferences.self, #"UserDefaults.standard.set(true, forKey: "onboarded")"#))
    #expect(mayReport(ObjCCleartextStoragePreferences.self, #"[defaults setObject:password forKey:@"password"];"#))
    #expect(
      !mayReport(ObjCCleartextStoragePreferences.self, #"NSString *password = [defaults stringForKey:@"password"];"#))
  }
}
