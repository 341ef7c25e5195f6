import Foundation
import KeywardCore
import KeywardRules

/// What the engine found in one document's text.
struct DocumentAnalysis {
  /// Active findings (inline suppressions honoured), hand-offs settled, in report order.
  var findings: [Finding]
  var text: SourceText
  /// The document's path relative to the workspace root, as findings name it.
  var relativePath: String
  var issues: [ScanIssue]
  var configurationProblem: String?
}

/// Scans editor documents, whose text is in memory, with the same engine as `keyward scan`: the
/// file scanner on the bytes, then the project step that settles findings waiting on other files
/// (a weak value or an `LAContext` handed to a function elsewhere), against the call facts of
/// the workspace's files on disk, read once when first needed, with the document's own facts
/// taken from its current text.
final class DocumentAnalyzer {
  let root: String?
  private let settings: ProjectSettings
  private var workspace: WorkspaceFacts?

  init(root: String?) {
    self.root = root.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
    settings = ProjectSettings(boundary: self.root)
  }

  func analyze(text: String, absolutePath: String) -> DocumentAnalysis {
    let bytes = Array(text.utf8)
    let path = URL(fileURLWithPath: absolutePath).standardizedFileURL.path
    let relative = relativePath(of: path)
    let loaded = settings.settings(forFolder: (path as NSString).deletingLastPathComponent)
    if Self.isLeftOut(path, by: loaded.configuration, root: root) {
      return DocumentAnalysis(
        findings: [], text: SourceText(bytes: bytes), relativePath: relative, issues: [],
        configurationProblem: loaded.problem)
    }
    let outcome = loaded.scanner.scan(bytes: bytes, path: relative)
    var findings = outcome.findings
    if findings.contains(where: { $0.handOff != nil }) {
      if workspace == nil {
        workspace = WorkspaceFacts.read(root: root, scanner: loaded.scanner, configuration: loaded.configuration)
      }
      findings = workspace!.settler(replacing: relative, with: outcome.facts, rules: loaded.scanner.rules)
        .settle(findings)
    } else {
      workspace?.update(relative, outcome.facts)
    }
    // Where the code lives by its path (Tests/, Samples/, ...), as a scan of the folder says.
    let file = DiscoveredFile(absolutePath: path, relativePath: relative, size: bytes.count)
    for index in findings.indices { findings[index].origin = file.origin(content: findings[index].origin) }
    return DocumentAnalysis(
      findings: findings.filter(\.isActive), text: SourceText(bytes: bytes), relativePath: relative,
      issues: outcome.issues, configurationProblem: loaded.problem)
  }

  /// Whether the configuration leaves the file out of a scan of the workspace (`exclude:`, or
  /// `include:` not naming it), as `keyward scan` of the workspace would. A glob excludes a file
  /// when it matches the file or any folder above it, as discovery skips excluded folders whole.
  static func isLeftOut(_ path: String, by configuration: Configuration, root: String?) -> Bool {
    guard let folder = configuration.folder else { return false }
    let scanRoot = root ?? folder
    guard path.hasPrefix(scanRoot + "/") else { return false }
    let relative = String(path.dropFirst(scanRoot.count + 1))
    let anchor = GlobAnchor(folder: folder, root: scanRoot)
    let excludes = configuration.excludes.map { GlobPattern($0).anchored(to: anchor) }
    let parts = relative.split(separator: "/")
    let ancestors = parts.indices.map { parts[...$0].joined(separator: "/") }
    if ancestors.contains(where: { GlobPattern.anyMatches(excludes, $0) }) { return true }
    let includes = configuration.includes.map { GlobPattern($0).anchored(to: anchor) }
    return !includes.isEmpty && !GlobPattern.anyMatches(includes, relative)
  }

  /// Forgets what was read from disk, so the next settlement reads the workspace again.
  func invalidateWorkspace() { workspace = nil }

  func relativePath(of absolutePath: String) -> String {
    if let root, absolutePath.hasPrefix(root + "/") { return String(absolutePath.dropFirst(root.count + 1)) }
    return (absolutePath as NSString).lastPathComponent
  }
}

/// The call facts of every source file of the workspace, by relative path.
struct WorkspaceFacts {
  private var byPath: [String: CallFacts] = [:]
  private var order: [String] = []
  private var faceIDUsage = FaceIDUsage.unknown

  static func read(root: String?, scanner: FileScanner, configuration: Configuration) -> WorkspaceFacts {
    var facts = WorkspaceFacts()
    guard let root else { return facts }
    let anchor = configuration.folder.flatMap { GlobAnchor(folder: $0, root: root) }
    let discovery = FileDiscovery(
      root: root, excludes: [], includeThirdParty: configuration.includeThirdParty,
      anchoredExcludes: configuration.excludes.map { GlobPattern($0).anchored(to: anchor) })
    let found = discovery.discover([root])
    for file in found.files {
      facts.update(file.relativePath, scanner.callFacts(of: file))
    }
    facts.faceIDUsage = FaceIDUsage.read(found.settingsFiles.map { (root as NSString).appendingPathComponent($0) })
    return facts
  }

  mutating func update(_ path: String, _ facts: CallFacts) {
    if byPath.updateValue(facts, forKey: path) == nil { order.append(path) }
  }

  /// A settler over the workspace with `path`'s facts replaced by those of its current text.
  mutating func settler(replacing path: String, with facts: CallFacts, rules: [ConfiguredRule]) -> HandOffSettler {
    update(path, facts)
    var all = CallFacts()
    for path in order { all.append(byPath[path]!) }
    return HandOffSettler(facts: all, rules: rules, faceIDUsage: faceIDUsage)
  }
}
