import Security

/// Tokens for the widget 🔐 extension.
struct TokenStore {
    static let widgetAccessibility = kSecAttrAccessibleAlwaysThisDeviceOnly

    func save(_ data: Data) {
        let query: [String: Any] = [kSecValueData as String: data, /* ключ */ kSecAttrAccessible as String: kSecAttrAccessibleAlways]
        SecItemAdd(query as CFDictionary, nil)
    }

    func saveForWidget(_ data: Data) {
        var query: [String: Any] = [kSecValueData as String: data]
        query[kSecAttrAccessible as String] = Self.widgetAccessibility
        SecItemAdd(query as CFDictionary, nil)
    }
}
