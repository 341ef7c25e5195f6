import Foundation
import KeywardCore

/// The inventory as a CycloneDX 1.6 bill of materials with cryptographic assets (CBOM):
/// - each keychain item or key: a `cryptographic-asset` of type `related-crypto-material`
///   (`password`, `private-key`, `key`…), its key algorithm as an `algorithm` asset, where the
///   code writes it as `evidence.occurrences`, and the rest as `keyward:` properties;
/// - each LocalAuthentication gate: a `framework` component (LocalAuthentication) with its
///   occurrence, policy and binding;
/// - each built app's Mach-O files and the frameworks they link, with `dependencies`.
/// Files that could not be read are listed as `keyward:error` properties of the metadata.
public struct CycloneDXReporter {
  public static let specVersion = "1.6"

  /// Fixed values instead of a fresh serial number and the time (the command line takes
  /// `SOURCE_DATE_EPOCH` for the time), for reproducible output.
  public var serialNumber: String?
  public var timestamp: Date?

  public init(serialNumber: String? = nil, timestamp: Date? = nil) {
    self.serialNumber = serialNumber
    self.timestamp = timestamp
  }

  public func render(_ inventory: Inventory) -> String {
    var refs = UniqueRefs()
    var components: [JSONValue] = []
    var algorithms: [String: JSONValue] = [:]
    for item in inventory.keychainItems {
      let algorithm = Self.algorithm(of: item)
      if let algorithm { algorithms[algorithm.ref] = algorithm.component }
      components.append(
        Self.component(item, ref: refs.make("keychain-item:\(Self.place(item.place))"), algorithm: algorithm?.ref))
    }
    for gate in inventory.gates {
      components.append(Self.component(gate, ref: refs.make("local-authentication-gate:\(Self.place(gate.place))")))
    }
    var dependencies: [JSONValue] = []
    var frameworks: Set<String> = []
    for binary in inventory.binaries {
      for file in binary.files {
        let ref = refs.make("binary:\(binary.path)" + (file.path.isEmpty ? "" : "/\(file.path)"))
        components.append(Self.component(file, in: binary, ref: ref))
        frameworks.formUnion(file.frameworks)
        dependencies.append(
          .object(["ref": .string(ref), "dependsOn": .array(file.frameworks.map { .string("framework:\($0)") })]))
      }
    }
    components += algorithms.keys.sorted().map { algorithms[$0]! }
    components += frameworks.sorted().map { name in
      .object(["type": .string("framework"), "bom-ref": .string("framework:\(name)"), "name": .string(name)])
    }
    var metadataProperties: [JSONValue] = [Self.property("keyward:files-scanned", String(inventory.filesScanned))]
    metadataProperties += inventory.errors.map { issue in
      Self.property(
        "keyward:error",
        [issue.path, issue.line.map(String.init), issue.column.map(String.init)].compactMap { $0 }.joined(
          separator: ":")
          + ": " + issue.message)
    }
    var document: [String: JSONValue] = [
      "$schema": .string("http://cyclonedx.org/schema/bom-1.6.schema.json"),
      "bomFormat": .string("CycloneDX"),
      "specVersion": .string(Self.specVersion),
      "serialNumber": .string(serialNumber ?? "urn:uuid:" + UUID().uuidString.lowercased()),
      "version": .int(1),
      "metadata": .object([
        "timestamp": .string(ScanRecord.timestamp(timestamp ?? Date())),
        "tools": .object([
          "components": .array([
            .object([
              "type": .string("application"), "name": .string("keyward"),
              "version": .string(KeywardVersion.current),
            ])
          ])
        ]),
        "component": .object([
          "type": .string("application"), "bom-ref": .string("scanned"),
          "name": .string(URL(fileURLWithPath: inventory.root).lastPathComponent),
        ]),
        "properties": .array(metadataProperties),
      ]),
      "components": .array(components),
    ]
    if !dependencies.isEmpty { document["dependencies"] = .array(dependencies) }
    return JSONValue.object(document).rendered()
  }

  // MARK: Keychain items

