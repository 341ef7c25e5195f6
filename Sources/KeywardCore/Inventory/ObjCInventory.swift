/// The inventory of an Objective-C file, as far as the token model sees it: the `@{ ... }`
/// dictionary literals that hold an item's data or protection in a file that adds, updates or
/// generates keychain items, and the `evaluatePolicy:` messages. Dictionaries built with
/// `setObject:forKey:` and access controls made elsewhere are not followed.
extension ObjCModel {
  static let storingCalls = ["SecItemAdd", "SecItemUpdate", "SecKeyCreateRandomKey", "SecKeyGeneratePair"]

  public func inventory(place: (Int) -> InventoryPlace) -> FileInventory {
    FileInventory(keychainItems: itemRecords(place: place), gates: gateRecords(place: place))
  }

  private func itemRecords(place: (Int) -> InventoryPlace) -> [KeychainItemRecord] {
    let storing = Self.storingCalls.flatMap { name in calls(named: name).map { (name, $0.name.start) } }
      .sorted { $0.1 < $1.1 }
    guard !storing.isEmpty else { return [] }
    var records: [KeychainItemRecord] = []
    for index in analyzed.indices where analyzed[index].text == "@" {
      guard index + 1 < analyzed.count, analyzed[index + 1].text == "{" else { continue }
      let (inside, _) = group(from: index + 1)
      var entries: [String: [ObjCToken]] = [:]
      for entry in split(inside, at: ",") {
        let parts = split(entry, at: ":", limit: 1)
        guard parts.count == 2, let key = keyName(parts[0]) else { continue }
        entries[key] = expand(parts[1])
      }
      let searches = entries["kSecReturnData"] != nil || entries["kSecMatchLimit"] != nil
      let holdsItem =
        entries["kSecValueData"] != nil || entries["kSecAttrKeyType"] != nil
        || (!searches && (entries["kSecAttrAccessible"] != nil || entries["kSecAttrAccessControl"] != nil))
      guard holdsItem, !searches else { continue }
      let start = analyzed[index].start
      let call = storing.first { $0.1 > start }?.0 ?? storing.last!.0
      let isKey = call.hasPrefix("SecKey")
      var record = KeychainItemRecord(
        place: place(start), language: .objectiveC, kind: isKey ? .key : .item, call: call)
      let identifiers = { (key: String) in entries[key]?.filter { $0.kind == .identifier }.map(\.text) ?? [] }
      let strings = { (key: String) in entries[key]?.filter { $0.kind == .string }.map(\.text) ?? [] }
      record.itemClass = identifiers("kSecClass").first { $0.hasPrefix("kSecClass") } ?? (isKey ? "kSecClassKey" : nil)
      record.keyType = identifiers("kSecAttrKeyType").first { $0.hasPrefix("kSecAttrKeyType") }
      record.tokenID = identifiers("kSecAttrTokenID").first { $0.hasPrefix("kSecAttrTokenID") }
      record.service = Self.only(strings("kSecAttrService"))
      record.account = Self.only(strings("kSecAttrAccount"))
      record.applicationTag = Self.only(strings("kSecAttrApplicationTag"))
      record.accessGroup = Self.only(strings("kSecAttrAccessGroup"))
      var accessibility = Set(identifiers("kSecAttrAccessible").filter { AccessibilityClass.named($0) != nil })
      for raw in strings("kSecAttrAccessible") {
        if let value = AccessibilityClass.all.first(where: { $0.rawValue == raw }) { accessibility.insert(value.name) }
      }
      record.accessibility = accessibility.sorted()
      if entries["kSecAttrAccessControl"] != nil {
        record.accessControl = AccessControlRecord(protection: [], flags: [], resolved: false)
      }
      record.synchronizable = entries["kSecAttrSynchronizable"].map(Self.setting)
      record.dataProtectionKeychain = entries["kSecUseDataProtectionKeychain"].map(Self.setting)
      records.append(record)
    }
    return records
  }

  /// The keychain key an entry's key tokens name (through `#define`s and bridging casts).
  private func keyName(_ key: [ObjCToken]) -> String? {
    let expanded = expand(key)
    if let name = expanded.last(where: { $0.kind == .identifier && $0.text.hasPrefix("kSec") })?.text { return name }
    return expanded.first { $0.kind == .string }.flatMap { KeychainKeys.rawValues[$0.text] }
  }

  private static func only(_ values: [String]) -> String? { Set(values).count == 1 ? values.first : nil }

  private static func setting(_ tokens: [ObjCToken]) -> AttributeSetting {
    let words = Set(tokens.map(\.text))
    if !words.isDisjoint(with: ["YES", "true", "kCFBooleanTrue"]) { return .true }
    if !words.isDisjoint(with: ["NO", "false", "kCFBooleanFalse"]) { return .false }
    return .unresolved
  }

  /// `evaluatePolicy:` messages. In Objective-C the file is the unit: its gates are
  /// keychain-bound when it passes a context as `kSecUseAuthenticationContext` and protects
  /// items with `SecAccessControlCreateWithFlags`.
  private func gateRecords(place: (Int) -> InventoryPlace) -> [AuthenticationGateRecord] {
    let binding: AuthenticationGateRecord.Binding = bindsEvaluationsToKeychain ? .keychainBound : .eventBound
    return policyEvaluations.map { evaluation in
      AuthenticationGateRecord(
        place: place(evaluation.part.start), language: .objectiveC,
        policies: Set(evaluation.policies.map(\.policy.name)).sorted(), binding: binding)
    }
  }
}
