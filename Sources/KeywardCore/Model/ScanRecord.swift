import Foundation

/// What a report was made from, for a reader who must tell later which code, tool and settings
/// produced it: filled by the command line, printed by the reports that show it.
public struct ScanRecord: Sendable, Hashable {
  /// The paths to scan as given on the command line.
  public var paths: [String]
  /// When the scan ran; nil to leave it out (reports compared byte for byte).
  public var date: Date?
  /// The commit checked out where the scan root lies, when that is in a git repository.
  public var commit: String?
  /// Whether the scanned folder held changes not committed (untracked files included).
  public var hasUncommittedChanges = false
  public var version = KeywardVersion.current
  public var profile: Profile
  /// The SHA-256 digest, in hex, of the effective configuration as `keyward config print` prints
  /// it for the same configuration file and profile.
  public var configurationDigest: String
  /// The configuration file read, if any.
  public var configurationFile: String?
  /// The baseline file whose findings are reported as suppressed, if any.
  public var baselineFile: String?
  /// The revision whose findings are reported as suppressed (`--baseline-commit`), as given,
  /// and the commit it named.
  public var baselineRevision: String?
  public var baselineCommit: String?

  public init(
    paths: [String], date: Date?, profile: Profile, configurationDigest: String, configurationFile: String? = nil
  ) {
    self.paths = paths
    self.date = date
    self.profile = profile
    self.configurationDigest = configurationDigest
    self.configurationFile = configurationFile
  }

  /// The time of a scan: `SOURCE_DATE_EPOCH` (seconds since 1970) when the environment sets it,
  /// as reproducible builds do, otherwise now.
  public static func date(environment: [String: String], now: Date = Date()) -> Date {
    guard let value = environment["SOURCE_DATE_EPOCH"], let seconds = Int64(value) else { return now }
    return Date(timeIntervalSince1970: TimeInterval(seconds))
  }

  /// `2025-03-14T09:26:53Z`: ISO 8601, UTC, to the second.
  public static func timestamp(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.string(from: date)
  }
}
