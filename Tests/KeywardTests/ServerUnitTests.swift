import Foundation
import KeywardCore
import Testing

@testable import KeywardServer

/// The servers' pieces in process: edits, positions, the configuration search and the tools.
@Suite("Server units")
struct ServerUnitTests {
  @Test("a range edit counts UTF-16 units: a position after an emoji lands after it")
  func rangeEditAfterEmoji() {
    var document = OpenDocument(
      uri: "file:///A.swift", path: "/A.swift", text: "let a = \"🔑\"; let b = 1\nlet c = 2\n", version: 1)
    // 🔑 is two UTF-16 units: `let b` starts at character 14 on line 0.
    document.apply([
      "range": ["start": ["line": 0, "character": 18], "end": ["line": 0, "character": 19]], "text": "x",
    ])
    #expect(document.text == "let a = \"🔑\"; let x = 1\nlet c = 2\n")
    document.apply([
      "range": ["start": ["line": 1, "character": 8], "end": ["line": 1, "character": 99]], "text": "3",
    ])
    #expect(document.text == "let a = \"🔑\"; let x = 1\nlet c = 3\n")
    #expect(document.edits == 2)
  }

  @Test("positions: 0-based lines, UTF-16 characters; severities by severity and by where code lives")
  func mapping() {
    let point = SourcePosition(line: 3, column: 12, utf16Column: 9, offset: 40)
    #expect(DiagnosticMapping.position(point) == ["line": 2, "character": 8])
    var finding = Finding(
      ruleId: "r", severity: .high, confidence: .high, message: "m",
      location: SourceLocation(path: "A.swift", start: point, end: point), snippet: "", tags: [], fingerprint: "f")
    #expect(DiagnosticMapping.severity(finding) == 1)
    finding.severity = .low
    #expect(DiagnosticMapping.severity(finding) == 2)
    finding.origin = .test
    #expect(DiagnosticMapping.severity(finding) == 3)
  }

  @Test(".keyward.yml is looked for up to the workspace root, not above it")
  func configurationSearchStopsAtTheRoot() throws {
    let top = try Paths.tree([".keyward.yml": "profile: strict\n", "Project/Sources/App/A.swift": ""])
    let project = top.appendingPathComponent("Project").path
    let folder = top.appendingPathComponent("Project/Sources/App").path
    #expect(ProjectSettings.configurationFile(from: folder, boundary: project) == nil)
    #expect(
      ProjectSettings.configurationFile(from: folder, boundary: nil)
        == top.appendingPathComponent(".keyward.yml").standardizedFileURL.path)
    try "profile: essential\n".write(
      to: top.appendingPathComponent("Project/.keyward.yml"), atomically: true, encoding: .utf8)
    let settings = ProjectSettings(boundary: project)
    #expect(settings.settings(forFolder: folder).configuration.profile == .essential)
  }

  @Test("propose_fix says why when a finding has no safe fix")
  func noSafeFix() throws {
    let source = """
      import Security
      func save(_ data: Data) {
          let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: data]
          SecItemAdd(query as CFDictionary, nil)
      }

      """
    let tools = MCPTools(workingDirectory: "/")
    let result = try tools.call("propose_fix", arguments: ["source": .string(source), "line": 4]).get()
    let proposals = try #require(result["proposals"]?.arrayValue)
    let unchecked = try #require(proposals.first { $0["ruleId"] == "swift.keychain_status_unchecked" })
    #expect(unchecked["fix"] == .null)
    #expect(unchecked["reason"]?.stringValue?.hasPrefix("no safe fix") == true)
    #expect(throws: ToolError.self) {
      try tools.call("scan_snippet", arguments: ["source": "x", "language": "kotlin"]).get()
    }
  }

  @Test("a version's first rule page removes other versions' pages and nothing else")
  func otherVersionsPagesAreRemoved() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("keyward-links-\(UUID().uuidString)")
      .appendingPathComponent("keyward")
    defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
    let old = root.appendingPathComponent("0.0.1/rules")
    let kept = root.appendingPathComponent("0.0.2/notes.txt")
    try FileManager.default.createDirectory(at: old, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: kept.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data("old".utf8).write(to: old.appendingPathComponent("swift.weak_biometric_acl.md"))
    try Data("mine".utf8).write(to: kept)
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("0.0.2/rules"), withIntermediateDirectories: true)
    let links = RuleDocumentationLinks(template: nil, folder: root.appendingPathComponent("9.9.9/rules"))
    let href = try #require(links.href(for: "swift.weak_biometric_acl"))
    #expect(FileManager.default.fileExists(atPath: try #require(URL(string: href)).path))
    #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("0.0.1").path))
    #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("0.0.2/rules").path))
    #expect(FileManager.default.fileExists(atPath: kept.path))
  }
}
