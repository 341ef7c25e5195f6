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
  /// Documents described, with the configuration they were described under.
  private var described: [String: (settings: DescribedUnder, file: DiscoveredFile)] = [:]
  private struct DescribedUnder: Equatable {
    var folder: String?
    var origins: [CodeOrigin: [String]]
  }

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
    let file = describe(path, size: bytes.count, configuration: loaded.configuration)
    let outcome = Self.scanOnLargeStack(loaded.scanner, bytes: bytes, as: file)
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
    return DocumentAnalysis(
      findings: findings.filter(\.isActive), text: SourceText(bytes: bytes), relativePath: relative,
      issues: outcome.issues, configurationProblem: loaded.problem)
  }

  /// Seconds one scan of a document may take before the editor is told it was given up.
  static let timeLimit = 10.0

  /// The scan, on a worker with the large stack `keyward scan` gives its workers (deeply nested
  /// code recurses deeply in the parser), within `timeLimit`.
  static func scanOnLargeStack(_ scanner: FileScanner, bytes: [UInt8], as file: DiscoveredFile) -> FileOutcome {
    ParallelWork.map(
      count: 1, jobs: 1, timeLimit: timeLimit,
      onTimeout: { _ in
        FileOutcome(issues: [
          ScanIssue(
            path: file.relativePath, kind: .timeLimit,
            message: "given up: scanning took longer than \(Int(timeLimit)) seconds")
        ])
      }
    ) { _ in scanner.scan(bytes: bytes, as: file) }[0]
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

  /// The document as a scan of the workspace sees it: where its code lives (its path, the
  /// configuration's `origins:`, the library it lies in) and the platform its project builds
  /// for. Kept per path until files change on disk: it lists the folders above the document.
  private func describe(_ path: String, size: Int, configuration: Configuration) -> DiscoveredFile {
    let settings = DescribedUnder(folder: configuration.folder, origins: configuration.origins)
    if let known = described[path], known.settings == settings {
      var file = known.file
      file.size = size
      return file
    }
    // Without a workspace, paths are relative to the document's folder, as findings name them.
    let scanRoot = root ?? (path as NSString).deletingLastPathComponent
    let anchor = configuration.folder.flatMap { GlobAnchor(folder: $0, root: scanRoot) }
    let discovery = FileDiscovery(
      root: scanRoot, excludes: [], origins: OriginOverrides(configuration.origins).anchored(to: anchor))
    let file = discovery.describe(fileAt: path, size: size)
    described[path] = (settings, file)
    return file
  }

  /// Forgets what was read from disk, so the next settlement reads the workspace again.
  func invalidateWorkspace() {
    workspace = nil
    described = [:]
  }

  func relativePath(of absolutePath: String) -> String {
    if let root, absolutePath.hasPrefix(root + "/") { return String(absolutePath.dropFirst(root.count + 1)) }
    return (absolutePath as NSString).lastPathComponent
  }
}
