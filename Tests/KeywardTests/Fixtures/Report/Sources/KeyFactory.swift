import Security

func makeAccess(strict: Bool) -> SecAccessControl? {
    SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, strict ? .biometryCurrentSet : .biometryAny, nil)
}

func makeLegacyAccess() -> SecAccessControl? {
    SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, SecAccessControlCreateFlags(rawValue: 3), nil)
}
