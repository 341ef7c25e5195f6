import Foundation

/// A document a rule cites.
public struct Reference: Codable, Sendable, Hashable {
  public var title: String
  public var url: String?

  public init(_ title: String, url: String? = nil) {
    self.title = title
    self.url = url
  }
}

/// The rule profiles, smallest first: a rule belongs to its own profile and every larger one.
public enum Profile: String, Codable, Sendable, CaseIterable, Comparable {
  case essential, standard, strict

  private var rank: Int { Profile.allCases.firstIndex(of: self)! }

  public static func < (lhs: Profile, rhs: Profile) -> Bool { lhs.rank < rhs.rank }
}

/// Everything about a rule that is not its checker: what it finds, why it matters, how to fix
/// it. The documentation (`keyward explain`, SARIF help, `Docs/rules`) is generated from this.
public struct RuleMetadata: Sendable, Hashable {
  public var id: String
  public var title: String
  public var severity: Severity
  public var confidence: Confidence
  /// What the rule protects (Authentication, Information leak), as a column of the rule tables.
  public var resource: String
  public var language: String
  public var tags: [String]
  public var profile: Profile
  public var description: String
  /// Why the weakness matters, followed by vulnerable code.
  public var rationale: String
  public var vulnerableExample: String
  /// What to do instead, followed by fixed code.
  public var remediation: String
  public var fixedExample: String
  public var references: [Reference]

  public init(
    id: String, title: String, severity: Severity, confidence: Confidence, resource: String,
    language: String = "Swift", tags: [String], profile: Profile = .essential,
    description: String, rationale: String, vulnerableExample: String, remediation: String,
    fixedExample: String, references: [Reference]
  ) {
    self.id = id
    self.title = title
    self.severity = severity
    self.confidence = confidence
    self.resource = resource
    self.language = language
    self.tags = tags
    self.profile = profile
    self.description = description
    self.rationale = rationale
    self.vulnerableExample = vulnerableExample
    self.remediation = remediation
    self.fixedExample = fixedExample
    self.references = references
  }

  /// The first sentence of the description, for one-line listings.
  public var summary: String {
    let text = description.replacingOccurrences(of: "\n", with: " ")
    if let end = text.range(of: ". ") { return String(text[..<end.lowerBound]) + "." }
    return text
  }
}
