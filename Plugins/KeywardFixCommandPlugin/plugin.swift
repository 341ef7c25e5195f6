import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory keyward-fix [--target NAME]... [keyward
/// fix options]`: applies Keyward's safe fixes to the package (or the targets named); the only
/// Keyward command that asks to write to the package.
@main
struct KeywardFixCommandPlugin: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    var extractor = ArgumentExtractor(arguments)
    let targetNames = extractor.extractOption(named: "target")
    let paths =
      targetNames.isEmpty
      ? [context.package.directoryURL.path] : try context.package.targets(named: targetNames).map(\.directory.string)
    let invocation = ["fix"] + paths + extractor.remainingArguments
    let process = Process()
    process.executableURL = try context.tool(named: "keyward").url
    process.arguments = invocation
    try process.run()
    process.waitUntilExit()
    if process.terminationStatus != 0 {
      Diagnostics.error("keyward \(invocation.joined(separator: " ")) exited with status \(process.terminationStatus)")
      throw KeywardFixError(status: process.terminationStatus)
    }
  }
}

struct KeywardFixError: Error, CustomStringConvertible {
  var status: Int32
  var description: String { "keyward exited with status \(status)" }
}
