import Security

func broken( {
    let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .touchIDAny, nil)
}
