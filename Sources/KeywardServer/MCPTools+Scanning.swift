import Foundation
import KeywardBinary
import KeywardCore
import KeywardRules
import SwiftParser

/// The tools that run the engine: `scan_path` as `keyward scan` does (its `.keyward.yml`, the
/// project step over every file), `scan_snippet` on text as one file, and `propose_fix` on
/// either.
extension MCPTools {
  func scanPath(_ arguments: JSON) throws -> JSON {
    let result = try scan(path: absolute(try Self.string("path", in: arguments)), profile: try Self.profile(arguments))
    return [
      "root": .string(result.root), "filesScanned": .int(result.filesScanned),
      "findings": .array(try result.findings.map { try JSON(encoding: $0) }),
      "errors": .array(try result.errors.map { try JSON(encoding: $0) }),
    ]
  }

  func scanSnippet(_ arguments: JSON) throws -> JSON {
    let snippet = try Snippet(arguments)
    let outcome = snippet.scan()
    return [
      "fileName": .string(snippet.fileName), "findings": .array(try outcome.findings.map { try JSON(encoding: $0) }),
      "errors": .array(try outcome.issues.map { try JSON(encoding: $0) }),
    ]
  }

  func proposeFix(_ arguments: JSON) throws -> JSON {
    let fingerprint = arguments["fingerprint"]?.stringValue
    let line = arguments["line"]?.intValue
    guard fingerprint != nil || line != nil else { throw ToolError("give the finding's 'fingerprint' or its 'line'") }
    var candidates: [(finding: Finding, bytes: [UInt8])] = []
    if arguments["source"] != nil {
      let snippet = try Snippet(arguments)
      candidates = snippet.scan().findings.map { ($0, snippet.bytes) }
    } else {
      let result = try scan(path: absolute(try Self.string("path", in: arguments)), profile: nil)
      for finding in result.findings {
        let file = (result.root as NSString).appendingPathComponent(finding.location.path)
        guard let bytes = try? FileBytes.read(file) else { continue }
        candidates.append((finding, bytes))
      }
    }
    let matching = candidates.filter { finding, _ in
      guard finding.isActive else { return false }
      if let fingerprint { return finding.fingerprint == fingerprint }
      return (finding.location.start.line...finding.location.end.line).contains(line!)
    }
    guard !matching.isEmpty else {
      throw ToolError(
        fingerprint.map { "no finding has the fingerprint \($0)" } ?? "no finding on line \(line!)")
    }
    return ["proposals": .array(matching.map { Self.proposal(for: $0.finding, in: $0.bytes) })]
  }

  /// The safe fix of one finding, made on `bytes`, or why there is none.
  static func proposal(for finding: Finding, in bytes: [UInt8]) -> JSON {
    var proposal: [String: JSON] = [
      "ruleId": .string(finding.ruleId), "fingerprint": .string(finding.fingerprint),
      "path": .string(finding.location.path), "line": .int(finding.location.start.line),
      "message": .string(finding.message), "fix": .null,
    ]
    guard let fix = finding.fix, fix.safe, !fix.edits.isEmpty else {
      proposal["reason"] = .string(
        finding.fix.map {
          "no safe fix: the change Keyward knows (\($0.description)) needs a decision about the app, so it is not proposed; explain_rule \(finding.ruleId) says how to fix it by hand"
        }
          ?? "no safe fix: Keyward has no automatic fix for this finding; explain_rule \(finding.ruleId) says how to fix it by hand"
      )
      return .object(proposal)
    }
    let edits = FixApplier.nonOverlapping(fix.edits)
    let fixed = FixApplier.apply(edits, to: bytes)
    if SourceLanguage(pathExtension: FileDiscovery.pathExtension(finding.location.path)) == .swift,
      parses(bytes), !parses(fixed)
    {
      proposal["reason"] = "no safe fix: the fixed code would not parse"
      return .object(proposal)
    }
    let text = SourceText(bytes: bytes)
    var described: [String: JSON] = [
      "description": .string(fix.description), "changesBehavior": .bool(fix.changesBehavior),
      "diff": .string(UnifiedDiff.make(path: finding.location.path, old: bytes, new: fixed)),
      "edits": .array(
        edits.map { edit in
          let start = text.position(of: edit.start)
          let end = text.position(of: edit.end)
          return [
            "start": .int(edit.start), "end": .int(edit.end), "replacement": .string(edit.replacement),
            "startLine": .int(start.line), "startColumn": .int(start.column), "endLine": .int(end.line),
            "endColumn": .int(end.column),
          ]
        }),
    ]
    if let change = fix.behaviorChange { described["behaviorChange"] = .string(change) }
    proposal["fix"] = .object(described)
    return .object(proposal)
  }

