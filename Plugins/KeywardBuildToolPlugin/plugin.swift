import Foundation
import PackagePlugin

/// Scans each source target when it builds and prints findings as compiler warnings
/// (`path:line:column: warning: ...`) without failing the build. To make findings errors that
/// fail it, build with `KEYWARD_BUILD_FAIL_ON=high` (or another severity): findings at least that
/// severe are then `error:` and the build stops.
@main
struct KeywardBuildToolPlugin: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
    guard let target = target as? SourceModuleTarget else { return [] }
    let sources = target.sourceFiles.map(\.url).filter { ["swift", "m", "mm", "h"].contains($0.pathExtension) }
    guard !sources.isEmpty else { return [] }
    let stamp = context.pluginWorkDirectoryURL.appendingPathComponent("KeywardScan_\(target.name).swift")
    let failOn =
      ProcessInfo.processInfo.environment["KEYWARD_BUILD_FAIL_ON"].flatMap { $0.isEmpty ? nil : $0 } ?? "none"
    return [
      .buildCommand(
        displayName: "Keyward scan of \(target.name)",
        executable: try context.tool(named: "keyward").url,
        arguments: ["scan"] + sources.map(\.path) + ["--format", "xcode", "--fail-on", failOn, "--stamp", stamp.path],
        inputFiles: sources,
        outputFiles: [stamp])
    ]
  }
}
