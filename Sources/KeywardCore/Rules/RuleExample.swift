/// A piece of code a rule must judge right. In flagged examples each `↓` marks where a finding
/// must start; the markers are removed before the code is scanned. The test suite runs every
/// example of every rule, and runs flagged ones again wrapped in a comment, in a string, and
/// after a line of multi-byte characters.
public struct RuleExample: Sendable, Hashable, ExpressibleByStringLiteral {
  public static let marker: Character = "↓"

  public var code: String
  public var options: [String: OptionValue]
  /// Set for examples that are comments themselves (suppression directives), which stay what
  /// they are when wrapped in another comment.
  public var skipCommentWrapping: Bool
  /// The profile the example is judged under: `strict` for findings only that profile reports.
  public var profile: Profile

  public init(
    _ code: String, options: [String: OptionValue] = [:], skipCommentWrapping: Bool = false,
    profile: Profile = .standard
  ) {
    self.code = code
    self.options = options
    self.skipCommentWrapping = skipCommentWrapping
    self.profile = profile
  }

  public init(stringLiteral value: String) { self.init(value) }

  /// The code without markers, and the UTF-8 offsets where the markers stood.
  public var withoutMarkers: (code: String, markerOffsets: [Int]) {
    var text = ""
    var offsets: [Int] = []
    for character in code {
      if character == RuleExample.marker {
        offsets.append(text.utf8.count)
      } else {
        text.append(character)
      }
    }
    return (text, offsets)
  }
}

public struct RuleExamples: Sendable {
  public var flagged: [RuleExample]
  public var clean: [RuleExample]

  public init(flagged: [RuleExample], clean: [RuleExample]) {
    self.flagged = flagged
    self.clean = clean
  }
}
