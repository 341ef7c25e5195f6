let name = "café"
let q = [kSecAttrAccessible: kSecAttrAccessibleAlways]
