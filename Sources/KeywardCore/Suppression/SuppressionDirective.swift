import Foundation
import SwiftSyntax

/// A `keyward:` comment that suppresses findings:
///
/// - `// keyward:ignore RULE-ID[, RULE-ID] -- reason` on the line it is on,
/// - `// keyward:ignore-next RULE-ID -- reason` on the next line,
/// - `// keyward:disable RULE-ID -- reason` until `// keyward:enable RULE-ID` (or the end).
///
/// `all` stands for every rule.
public struct SuppressionDirective: Sendable, Hashable {
  public enum Kind: String, Sendable { case ignore, ignoreNext = "ignore-next", disable, enable }

  public var kind: Kind
  public var ruleIDs: [String]
  public var reason: String?
  /// The comment's byte range, for reporting the directive itself.
  public var start: Int
  public var end: Int
  /// The 0-based line of the comment.
  public var line: Int

  public static let marker = "keyward:"

  /// The directives in one comment's text, if any.
  static func parse(comment: String, start: Int, line: Int) -> SuppressionDirective? {
    guard let markerRange = comment.range(of: marker) else { return nil }
    var body = comment[markerRange.upperBound...]
    if body.hasSuffix("*/") { body = body.dropLast(2) }
    var reason: String?
    if let dashes = body.range(of: "--") {
      let text = body[dashes.upperBound...].trimmingCharacters(in: .whitespaces)
      reason = text.isEmpty ? nil : text
      body = body[..<dashes.lowerBound]
    }
    let words = body.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }).map(String.init)
    guard let first = words.first, let kind = Kind(rawValue: first) else { return nil }
    return SuppressionDirective(
      kind: kind, ruleIDs: words.dropFirst().map(RuleAliases.currentID), reason: reason, start: start,
      end: start + comment.utf8.count, line: line)
  }

  /// Directives in the comments of a Swift syntax tree.
  public static func directives(in tree: SourceFileSyntax, text: SourceText) -> [SuppressionDirective] {
    var found: [SuppressionDirective] = []
    for token in tree.tokens(viewMode: .sourceAccurate) {
      var offset = token.position.utf8Offset
      for piece in token.leadingTrivia {
        collect(piece, at: offset, text: text, into: &found)
        offset += piece.sourceLength.utf8Length
      }
      offset = token.endPositionBeforeTrailingTrivia.utf8Offset
      for piece in token.trailingTrivia {
        collect(piece, at: offset, text: text, into: &found)
        offset += piece.sourceLength.utf8Length
      }
    }
    return found
  }

  private static func collect(
    _ piece: TriviaPiece, at offset: Int, text: SourceText, into found: inout [SuppressionDirective]
  ) {
    switch piece {
    case .lineComment(let comment), .blockComment(let comment), .docLineComment(let comment),
      .docBlockComment(let comment):
      if let directive = parse(comment: comment, start: offset, line: text.lineIndex(of: offset)) {
        found.append(directive)
      }
    default:
      break
    }
  }

  /// Directives in the comments of an Objective-C file.
  public static func directives(inObjC bytes: [UInt8], text: SourceText) -> [SuppressionDirective] {
    ObjCLexer(bytes: bytes).comments().compactMap {
      parse(comment: $0.text, start: $0.start, line: text.lineIndex(of: $0.start))
    }
  }
}
