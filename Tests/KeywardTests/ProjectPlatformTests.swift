import Foundation
import KeywardCore
import Testing

/// Which folders a project builds only for macOS, from its `Package.swift` or Xcode project, and
/// how that reaches the macOS rules.
@Suite struct ProjectPlatformTests {
  func platforms(_ files: [String: String]) throws -> [String: ProjectPlatform] {
    let root = try Paths.tree(files)
    defer { try? FileManager.default.removeItem(at: root) }
    let found = FileDiscovery(root: root.path, excludes: []).discover([root.path]).files
    return Dictionary(uniqueKeysWithValues: found.map { ($0.relativePath, $0.projectPlatform) })
  }

  static let macPackage = """
    // swift-tools-version: 5.9
    import PackageDescription
    let package = Package(name: "Helper", platforms: [.macOS(.v13)], targets: [.executableTarget(name: "Helper")])
    """

  @Test func aPackageDeclaringOnlyMacOSCoversItsSources() throws {
    let found = try platforms([
      "Helper/Package.swift": Self.macPackage,
      "Helper/Sources/Helper/Store.swift": "let a = 1",
      "Helper/Scripts/tool.swift": "let b = 1",
      "App/View.swift": "let c = 1",
    ])
    #expect(found["Helper/Sources/Helper/Store.swift"] == .macOSOnly)
    #expect(found["Helper/Scripts/tool.swift"] == .unspecified)
    #expect(found["App/View.swift"] == .unspecified)
  }

  @Test func otherPlatformsOrNoneDecideNothing() {
    #expect(ProjectPlatform.packagePlatforms(ofManifest: Self.macPackage) == ["macOS"])
    let both = "let package = Package(name: \"K\", platforms: [.iOS(.v16), .macOS(.v13)])"
    #expect(ProjectPlatform.packagePlatforms(ofManifest: both) == ["iOS", "macOS"])
    #expect(ProjectPlatform.packagePlatforms(ofManifest: "let package = Package(name: \"K\")").isEmpty)
    // Platforms computed in code are not read.
    #expect(ProjectPlatform.packagePlatforms(ofManifest: "let package = Package(name: \"K\", platforms: all)").isEmpty)
  }

  @Test func anXcodeProjectWhoseEverySDKIsMacOSCoversItsFolder() throws {
    // An SDK may name its version.
    let mac =
      "buildSettings = {\n\t\t\t\tSDKROOT = macosx;\n\t\t\t};\nbuildSettings = {\n\t\t\t\tSDKROOT = macosx26.0;\n\t\t\t};\n"
    let mixed = mac + "buildSettings = {\n\t\t\t\tSDKROOT = iphoneos;\n\t\t\t};\n"
    let found = try platforms([
      "MacApp/MacApp.xcodeproj/project.pbxproj": mac,
      "MacApp/Sources/Store.m": "int a;",
      // A nearer manifest decides for its own folder.
      "MacApp/Shared/Shared.xcodeproj/project.pbxproj": mixed,
      "MacApp/Shared/Common.m": "int b;",
      "Both/Both.xcodeproj/project.pbxproj": mixed,
      "Both/Store.m": "int c;",
    ])
    #expect(found["MacApp/Sources/Store.m"] == .macOSOnly)
    #expect(found["MacApp/Shared/Common.m"] == .unspecified)
    #expect(found["Both/Store.m"] == .unspecified)
  }

  /// Editors describe one document at a time; they must see what a walk of the project sees.
  @Test func describingOneFileAgreesWithTheWalk() throws {
    let root = try Paths.tree([
      "Helper/Package.swift": Self.macPackage,
      "Helper/Sources/Helper/Store.swift": "let a = 1",
      "Helper/Scripts/tool.swift": "let b = 1",
      "MacApp/MacApp.xcodeproj/project.pbxproj": "buildSettings = {\n\t\t\t\tSDKROOT = macosx;\n\t\t\t};\n",
      "MacApp/Store.m": "int a;",
      "Kit/Package.swift":
        "let package = Package(name: \"Kit\", products: [.library(name: \"Kit\", targets: [\"Kit\"])], targets: [.target(name: \"Kit\")])",
      "Kit/Kit.podspec": "",
      "Kit/Sources/Kit/Vault.swift": "let c = 1",
      "Kit/Example/Demo.swift": "let d = 1",
      "Support/Fixtures.swift": "let e = 1",
      "App/Tests/LoginTests.swift": "let f = 1",
    ])
    defer { try? FileManager.default.removeItem(at: root) }
    let discovery = FileDiscovery(
      root: root.path, excludes: [], origins: OriginOverrides([.test: ["Support/**"]]))
    let walked = discovery.discover([root.path]).files
    #expect(walked.count == 9)
    for file in walked {
      let described = discovery.describe(fileAt: file.absolutePath, size: file.size)
      #expect(described == file, "\(file.relativePath)")
      #expect(described.origin == file.origin, "\(file.relativePath)")
    }
    #expect(walked.first { $0.relativePath == "Support/Fixtures.swift" }?.origin == .test)
    #expect(walked.first { $0.relativePath == "Kit/Example/Demo.swift" }?.origin == .sample)
  }

  @Test func theMacOSRulesReadIt() {
    let rules = Configuration().configuredRules(from: .standard)
    let swift = """
      import Security
      let query: [String: Any] = [kSecValueData as String: token,
                                  kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly]
      let status = SecItemAdd(query as CFDictionary, nil)
      """
    let objc = """
      NSDictionary *query = @{(__bridge id)kSecValueData: token,
                              (__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleWhenUnlockedThisDeviceOnly};
      OSStatus status = SecItemAdd((__bridge CFDictionaryRef)query, NULL);
      """
    for (code, path, rule) in [
      (swift, "Store.swift", "swift.macos_file_based_keychain"), (objc, "Store.m", "objc.macos_file_based_keychain"),
    ] {
      let scanner = FileScanner(rules: rules)
      let mac = scanner.scan(bytes: Array(code.utf8), path: path, platform: .macOSOnly).findings.map(\.ruleId)
      let unknown = scanner.scan(bytes: Array(code.utf8), path: path).findings.map(\.ruleId)
      #expect(mac.contains(rule))
      #expect(!unknown.contains(rule))
    }
  }
}

/// Files reach a scan while the walk goes on, in the order of the finished list.
@Suite struct DiscoveryOrderTests {
  @Test func filesAreFoundInTheOrderOfTheirPaths() throws {
    let names = [
      "a/b.swift", "a.swift", "a-b.swift", "ab/c.swift", "a b.swift", "Z.swift", "é.swift", "a/a/z.swift", "a0.m",
    ]
    let root = try Paths.tree(Dictionary(uniqueKeysWithValues: names.map { ($0, "let x = 1\n") }))
    defer { try? FileManager.default.removeItem(at: root) }
    var seen: [String] = []
    let discovery = FileDiscovery(root: root.path, excludes: [])
    let streamed = discovery.discover([root.path]) { seen.append($0.relativePath) }
    // Files taken as they come are the caller's to keep: the result does not list them again.
    #expect(streamed.files.isEmpty)
    #expect(seen == discovery.discover([root.path]).files.map(\.relativePath))
    #expect(seen.count == names.count)
  }
}
