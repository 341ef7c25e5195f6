import Foundation
import PackagePlugin

/// Scans each source target when it builds and prints findings as compiler diagnostics
/// (`path:line:column: warning|error: ...`). It never fails the build; CI runs `keyward scan`
/// with `--fail-on` for that.
@main
struct KeywardBuildToolPlugin: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
    guard let target = target as? SourceModuleTarget else { return [] }
    let sources = target.sourceFiles.map(\.url).filter { ["swift", "m", "mm", "h"].contains($0.pathExtension) }
    guard !sources.isEmpty else { return [] }
    let stamp = context.pluginWorkDirectoryURL.appendingPathComponent("KeywardScan_\(target.name).swift")
    return [
      .buildCommand(
        displayName: "Keyward scan of \(target.name)",
        executable: try context.tool(named: "keyward").url,
        arguments: ["scan"] + sources.map(\.path) + ["--format", "xcode", "--fail-on", "none", "--stamp", stamp.path],
        inputFiles: sources,
        outputFiles: [stamp])
    ]
  }
}
