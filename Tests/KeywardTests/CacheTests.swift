import Foundation
import KeywardCLI
import KeywardCore
import Testing

/// `--cache DIR`: warm runs reuse results, and a cache can never hide a finding.
@Suite struct CacheTests {
  static let weak = "let a = SecAccessControlCreateWithFlags(nil, p, .biometryAny, nil)\n"

  func json(_ arguments: [String]) -> String {
    KeywardCLI.run(["scan", "--format", "json"] + arguments).output.standardOutput
  }

  @Test func warmRunsReuseResultsAndChangedFilesAreRescanned() throws {
    let root = Paths.temporaryFolder()
    let cache = root.appendingPathComponent("cache").path
    let file = root.appendingPathComponent("A.swift")
    try Self.weak.write(to: file, atomically: true, encoding: .utf8)
    let cold = json([root.path, "--cache", cache, "--exclude", "cache"])
    #expect(json([root.path, "--cache", cache, "--exclude", "cache"]) == cold)

    // The warm run reads the cache: an entry edited by hand shows through...
    let cacheFile = URL(fileURLWithPath: cache).appendingPathComponent("keyward-cache.json")
    let stored = try String(contentsOf: cacheFile, encoding: .utf8)
    try stored.replacingOccurrences(of: "keeps the item unlockable", with: "CACHED").write(
      to: cacheFile, atomically: true, encoding: .utf8)
    #expect(json([root.path, "--cache", cache, "--exclude", "cache"]).contains("CACHED"))
    // ...but a changed file is scanned again.
    try ("// edited\n" + Self.weak).write(to: file, atomically: true, encoding: .utf8)
    let changed = json([root.path, "--cache", cache, "--exclude", "cache"])
    #expect(!changed.contains("CACHED") && changed.contains("keeps the item unlockable"))
    // Other rules or options are another cache.
    #expect(!json([root.path, "--cache", cache, "--exclude", "cache", "--profile", "strict"]).contains("CACHED"))
  }

  @Test(arguments: [
    "{ not json", "{\"version\": 9, \"ruleset\": \"x\", \"entries\": {}}", "{\"version\": 1, \"entries\": 5}",
  ])
  func badCachesAreIgnoredWithAWarning(_ contents: String) throws {
    let root = Paths.temporaryFolder()
    try Self.weak.write(to: root.appendingPathComponent("A.swift"), atomically: true, encoding: .utf8)
    let cache = root.appendingPathComponent("cache")
    try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
    try contents.write(to: cache.appendingPathComponent("keyward-cache.json"), atomically: true, encoding: .utf8)
    let (status, output) = KeywardCLI.run(["scan", root.path, "--cache", cache.path, "--exclude", "cache"])
    #expect(status == 1)
    #expect(output.standardOutput.contains("[swift.weak_biometric_acl]"))
    #expect(output.standardError.contains("warning:") && output.standardError.contains("ignored"))
  }
}
