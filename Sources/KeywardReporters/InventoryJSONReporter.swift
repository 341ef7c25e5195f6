import KeywardCore

/// The versioned JSON inventory: `{"version": 1, "tool": ..., "keychainItems": [...],
/// "localAuthenticationGates": [...], "binaries": [...], "errors": [...]}`. Paths are relative
/// to the scan root; records are ordered by path, line and column. Every key is present in
/// every record (`null` when unknown), so the shape does not depend on the code scanned.
public struct InventoryJSONReporter {
  public static let formatVersion = 1

  public init() {}

  public func render(_ inventory: Inventory) -> String {
    JSONValue.object([
      "version": .int(Self.formatVersion),
      "tool": .object(["name": .string("keyward"), "version": .string(KeywardVersion.current)]),
      "filesScanned": .int(inventory.filesScanned),
      "keychainItems": .array(inventory.keychainItems.map(Self.json)),
      "localAuthenticationGates": .array(inventory.gates.map(Self.json)),
      "binaries": .array(inventory.binaries.map(Self.json)),
      "errors": .array(inventory.errors.map(Self.json)),
    ]).rendered()
  }

  static func json(_ item: KeychainItemRecord) -> JSONValue {
    .object(
      place(item.place).merging([
        "language": .string(item.language.rawValue),
        "kind": .string(item.kind.rawValue),
        "call": .string(item.call),
        "itemClass": optional(item.itemClass),
        "keyType": optional(item.keyType),
        "keySizeInBits": item.keySizeInBits.map(JSONValue.int) ?? .null,
        "tokenID": optional(item.tokenID),
        "service": optional(item.service),
        "account": optional(item.account),
        "applicationTag": optional(item.applicationTag),
        "accessGroup": optional(item.accessGroup),
        "accessibility": .array(item.accessibility.map(JSONValue.string)),
        "accessControl": item.accessControl.map { control in
          .object([
            "protection": .array(control.protection.map(JSONValue.string)),
            "flags": .array(control.flags.map(JSONValue.string)),
            "resolved": .bool(control.resolved),
          ])
        } ?? .null,
        "synchronizable": optional(item.synchronizable?.rawValue),
        "dataProtectionKeychain": optional(item.dataProtectionKeychain?.rawValue),
        "wrapper": optional(item.wrapper),
        "attributesComplete": .bool(item.attributesComplete),
        "origin": .string(item.origin.rawValue),
        "buildCondition": optional(item.buildCondition?.rawValue),
      ]) { $1 })
  }

  static func json(_ gate: AuthenticationGateRecord) -> JSONValue {
    .object(
      place(gate.place).merging([
        "language": .string(gate.language.rawValue),
        "call": .string("evaluatePolicy"),
        "policies": .array(gate.policies.map(JSONValue.string)),
        "binding": .string(gate.binding.rawValue),
        "bindingNote": optional(gate.bindingNote),
        "origin": .string(gate.origin.rawValue),
        "buildCondition": optional(gate.buildCondition?.rawValue),
      ]) { $1 })
  }

  static func json(_ binary: BinaryInventoryRecord) -> JSONValue {
    .object([
      "path": .string(binary.path),
      "bundleIdentifier": optional(binary.bundleIdentifier),
      "files": .array(
        binary.files.map { file in
          .object([
            "path": .string(file.path),
            "bundle": file.bundle.map { bundle in
              .object([
                "kind": .string(bundle.kind.rawValue), "name": .string(bundle.name),
                "identifier": optional(bundle.identifier), "version": optional(bundle.version),
              ])
            } ?? .null,
            "architectures": .array(file.architectures.map(JSONValue.string)),
            "frameworks": .array(file.frameworks.map(JSONValue.string)),
            "linkedLibraries": .array(file.linkedLibraries.map(JSONValue.string)),
          ])
        }),
    ])
  }

  static func json(_ issue: ScanIssue) -> JSONValue {
    .object([
      "path": .string(issue.path), "kind": .string(issue.kind.rawValue), "message": .string(issue.message),
      "line": issue.line.map(JSONValue.int) ?? .null, "column": issue.column.map(JSONValue.int) ?? .null,
    ])
  }

  private static func place(_ place: InventoryPlace) -> [String: JSONValue] {
    ["path": .string(place.path), "line": .int(place.line), "column": .int(place.column)]
  }

  private static func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
}
