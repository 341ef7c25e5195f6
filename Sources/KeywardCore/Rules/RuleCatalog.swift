/// The rules Keyward knows, in a fixed order.
public struct RuleCatalog: Sendable {
  public let rules: [any Rule.Type]

  public init(rules: [any Rule.Type]) {
    self.rules = rules
  }

  public var ids: [String] { rules.map { $0.metadata.id } }

  /// The rule with `id`, or with a former id that was renamed to it (`RuleAliases`).
  public func rule(withID id: String) -> (any Rule.Type)? {
    let current = RuleAliases.currentID(id)
    return rules.first { $0.metadata.id == current }
  }

  /// The known id closest to `id` by edit distance, for "did you mean" messages.
  public func nearestID(to id: String) -> String? {
    EditDistance.nearest(to: id, in: ids)
  }
}

/// A rule as configured for one scan: its effective options and severity.
public struct ConfiguredRule: Sendable {
  public let rule: any Rule.Type
  public let options: RuleOptions
  public let severity: Severity
  public let prefilter: Prefilter

  public init(
    rule: any Rule.Type, options: RuleOptions, severity: Severity, wrappers: [WrapperMapping] = WrapperMapping.builtIn
  ) {
    self.rule = rule
    self.options = options
    self.severity = severity
    let wrapperTokens = rule.readsWrapperSettings ? wrappers.flatMap(\.prefilterTokens) : []
    self.prefilter = Prefilter(tokens: rule.prefilterTokens(options: options) + wrapperTokens)
  }

  public var metadata: RuleMetadata {
    var metadata = rule.metadata
    metadata.severity = severity
    return metadata
  }
}

public enum EditDistance {
  public static func between(_ a: String, _ b: String) -> Int {
    let a = Array(a.utf8)
    let b = Array(b.utf8)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    var current = previous
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }

  /// The candidate closest to `word`, if it is close enough to be a plausible typo.
  public static func nearest(to word: String, in candidates: [String]) -> String? {
    let scored = candidates.map { ($0, between($0.lowercased(), word.lowercased())) }.min { $0.1 < $1.1 }
    guard let (best, distance) = scored, distance <= max(2, word.count / 3) else { return nil }
    return best
  }
}
