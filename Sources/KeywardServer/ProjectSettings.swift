import Foundation
import KeywardCore
import KeywardRules

/// The `.keyward.yml` that governs a file, as `keyward scan` finds it (in the file's folder or
/// a parent), and the file scanner it configures. Reloaded when the file changes on disk.
final class ProjectSettings {
  struct Loaded {
    var configuration: Configuration
    var scanner: FileScanner
    /// Why the configuration file could not be used; the defaults are used instead.
    var problem: String?
    fileprivate var modified: Date?
  }

  /// Where the search for `.keyward.yml` stops (the workspace root); nil: the file system root.
  let boundary: String?
  private var loaded: [String: Loaded] = [:]

  init(boundary: String?) { self.boundary = boundary.map { URL(fileURLWithPath: $0).standardizedFileURL.path } }

  /// The settings for a file in `folder` (an absolute path).
  func settings(forFolder folder: String) -> Loaded {
    let path = Self.configurationFile(from: folder, boundary: boundary)
    let key = path ?? ""
    let modified = path.flatMap(Self.modificationDate)
    if let known = loaded[key], known.modified == modified { return known }
    var fresh = Self.load(path)
    fresh.modified = modified
    loaded[key] = fresh
    return fresh
  }

  static func load(_ path: String?) -> Loaded {
    var configuration = Configuration()
    var problem: String?
    if let path {
      do {
        configuration = try ConfigLoader(catalog: .standard).load(path: path)
      } catch {
        problem = "\(error)"
      }
    }
    let scanner = FileScanner(
      rules: configuration.configuredRules(from: .standard), wrappers: configuration.wrappers,
      knownRuleIDs: Set(RuleCatalog.standard.ids))
    return Loaded(configuration: configuration, scanner: scanner, problem: problem)
  }

  /// `.keyward.yml` in `folder` or a parent, not above `boundary` when `folder` is inside it.
  static func configurationFile(from folder: String, boundary: String?) -> String? {
    var url = URL(fileURLWithPath: folder).standardizedFileURL
    let stop = boundary.flatMap { url.path == $0 || url.path.hasPrefix($0 + "/") ? $0 : nil }
    while true {
      let candidate = url.appendingPathComponent(ConfigLoader.fileName).path
      if FileManager.default.fileExists(atPath: candidate) { return candidate }
      let parent = url.deletingLastPathComponent()
      if parent.path == url.path || url.path == stop { return nil }
      url = parent
    }
  }

  private static func modificationDate(_ path: String) -> Date? {
    (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
  }
}
