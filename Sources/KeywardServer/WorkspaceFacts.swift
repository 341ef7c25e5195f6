import Foundation
import KeywardCore

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
    let files = found.files
    let read = ParallelWork.map(count: files.count, jobs: 0) { scanner.callFacts(of: files[$0]) }
    for (file, fileFacts) in zip(files, read) { facts.update(file.relativePath, fileFacts) }
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
    let usage = faceIDUsage
    return HandOffSettler(facts: all, rules: rules, faceIDUsage: { usage })
  }
}
