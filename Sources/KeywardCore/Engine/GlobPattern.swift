import Foundation

/// A path pattern as in `.gitignore`: `*` and `?` match within one path segment, `**` matches
/// any number of segments. A pattern without `/` matches any single segment (a file or folder
/// name anywhere); a pattern with `/` matches from the scan root.
public struct GlobPattern: Sendable, Hashable {
  public let text: String
  private let segments: [String]
  private let anchored: Bool

  public init(_ text: String) {
    self.text = text
    var body = text.hasPrefix("./") ? String(text.dropFirst(2)) : text
    while body.hasSuffix("/") { body.removeLast() }
    anchored = body.contains("/")
    segments = body.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
  }

  /// Whether the relative path (with `/` separators) matches.
  public func matches(_ relativePath: String) -> Bool {
    let pathSegments = relativePath.split(separator: "/").map(String.init)
    guard anchored else {
      guard let only = segments.first else { return false }
      return pathSegments.contains { Self.matchSegment(only, $0) }
    }
    return Self.match(segments[...], pathSegments[...])
  }

  private static func match(_ pattern: ArraySlice<String>, _ path: ArraySlice<String>) -> Bool {
    guard let head = pattern.first else { return path.isEmpty }
    if head == "**" {
      let rest = pattern.dropFirst()
      if rest.isEmpty { return true }
      var remaining = path
      while true {
        if match(rest, remaining) { return true }
        guard !remaining.isEmpty else { return false }
        remaining = remaining.dropFirst()
      }
    }
    guard let segment = path.first, matchSegment(head, segment) else { return false }
    return match(pattern.dropFirst(), path.dropFirst())
  }

  static func matchSegment(_ pattern: String, _ segment: String) -> Bool {
    fnmatch(pattern, segment, 0) == 0
  }
}
