import Foundation
import KeywardCLI
import KeywardCore
import KeywardReporters
import KeywardRules
import Testing

/// Origins through whole scans: configuration, what fails, dependency folders, links, every
/// report format and the cache.
@Suite struct OriginScanTests {
  static let weak = "let a = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .userPresence, nil)\n"

  func tree(_ files: [String: String]) throws -> URL { try Paths.tree(files) }

  func scan(_ paths: [URL], _ configure: (inout ScanRequest) -> Void = { _ in }) throws -> ScanResult {
    var request = ScanRequest(paths: paths.map(\.path))
    configure(&request)
    return try Scanner(rules: Configuration().configuredRules(from: .standard)).scan(request)
  }

  func origins(_ result: ScanResult) -> [String: CodeOrigin] {
    Dictionary(result.findings.map { ($0.location.path, $0.origin) }) { first, _ in first }
  }

  @Test func theConfigurationOverridesThePathAndTheContents() throws {
    let root = try tree([
      "IntegrationSupport/Stub.swift": Self.weak, "Demo/RealApp/App.swift": Self.weak,
      "Demo/Other/Sample.swift": Self.weak, "Sources/Helper.swift": "import XCTest\n" + Self.weak,
      "Sources/App.swift": Self.weak,
    ])
    let plain = origins(try scan([root]))
    #expect(plain["IntegrationSupport/Stub.swift"] == .app && plain["Demo/RealApp/App.swift"] == .sample)
    #expect(plain["Sources/Helper.swift"] == .test)
    let configured = origins(
      try scan([root]) {
        $0.origins = OriginOverrides([
          .test: ["IntegrationSupport/**"], .app: ["Demo/RealApp/**", "Sources/Helper.swift"], .sample: ["Demo/**"],
        ])
      })
    #expect(configured["IntegrationSupport/Stub.swift"] == .test)
    #expect(configured["Demo/RealApp/App.swift"] == .app, "app wins when several globs match")
    #expect(configured["Demo/Other/Sample.swift"] == .sample)
    #expect(configured["Sources/Helper.swift"] == .app, "configured origins win over the contents")
    #expect(configured["Sources/App.swift"] == .app)
  }

  @Test func theConfigurationFileReadsOriginsAndRejectsUnknownOnes() throws {
    let root = try tree([
      "IntegrationSupport/Stub.swift": Self.weak,
      ".keyward.yml":
        "origins:\n  test: [\"IntegrationSupport/**\"]\n  third-party: [\"Libs/**\"]\nfailOrigins: [sample]\n",
    ])
    let loaded = try ConfigLoader(catalog: .standard).load(path: root.appendingPathComponent(".keyward.yml").path)
    #expect(loaded.origins == [.test: ["IntegrationSupport/**"], .thirdParty: ["Libs/**"]])
    #expect(loaded.failPolicy == FailPolicy(adding: [.sample]))
    // Only a test finding: the scan passes.
    let (status, output) = KeywardCLI.run(["scan", root.path])
    #expect(status == 0)
    #expect(output.standardOutput.contains("[swift.weak_biometric_acl] [test]"))

    let bad = try tree([".keyward.yml": "origins:\n  tests: [\"X/**\"]\n", "A.swift": Self.weak])
    let rejected = KeywardCLI.run(["scan", bad.path])
    #expect(rejected.status == 2)
    #expect(rejected.output.standardError.contains("unknown origin 'tests'"))
    #expect(rejected.output.standardError.contains("did you mean 'test'?"))
    let badFail = try tree([".keyward.yml": "failOrigins: [tests]\n", "A.swift": Self.weak])
    #expect(KeywardCLI.run(["scan", badFail.path]).status == 2)
  }

