import Foundation
import PackagePlugin

/// `swift package keyward [--target NAME]... [keyward scan options]`: scans the package (or the
/// targets named) with Keyward and fails when the scan does. Reading needs no permission; to
/// apply fixes, `swift package --allow-writing-to-package-directory keyward-fix` (the
/// KeywardFixCommandPlugin) asks for it.
@main
struct KeywardCommandPlugin: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    if arguments.contains("--fix") {
      Diagnostics.error(
        "scanning needs no permission, so this command cannot write; apply fixes with: swift package --allow-writing-to-package-directory keyward-fix"
      )
      throw KeywardPluginError(status: 2)
    }
    try KeywardInvocation(context: context, arguments: arguments).run(command: "scan")
  }
}

/// The paths to scan (`--target NAME`, repeatable, or the whole package) and the options for
/// keyward; runs it and fails when it does.
struct KeywardInvocation {
  var tool: URL
  var paths: [String]
  var options: [String]

  init(context: PluginContext, arguments: [String]) throws {
    var extractor = ArgumentExtractor(arguments)
    let targetNames = extractor.extractOption(named: "target")
    tool = try context.tool(named: "keyward").url
    options = extractor.remainingArguments
    if targetNames.isEmpty {
      paths = [context.package.directoryURL.path]
    } else {
      paths = try context.package.targets(named: targetNames).map(\.directory.string)
    }
  }

  func run(command: String) throws {
    let invocation = [command] + paths + options
    let process = Process()
    process.executableURL = tool
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
