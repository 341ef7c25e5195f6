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

/// How many findings a report holds: active ones by severity and by rule, by where their code
/// lives, and suppressed ones.
public struct FindingCounts: Sendable, Equatable {
  public var active: [Severity: Int] = [:]
  public var activeByRule: [String: Int] = [:]
  public var suppressed = 0
  /// Active findings by origin and build condition, then severity: what `--fail-on` counts
  /// depends on the `FailPolicy`.
  public var activeByPlace: [FindingPlace: [Severity: Int]] = [:]

  public init() {}

  public init(_ findings: some Sequence<Finding>) {
    for finding in findings { add(finding) }
  }

  public mutating func add(_ finding: Finding) {
    if finding.isActive {
      active[finding.severity, default: 0] += 1
      activeByRule[finding.ruleId, default: 0] += 1
      activeByPlace[FindingPlace(finding), default: [:]][finding.severity, default: 0] += 1
    } else {
      suppressed += 1
    }
  }

  public mutating func add(_ other: FindingCounts) {
    active.merge(other.active, uniquingKeysWith: +)
    activeByRule.merge(other.activeByRule, uniquingKeysWith: +)
    activeByPlace.merge(other.activeByPlace) { $0.merging($1, uniquingKeysWith: +) }
    suppressed += other.suppressed
  }

  public var activeTotal: Int { active.values.reduce(0, +) }

  /// Whether an active finding is at least as severe as `minimum`.
  public func hasActive(atLeast minimum: Severity) -> Bool {
    active.contains { $0.key >= minimum && $0.value > 0 }
  }

  /// Active findings that count toward `--fail-on` under `policy`, by severity.
  public func counted(by policy: FailPolicy) -> [Severity: Int] {
    var counted: [Severity: Int] = [:]
    for (place, bySeverity) in activeByPlace
    where policy.fails(origin: place.origin, buildCondition: place.buildCondition) {
      counted.merge(bySeverity, uniquingKeysWith: +)
    }
    return counted
  }

  /// Whether a finding that counts under `policy` is at least as severe as `minimum`.
  public func hasCounted(atLeast minimum: Severity, policy: FailPolicy) -> Bool {
    counted(by: policy).contains { $0.key >= minimum && $0.value > 0 }
  }

  /// Active findings by origin, and by build condition, each only where there are some.
  public var activeByOrigin: [CodeOrigin: Int] {
    activeByPlace.reduce(into: [:]) { $0[$1.key.origin, default: 0] += $1.value.values.reduce(0, +) }
  }

  public var activeByBuildCondition: [BuildCondition: Int] {
    activeByPlace.reduce(into: [:]) { counts, entry in
      if let condition = entry.key.buildCondition { counts[condition, default: 0] += entry.value.values.reduce(0, +) }
    }
  }
}

/// Where a finding's code lives and which builds hold it.
public struct FindingPlace: Sendable, Hashable {
  public var origin: CodeOrigin
  public var buildCondition: BuildCondition?

  public init(origin: CodeOrigin, buildCondition: BuildCondition?) {
    self.origin = origin
    self.buildCondition = buildCondition
  }

  public init(_ finding: Finding) { self.init(origin: finding.origin, buildCondition: finding.buildCondition) }
}
