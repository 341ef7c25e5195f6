import Foundation
import SwiftParser
import SwiftSyntax

/// The folders a library repository ships, read from its `Package.swift`: the code of its
/// targets. A repository that publishes a library (a `.podspec` beside a `Package.swift` whose
/// products are libraries) also holds code that is not the library: the apps its authors test
/// and demonstrate it with, and tooling. Those files are samples, wherever they sit.
public struct LibraryLayout: Sendable, Hashable {
  /// The folder holding the manifest, relative to the scan root ("" for the root itself), with a
  /// trailing `/` unless empty.
  public var root: String
  /// The targets' folders, relative to `root`, each with a trailing `/`.
  public var targetFolders: [String]

  /// The origin of a file under `root` that its path alone judges app code: app inside a target
  /// folder, sample elsewhere.
  public func origin(ofAppFile relativePath: String) -> CodeOrigin {
    guard relativePath.hasPrefix(root) else { return .app }
    let inside = relativePath.dropFirst(root.count)
    return targetFolders.contains { inside.hasPrefix($0) } ? .app : .sample
  }

  /// The layout of the library whose folder has these entries, or nil when the folder is not a
  /// library repository or its manifest does not say plainly where its targets are (a path
  /// computed in code, an executable product): then nothing is judged by it.
  /// - Parameter relativePrefix: the folder relative to the scan root, with a trailing `/`
  ///   ("" for the root).
  static func read(folder: String, relativePrefix: String, entryNames: [String]) -> LibraryLayout? {
    guard entryNames.contains("Package.swift"), entryNames.contains(where: { $0.hasSuffix(".podspec") }),
      let data = FileManager.default.contents(atPath: (folder as NSString).appendingPathComponent("Package.swift")),
      data.count < 1 << 20, let text = String(data: data, encoding: .utf8),
      let folders = targetFolders(ofManifest: text), !folders.isEmpty
    else { return nil }
    return LibraryLayout(root: relativePrefix, targetFolders: folders)
  }

  /// Whether code below `folder` is built into a library that apps link, so that what an app
  /// declares in its Info.plist is the linking app's to declare: the folder holds a `.podspec`
  /// (a CocoaPods, React Native or Flutter module), or a `Package.swift` whose products are all
  /// libraries and that no Xcode project's folder holds (a package inside an app's folder is the
  /// app's own code, kept in modules).
  static func shipsLibrary(folder: String, entryNames: [String], insideXcodeProject: Bool) -> Bool {
    if entryNames.contains(where: { $0.hasSuffix(".podspec") }) { return true }
    guard !insideXcodeProject, entryNames.contains("Package.swift"),
      let data = FileManager.default.contents(atPath: (folder as NSString).appendingPathComponent("Package.swift")),
      data.count < 1 << 20, let text = String(data: data, encoding: .utf8)
    else { return false }
    let visitor = ManifestVisitor(viewMode: .sourceAccurate)
    visitor.walk(Parser.parse(source: text))
    return visitor.declaresLibrary && !visitor.declaresExecutable
  }

  /// The folders of a manifest's targets: each `path:` given, else SwiftPM's default
  /// (`Sources/NAME`, `Tests/NAME` for a test target). Nil when a product is not a library, or a
  /// target's name or path is not a string literal.
  static func targetFolders(ofManifest text: String) -> [String]? {
    let visitor = ManifestVisitor(viewMode: .sourceAccurate)
    visitor.walk(Parser.parse(source: text))
    // A target at the manifest's own folder (`path: "."`) makes everything the library's.
    guard visitor.understood, visitor.declaresLibrary, !visitor.folders.contains("") else { return nil }
    return visitor.folders.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
  }
}

/// What the folders from the scan root down to a file say about whether its code ships in a
/// library that apps link (`LibraryLayout.shipsLibrary`), carried down as a walk enters folders.
struct LibraryPackaging: Sendable, Hashable {
  var shipsLibrary = false
  /// Whether a folder above holds an Xcode project: a package there is an app's own modules.
  var insideXcodeProject = false

  /// The packaging below `folder`, given its entries.
  func entering(folder: String, entryNames: [String]) -> LibraryPackaging {
    LibraryPackaging(
      shipsLibrary: shipsLibrary
        || LibraryLayout.shipsLibrary(folder: folder, entryNames: entryNames, insideXcodeProject: insideXcodeProject),
      insideXcodeProject: insideXcodeProject || entryNames.contains { $0.hasSuffix(".xcodeproj") })
  }
}

private final class ManifestVisitor: SyntaxVisitor {
  var folders: [String] = []
  var declaresLibrary = false
  var declaresExecutable = false
  var understood = true

  private static let targetDefaults = [
    "target": "Sources", "executableTarget": "Sources", "testTarget": "Tests", "macro": "Sources",
    "plugin": "Plugins",
  ]

  override func visitPost(_ node: FunctionCallExprSyntax) {
    guard let member = node.calledExpression.as(MemberAccessExprSyntax.self), member.base == nil else { return }
    switch member.declName.baseName.text {
    case "library": declaresLibrary = true
    case "executable":
      declaresExecutable = true
      understood = false
    case let kind where Self.targetDefaults[kind] != nil:
      guard let name = literal(node, "name") else {
        understood = false
        return
      }
      if let pathArgument = node.arguments.first(where: { $0.label?.text == "path" }) {
        guard let path = SyntaxFacts.stringLiteralValue(pathArgument.expression) else {
          understood = false
          return
        }
        folders.append(Self.normalized(path))
      } else {
        folders.append("\(Self.targetDefaults[kind]!)/\(name)")
      }
    default: break
    }
  }

  private func literal(_ call: FunctionCallExprSyntax, _ label: String) -> String? {
    call.arguments.first { $0.label?.text == label }.flatMap { SyntaxFacts.stringLiteralValue($0.expression) }
  }

  /// `./Sources/X/` → `Sources/X`; `.` → "".
  private static func normalized(_ path: String) -> String {
    var trimmed = Substring(path)
    while trimmed.hasPrefix("./") { trimmed = trimmed.dropFirst(2) }
    while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
    return trimmed == "." ? "" : String(trimmed)
  }
}