  @Test func onlyAppCodeFailsUnlessMoreOriginsAreCounted() throws {
    let root = try tree([
      "AppTests/KeychainTests.swift": Self.weak, "Sources/Debug.swift": "#if DEBUG\n" + Self.weak + "#endif\n",
    ])
    #expect(KeywardCLI.run(["scan", root.path]).status == 0)
    #expect(KeywardCLI.run(["scan", root.path, "--fail-origin", "sample"]).status == 0)
    #expect(KeywardCLI.run(["scan", root.path, "--fail-origin", "test"]).status == 1)
    #expect(KeywardCLI.run(["scan", root.path, "--fail-origin", "sample,test"]).status == 1)
    #expect(KeywardCLI.run(["scan", root.path, "--fail-origin", "test", "--fail-on", "critical"]).status == 0)
    // A DEBUG-only finding in app code counts only with `all`.
    try FileManager.default.removeItem(at: root.appendingPathComponent("AppTests"))
    #expect(KeywardCLI.run(["scan", root.path, "--fail-origin", "test"]).status == 0)
    #expect(KeywardCLI.run(["scan", root.path, "--fail-origin", "all"]).status == 1)
    let (status, output) = KeywardCLI.run(["scan", root.path, "--fail-origin", "tests"])
    #expect(status == 2)
    #expect(output.standardError.contains("'tests' is not an origin"))
    // The baseline records every origin.
    let baseline = root.appendingPathComponent("baseline.json").path
    #expect(KeywardCLI.run(["baseline", "create", baseline, root.path]).status == 0)
    #expect(try Baseline.load(path: baseline).findings.count == 1)
  }

  @Test func dependencyFoldersAreSkippedAndSaidSoUnlessNamed() throws {
    let root = try tree([
      "App/Pods/KeychainAccess/Keychain.swift": Self.weak, "App/Carthage/Checkouts/Valet/Valet.swift": Self.weak,
      "App/Sources/Clean.swift": "let x = 1\n",
    ])
    let whole = try scan([root])
    #expect(whole.findings.isEmpty)
    #expect(whole.skippedFolders == ["App/Carthage", "App/Pods"])
    let (status, output) = KeywardCLI.run(["scan", root.path])
    #expect(status == 0)
    #expect(output.standardError.components(separatedBy: "note: skipped third-party code").count == 2)
    #expect(
      output.standardError.contains("App/Carthage, App/Pods") && output.standardError.contains("includeThirdParty"))
    let json = KeywardCLI.run(["scan", root.path, "--format", "json"]).output.standardOutput
    #expect(json.contains("\"skippedFolders\": [\n      \"App/Carthage\",\n      \"App/Pods\"\n    ]"))
    let sarif = KeywardCLI.run(["scan", root.path, "--format", "sarif"]).output.standardOutput
    #expect(sarif.contains("keyward.skipped-folder"))