  static func component(_ item: KeychainItemRecord, ref: String, algorithm: String?) -> JSONValue {
    var material: [String: JSONValue] = ["type": .string(materialType(item)), "state": .string("active")]
    if let size = item.keySizeInBits { material["size"] = .int(size) }
    if let algorithm { material["algorithmRef"] = .string(algorithm) }
    if item.tokenID == "kSecAttrTokenIDSecureEnclave" {
      material["securedBy"] = .object(["mechanism": .string("Secure Enclave")])
    } else {
      material["securedBy"] = .object(["mechanism": .string("Keychain")])
    }
    var properties: [JSONValue] = [
      property("keyward:kind", item.kind.rawValue),
      property("keyward:call", item.call),
      property("keyward:language", item.language.rawValue),
      property("keyward:origin", item.origin.rawValue),
    ]
    let optional: [(String, String?)] = [
      ("keyward:item-class", item.itemClass), ("keyward:key-type", item.keyType), ("keyward:token-id", item.tokenID),
      ("keyward:service", item.service), ("keyward:account", item.account),
      ("keyward:application-tag", item.applicationTag), ("keyward:access-group", item.accessGroup),
      ("keyward:synchronizable", item.synchronizable?.rawValue),
      ("keyward:data-protection-keychain", item.dataProtectionKeychain?.rawValue),
      ("keyward:wrapper", item.wrapper), ("keyward:build-condition", item.buildCondition?.rawValue),
    ]
    properties += optional.compactMap { name, value in value.map { property(name, $0) } }
    properties.append(property("keyward:attributes-complete", String(item.attributesComplete)))
    // No accessibility in a dictionary whose every attribute is seen: the system default.
    let accessibility = item.accessibility.isEmpty && item.attributesComplete ? ["default"] : item.accessibility
    properties += accessibility.map { property("keyward:accessibility", $0) }
    if let control = item.accessControl {
      properties.append(property("keyward:access-control", control.resolved ? "resolved" : "unresolved"))
      properties += control.protection.map { property("keyward:access-control-protection", $0) }
      properties += control.flags.map { property("keyward:access-control-flag", $0) }
    }
    return .object([
      "type": .string("cryptographic-asset"),
      "bom-ref": .string(ref),
      "name": .string(name(of: item)),
      "cryptoProperties": .object([
        "assetType": .string("related-crypto-material"),
        "relatedCryptoMaterialProperties": .object(material),
      ]),
      "evidence": occurrences(item.place, symbol: item.call),
      "properties": .array(properties),
    ])
  }

  /// `password` for passwords, `private-key` for generated key pairs (the private key is the
  /// one kept), `key` for other keys, `credential` for identities and certificates.
  static func materialType(_ item: KeychainItemRecord) -> String {
    if item.kind == .key { return "private-key" }
    switch item.itemClass {
    case "kSecClassGenericPassword", "kSecClassInternetPassword": return "password"
    case "kSecClassKey": return "key"
    case "kSecClassIdentity", "kSecClassCertificate": return "credential"
    case nil: return item.wrapper == nil ? "unknown" : "password"
    default: return "other"
    }
  }

  static func name(of item: KeychainItemRecord) -> String {
    if let label = item.applicationTag ?? item.account ?? item.service { return label }
    let kind = item.itemClass.map { $0.replacingOccurrences(of: "kSecClass", with: "") } ?? item.kind.rawValue
    return "\(kind) at \(place(item.place))"
  }

