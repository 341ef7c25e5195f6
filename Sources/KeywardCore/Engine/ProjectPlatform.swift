import Foundation
import SwiftParser
import SwiftSyntax

/// The platforms a project builds a folder's code for, as its manifest declares them: a
/// `Package.swift` whose `platforms:` names only macOS (for its `Sources` folder), or an Xcode
/// project whose every `SDKROOT` is `macosx` (for the folder holding it). A manifest nearer to a
/// file decides over one further up.
public enum ProjectPlatform: Sendable, Hashable {
  /// Nothing says, or the project also builds for other platforms.
  case unspecified
  case macOSOnly

  /// What the manifests among a folder's entries declare, with the folder (relative to the
  /// walked folder, "" for itself) they decide for; nil when it holds none.
  static func declared(inFolder folder: String, entryNames: [String]) -> (platform: ProjectPlatform, scope: String)? {
    let projects = entryNames.filter { $0.hasSuffix(".xcodeproj") }
    if !projects.isEmpty {
      let roots = projects.map { xcodeProjectSDKs((folder as NSString).appendingPathComponent($0)) }
      // An SDK may name its version (`macosx26.0`).
      let macOnly = roots.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.hasPrefix("macosx") } }
      return (macOnly ? .macOSOnly : .unspecified, "")
    }
    guard entryNames.contains("Package.swift"),
      let text = read((folder as NSString).appendingPathComponent("Package.swift"))
    else { return nil }
    // Most manifests name no platform, or not macOS: those need no parse.
    let macOnly = text.contains("macOS") && packagePlatforms(ofManifest: text) == ["macOS"]
    return (macOnly ? .macOSOnly : .unspecified, "Sources")
  }

  /// The platform of `entry` of a folder whose manifests declared `declared`: theirs when they
  /// decide for the whole folder or for that entry (`Sources`), else the one from above.
  static func of(entry: String, declared: (platform: ProjectPlatform, scope: String)?, outer: ProjectPlatform)
    -> ProjectPlatform
  {
    guard let declared, declared.scope.isEmpty || declared.scope == entry else { return outer }
    return declared.platform
  }

  private static func read(_ path: String) -> String? {
    guard let data = FileManager.default.contents(atPath: path), data.count < 8 << 20 else { return nil }
    return String(data: data, encoding: .utf8)
  }

  /// The `SDKROOT` values of an Xcode project's build settings (`macosx`, `iphoneos`, ...).
  /// Projects run to megabytes: the bytes are searched, not split into lines.
  static func xcodeProjectSDKs(_ projectFolder: String) -> Set<String> {
    let path = (projectFolder as NSString).appendingPathComponent("project.pbxproj")
    guard let bytes = try? FileBytes.read(path), bytes.count < 64 << 20 else { return [] }
    let key = Array("SDKROOT = ".utf8)
    var found: Set<String> = []
    bytes.withUnsafeBufferPointer { buffer in
      var offset = 0
      while let hit = ByteSearch.firstIndex(of: key, in: buffer, from: offset) {
        var start = hit + key.count
        var end = start
        while end < buffer.count, buffer[end] != UInt8(ascii: ";"), buffer[end] != UInt8(ascii: "\n") { end += 1 }
        offset = end
        while start < end, buffer[start] == UInt8(ascii: "\"") { start += 1 }
        var stop = end
        while stop > start, buffer[stop - 1] == UInt8(ascii: "\"") || buffer[stop - 1] == UInt8(ascii: " ") {
          stop -= 1
        }
        found.insert(String(decoding: buffer[start..<stop], as: UTF8.self))
      }
    }
    return found
  }

  /// The platform names in a package manifest's `platforms:` (`[.macOS(.v13), .iOS(.v16)]` →
  /// `["macOS", "iOS"]`); empty when it has none or says them in a way not read here.
  public static func packagePlatforms(ofManifest text: String) -> Set<String> {
    let visitor = PlatformsVisitor(viewMode: .sourceAccurate)
    visitor.walk(Parser.parse(source: text))
    return visitor.understood ? visitor.platforms : []
  }
}

private final class PlatformsVisitor: SyntaxVisitor {
  var platforms: Set<String> = []
  var understood = true

  override func visit(_ node: LabeledExprSyntax) -> SyntaxVisitorContinueKind {
    guard node.label?.text == "platforms" else { return .visitChildren }
    guard let list = node.expression.as(ArrayExprSyntax.self) else {
      understood = false
      return .skipChildren
    }
    for element in list.elements {
      guard let call = element.expression.as(FunctionCallExprSyntax.self),
        let member = call.calledExpression.as(MemberAccessExprSyntax.self)
      else {
        understood = false
        continue
      }
      platforms.insert(member.declName.baseName.text)
    }
    return .skipChildren
  }
}