  private static func parses(_ bytes: [UInt8]) -> Bool {
    !bytes.withUnsafeBufferPointer { Parser.parse(source: $0) }.hasError
  }

  func absolute(_ path: String) -> String {
    path.hasPrefix("/") ? path : (workingDirectory as NSString).appendingPathComponent(path)
  }

  /// Scans `path` as `keyward scan PATH` does, with the `.keyward.yml` found from it.
  func scan(path: String, profile: Profile?) throws -> ScanResult {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
      throw ToolError("\(path) does not exist")
    }
    let folder = isFolder.boolValue ? path : (path as NSString).deletingLastPathComponent
    let loaded = ProjectSettings.load(ProjectSettings.configurationFile(from: folder, boundary: nil))
    if let problem = loaded.problem { throw ToolError(problem) }
    var configuration = loaded.configuration
    if let profile { configuration.profile = profile }
    let scanner = Scanner(
      rules: configuration.configuredRules(from: .standard), wrappers: configuration.wrappers,
      binaryAnalyzer: AppAnalyzer())
    var request = ScanRequest(paths: [path])
    request.configurationExcludes = configuration.excludes
    request.configurationFolder = configuration.folder
    request.includes = configuration.includes
    request.origins = OriginOverrides(configuration.origins)
    request.includeThirdParty = configuration.includeThirdParty
    return try scanner.scan(request)
  }
}

/// Source text given to a tool, with the language and file name it is scanned under.
struct Snippet {
  var bytes: [UInt8]
  var fileName: String
  var profile: Profile

  init(_ arguments: JSON) throws {
    bytes = Array(try MCPTools.string("source", in: arguments).utf8)
    let language = arguments["language"]?.stringValue ?? "swift"
    guard language == "swift" || language == "objc" else {
      throw ToolError("language must be swift or objc, not '\(language)'")
    }
    let name = arguments["fileName"]?.stringValue ?? (language == "objc" ? "Snippet.m" : "Snippet.swift")
    let named = SourceLanguage(pathExtension: FileDiscovery.pathExtension(name))
    guard named == nil || (named == .swift) == (language == "swift") else {
      throw ToolError("fileName \(name) is not a \(language) file name")
    }
    fileName = named == nil ? name + (language == "objc" ? ".m" : ".swift") : name
    profile = try MCPTools.profile(arguments) ?? .standard
  }

  /// The findings of the text as one file, hand-offs settled within it.
  func scan() -> FileOutcome {
    var configuration = Configuration()
    configuration.profile = profile
    let rules = configuration.configuredRules(from: .standard)
    let scanner = FileScanner(rules: rules, knownRuleIDs: Set(RuleCatalog.standard.ids))
    // The file name alone says where the code lives (`LoginTests.swift` is a test).
    let file = DiscoveredFile(absolutePath: "/" + fileName, relativePath: fileName, size: bytes.count)
    var outcome = DocumentAnalyzer.scanOnLargeStack(scanner, bytes: bytes, as: file)
    outcome.findings = HandOffSettler(facts: outcome.facts, rules: rules).settle(outcome.findings)
    return outcome
  }
}
