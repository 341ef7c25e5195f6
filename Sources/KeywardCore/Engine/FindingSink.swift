/// Takes each file's findings as soon as the file is scanned, so that a scan of many files never
/// holds all their findings at once (`ScanRequest.findingSink`).
///
/// Called from worker threads, concurrently and in no particular order. `file` is the file's
/// position in path order, so a sink can put the files back in report order at the end; the
/// findings of one file come in report order, and all carry that file's path.
public protocol FindingSink: Sendable {
  func take(_ findings: [Finding], file: Int)
  /// The scan is over. The files in `givenUp` ran past the time limit: findings taken for them
  /// (a stuck file may still finish) are not part of the result, nor is anything taken later.
  func finish(givenUp: Set<Int>)
}

/// How many findings a report holds: active ones by severity and by rule, and suppressed ones.
public struct FindingCounts: Sendable, Equatable {
  public var active: [Severity: Int] = [:]
  public var activeByRule: [String: Int] = [:]
  public var suppressed = 0

  public init() {}

  public init(_ findings: some Sequence<Finding>) {
    for finding in findings { add(finding) }
  }

  public mutating func add(_ finding: Finding) {
    if finding.isActive {
      active[finding.severity, default: 0] += 1
      activeByRule[finding.ruleId, default: 0] += 1
    } else {
      suppressed += 1
    }
  }

  public mutating func add(_ other: FindingCounts) {
    active.merge(other.active, uniquingKeysWith: +)
    activeByRule.merge(other.activeByRule, uniquingKeysWith: +)
    suppressed += other.suppressed
  }

  public var activeTotal: Int { active.values.reduce(0, +) }

  /// Whether an active finding is at least as severe as `minimum`.
  public func hasActive(atLeast minimum: Severity) -> Bool {
    active.contains { $0.key >= minimum && $0.value > 0 }
  }
}
