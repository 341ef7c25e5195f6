import Foundation
import Testing

/// Keyward's SwiftPM plugins driven for real on the example package `Examples/PluginDemo`. The
/// first run builds Keyward inside the demo (a few minutes); the work folder under `.build` is
/// reused afterwards.
@Suite(.serialized) struct PluginTests {
  static let workspace = Paths.packageRoot.appendingPathComponent(".build/plugin-demo")

  /// The demo copied beside a link named `keyward` to this repository, which it depends on.
  static func prepareDemo() throws -> URL {
    let manager = FileManager.default
    let demo = workspace.appendingPathComponent("PluginDemo")
    try? manager.removeItem(at: demo)
    try manager.createDirectory(at: workspace, withIntermediateDirectories: true)
    let link = workspace.appendingPathComponent("keyward")
    try? manager.removeItem(at: link)
    try manager.createSymbolicLink(at: link, withDestinationURL: Paths.packageRoot)
    try manager.copyItem(at: Paths.packageRoot.appendingPathComponent("Examples/PluginDemo"), to: demo)
    let manifest = demo.appendingPathComponent("Package.swift")
    let text = try String(contentsOf: manifest, encoding: .utf8)
    try text.replacingOccurrences(of: ".package(path: \"../..\")", with: ".package(path: \"../keyward\")")
      .write(to: manifest, atomically: true, encoding: .utf8)
    return demo
  }

  static func swift(_ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["swift"] + arguments
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
    let command = try Self.swift([
      "package", "--package-path", demo.path, "--scratch-path", scratch, "--allow-writing-to-package-directory",
      "keyward", "--format", "csv",
    ])
    // The demo has one high finding, so the scan exits 1 and the plugin reports the failure.
    #expect(command.status != 0)
    #expect(command.output.contains("swift.weak_keychain_accessibility,Sources/DemoKeychain/TokenStore.swift,15,39"))
    #expect(command.output.contains("keyward scan"))

    let build = try Self.swift(["build", "--package-path", demo.path, "--scratch-path", scratch])
    #expect(build.status == 0, "\(build.output.suffix(2000))")
    #expect(build.output.contains("TokenStore.swift:15:39: error: `kSecAttrAccessibleAlways`"))

    let fixed = try Self.swift([
      "package", "--package-path", demo.path, "--scratch-path", scratch, "--allow-writing-to-package-directory",
      "keyward", "--fix",
    ])
    #expect(fixed.status == 0, "\(fixed.output.suffix(2000))")
    let source = try String(
      contentsOf: demo.appendingPathComponent("Sources/DemoKeychain/TokenStore.swift"), encoding: .utf8)
    #expect(source.contains("kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock,"))
  }
}
