import Foundation
import KeywardRules
import Testing

@testable import KeywardCore

/// A secret handed to a helper of the same file that writes what it is given to preferences is
/// reported where it is handed, with the way to the write; a write that names the secret itself
/// is the one finding.
@Suite struct PreferencesFlowTests {
  static let rule: Set = [CleartextStoragePreferences.metadata.id]

  /// A store whose helpers write to `UserDefaults`, and a method handing them `body`'s values.
  static func storage(_ body: String) -> String {
    """
    import Foundation
    final class AccountStorage {
        func set(value: Any?, for key: String) { UserDefaults.standard.set(value, forKey: key) }
        func rememberToken(_ token: String) { UserDefaults.standard.set(token, forKey: "refreshToken") }
        func signedIn(accessToken: String, region: String) {
            \(body)
        }
    }
    """
  }

  func findings(_ body: String) throws -> [Finding] {
    try CrossFileContextTests.findings(["AccountStorage.swift": Self.storage(body)], rules: Self.rule)
  }

  @Test func aSecretHandedToAHelperIsReportedWhereItIsHanded() throws {
    let found = try findings(#"set(value: accessToken, for: "subscription")"#)
    #expect(found.map(\.location.place) == ["AccountStorage.swift:4:69", "AccountStorage.swift:6:20"])
    let handed = try #require(found.last)
    #expect(handed.message.contains("`set(value:for:)`"))
    #expect(handed.related.map(\.location.start.line) == [3, 3])
    #expect(handed.related.last?.message == "written to UserDefaults here")
  }

  @Test func aSettingHandedToTheHelperIsNotReported() throws {
    #expect(
      try findings(#"set(value: region, for: "storeRegion")"#).map(\.location.place) == ["AccountStorage.swift:4:69"])
  }

  @Test func aWriteThatNamesTheSecretItselfIsTheOneFinding() throws {
    #expect(try findings("rememberToken(accessToken)").map(\.location.place) == ["AccountStorage.swift:4:69"])
  }
}
