import Foundation
import KeywardCore
import KeywardRules

/// The tools `keyward mcp` offers an assistant: scan a path or a snippet, explain and list the
/// rules, and propose the safe fix for a finding. Each answers with JSON; findings have the
/// shape of the `findings` of `keyward scan --format json`.
struct MCPTools {
  /// Relative paths in arguments are taken from here.
  let workingDirectory: String

  static let instructions =
    "Keyward finds misuse of the Keychain and of Face ID / Touch ID / passcode authentication in Swift and Objective-C code. Scan code with scan_path or scan_snippet, read why a finding matters with explain_rule, and get the safe change with propose_fix."

  static let names: Set<String> = Set(definitions.compactMap { $0["name"]?.stringValue })

  static let definitions: [JSON] = [
    tool(
      "scan_path",
      "Scan a folder or a source file (.swift, .m, .mm, .h) with the project's .keyward.yml; returns the findings.",
      properties: [
        "path": ["type": "string", "description": "A folder or file; relative paths start at the server's folder."],
        "profile": profileProperty,
      ], required: ["path"]),
    tool(
      "scan_snippet", "Scan source text given inline; returns the findings.",
      properties: [
        "source": ["type": "string", "description": "The code to scan."],
        "language": ["type": "string", "enum": ["swift", "objc"], "description": "swift (default) or objc."],
        "fileName": ["type": "string", "description": "The name to scan it under, e.g. Sources/App/Login.swift."],
        "profile": profileProperty,
      ], required: ["source"]),
    tool(
      "explain_rule", "A rule's documentation: description, rationale, remediation, options, references.",
      properties: ["ruleId": ["type": "string", "description": "e.g. swift.weak_keychain_accessibility"]],
      required: ["ruleId"]),
    tool(
      "list_rules", "The rules with their severity, profile and whether the profile turns them on.",
      properties: ["profile": profileProperty], required: []),
    tool(
      "propose_fix",
      "The safe fix of a finding as a unified diff and byte-range edits, or why there is none. Give path (as for scan_path) or source (as for scan_snippet), and the finding's fingerprint or its line.",
      properties: [
        "path": ["type": "string"], "source": ["type": "string"],
        "language": ["type": "string", "enum": ["swift", "objc"]], "fileName": ["type": "string"],
        "fingerprint": ["type": "string"], "line": ["type": "integer", "description": "1-based"],
      ], required: []),
  ]

  private static let profileProperty: JSON = [
    "type": "string", "enum": ["essential", "standard", "strict"],
    "description": "Rule profile over the configuration's (default: standard).",
  ]

  private static func tool(_ name: String, _ description: String, properties: [String: JSON], required: [String])
    -> JSON
  {
    [
      "name": .string(name), "description": .string(description),
      "inputSchema": [
        "type": "object", "properties": .object(properties), "required": .array(required.map(JSON.string)),
      ],
    ]
  }

  func call(_ name: String, arguments: JSON) -> Result<JSON, ToolError> {
    Result {
      switch name {
      case "scan_path": try scanPath(arguments)
      case "scan_snippet": try scanSnippet(arguments)
      case "explain_rule": try Self.explainRule(arguments)
      case "list_rules": try Self.listRules(arguments)
      case "propose_fix": try proposeFix(arguments)
      default: throw ToolError("unknown tool \(name)")
      }
    }.mapError { error in
      (error as? ToolError) ?? ToolError("\(error)")
    }
  }

  static func explainRule(_ arguments: JSON) throws -> JSON {
    let id = try string("ruleId", in: arguments)
    guard let rule = RuleCatalog.standard.rule(withID: id) else {
      let hint = RuleCatalog.standard.nearestID(to: id).map { "; did you mean '\($0)'?" } ?? ""
      throw ToolError("unknown rule '\(id)'\(hint) list_rules gives the list.")
    }
    let metadata = rule.metadata
    return [
      "ruleId": .string(metadata.id), "title": .string(metadata.title),
      "severity": .string(metadata.severity.rawValue), "profile": .string(metadata.profile.rawValue),
      "markdown": .string(RuleDocumentation.markdown(for: rule)),
    ]
  }

  static func listRules(_ arguments: JSON) throws -> JSON {
    var configuration = Configuration()
    configuration.profile = try profile(arguments) ?? .standard
    let rules: [JSON] = RuleCatalog.standard.rules.map { rule in
      let metadata = rule.metadata
      return [
        "ruleId": .string(metadata.id), "title": .string(metadata.title),
        "severity": .string(metadata.severity.rawValue), "profile": .string(metadata.profile.rawValue),
        "language": .string("\(metadata.language)"), "enabled": .bool(configuration.isEnabled(rule)),
      ]
    }
    return ["profile": .string(configuration.profile.rawValue), "rules": .array(rules)]
  }

  static func string(_ key: String, in arguments: JSON) throws -> String {
    guard let value = arguments[key]?.stringValue, !value.isEmpty else { throw ToolError("'\(key)' is required") }
    return value
  }

  static func profile(_ arguments: JSON) throws -> Profile? {
    guard let name = arguments["profile"]?.stringValue else { return nil }
    guard let profile = Profile(rawValue: name) else {
      throw ToolError("profile must be essential, standard or strict, not '\(name)'")
    }
    return profile
  }
}
