/// For each MASTG test the rules cover, whether the scanned app passes it and the places that
/// show it: what an auditor attaches to a report, beside the findings.
public struct TestEvidence: Sendable, Hashable {
  public enum Verdict: String, Sendable {
    /// A finding of a rule checking the test fails the scan.
    case fail
    /// Nothing fails, and the code shows the test's subject done right at the places listed.
    case pass
    /// Nothing fails, but no code the scan read shows the subject at all.
    case notShown = "not-shown"
  }

  /// A place that shows the verdict, with what it shows.
  public struct Place: Sendable, Hashable {
    public var note: String
    public var path: String
    public var line: Int
  }

  public var test: String
  public var title: String
  public var verdict: Verdict
  /// The rules of this scan that check the test.
  public var rules: [String]
  /// Failing findings for `fail`, the places that pass for `pass`.
  public var places: [Place]
}

extension TestEvidence {
  /// The MASTG tests Keyward's rules check, with their titles, in report order.
  public static let coveredTests: [(id: String, title: String)] = [
    ("MASTG-TEST-0266", "References to APIs for event-bound biometric authentication"),
    ("MASTG-TEST-0268", "References to APIs allowing fallback to non-biometric authentication"),
    ("MASTG-TEST-0270", "References to APIs detecting biometric enrollment changes"),
    ("MASTG-TEST-0299", "Data protection classes for files written to storage"),
  ]

  /// The evidence of a scan: its findings (after suppressions and baselines), the rules that ran
  /// and the inventory of the same paths. Only app code that ships counts, as for `--fail-on`.
  public static func assess(_ result: ScanResult, inventory: Inventory) -> [TestEvidence] {
    let shipped = { (origin: CodeOrigin, condition: BuildCondition?) in
      result.failPolicy.fails(origin: origin, buildCondition: condition)
    }
    let gates = inventory.gates.filter { shipped($0.origin, $0.buildCondition) }
    let items = inventory.keychainItems.filter { shipped($0.origin, $0.buildCondition) }
    return coveredTests.compactMap { test in
      let rules = result.rules.map(\.metadata).filter { $0.tags.contains(test.id) }.map(\.id)
      guard !rules.isEmpty else { return nil }
      let failing = result.findings.filter { finding in
        rules.contains(finding.ruleId) && finding.suppression == nil && finding.severity > .info
          && result.failPolicy.fails(finding)
      }
      if !failing.isEmpty {
        let places = failing.map {
          Place(note: "\($0.ruleId): \($0.message)", path: $0.location.path, line: $0.location.start.line)
        }
        return TestEvidence(test: test.id, title: test.title, verdict: .fail, rules: rules, places: places)
      }
      let places = passingPlaces(of: test.id, gates: gates, items: items).sorted {
        ($0.path, $0.line) < ($1.path, $1.line)
      }
      return TestEvidence(
        test: test.id, title: test.title, verdict: places.isEmpty ? .notShown : .pass, rules: rules, places: places)
    }
  }

  private static let biometricFlags: Set<String> = [
    "biometryCurrentSet", "biometryAny", "touchIDCurrentSet", "touchIDAny",
  ]
  private static let fallbackFlags: Set<String> = ["devicePasscode", "userPresence", "or"]

  /// The places that show a test's subject done right.
  static func passingPlaces(of test: String, gates: [AuthenticationGateRecord], items: [KeychainItemRecord])
    -> [Place]
  {
    func place(_ note: String, _ at: InventoryPlace) -> Place { Place(note: note, path: at.path, line: at.line) }
    let flagsOf = { (item: KeychainItemRecord) in Set(item.accessControl?.flags ?? []) }
    switch test {
    case "MASTG-TEST-0266":
      return gates.filter { $0.binding == .keychainBound }.map {
        place("keychain-bound: " + ($0.bindingNote ?? "the context opens a protected keychain item or key"), $0.place)
      }
    case "MASTG-TEST-0268":
      let biometricGates = gates.filter {
        !$0.policies.isEmpty && $0.policies.allSatisfy { $0 == "deviceOwnerAuthenticationWithBiometrics" }
      }.map { place("biometrics-only policy `deviceOwnerAuthenticationWithBiometrics`", $0.place) }
      let biometricItems = items.filter { item in
        let flags = flagsOf(item)
        return !flags.isDisjoint(with: biometricFlags) && flags.isDisjoint(with: fallbackFlags)
      }.map {
        place("access control without a passcode fallback: \(flagsOf($0).sorted().joined(separator: ", "))", $0.place)
      }
      return biometricGates + biometricItems
    case "MASTG-TEST-0270":
      return items.filter { flagsOf($0).contains("biometryCurrentSet") }.map {
        place("`biometryCurrentSet`: the item is invalidated when biometric enrollment changes", $0.place)
      }
    default:
      return []
    }
  }
}
