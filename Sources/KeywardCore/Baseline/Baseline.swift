import Foundation

/// The findings a team has accepted for now. `keyward scan --baseline FILE` reports only
/// findings not in it. Entries are matched by fingerprint (rule, path, the finding's line text
/// and expression, and its rank among identical findings), so edits above a finding do not
/// break the match, and as a multiset: two identical findings with one fixed leave one.
public struct Baseline: Codable, Sendable, Equatable {
  public static let formatVersion = 1

  public struct Entry: Codable, Sendable, Hashable {
    public var ruleId: String
    public var path: String
    public var fingerprint: String
    /// Where the finding was when the baseline was made; for people, not for matching.
    public var line: Int
    public var message: String
  }

  public var version: Int
  public var tool: String
  public var findings: [Entry]

  public init(findings: [Finding]) {
    version = Self.formatVersion
    tool = "keyward \(KeywardVersion.current)"
    self.findings = findings.filter(\.isActive).map {
      Entry(
        ruleId: $0.ruleId, path: $0.location.path, fingerprint: $0.fingerprint, line: $0.location.start.line,
        message: $0.message)
    }.sorted { ($0.path, $0.line, $0.ruleId, $0.fingerprint) < ($1.path, $1.line, $1.ruleId, $1.fingerprint) }
  }

  public static func load(path: String) throws -> Baseline {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw ConfigurationError("\(path): baseline file does not exist or cannot be read")
    }
    struct Header: Decodable { var version: Int? }
    guard let header = try? JSONDecoder().decode(Header.self, from: data), let version = header.version else {
      throw ConfigurationError("\(path): not a Keyward baseline (expected JSON with \"version\": \(formatVersion))")
    }
    guard version <= formatVersion else {
      throw ConfigurationError(
        "\(path): baseline version \(version) was written by a newer Keyward; this one reads version \(formatVersion). Upgrade Keyward or recreate the baseline."
      )
    }
    do {
      return try JSONDecoder().decode(Baseline.self, from: data)
    } catch {
      throw ConfigurationError("\(path): damaged baseline: \(error)")
    }
  }

  public func write(to path: String) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    try (encoder.encode(self) + Data("\n".utf8)).write(to: URL(fileURLWithPath: path), options: .atomic)
  }

  /// Marks the findings the baseline accepts, each entry accepting at most one finding.
  public func apply(to findings: [Finding]) -> [Finding] { matcher.apply(to: findings) }

  /// The entries counted once, to be applied file by file: a fingerprint includes its file's
  /// path, so the findings of different files never compete for one entry.
  public var matcher: Matcher { matcher(justification: "in the baseline") }

  /// The matcher, the findings it accepts saying `justification` (why they are suppressed).
  public func matcher(justification: String) -> Matcher {
    var accepted: [String: Int] = [:]
    for entry in findings {
      accepted[Matcher.key(RuleAliases.currentID(entry.ruleId), entry.fingerprint), default: 0] += 1
    }
    return Matcher(accepted: accepted, justification: justification)
  }

  public struct Matcher: Sendable {
    let accepted: [String: Int]
    let justification: String

    static func key(_ ruleId: String, _ fingerprint: String) -> String { ruleId + "\u{0}" + fingerprint }

    public func apply(to findings: [Finding]) -> [Finding] {
      var used: [String: Int] = [:]
      return findings.map { finding in
        guard finding.isActive else { return finding }
        let key = Self.key(finding.ruleId, finding.fingerprint)
        let count = used[key, default: 0]
        guard count < accepted[key, default: 0] else { return finding }
        used[key] = count + 1
        var accepted = finding
        accepted.suppression = Suppression(kind: .baseline, justification: justification)
        return accepted
      }
    }
  }
}
