import Foundation
import Testing

/// Keyward's SwiftPM plugins driven for real on the example package `Examples/PluginDemo`, unchanged,
/// inside a clone whose folder is not called `keyward`. The first run builds Keyward inside the
/// demo (a few minutes); the work folder under `.build` is reused afterwards.
@Suite(.serialized) struct PluginTests {
  static let workspace = Paths.packageRoot.appendingPathComponent(".build/plugin-demo")

  /// A clone named `my-fork-of-the-analyzer` (links to this repository's package) holding a copy
  /// of the demo, which depends on `../..`.
  static func prepareDemo() throws -> URL {
    let manager = FileManager.default
    let clone = workspace.appendingPathComponent("my-fork-of-the-analyzer")
    try? manager.removeItem(at: clone)
    try manager.createDirectory(at: clone.appendingPathComponent("Examples"), withIntermediateDirectories: true)
    for item in ["Package.swift", "Package.resolved", "Sources", "Plugins"]
    where manager.fileExists(atPath: Paths.packageRoot.appendingPathComponent(item).path) {
      try manager.createSymbolicLink(
        at: clone.appendingPathComponent(item), withDestinationURL: Paths.packageRoot.appendingPathComponent(item))
    }
    let demo = clone.appendingPathComponent("Examples/PluginDemo")
    try manager.copyItem(at: Paths.packageRoot.appendingPathComponent("Examples/PluginDemo"), to: demo)
    return demo
  }

  static func swift(_ arguments: [String], environment: [String: String] = [:]) throws -> (
    status: Int32, output: String
  ) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["swift"] + arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, output)
  }

  @Test func commandAndBuildToolPluginsReportTheDemosFinding() throws {
    let demo = try Self.prepareDemo()
    let scratch = Self.workspace.appendingPathComponent("scratch").path
    let package = ["package", "--package-path", demo.path, "--scratch-path", scratch]
    // Scanning asks for no permission; --target limits it to a target.
    let command = try Self.swift(package + ["keyward", "--target", "DemoKeychain", "--format", "csv"])
    // The demo has one high finding, so the scan exits 1 and the plugin reports the failure.
    #expect(command.status != 0)
    #expect(command.output.contains("swift.weak_keychain_accessibility,TokenStore.swift,15,39"), "\(command.output)")
    #expect(command.output.contains("keyward scan"))
    let noTarget = try Self.swift(package + ["keyward", "--target", "NoSuchTarget"])
    #expect(noTarget.status != 0)
    // The scan verb never writes: --fix is refused and points to the verb that may.
    let refused = try Self.swift(package + ["keyward", "--fix"])
    #expect(refused.status != 0)
    #expect(refused.output.contains("--allow-writing-to-package-directory keyward-fix"))

    // The build-tool plugin: warnings, and the build succeeds...
    let build = try Self.swift(["build", "--package-path", demo.path, "--scratch-path", scratch])
    #expect(build.status == 0, "\(build.output.suffix(2000))")
    #expect(build.output.contains("TokenStore.swift:15:39: warning: `kSecAttrAccessibleAlways`"))
    // ...unless errors are asked for.
    let source = demo.appendingPathComponent("Sources/DemoKeychain/TokenStore.swift")
    try (String(contentsOf: source, encoding: .utf8) + "\n").write(to: source, atomically: true, encoding: .utf8)
    let strict = try Self.swift(
      ["build", "--package-path", demo.path, "--scratch-path", scratch], environment: ["KEYWARD_BUILD_FAIL_ON": "high"])
    #expect(strict.status != 0)
    #expect(strict.output.contains("TokenStore.swift:15:39: error: `kSecAttrAccessibleAlways`"))

    let fixed = try Self.swift(package + ["--allow-writing-to-package-directory", "keyward-fix"])
    #expect(fixed.status == 0, "\(fixed.output.suffix(2000))")
    let text = try String(contentsOf: source, encoding: .utf8)
    #expect(text.contains("kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock,"))
  }
}
