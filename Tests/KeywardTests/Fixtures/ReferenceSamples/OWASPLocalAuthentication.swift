// From the OWASP testing guide chapter on iOS local authentication: the Security.framework
// sample (store a password behind Touch ID for the currently enrolled fingers, then read it).
import Foundation
import LocalAuthentication
import Security

func saveProtectedPassword() {
    var error: Unmanaged<CFError>?

    guard let accessControl = SecAccessControlCreateWithFlags(kCFAllocatorDefault,
        kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
        ↓.touchIDCurrentSet,
        &error) else {
        return
    }

    var query: Dictionary<String, Any> = [:]

    query[kSecClass as String] = kSecClassGenericPassword
    query[kSecAttrLabel as String] = "com.me.myapp.password" as CFString
    query[kSecAttrAccount as String] = "OWASP Account" as CFString
    query[kSecValueData as String] = ↓"S00p3r_haCk3r_strong_password".data(using: .utf8)! as CFData
    query[kSecAttrAccessControl as String] = accessControl

    let status = SecItemAdd(query as CFDictionary, nil)

    if status == noErr {
        // successfully saved
    } else {
        // error while saving
    }
}

func readProtectedPassword() {
    var query = [String: Any]()
    query[kSecClass as String] = kSecClassGenericPassword
    query[kSecReturnData as String] = kCFBooleanTrue
    query[kSecAttrAccount as String] = "My Name" as CFString
    query[kSecAttrLabel as String] = "com.me.myapp.password" as CFString
    query[↓kSecUseOperationPrompt as String] = "Please, pass authorisation to enter this area" as CFString

    var queryResult: AnyObject?
    let status = withUnsafeMutablePointer(to: &queryResult) {
        SecItemCopyMatching(query as CFDictionary, UnsafeMutablePointer($0))
    }

    if status == noErr {
        let password = String(data: queryResult as! Data, encoding: .utf8)!
    } else {
        // authorization not passed
    }
}

func checkPolicy() {
    let context = LAContext()
    var error: NSError?

    guard context.canEvaluatePolicy(.deviceOwnerAuthentication, error: &error) else {
        return
    }

    context.↓evaluatePolicy(↓.deviceOwnerAuthentication, localizedReason: "Please, pass authorization to enter this area") { success, evaluationError in
        guard success else {
            return
        }
    }
}
