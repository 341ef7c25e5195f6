import KeywardCore

/// A rule that reads built apps. It is a `Rule` for the catalogue, configuration and
/// documentation; the source scanner never runs it (its language is `.binary`), the binary
/// analyzer calls `check(binary:)` instead. Its examples name fixture apps, not code.
public protocol BinaryRule: Rule {
  static func check(binary context: BinaryContext)
}

extension BinaryRule {
  public static var language: SourceLanguage { .binary }
  public static func prefilterTokens(options: RuleOptions) -> [String] { [] }
  public static func check(_ context: RuleContext) {}
}

/// What a binary rule reports: where in the app, and what.
public struct BinaryReport: Sendable {
  public var site: BinarySite
  /// Byte offset in the Mach-O file (0 for whole-file findings).
  public var fileOffset: Int
  public var message: String
  /// How sure the evidence makes the rule, when it differs from the rule's confidence.
  public var confidence: Confidence?
  /// What the finding is about ("kSecAttrAccessibleAlways", "flags 0x2"), for its fingerprint:
  /// the message's wording and the evidence it cites may change without the finding changing.
  public var subject: String
}

/// One binary rule's view of one app.
public final class BinaryContext {
  public let app: AppBinary
  public let options: RuleOptions
  public private(set) var reports: [BinaryReport] = []

  init(app: AppBinary, options: RuleOptions) {
    self.app = app
    self.options = options
  }

  public func report(
    _ site: BinarySite, fileOffset: Int = 0, message: String, confidence: Confidence? = nil, subject: String
  ) {
    reports.append(
      BinaryReport(site: site, fileOffset: fileOffset, message: message, confidence: confidence, subject: subject))
  }
}

/// The engine's entry point for built apps: load, run the binary rules, and summarise.
public struct AppAnalyzer: BinaryAnalyzer {
  public var loader = AppLoader()

  public init() {}

  public func analyze(_ file: DiscoveredFile, rules: [ConfiguredRule]) -> FileOutcome {
    let path = file.relativePath
    let app: AppBinary
    do {
      app = try loader.load(file)
    } catch {
      return FileOutcome(issues: [ScanIssue(path: path, kind: .binary, message: "not analysed: \(error.description)")])
    }
    var outcome = FileOutcome(parsed: true, binaries: [Self.summary(of: app, path: path)])
    outcome.issues = app.problems.map { problem in
      ScanIssue(
        path: path, kind: .binary, message: "\(problem.path.isEmpty ? "" : problem.path + ": ")\(problem.message)")
    }
    var reported: [(finding: Finding, subject: String)] = []
    for configured in rules {
      guard let rule = configured.rule as? any BinaryRule.Type else { continue }
      let context = BinaryContext(app: app, options: configured.options)
      rule.check(binary: context)
      let metadata = rule.metadata
      for report in context.reports {
        let position = SourcePosition(line: 1, column: 1, utf16Column: 1, offset: report.fileOffset)
        var site = report.site
        site.bundle = site.bundle ?? app.bundle(shipping: site.file)
        let finding = Finding(
          ruleId: metadata.id, severity: configured.severity, confidence: report.confidence ?? metadata.confidence,
          message: report.message,
          location: SourceLocation(path: path, start: position, end: position, binary: site),
          snippet: site.description, tags: metadata.tags, fingerprint: "",
          origin: site.bundle?.isEmbedded == true ? .thirdParty : .app)
        reported.append((finding, report.subject))
      }
    }
    outcome.findings = Self.fingerprinted(reported.sorted { Finding.reportOrder($0.finding, $1.finding) })
    return outcome
  }

  /// Fingerprints from the rule, the path, the Mach-O file, the architecture and the report's
  /// subject: addresses move with every build, and messages change with their wording and
  /// evidence, so both are left out.
  static func fingerprinted(_ reported: [(finding: Finding, subject: String)]) -> [Finding] {
    Fingerprint.assign(
      reported.map(\.finding),
      identities: reported.map { finding, subject in
        let site = finding.location.binary
        return [finding.ruleId, finding.location.path, site?.file ?? "", site?.architecture ?? "", subject]
      })
  }

  static func summary(of app: AppBinary, path: String) -> BinarySummary {
    BinarySummary(
      path: path, bundleIdentifier: app.infoPlist?["CFBundleIdentifier"],
      files: app.files.map { file in
        BinarySummary.File(
          path: file.path,
          architectures: file.images.map { image in
            BinarySummary.Architecture(
              name: image.architecture, encrypted: image.isEncrypted, linkedLibraries: image.libraries.map(\.path))
          }, bundle: file.bundle, entitlements: file.entitlements)
      })
  }
}
