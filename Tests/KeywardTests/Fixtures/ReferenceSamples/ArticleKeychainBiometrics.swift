// From the article "Using the iOS Keychain with Biometrics": creating an access control with
// the parameters the article describes, adding an item with it, and reading it back.
import Foundation
import Security

func addItem() {
    let accessControl = SecAccessControlCreateWithFlags(nil,
        kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
        ↓.userPresence,
        nil)

    let query = [
      kSecClass: kSecClassInternetPassword,
      kSecAttrAccount: "andyibanez",
      kSecValueData: ↓"Pullip2020".data(using: .utf8)!,
      kSecAttrServer: "",
      kSecAttrAccessControl: accessControl as Any,
      kSecReturnData: true
    ] as CFDictionary

    var result: AnyObject?
    let status = ↓SecItemAdd(query, &result)
}

func searchItems() {
    let searchQuery = [
      kSecClass: kSecClassInternetPassword,
      kSecAttrAccount: "",
      kSecAttrServer: "",
      kSecMatchLimit: kSecMatchLimitOne,
      kSecReturnData: true,
      kSecReturnAttributes: true,
      ↓kSecUseOperationPrompt: "Access your data"
    ] as CFDictionary

    var item: AnyObject?
    let status = ↓SecItemCopyMatching(searchQuery, &item)
}