    // Named on the command line, or from inside it, a dependency folder is scanned as third-party.
    let pods = root.appendingPathComponent("App/Pods")
    let named = try scan([pods])
    #expect(named.findings.map(\.origin) == [.thirdParty])
    #expect(named.findings.first?.location.path == "KeychainAccess/Keychain.swift")
    let named2 = KeywardCLI.run(["scan", pods.path])
    #expect(named2.status == 0 && named2.output.standardOutput.contains("[third-party]"))
    #expect(!named2.output.standardError.contains("skipped"))
    let included = try scan([root]) { $0.includeThirdParty = true }
    #expect(included.findings.count == 2 && included.findings.allSatisfy { $0.origin == .thirdParty })
    #expect(included.skippedFolders.isEmpty)
    // Excluded folders are the user's choice, not a surprise: nothing is said.
    #expect(try scan([root]) { $0.excludes = ["Pods", "Carthage"] }.skippedFolders.isEmpty)
  }

  /// A library repository's own test app is a sample; the package's targets ship. An app
  /// repository with a package beside it, or a manifest that does not say plainly where its
  /// targets are, leaves every file app code.
  /// An Xcode project whose app target compiles `App/Main.swift`, `App/Nested/Deep.swift` (a
  /// path of two components in its group) and `App/Root.swift` (from the project's folder), lists
  /// `App/Legacy.swift` in no target, and keeps `App/Views` in sync with the disk.
  static let project = """
    // !$*UTF8*$!
    {
    	archiveVersion = 1;
    	objects = {
    		B1 /* Main.swift in Sources */ = {isa = PBXBuildFile; fileRef = F1 /* Main.swift */; };
    		F1 /* Main.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = Main.swift; sourceTree = "<group>"; };
    		F2 /* Legacy.swift */ = {isa = PBXFileReference; path = "Legacy.swift"; sourceTree = "<group>"; };
    		B3 = {isa = PBXBuildFile; fileRef = F3; };
    		F3 = {isa = PBXFileReference; path = Nested/Deep.swift; sourceTree = "<group>"; };
    		B4 = {isa = PBXBuildFile; fileRef = F4; };
    		F4 = {isa = PBXFileReference; path = ./App/Root.swift; sourceTree = SOURCE_ROOT; };
    		S1 /* Views */ = {isa = PBXFileSystemSynchronizedRootGroup; explicitFileTypes = {}; path = Views; sourceTree = "<group>"; };
    		G0 = {isa = PBXGroup; children = (G1, ); sourceTree = "<group>"; };
    		G1 /* App */ = {isa = PBXGroup; children = (F1, F2, F3, F4, S1, ); path = App; sourceTree = "<group>"; };
    		P1 /* Project object */ = {isa = PBXProject; mainGroup = G0; targets = (); };
    		PH /* Sources */ = {isa = PBXSourcesBuildPhase; files = (B1 /* Main.swift in Sources */, ); };
    	};
    	rootObject = P1 /* Project object */;
    }
    """

  @Test func filesTheirXcodeProjectCompilesInNoTargetAreUnbuilt() throws {
    let root = try tree([
      "App.xcodeproj/project.pbxproj": Self.project, "App/Main.swift": Self.weak, "App/Legacy.swift": Self.weak,
      "App/Stale.swift": Self.weak, "App/Views/Lock.swift": Self.weak, "App/Bridge.h": "",
      "App/Nested/Deep.swift": Self.weak, "App/Root.swift": Self.weak,
      "Packages/Kit/Package.swift": "", "Packages/Kit/Sources/Kit/Vault.swift": Self.weak,
    ])
    let result = try scan([root])
    let conditions = Dictionary(result.findings.map { ($0.location.path, $0.buildCondition) }) { first, _ in first }
    #expect(
      conditions == [
        "App/Main.swift": nil, "App/Legacy.swift": .unbuilt, "App/Stale.swift": .unbuilt, "App/Views/Lock.swift": nil,
        "App/Nested/Deep.swift": nil, "App/Root.swift": nil,
        "Packages/Kit/Sources/Kit/Vault.swift": nil,
      ])
    #expect(!FailPolicy.default.fails(origin: .app, buildCondition: .unbuilt))
    // A project that cannot be read judges nothing.
    let unreadable = try tree(["App.xcodeproj/project.pbxproj": "{ objects = (", "App/Stale.swift": Self.weak])
    #expect(try scan([unreadable]).findings.allSatisfy { $0.buildCondition == nil })
  }

  /// Project files that are broken, truncated, nested without end or not text at all judge
  /// nothing, and never stop the scan.
  @Test(arguments: [
    "", "{", "{ objects = { A = { isa = PBXGroup; children = (B, ); }; }; rootObject = P; }",
    String(repeating: "(", count: 100_000), String(repeating: "{ a = ", count: 50_000),
    String(Self.project.prefix(300)), "{ objects = { \"unterminated",
  ])
  func brokenProjectFilesJudgeNothing(_ text: String) throws {
    let root = try tree(["App.xcodeproj/project.pbxproj": text, "App/Stale.swift": Self.weak])
    let result = try scan([root])
    #expect(result.findings.count == 1)
    #expect(result.findings.allSatisfy { $0.buildCondition == nil })
  }

  @Test func binaryProjectFilesJudgeNothing() throws {
    let root = try tree(["App/Stale.swift": Self.weak])
    let project = root.appendingPathComponent("App.xcodeproj")
    try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
    try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(
      to: project.appendingPathComponent("project.pbxproj"))
    #expect(try scan([root]).findings.map(\.buildCondition) == [nil])
  }

  @Test func aLibraryRepositoryShipsOnlyItsPackageTargets() throws {
    let manifest = """
      let package = Package(
          name: "Vault",
          products: [.library(name: "VaultKit", targets: ["VaultKit", "VaultUI"])],
          targets: [
              .target(name: "VaultKit"),
              .target(name: "VaultUI", path: "./UI/Sources/"),
              .testTarget(name: "VaultKitTests", dependencies: ["VaultKit"]),
          ])
      """
    let library = origins(
      try scan([
        try tree([
          "Package.swift": manifest, "VaultKit.podspec": "Pod::Spec.new do |s| end\n",
          "Sources/VaultKit/Store.swift": Self.weak, "UI/Sources/Lock.swift": Self.weak,
          "TryOut/TryOut/Settings.swift": Self.weak, "UI/Preview/Preview.swift": Self.weak,
          "Tests/VaultKitTests/StoreTests.swift": Self.weak,
        ])
      ]))
    #expect(library["Sources/VaultKit/Store.swift"] == .app && library["UI/Sources/Lock.swift"] == .app)
    #expect(library["TryOut/TryOut/Settings.swift"] == .sample && library["UI/Preview/Preview.swift"] == .sample)
    #expect(library["Tests/VaultKitTests/StoreTests.swift"] == .test)
    // The layout applies below the manifest's folder only.
    let nested = origins(
      try scan([
        try tree([
          "Vendorless/Package.swift": manifest, "Vendorless/VaultKit.podspec": "",
          "Vendorless/App/Main.swift": Self.weak, "App/Main.swift": Self.weak,
        ])
      ]))
    #expect(nested["Vendorless/App/Main.swift"] == .sample && nested["App/Main.swift"] == .app)
    // No podspec: an app repository that declares a package of its modules.
    let app = origins(try scan([try tree(["Package.swift": manifest, "TryOut/Main.swift": Self.weak])]))
    #expect(app["TryOut/Main.swift"] == .app)
    // An executable product, or a path computed in code: nothing is judged by the manifest.
    for unclear in [
      manifest.replacingOccurrences(of: ".library(", with: ".executable("),
      manifest.replacingOccurrences(of: "\"./UI/Sources/\"", with: "base + \"/UI\""),
      manifest.replacingOccurrences(of: "\"./UI/Sources/\"", with: "\".\""),
    ] {
      let judged = origins(
        try scan([try tree(["Package.swift": unclear, "Kit.podspec": "", "TryOut/Main.swift": Self.weak])]))
      #expect(judged["TryOut/Main.swift"] == .app, "\(unclear)")
    }
  }

  @Test func aFileReachedThroughLinksIsScannedOnce() throws {
    let root = try tree(["Library/Sources/Keychain.swift": Self.weak, "Library/Sources/Other.swift": Self.weak])
    let manager = FileManager.default
    // A linked folder, a linked file, and two links to one file.
    try manager.createSymbolicLink(
      at: root.appendingPathComponent("LinkedSources"),
      withDestinationURL: root.appendingPathComponent("Library/Sources"))
    try manager.createDirectory(at: root.appendingPathComponent("App"), withIntermediateDirectories: true)
    for name in ["App/Keychain.swift", "App/KeychainAgain.swift"] {
      try manager.createSymbolicLink(
        at: root.appendingPathComponent(name),
        withDestinationURL: root.appendingPathComponent("Library/Sources/Keychain.swift"))
    }
    let result = try scan([root])
    // The first path in walk order (sorted names, depth first) is kept: App/ before Library/
    // before LinkedSources/.
    #expect(result.findings.map(\.location.path) == ["App/Keychain.swift", "Library/Sources/Other.swift"])
    #expect(result.filesScanned == 2)
    // The same file named twice on the command line, once through a link.
    let twice = try scan([
      root.appendingPathComponent("Library/Sources/Keychain.swift"), root.appendingPathComponent("App/Keychain.swift"),
    ])
    #expect(twice.findings.count == 1)
  }

  @Test func everyFormatShowsWhereFindingsLive() throws {
    let root = try tree([
      "Sources/App.swift": Self.weak, "Tests/KeychainTests.swift": Self.weak,
      "Sources/Debug.swift": "#if DEBUG\n" + Self.weak + "#endif\n",
    ])
    let result = try scan([root])
    func render(_ format: ReportFormat) throws -> String { try format.reporter().render(result) }
    let text = try render(.text)
    #expect(
      text.contains("[swift.weak_biometric_acl] [test]") && text.contains("[swift.weak_biometric_acl] [debug-only]"))
    #expect(
      text.contains(
        "1 counts toward --fail-on; 2 in tests and debug-only code are shown for information (--fail-origin makes them count)."
      ))
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(try render(.json).utf8)) as? [String: Any])
    let findings = try #require(json["findings"] as? [[String: Any]])
    #expect(findings.map { $0["origin"] as? String } == ["app", "app", "test"])
    #expect(findings.map { $0["buildCondition"] as? String } == [nil, "debug", nil])
    #expect(findings.allSatisfy { $0.keys.contains("buildCondition") })
    let summary = try #require(json["summary"] as? [String: Any])
    #expect(summary["byOrigin"] as? [String: Int] == ["app": 2, "test": 1])
    #expect(summary["byBuildCondition"] as? [String: Int] == ["debug": 1])
    #expect(summary["informational"] as? Int == 2 && summary["failOrigins"] as? [String] == ["app"])
    #expect(try Self.sarifResults(render(.sarif)).map(\.level) == ["error", "note", "note"])
    #expect(try Self.sarifResults(render(.sarif)).map(\.properties) == [["app"], ["app", "debug"], ["test"]])
    let xcode = try render(.xcode).split(separator: "\n")
    #expect(
      xcode.filter { $0.contains(": note: ") }.count == 2 && xcode.filter { $0.contains(": warning: ") }.count == 1)
    let github = try render(.github).split(separator: "\n")
    #expect(
      github.filter { $0.hasPrefix("::notice ") }.count == 2 && github.filter { $0.hasPrefix("::error ") }.count == 1)
    #expect(try render(.markdown).contains("_(test)_") && render(.markdown).contains("2 in tests and debug-only code"))
    #expect(try render(.html).contains("<span class=\"origin\">debug-only</span>"))
    let csv = try render(.csv).components(separatedBy: "\r\n")
    #expect(csv.first?.hasSuffix(",origin,buildCondition,bundle") == true)
    #expect(csv.contains { $0.hasSuffix(",app,debug,") } && csv.contains { $0.hasSuffix(",test,,") })
    // Counted under another policy, the same findings are errors.
    var all = result
    all.failPolicy = .all
    #expect(try Self.sarifResults(SARIFReporter().render(all)).map(\.level) == ["error", "error", "error"])
  }

  /// Each SARIF result's level, and its origin and build condition properties.
  static func sarifResults(_ text: String) throws -> [(level: String, properties: [String])] {
    let log = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    let run = try #require((log["runs"] as? [[String: Any]])?.first)
    return try #require(run["results"] as? [[String: Any]]).map { result in
      let properties = result["properties"] as? [String: Any] ?? [:]
      return (
        result["level"] as? String ?? "",
        [properties["origin"], properties["buildCondition"]].compactMap { $0 as? String }
      )
    }
  }

  @Test func originsSurviveTheCacheAndFollowTheConfigurationWithoutRescanning() throws {
    let root = try tree([
      "Sources/App.swift": Self.weak, "Sources/Helper.swift": "import XCTest\n" + Self.weak,
      "Sources/Debug.swift": "#if DEBUG\n" + Self.weak + "#endif\n",
    ])
    let cache = Paths.temporaryFolder().path
    let cold = try scan([root]) { $0.cacheFolder = cache }
    let warm = try scan([root]) { $0.cacheFolder = cache }
    #expect(warm.findings == cold.findings)
    #expect(warm.findings.map(\.origin) == [.app, .app, .test])
    #expect(warm.findings.map(\.buildCondition) == [nil, .debug, nil])
    // A configured origin applies to cached findings too.
    let moved = try scan([root]) {
      $0.cacheFolder = cache
      $0.origins = OriginOverrides([.sample: ["Sources/App.swift"]])
    }
    #expect(moved.findings.map(\.origin) == [.sample, .app, .test])
    // Fingerprints do not depend on where the code lives.
    #expect(moved.findings.map(\.fingerprint) == cold.findings.map(\.fingerprint))
  }
}