  /// The key algorithm of a key (`kSecAttrKeyType` and size), as an `algorithm` asset.
  static func algorithm(of item: KeychainItemRecord) -> (ref: String, component: JSONValue)? {
    guard let keyType = item.keyType else { return nil }
    let enclave = item.tokenID == "kSecAttrTokenIDSecureEnclave"
    let size = item.keySizeInBits
    var properties: [String: JSONValue] = ["cryptoFunctions": .array([.string("keygen")])]
    let name: String
    switch keyType {
    case "kSecAttrKeyTypeECSECPrimeRandom", "kSecAttrKeyTypeEC":
      name = "ECC" + (size.map { "-P\($0)" } ?? "")
      let curves = [256: "secp256r1", 384: "secp384r1", 521: "secp521r1"]
      if let curve = size.flatMap({ curves[$0] }) { properties["curve"] = .string(curve) }
    case "kSecAttrKeyTypeRSA":
      name = "RSA" + (size.map { "-\($0)" } ?? "")
      properties["primitive"] = .string("pke")
    default:
      name = keyType
    }
    if let size { properties["parameterSetIdentifier"] = .string(String(size)) }
    properties["executionEnvironment"] = .string(enclave ? "hardware" : "software-plain-ram")
    let ref = "algorithm:\(name)" + (enclave ? ":secure-enclave" : "")
    return (
      ref,
      .object([
        "type": .string("cryptographic-asset"), "bom-ref": .string(ref), "name": .string(name),
        "cryptoProperties": .object([
          "assetType": .string("algorithm"), "algorithmProperties": .object(properties),
        ]),
        "properties": .array([property("keyward:key-type", keyType)]),
      ])
    )
  }

  // MARK: Gates and binaries

  static func component(_ gate: AuthenticationGateRecord, ref: String) -> JSONValue {
    var properties = [
      property("keyward:kind", "local-authentication-gate"),
      property("keyward:binding", gate.binding.rawValue),
      property("keyward:language", gate.language.rawValue),
      property("keyward:origin", gate.origin.rawValue),
    ]
    properties += gate.policies.map { property("keyward:policy", $0) }
    if let note = gate.bindingNote { properties.append(property("keyward:binding-note", note)) }
    if let condition = gate.buildCondition {
      properties.append(property("keyward:build-condition", condition.rawValue))
    }
    let policies = gate.policies.isEmpty ? "an unresolved policy" : gate.policies.joined(separator: " or ")
    return .object([
      "type": .string("framework"),
      "bom-ref": .string(ref),
      "name": .string("LocalAuthentication"),
      "description": .string("evaluatePolicy with \(policies): \(gate.binding.rawValue)"),
      "evidence": occurrences(gate.place, symbol: "evaluatePolicy"),
      "properties": .array(properties),
    ])
  }

  static func component(_ file: BinaryInventoryRecord.File, in binary: BinaryInventoryRecord, ref: String)
    -> JSONValue
  {
    let type: String
    switch file.bundle?.kind {
    case .app, .appExtension: type = "application"
    case .framework: type = "framework"
    case .library: type = "library"
    case nil: type = "file"
    }
    var component: [String: JSONValue] = [
      "type": .string(type),
      "bom-ref": .string(ref),
      "name": .string(file.bundle?.name ?? (file.path.isEmpty ? binary.path : file.path)),
      "evidence": .object([
        "occurrences": .array([
          .object([
            "location": .string(file.path.isEmpty ? binary.path : binary.path + "/" + file.path)
          ])
        ])
      ]),
      "properties": .array(
        file.architectures.map { property("keyward:architecture", $0) }
          + file.linkedLibraries.map { property("keyward:linked-library", $0) }),
    ]
    if let version = file.bundle?.version { component["version"] = .string(version) }
    if let identifier = file.bundle?.identifier { component["group"] = .string(identifier) }
    return .object(component)
  }

  // MARK: Shared

  static func occurrences(_ place: InventoryPlace, symbol: String) -> JSONValue {
    .object([
      "occurrences": .array([
        .object([
          "location": .string(place.path), "line": .int(place.line), "symbol": .string(symbol),
          "additionalContext": .string("column \(place.column)"),
        ])
      ])
    ])
  }

  static func property(_ name: String, _ value: String) -> JSONValue {
    .object(["name": .string(name), "value": .string(value)])
  }

  static func place(_ place: InventoryPlace) -> String { "\(place.path):\(place.line):\(place.column)" }

  /// `bom-ref`s are unique in a BOM: a second record at the same place gets `#2`.
  struct UniqueRefs {
    private var seen: [String: Int] = [:]

    mutating func make(_ base: String) -> String {
      let count = (seen[base] ?? 0) + 1
      seen[base] = count
      return count == 1 ? base : "\(base)#\(count)"
    }
  }
}
