import Foundation
import PackagePlugin

/// `swift package keyward [--fix] [keyward scan options]`: scans the package's directory with
/// Keyward (or applies the safe fixes with `--fix`), and fails when keyward reports findings.
@main
struct KeywardCommandPlugin: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    let tool = try context.tool(named: "keyward")
    var options = arguments
    let fix = options.contains("--fix")
    options.removeAll { $0 == "--fix" }
    let invocation = [fix ? "fix" : "scan", context.package.directoryURL.path] + options
    let process = Process()
    process.executableURL = tool.url
    process.arguments = invocation
    try process.run()
    process.waitUntilExit()
    if process.terminationStatus != 0 {
      Diagnostics.error("keyward \(invocation.joined(separator: " ")) exited with status \(process.terminationStatus)")
      throw KeywardPluginError(status: process.terminationStatus)
    }
  }
}

struct KeywardPluginError: Error, CustomStringConvertible {
  var status: Int32
  var description: String { "keyward exited with status \(status)" }
}
