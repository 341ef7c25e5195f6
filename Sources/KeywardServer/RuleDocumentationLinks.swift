import Foundation
import KeywardCore
import KeywardRules

/// Where an editor opens a rule's documentation from a diagnostic (`codeDescription.href`): a
/// URL the team configures (`initializationOptions.ruleDocumentationURL`, `{rule}` standing for
/// the rule id), or else the page `keyward explain` prints, written under the user's cache
/// folder (`keyward/VERSION/rules/ID.md`) the first time this run links to it, so that the page
/// always describes the build that reported the finding.
public final class RuleDocumentationLinks {
  private let template: String?
  private let folder: URL?
  /// The link of each rule asked for; nil when its page could not be written.
  private var links: [String: String?] = [:]

  init(template: String?, folder: URL? = RuleDocumentationLinks.defaultFolder) {
    self.template = template.flatMap { $0.contains("{rule}") ? $0 : nil }
    self.folder = folder
  }

  public static var defaultFolder: URL? {
    FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first?
      .appendingPathComponent("keyward/\(KeywardVersion.current)/rules", isDirectory: true)
  }

  func href(for ruleID: String) -> String? {
    if let template { return template.replacingOccurrences(of: "{rule}", with: ruleID) }
    if let known = links[ruleID] { return known }
    let link = writePage(for: ruleID)
    links[ruleID] = link
    return link
  }

  private func writePage(for ruleID: String) -> String? {
    guard let folder, let rule = RuleCatalog.standard.rule(withID: ruleID) else { return nil }
    let page = folder.appendingPathComponent(ruleID + ".md")
    do {
      if !FileManager.default.fileExists(atPath: folder.path) { Self.removePagesOfOtherVersions(beside: folder) }
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try Data(RuleDocumentation.markdown(for: rule).utf8).write(to: page, options: .atomic)
    } catch {
      return nil
    }
    return page.absoluteString
  }

  /// Pages written by other versions (`keyward/OTHER/rules`) describe builds no longer running:
  /// removed when this version first writes its own, leaving anything else in the folder alone.
  static func removePagesOfOtherVersions(beside folder: URL) {
    let version = folder.deletingLastPathComponent()
    let root = version.deletingLastPathComponent()
    guard folder.lastPathComponent == "rules", root.lastPathComponent == "keyward" else { return }
    let manager = FileManager.default
    for other in (try? manager.contentsOfDirectory(atPath: root.path)) ?? [] where other != version.lastPathComponent {
      let otherVersion = root.appendingPathComponent(other, isDirectory: true)
      try? manager.removeItem(at: otherVersion.appendingPathComponent("rules", isDirectory: true))
      if (try? manager.contentsOfDirectory(atPath: otherVersion.path))?.isEmpty == true {
        try? manager.removeItem(at: otherVersion)
      }
    }
  }
}
