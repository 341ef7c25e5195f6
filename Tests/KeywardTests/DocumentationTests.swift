import Foundation
import KeywardCore
import KeywardRules
import Testing

/// `Docs/rules/<id>.md` are generated from the rules' metadata; this fails when one is stale,
/// missing or left over. `KEYWARD_UPDATE_DOCS=1 swift test` regenerates them.
@Suite struct DocumentationTests {
  static let folder = Paths.packageRoot.appendingPathComponent("Docs/rules")

  @Test func ruleDocumentationIsUpToDate() throws {
    let update = ProcessInfo.processInfo.environment["KEYWARD_UPDATE_DOCS"] == "1"
    if update { try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true) }
    var expectedNames: Set<String> = ["README.md"]
    var index = "# Keyward rules\n\nGenerated from the rules' metadata; do not edit by hand.\n\n"
    index += "| Rule | Severity | Profile | Title |\n|---|---|---|---|\n"
    for rule in allRules {
      let metadata = rule.metadata
      let name = "\(metadata.id).md"
      expectedNames.insert(name)
      index +=
        "| [`\(metadata.id)`](\(name)) | \(metadata.severity.rawValue) | \(metadata.profile.rawValue) | \(metadata.title) |\n"
      try check(name, RuleDocumentation.markdown(for: rule), update: update)
    }
    try check("README.md", index, update: update)
    let present = Set(try FileManager.default.contentsOfDirectory(atPath: Self.folder.path))
    #expect(present == expectedNames, "Docs/rules holds pages for rules that do not exist, or lacks some")
  }

  func check(_ name: String, _ expected: String, update: Bool) throws {
    let url = Self.folder.appendingPathComponent(name)
    if update { try expected.write(to: url, atomically: true, encoding: .utf8) }
    let actual = try? String(contentsOf: url, encoding: .utf8)
    #expect(actual == expected, "Docs/rules/\(name) is stale: run KEYWARD_UPDATE_DOCS=1 swift test")
  }
}
