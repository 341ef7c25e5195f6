import Security

func makeAccess() -> SecAccessControl? {
    SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, Settings.strict ? .biometryCurrentSet : .biometryAny, nil)
}

func makeLegacyAccess() -> SecAccessControl? {
    SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, SecAccessControlCreateFlags(rawValue: 3), nil)
}
