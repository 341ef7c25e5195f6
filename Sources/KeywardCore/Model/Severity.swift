/// How much damage a finding allows, ordered from least to most severe.
public enum Severity: String, Codable, Sendable, CaseIterable, Comparable {
  case info, low, medium, high, critical

  private var rank: Int { Severity.allCases.firstIndex(of: self)! }

  public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }

  /// GitHub code scanning's numeric score: > 9.0 critical, 7.0–8.9 high, 4.0–6.9 medium, 0.1–3.9 low.
  public var securityScore: String? {
    switch self {
    case .critical: "9.5"
    case .high: "8.0"
    case .medium: "5.5"
    case .low: "2.0"
    case .info: nil
    }
  }
}

/// How sure a rule is that a finding is a real problem.
public enum Confidence: String, Codable, Sendable, CaseIterable, Comparable {
  case low, medium, high

  private var rank: Int { Confidence.allCases.firstIndex(of: self)! }

  public static func < (lhs: Confidence, rhs: Confidence) -> Bool { lhs.rank < rhs.rank }

  /// `steps` levels lower, and never below `low`.
  public func lowered(by steps: Int) -> Confidence {
    Confidence.allCases[max(0, rank - max(0, steps))]
  }
}
