import Foundation

#if canImport(Security)
  import Security

  /// A token store with one weakness for the plugins to find.
  public struct TokenStore {
    public init() {}

    public func save(_ token: Data) -> OSStatus {
      let query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword,
        kSecAttrAccount as String: "token",
        kSecValueData as String: token,
        kSecAttrAccessible as String: kSecAttrAccessibleAlways,
      ]
      return SecItemAdd(query as CFDictionary, nil)
    }
  }
#else
  /// On Linux there is no Security framework; the keychain code above is still scanned.
  public struct TokenStore {
    public init() {}
  }
#endif
