import Yams

/// Reads `wrapperMappings` from `.keyward.yml`: in-house keychain wrappers described as data.
///
/// ```yaml
/// wrapperMappings:
///   - library: AcmeVault            # a name for messages
///     modules: [AcmeVault]          # `import AcmeVault` turns the mapping on
///     types: [SecureBox]            # ...and so does using `SecureBox(...)` or `SecureBox.x`
///     accessibility:
///       argumentLabels: [protection] # SecureBox.save(x, protection: .anytime)
///       methods: [protect]           # box.protect(.anytime)
///       properties: [protection]     # box.protection = .anytime
///       values:
///         anytime: kSecAttrAccessibleAlways
///         unlocked: kSecAttrAccessibleWhenUnlockedThisDeviceOnly
///     authenticationPolicy:
///       argumentLabels: [unlockWith]
///       values:
///         anyFinger: biometryAny
///     synchronizable:
///       argumentLabels: [syncAcrossDevices]
///     authenticationContext:         # where it takes the LAContext it reads with
///       methods: [unlocked]
///     defaultStore:                  # a store made without a class keeps the library's default
///       maker: SecureBox             # SecureBox(...) makes a store
///       accessibility: kSecAttrAccessibleAfterFirstUnlock
///       writeMethods: [save]         # box.save(secret, ...) writes an item
/// ```
enum WrapperMappingReader {
  static let mappingKeys = [
    "library", "modules", "types", "accessibility", "authenticationPolicy", "synchronizable", "authenticationContext",
    "defaultStore",
  ]
  static let defaultStoreKeys = ["maker", "accessibility", "writeMethods"]
  static let siteKeys = ["argumentLabels", "methods", "properties", "impliedByCalls", "values"]

  static func read(_ node: Node, reader: inout NodeReader) throws -> [WrapperMapping] {
    guard let sequence = node.sequence else {
      throw ConfigurationError("\(reader.place(node)): 'wrapperMappings' must be a list of mappings")
    }
    return try sequence.map { try mapping($0, reader: &reader) }
  }

  private static func mapping(_ node: Node, reader: inout NodeReader) throws -> WrapperMapping {
    var mapping = WrapperMapping(library: "", modules: [], types: [])
    for (keyNode, value) in try reader.mapping(node, what: "a wrapper mapping") {
      let key = try reader.scalarKey(keyNode)
      switch key {
      case "library": mapping.library = try reader.string(value, key: key)
      case "modules": mapping.modules = try reader.strings(value, key: key)
      case "types": mapping.types = try reader.strings(value, key: key)
      case "accessibility":
        mapping.accessibility = try site(value, key: key, meanings: AccessibilityClass.names, reader: &reader)
      case "authenticationPolicy":
        mapping.authenticationPolicy = try site(value, key: key, meanings: AccessControlFlag.names, reader: &reader)
      case "synchronizable":
        mapping.synchronizable = try site(value, key: key, meanings: nil, reader: &reader)
      case "authenticationContext":
        mapping.authenticationContext = try site(value, key: key, meanings: nil, reader: &reader)
      case "defaultStore":
        try readDefaultStore(value, into: &mapping, reader: &reader)
      default:
        reader.warn(keyNode, "unknown key '\(key)' in a wrapper mapping", suggestions: mappingKeys)
      }
    }
    guard !mapping.library.isEmpty else {
      throw ConfigurationError("\(reader.place(node)): a wrapper mapping needs 'library' (a name for messages)")
    }
    guard !mapping.modules.isEmpty || !mapping.types.isEmpty else {
      throw ConfigurationError(
        "\(reader.place(node)): wrapper mapping '\(mapping.library)' needs 'modules' or 'types', so that it applies only where the library is used"
      )
    }
    return mapping
  }

  private static func readDefaultStore(_ node: Node, into mapping: inout WrapperMapping, reader: inout NodeReader)
    throws
  {
    for (keyNode, value) in try reader.mapping(node, what: "'defaultStore'") {
      let field = try reader.scalarKey(keyNode)
      switch field {
      case "maker": mapping.storeMaker = try reader.string(value, key: field)
      case "writeMethods": mapping.writeMethods = try reader.strings(value, key: field)
      case "accessibility":
        let meaning = try reader.string(value, key: field)
        guard AccessibilityClass.names.contains(meaning) else {
          let hint =
            EditDistance.nearest(to: meaning, in: AccessibilityClass.names).map { "did you mean '\($0)'? " } ?? ""
          throw ConfigurationError(
            "\(reader.place(value)): '\(meaning)' is not a keychain accessibility class; \(hint)valid: \(AccessibilityClass.names.joined(separator: ", "))"
          )
        }
        mapping.defaultAccessibility = meaning
      default:
        reader.warn(keyNode, "unknown key '\(field)' in 'defaultStore'", suggestions: defaultStoreKeys)
      }
    }
    guard mapping.storeMaker != nil, mapping.defaultAccessibility != nil, !mapping.writeMethods.isEmpty else {
      throw ConfigurationError(
        "\(reader.place(node)): 'defaultStore' needs 'maker', 'accessibility' and 'writeMethods'")
    }
  }

  private static func site(_ node: Node, key: String, meanings: [String]?, reader: inout NodeReader) throws
    -> WrapperSite
  {
    var site = WrapperSite()
    for (keyNode, value) in try reader.mapping(node, what: "'\(key)'") {
      let field = try reader.scalarKey(keyNode)
      switch field {
      case "argumentLabels": site.argumentLabels = try reader.strings(value, key: field)
      case "methods": site.methods = try reader.strings(value, key: field)
      case "properties": site.properties = try reader.strings(value, key: field)
      case "impliedByCalls": site.impliedByCalls = try reader.strings(value, key: field)
      case "values":
        for (caseNode, meaningNode) in try reader.mapping(value, what: "'values'") {
          let name = try reader.scalarKey(caseNode)
          let meaning = try reader.string(meaningNode, key: name)
          if let meanings, !meanings.contains(meaning) {
            let hint = EditDistance.nearest(to: meaning, in: meanings).map { "did you mean '\($0)'? " } ?? ""
            throw ConfigurationError(
              "\(reader.place(meaningNode)): '\(meaning)' is not a valid meaning for '\(key)' values; \(hint)valid: \(meanings.joined(separator: ", "))"
            )
          }
          site.values[name] = meaning
        }
      default:
        reader.warn(keyNode, "unknown key '\(field)' in '\(key)'", suggestions: siteKeys)
      }
    }
    return site
  }
}
