import Foundation

/// A path pattern as in `.gitignore`: `*` and `?` match within one path segment, `**` matches
/// any number of segments. A pattern without `/` matches any single segment (a file or folder
/// name anywhere); a pattern with `/` matches from the scan root.
public struct GlobPattern: Sendable, Hashable {
  public let text: String
  private let segments: [Segment]
  private let anchored: Bool
  /// For a configuration file's globs: where they are anchored, when not at the scan root.
  private var anchor: GlobAnchor?

  /// This pattern, matching paths relative to `anchor`'s folder instead of the scan root.
  public func anchored(to anchor: GlobAnchor?) -> GlobPattern {
    var copy = self
    copy.anchor = anchor
    return copy
  }

  /// One `/`-separated part of a pattern. Most are plain names, compared byte for byte; only
  /// those with wildcards go to `fnmatch` (discovery checks every folder entry against every
  /// exclusion, so this is on the path of every scan).
  private enum Segment: Sendable, Hashable {
    case anySegments
    case literal([UInt8])
    case wildcard(String)

    init(_ text: Substring) {
      if text == "**" {
        self = .anySegments
      } else if text.utf8.contains(where: {
        $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "\\")
      }) {
        self = .wildcard(String(text))
      } else {
        self = .literal(Array(text.utf8))
      }
    }

    func matches(_ segment: Substring) -> Bool {
      switch self {
      case .anySegments: return true
      case .literal(let bytes): return segment.utf8.elementsEqual(bytes)
      case .wildcard(let pattern): return fnmatch(pattern, String(segment), 0) == 0
      }
    }
  }

  public init(_ text: String) {
    self.text = text
    var body = text.hasPrefix("./") ? String(text.dropFirst(2)) : text
    while body.hasSuffix("/") { body.removeLast() }
    anchored = body.contains("/")
    segments = body.split(separator: "/", omittingEmptySubsequences: true).map(Segment.init)
  }

  /// Whether the relative path (with `/` separators) matches.
  public func matches(_ relativePath: String) -> Bool {
    matches(segments: relativePath.split(separator: "/"))
  }

  /// Whether any of `patterns` matches the path, splitting it once for all of them.
  public static func anyMatches(_ patterns: [GlobPattern], _ relativePath: String) -> Bool {
    guard !patterns.isEmpty else { return false }
    let pathSegments = relativePath.split(separator: "/")
    return patterns.contains { $0.matches(segments: pathSegments) }
  }

  private func matches(segments rootSegments: [Substring]) -> Bool {
    let pathSegments: [Substring]
    if let anchor {
      guard let rebased = anchor.rebase(rootSegments) else { return false }
      pathSegments = rebased
    } else {
      pathSegments = rootSegments
    }
    guard anchored else {
      guard let only = segments.first else { return false }
      return pathSegments.contains { only.matches($0) }
    }
    return Self.match(segments[...], pathSegments[...])
  }

  private static func match(_ pattern: ArraySlice<Segment>, _ path: ArraySlice<Substring>) -> Bool {
    guard let head = pattern.first else { return path.isEmpty }
    if head == .anySegments {
      let rest = pattern.dropFirst()
      if rest.isEmpty { return true }
      var remaining = path
      while true {
        if match(rest, remaining) { return true }
        guard !remaining.isEmpty else { return false }
        remaining = remaining.dropFirst()
      }
    }
    guard let segment = path.first, head.matches(segment) else { return false }
    return match(pattern.dropFirst(), path.dropFirst())
  }
}

/// The folder a configuration file's globs are relative to (the file's own folder, as
/// `.gitignore` and SwiftLint read theirs), seen from the scan root: paths relative to the root
/// are rebased onto it before matching.
public struct GlobAnchor: Sendable, Hashable {
  /// The root lies inside the folder: the root's path from the folder is put before each path.
  /// The folder lies inside the root: its path from the root is taken off, and paths outside it
  /// never match. Otherwise nothing under the root is in the folder.
  private enum Relation: Sendable, Hashable {
    case prepend([String])
    case strip([String])
    case outside
  }

  private let relation: Relation

  /// nil when `folder` is the scan root itself (globs then match as they are).
  public init?(folder: String, root: String) {
    let folderParts = folder.split(separator: "/").map(String.init)
    let rootParts = root.split(separator: "/").map(String.init)
    if rootParts.starts(with: folderParts) {
      guard rootParts.count > folderParts.count else { return nil }
      relation = .prepend(Array(rootParts[folderParts.count...]))
    } else if folderParts.starts(with: rootParts) {
      relation = .strip(Array(folderParts[rootParts.count...]))
    } else {
      relation = .outside
    }
  }

  func rebase(_ segments: [Substring]) -> [Substring]? {
    switch relation {
    case .prepend(let prefix):
      return prefix.map { Substring($0) } + segments
    case .strip(let prefix):
      guard segments.count > prefix.count, zip(prefix, segments).allSatisfy({ $0.0 == $0.1 }) else { return nil }
      return Array(segments[prefix.count...])
    case .outside:
      return nil
    }
  }
}
