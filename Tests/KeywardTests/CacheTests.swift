import Foundation
import KeywardCLI
import Testing

@testable import KeywardCore

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
    try Self.markCachedMessages(in: cache)
    #expect(json([root.path, "--cache", cache, "--exclude", "cache"]).contains("CACHED"))
    // ...but a changed file is scanned again.
    try ("// edited\n" + Self.weak).write(to: file, atomically: true, encoding: .utf8)
    let changed = json([root.path, "--cache", cache, "--exclude", "cache"])
    #expect(!changed.contains("CACHED") && changed.contains("keeps the item unlockable"))
    // Other rules or options are another cache.
    #expect(!json([root.path, "--cache", cache, "--exclude", "cache", "--profile", "strict"]).contains("CACHED"))
  }

  /// Saving copies the entries a run reused from the old file beside the ones it made, byte for
  /// byte: an entry marked by hand survives a run that rescanned another file.
  @Test func reusedEntriesAreCopiedIntoTheNewCache() throws {
    let root = Paths.temporaryFolder()
    let cache = root.appendingPathComponent("cache").path
    let arguments = [root.path, "--cache", cache, "--exclude", "cache"]
    try Self.weak.write(to: root.appendingPathComponent("A.swift"), atomically: true, encoding: .utf8)
    try ("// B\n" + Self.weak).write(to: root.appendingPathComponent("B.swift"), atomically: true, encoding: .utf8)
    _ = json(arguments)
    try Self.markCachedMessages(in: cache)
    try ("// B, edited\n" + Self.weak).write(
      to: root.appendingPathComponent("B.swift"), atomically: true, encoding: .utf8)
    let mixed = json(arguments)
    #expect(mixed.components(separatedBy: "CACHED").count == 2)
    #expect(mixed.contains("keeps the item unlockable"))
    #expect(json(arguments) == mixed)
  }

  @Test func aCutCacheFileIsIgnoredWithAWarning() throws {
    let root = Paths.temporaryFolder()
    let cache = root.appendingPathComponent("cache")
    try Self.weak.write(to: root.appendingPathComponent("A.swift"), atomically: true, encoding: .utf8)
    let arguments = ["scan", root.path, "--cache", cache.path, "--exclude", "cache"]
    _ = KeywardCLI.run(arguments)
    let file = cache.appendingPathComponent("keyward-cache.bin")
    let stored = try Data(contentsOf: file)
    try stored.dropLast().write(to: file)
    let (status, output) = KeywardCLI.run(arguments)
    #expect(status == 1)
    #expect(output.standardOutput.contains("[swift.weak_biometric_acl]"))
    #expect(output.standardError.contains("damaged cache ignored"))
  }

  /// Damaged files, a cache from a newer Keyward, and a truncated one.
  static let badCaches: [[UInt8]] = [
    Array("{ not a cache".utf8),
    ScanCache.magic + [UInt8((ScanCache.formatVersion + 1) * 2)],
    // The current version (a zig-zag varint), then nothing.
    ScanCache.magic + [UInt8(ScanCache.formatVersion * 2)],
  ]

  @Test(arguments: badCaches)
  func badCachesAreIgnoredWithAWarning(_ contents: [UInt8]) throws {
    let root = Paths.temporaryFolder()
    try Self.weak.write(to: root.appendingPathComponent("A.swift"), atomically: true, encoding: .utf8)
    let cache = root.appendingPathComponent("cache")
    try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
    try Data(contents).write(to: cache.appendingPathComponent("keyward-cache.bin"))
    let (status, output) = KeywardCLI.run(["scan", root.path, "--cache", cache.path, "--exclude", "cache"])
    #expect(status == 1)
    #expect(output.standardOutput.contains("[swift.weak_biometric_acl]"))
    #expect(output.standardError.contains("warning:") && output.standardError.contains("ignored"))
  }

  /// Two processes agree on the cache's key: hashing order, which changes from one process to
  /// the next, must not reach it (it once did, through the wrapper mappings' dictionaries).
  @Test func aSecondProcessUsesTheCache() throws {
    let executable = try #require(Paths.builtExecutable("keyward"))
    let root = Paths.temporaryFolder()
    try Self.weak.write(to: root.appendingPathComponent("A.swift"), atomically: true, encoding: .utf8)
    let cache = root.appendingPathComponent("cache").path
    func report() throws -> String {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: executable)
      process.arguments = ["scan", root.path, "--format", "json", "--cache", cache, "--exclude", "cache"]
      let pipe = Pipe()
      process.standardOutput = pipe
      process.standardError = FileHandle.nullDevice
      try process.run()
      let data = pipe.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      return String(decoding: data, as: UTF8.self)
    }
    #expect(try report().contains("keeps the item unlockable"))
    try Self.markCachedMessages(in: cache)
    #expect(try report().contains("CACHED"))
  }

  /// A cache written by another build of Keyward is not used: development builds share a
  /// version string but not their findings.
  @Test func anotherBuildsCacheIsNotUsed() throws {
    let folder = Paths.temporaryFolder().path
    func cache(builtAt time: String) -> ScanCache {
      let build = "keyward \(KeywardVersion.current) build 4096 \(time)"
      return ScanCache(
        folder: folder, ruleset: ScanCache.ruleset(rules: [], wrappers: [], maximumFileSize: 1, build: build))
    }
    let written = cache(builtAt: "1700000000.5")
    written.store(FileOutcome(parsed: true), forKey: "k")
    try written.save()
    #expect(cache(builtAt: "1700000000.5").outcome(forKey: "k")?.parsed == true)
    #expect(cache(builtAt: "1700000000.6").outcome(forKey: "k") == nil)
  }

  /// A build is told by its executable's size and modification time; without one, the version.
  @Test func theBuildIsTheExecutablesSizeAndTime() throws {
    #expect(EngineBuild.identity.hasPrefix("keyward \(KeywardVersion.current) build "))
    let file = Paths.temporaryFolder().appendingPathComponent("keyward")
    try Data("one".utf8).write(to: file)
    let first = EngineBuild.identity(ofExecutableAt: file.path)
    try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1)], ofItemAtPath: file.path)
    let touched = EngineBuild.identity(ofExecutableAt: file.path)
    try Data("three".utf8).write(to: file)
    try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1)], ofItemAtPath: file.path)
    #expect(Set([first, touched, EngineBuild.identity(ofExecutableAt: file.path)]).count == 3)
    #expect(EngineBuild.identity(ofExecutableAt: nil) == "keyward \(KeywardVersion.current)")
    #expect(EngineBuild.identity(ofExecutableAt: file.path + ".missing") == "keyward \(KeywardVersion.current)")
  }

  /// Replaces a message inside the stored cache by one of the same length, so the entry stays
  /// well formed and a run that reads it shows "CACHED".
  static func markCachedMessages(in cache: String) throws {
    let cacheFile = URL(fileURLWithPath: cache).appendingPathComponent("keyward-cache.bin")
    let original = Array("keeps the item unlockable".utf8)
    var stored = try [UInt8](Data(contentsOf: cacheFile))
    let at = try #require(stored.indices.first { stored[$0...].starts(with: original) })
    stored.replaceSubrange(
      at..<(at + original.count), with: "CACHED".utf8 + Array(repeating: UInt8(ascii: "."), count: original.count - 6))
    try Data(stored).write(to: cacheFile)
  }

  @Test func everyFieldSurvivesTheCacheFormat() throws {
    let position = SourcePosition(line: 3, column: -1, utf16Column: 2, offset: Int.max)
    let location = SourceLocation(
      path: "a/é.swift", start: position, end: position,
      binary: BinarySite(
        file: "App", architecture: "arm64", address: UInt64.max,
        bundle: ShippingBundle(kind: .framework, name: "Kit", identifier: "com.k", version: nil)))
    let finding = Finding(
      ruleId: "r", severity: .critical, confidence: .low, message: "m\n\"", location: location, snippet: "",
      tags: ["a", "b"], fingerprint: "f", suppression: Suppression(kind: .baseline, justification: nil),
      fix: Fix(description: "d", safe: true, edits: [TextEdit(start: 1, end: 2, replacement: "🔑")]),
      related: [RelatedLocation(message: "q", location: location)],
      handOff: HandOff(
        call: CallShape(name: "init", labels: ["protection"], argument: 0), settledMessage: nil, sink: .accessibility,
        isPropertyRead: true, unlessEnrollmentIsChecked: true,
        enclosingCall: CallShape(name: "Vault", labels: ["settings"], argument: 0, memberPath: ["protection"])))
    let step = RelatedLocation(message: "s", location: location)
    let outcome = FileOutcome(
      findings: [finding, finding],
      issues: [ScanIssue(path: "p", kind: .timeLimit, message: "t", line: 1, column: nil)],
      parsed: true,
      binaries: [
        BinarySummary(
          path: "A.ipa", bundleIdentifier: "b",
          files: [
            .init(path: "f", architectures: [.init(name: "x", encrypted: true, linkedLibraries: ["l"])]),
            .init(
              path: "g", architectures: [], bundle: ShippingBundle(kind: .appExtension, name: "W", version: "1"),
              entitlements: SigningEntitlements(
                applicationIdentifier: nil, defaultDataProtection: "NSFileProtectionNone", keychainAccessGroups: ["k"])),
          ])
      ],
      facts: CallFacts(
        parameterReaches: [
          ParameterReach(
            callable: CallableShape(
              name: "Vault", parameters: [.init(label: "settings", hasDefault: true)],
              owner: .init(type: "Vault", supertypes: ["P"]), location: location),
            parameter: 0, sink: .policy, steps: [step], memberPath: ["protection", "level"])
        ],
        contextPropertyReads: [ContextPropertyRead(name: "context", receiverType: "Grant", location: location)],
        enrollmentChecks: [location],
        propertyReaches: [
          PropertyReach(
            owner: "Settings", property: "grace", memberPath: ["a"], sink: .accessControlFlags, steps: [step])
        ],
        relays: [
          ValueRelay(
            callable: nil, parameter: 0, owner: "Wrapper", property: "protection", memberPath: [],
            call: CallShape(name: "save", labels: ["_", "protection"], argument: 1, isProperty: true), step: step),
          ValueRelay(
            callable: CallableShape(name: "f", parameters: [], owner: nil, location: location), parameter: 2,
            owner: nil,
            property: nil, memberPath: ["x"], call: CallShape(name: "g", labels: [], argument: 0), step: step),
        ]))
    var writer = CacheWriter()
    outcome.write(to: &writer)
    var reader = CacheReader(writer.bytes[...])
    let decoded = try FileOutcome(from: &reader)
    #expect(reader.isAtEnd)
    #expect(decoded.findings == outcome.findings && decoded.issues == outcome.issues)
    #expect(decoded.parsed && decoded.binaries == outcome.binaries)
    #expect(decoded.facts.parameterReaches == outcome.facts.parameterReaches)
    #expect(decoded.facts.propertyReaches == outcome.facts.propertyReaches)
    #expect(decoded.facts.relays == outcome.facts.relays)
    #expect(decoded.facts.contextPropertyReads == outcome.facts.contextPropertyReads)
    #expect(decoded.facts.enrollmentChecks == outcome.facts.enrollmentChecks)
    // Every cut of the entry is refused rather than misread.
    for cut in 0..<writer.bytes.count {
      var truncated = CacheReader(writer.bytes[..<cut])
      #expect(throws: CacheFormatError.self) { try FileOutcome(from: &truncated) }
    }
  }
}
