/// The byte strings of which a file must contain one for a rule to be able to report anything.
/// Most files of an app never mention the keychain, so most files are never parsed; the
/// scanner looks for all rules' tokens at once with `TokenSearch`.
public struct Prefilter: Sendable, Hashable {
  public let tokens: [[UInt8]]

  public init(tokens: [String]) {
    self.tokens = Array(Set(tokens.filter { !$0.isEmpty })).sorted().map { Array($0.utf8) }
  }
}
