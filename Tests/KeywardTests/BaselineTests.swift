import Foundation
import KeywardCLI
import KeywardCore
import Testing

/// `keyward baseline create` and `keyward scan --baseline` end to end.
@Suite struct BaselineTests {
  static let weak = "let a = SecAccessControlCreateWithFlags(nil, p, .biometryAny, nil)\n"
  static let other = "let q = [kSecAttrAccessible: kSecAttrAccessibleAlways]\n"

  func activeRules(_ root: URL, baseline: URL) throws -> [String] {
    let (_, output) = KeywardCLI.run(["scan", root.path, "--format", "json", "--baseline", baseline.path])
    let object = try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any]
    let findings = object?["findings"] as? [[String: Any]] ?? []
    return findings.filter { $0["suppression"] is NSNull }.compactMap { $0["ruleId"] as? String }
  }

  @Test func onlyNewFindingsAreReportedAndLinesMayMove() throws {
    let root = Paths.temporaryFolder()
    let file = root.appendingPathComponent("Sources/A.swift")
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try (Self.weak + Self.weak).write(to: file, atomically: true, encoding: .utf8)
    let baseline = root.appendingPathComponent("keyward-baseline.json")
    let create = KeywardCLI.run(["baseline", "create", baseline.path, root.path])
    #expect(create.status == 0)
    #expect(create.output.standardOutput.contains("Baseline of 2 finding(s)"))
    let saved = try Baseline.load(path: baseline.path)
    #expect(saved.version == 1 && saved.findings.map(\.path) == ["Sources/A.swift", "Sources/A.swift"])

    #expect(KeywardCLI.run(["scan", root.path, "--baseline", baseline.path]).status == 0)
    // Lines above the findings, and a new finding: only the new one is reported.
    try ("// a comment\n\nimport Security\n" + Self.weak + Self.other + Self.weak).write(
      to: file, atomically: true, encoding: .utf8)
    #expect(try activeRules(root, baseline: baseline) == ["swift.weak_keychain_accessibility"])
    let text = KeywardCLI.run(["scan", root.path, "--baseline", baseline.path])
    #expect(text.status == 1)
    #expect(text.output.standardOutput.contains("2 suppressed"))
  }

  @Test func matchingIsAMultiset() throws {
    let root = Paths.temporaryFolder()
    let file = root.appendingPathComponent("A.swift")
    try (Self.weak + Self.weak).write(to: file, atomically: true, encoding: .utf8)
    let baseline = root.appendingPathComponent("b.json")
    _ = KeywardCLI.run(["baseline", "create", baseline.path, root.path])
    // One of the two fixed: the other is still in the baseline. Three: one is new.
    try Self.weak.write(to: file, atomically: true, encoding: .utf8)
    #expect(try activeRules(root, baseline: baseline) == [])
    try (Self.weak + Self.weak + Self.weak).write(to: file, atomically: true, encoding: .utf8)
    #expect(try activeRules(root, baseline: baseline) == ["swift.weak_biometric_acl"])
  }

  @Test(arguments: [
    ("not json", "not a Keyward baseline"),
    ("{\"version\": 7, \"tool\": \"x\", \"findings\": []}", "baseline version 7 was written by a newer Keyward"),
    ("{\"version\": 1, \"findings\": 3}", "damaged baseline"),
  ])
  func badBaselinesAreErrorsNotSilence(_ contents: String, _ message: String) throws {
    let root = Paths.temporaryFolder()
    try Self.weak.write(to: root.appendingPathComponent("A.swift"), atomically: true, encoding: .utf8)
    let baseline = root.appendingPathComponent("b.json")
    try contents.write(to: baseline, atomically: true, encoding: .utf8)
    let (status, output) = KeywardCLI.run(["scan", root.path, "--baseline", baseline.path])
    #expect(status == 2)
    #expect(output.standardError.contains(message), "\(output.standardError)")
    let missing = KeywardCLI.run(["scan", root.path, "--baseline", root.appendingPathComponent("none.json").path])
    #expect(missing.status == 2)
  }
}
