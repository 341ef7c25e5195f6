import Yams

/// Reads typed values out of YAML nodes, naming the file, line and column of anything wrong.
struct NodeReader {
  let path: String
  var warnings: [String] = []

  init(path: String) { self.path = path }

  func place(_ node: Node) -> String {
    guard let mark = node.mark else { return path }
    return "\(path):\(mark.line):\(mark.column)"
  }

  mutating func warn(_ node: Node, _ message: String, suggestions: [String]) {
    let word = node.scalar?.string ?? ""
    let hint = EditDistance.nearest(to: word, in: suggestions).map { "; did you mean '\($0)'?" } ?? ""
    warnings.append("\(place(node)): \(message)\(hint)")
  }

  func mapping(_ node: Node, what: String) throws -> [(Node, Node)] {
    if case .scalar(let scalar) = node, scalar.string.isEmpty || scalar.string == "~" || scalar.string == "null" {
      return []
    }
    guard let mapping = node.mapping else {
      throw ConfigurationError("\(place(node)): \(what) must be a mapping of keys to values")
    }
    return mapping.map { ($0.key, $0.value) }
  }

  func scalarKey(_ node: Node) throws -> String {
    guard let scalar = node.scalar else { throw ConfigurationError("\(place(node)): keys must be plain text") }
    return scalar.string
  }

  func string(_ node: Node, key: String) throws -> String {
    guard let scalar = node.scalar else { throw typeError(node, key: key, expected: "a string") }
    return scalar.string
  }

  /// A value of a string enumeration (`severity: high`, `profile: strict`).
  func choice<T: RawRepresentable & CaseIterable>(_ node: Node, key: String, as type: T.Type) throws -> T
  where T.RawValue == String {
    let text = try string(node, key: key)
    guard let value = T(rawValue: text) else {
      let valid = T.allCases.map(\.rawValue).joined(separator: ", ")
      throw ConfigurationError("\(place(node)): '\(key)' must be one of \(valid), not '\(text)'")
    }
    return value
  }

  func bool(_ node: Node, key: String) throws -> Bool {
    guard let value = node.bool else { throw typeError(node, key: key, expected: "true or false") }
    return value
  }

  func int(_ node: Node, key: String) throws -> Int {
    guard let value = node.int else { throw typeError(node, key: key, expected: "an integer") }
    return value
  }

  func strings(_ node: Node, key: String) throws -> [String] {
    guard let sequence = node.sequence else { throw typeError(node, key: key, expected: "a list of strings") }
    return try sequence.map { item in
      guard let scalar = item.scalar else { throw typeError(item, key: key, expected: "a list of strings") }
      return scalar.string
    }
  }

  func value(_ node: Node, for spec: OptionSpec) throws -> OptionValue {
    let value: OptionValue
    switch spec.defaultValue {
    case .bool: value = .bool(try bool(node, key: spec.key))
    case .int: value = .int(try int(node, key: spec.key))
    case .string: value = .string(try string(node, key: spec.key))
    case .strings: value = .strings(try strings(node, key: spec.key))
    }
    guard let allowed = spec.allowedValues else { return value }
    let given: [String]
    switch value {
    case .string(let text): given = [text]
    case .strings(let list): given = list
    default: given = []
    }
    for item in given where !allowed.contains(item) {
      let hint = EditDistance.nearest(to: item, in: allowed).map { "did you mean '\($0)'? " } ?? ""
      throw ConfigurationError(
        "\(place(node)): '\(item)' is not a valid value for '\(spec.key)'; \(hint)valid values: \(allowed.joined(separator: ", "))"
      )
    }
    return value
  }

  private func typeError(_ node: Node, key: String, expected: String) -> ConfigurationError {
    let found: String
    switch node {
    case .scalar(let scalar): found = "'\(scalar.string)'"
    case .mapping: found = "a mapping"
    case .sequence: found = "a list"
    case .alias: found = "an alias"
    }
    return ConfigurationError("\(place(node)): '\(key)' must be \(expected), found \(found)")
  }
}
