import Foundation
import KeywardRules
import Testing

@testable import KeywardCore

/// A secret written in the source reaches an item's value (`kSecValueData`) through a helper's
/// parameter or a keychain-backed property wrapper: reported where the literal is written.
@Suite struct StoredValueFlowTests {
  static let rule: Set = [HardcodedKeychainSecret.metadata.id]

  static let secureStore = """
    import Security
    enum SecureStore {
        static func write(_ value: String, account: String) {
            let item: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account,
                                       kSecValueData as String: value.data(using: .utf8)!,
                                       kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly]
            SecItemAdd(item as CFDictionary, nil)
        }
        static func seedPreview() { write("pk_test_51Hx9demoKey", account: "preview") }
        static func remember(_ token: String) { write(token, account: "session") }
        static func markOnboarded() { write("true", account: "onboarded") }
    }
    """

  /// The wrapper hands what the property is set to on to the store, in another file.
  static let keychainStored = """
    @propertyWrapper
    struct KeychainStored {
        let account: String
        init(_ account: String) { self.account = account }
        var wrappedValue: String {
            get { "" }
            set { SecureStore.write(newValue, account: account) }
        }
    }
    """

  static func profile(_ assignment: String) -> String {
    """
    final class Profile {
        @KeychainStored("api") var apiKey: String
        func useDemoAccount(fetched: String) { \(assignment) }
    }
    """
  }

  func findings(_ files: [String: String]) throws -> [Finding] {
    try CrossFileContextTests.findings(files, rules: Self.rule)
  }

  @Test func aLiteralGivenToAHelperThatStoresItIsReported() throws {
    let found = try findings(["SecureStore.swift": Self.secureStore])
    #expect(found.map(\.location.place) == ["SecureStore.swift:9:39"])
    #expect(found.first?.related.last?.message == "stored as the item's value (kSecValueData) here")
  }

  @Test func aLiteralSetOnAKeychainWrappedPropertyIsReported() throws {
    let files = ["SecureStore.swift": Self.secureStore, "KeychainStored.swift": Self.keychainStored]
    let found = try findings(files.merging(["Profile.swift": Self.profile(#"apiKey = "sk_live_4eC39HqLyjWD""#)]) { $1 })
      .filter { $0.location.path == "Profile.swift" }
    #expect(found.map(\.location.place) == ["Profile.swift:3:53"])
    #expect(found.first?.related.map(\.location.path).contains("KeychainStored.swift") == true)
    // A value obtained at run time, or a marker, is not a secret in the source.
    for clean in ["apiKey = fetched", #"apiKey = "true""#] {
      let quiet = try findings(files.merging(["Profile.swift": Self.profile(clean)]) { $1 })
      #expect(!quiet.contains { $0.location.path == "Profile.swift" }, "\(clean)")
    }
    // Without the store, nothing says where the wrapper puts the value.
    let alone = [
      "KeychainStored.swift": Self.keychainStored, "Profile.swift": Self.profile(#"apiKey = "sk_live_4eC39HqLyjWD""#),
    ]
    #expect(try findings(alone).isEmpty)
    // A setter that names its value (`set(token)`) hands it on the same way.
    let named = Self.keychainStored.replacingOccurrences(
      of: "set { SecureStore.write(newValue", with: "set(token) { SecureStore.write(token")
    #expect(named != Self.keychainStored)
    let renamed = try findings(
      [
        "SecureStore.swift": Self.secureStore, "KeychainStored.swift": named,
        "Profile.swift": Self.profile(#"apiKey = "sk_live_4eC39HqLyjWD""#),
      ])
    #expect(renamed.filter { $0.location.path == "Profile.swift" }.map(\.location.place) == ["Profile.swift:3:53"])
  }

  /// An overload that passes a member of its parameter to a function of the same name (itself,
  /// by name) once lengthened the followed path without end.
  @Test(.timeLimit(.minutes(1))) func anOverloadPassingAMemberOfItsParameterOnEnds() throws {
    let store = """
      import Security
      enum Store {
          static func put(value: String, account: String) {
              var item = [String: Any]()
              item[kSecValueData as String] = value.data(using: .utf8)
              SecItemAdd(item as CFDictionary, nil)
          }
          static func put<T: KeyConvertible>(value: T, account: String) { put(value: value.keyBytes, account: account) }
          static func seed() { put(value: "sk_live_overloaded_demo", account: "api") }
      }
      """
    #expect(try findings(["Store.swift": store]).map(\.location.place) == ["Store.swift:9:37"])
  }

  /// Text or bytes converted on the way (`Data("…".utf8)`, `"…".data(using:)!`, `Data([…])`)
  /// are still the literal: reported where it is written, when the helper takes `Data`.
  @Test func aLiteralConvertedToDataOnTheWayIsReported() throws {
    let store = """
      import Security
      enum DataStore {
          static func put(_ bytes: Data, account: String) {
              let item: [String: Any] = [kSecValueData as String: bytes, kSecAttrAccount as String: account]
              SecItemAdd(item as CFDictionary, nil)
          }
          static func describe(_ bytes: Data) -> String { bytes.base64EncodedString() }
      }
      func seed() {
          DataStore.put(Data("sk_live_converted_1".utf8), account: "a")
          DataStore.put("sk_live_converted_2".data(using: .utf8)!, account: "b")
          DataStore.put(Data([0x73, 0x6b, 0x5f, 0x6c, 0x69]), account: "c")
          DataStore.put(Data([1]), account: "marker")
          _ = DataStore.describe(Data("not_stored_anywhere".utf8))
      }
      """
    let found = try findings(["DataStore.swift": store])
    #expect(found.map(\.location.place) == ["DataStore.swift:10:24", "DataStore.swift:11:19", "DataStore.swift:12:24"])
  }

  @Test func aLiteralGivenToAParameterThatIsNotTheValueIsNotReported() throws {
    // The account name is a literal too, but it is not what the item keeps secret.
    let found = try findings(["SecureStore.swift": Self.secureStore])
    #expect(!found.contains { $0.location.start.line == 10 || $0.location.start.line == 11 })
  }
}
