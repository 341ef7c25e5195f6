/// A file that could not be scanned completely, and why.
public struct ScanIssue: Codable, Sendable, Hashable {
  public enum Kind: String, Codable, Sendable {
    case unreadable, binary, encoding, tooLarge = "too-large", parse, timeLimit = "time-limit"
  }

  public var path: String
  public var kind: Kind
  public var message: String
  public var line: Int?
  public var column: Int?

  public init(path: String, kind: Kind, message: String, line: Int? = nil, column: Int? = nil) {
    self.path = path
    self.kind = kind
    self.message = message
    self.line = line
    self.column = column
  }

  private enum CodingKeys: String, CodingKey { case path, kind, message, line, column }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(path, forKey: .path)
    try container.encode(kind, forKey: .kind)
    try container.encode(message, forKey: .message)
    try container.encode(line, forKey: .line)
    try container.encode(column, forKey: .column)
  }

  public static func reportOrder(_ lhs: ScanIssue, _ rhs: ScanIssue) -> Bool {
    (lhs.path, lhs.line ?? 0, lhs.kind.rawValue, lhs.message)
      < (rhs.path, rhs.line ?? 0, rhs.kind.rawValue, rhs.message)
  }
}

/// Everything a scan produced, sorted, ready for a reporter.
public struct ScanResult: Sendable {
  /// The absolute folder that finding paths are relative to.
  public var root: String
  public var findings: [Finding]
  public var errors: [ScanIssue]
  /// The rules that ran, in catalogue order.
  public var rules: [ConfiguredRule]
  public var filesScanned: Int
  public var filesParsed: Int
  /// Problems that do not change the result (a cache that could not be used), for stderr.
  public var warnings: [String]
  /// The built apps scanned, in path order.
  public var binaries: [BinarySummary]
  /// Dependency folders (`Pods`, `Carthage`) passed over, relative to the root, sorted.
  public var skippedFolders: [String]
  /// Which findings count toward `--fail-on`; the others are reported for information.
  public var failPolicy: FailPolicy
  /// Paths named on the command line that an exclusion matched (`--force-exclude`), relative.
  public var excludedNamedPaths: [String] = []
  /// What was scanned, when, at which commit, with which settings; set by the command line for
  /// the reports that print it.
  public var record: ScanRecord?
  /// The keychain items and LocalAuthentication gates of the files, in file order, when the scan
  /// took an inventory (`ScanRequest.takesInventory`).
  public var inventory = FileInventory()
  /// For each MASTG test the rules check, whether the app passes, when asked for (`--evidence`).
  public var evidence: [TestEvidence]?

  public init(
    root: String, warnings: [String] = [], findings: [Finding], errors: [ScanIssue], rules: [ConfiguredRule],
    filesScanned: Int, filesParsed: Int, binaries: [BinarySummary] = [], skippedFolders: [String] = [],
    failPolicy: FailPolicy = .default
  ) {
    self.binaries = binaries
    self.skippedFolders = skippedFolders
    self.failPolicy = failPolicy
    self.root = root
    self.warnings = warnings
    self.findings = findings
    self.errors = errors
    self.rules = rules
    self.filesScanned = filesScanned
    self.filesParsed = filesParsed
  }

  public var activeFindings: [Finding] { findings.filter(\.isActive) }

  /// Active findings by severity and suppressed ones, counted without copying them.
  public var counts: FindingCounts { FindingCounts(findings) }
}

public enum KeywardVersion {
  public static let current = "0.1.0"
}
