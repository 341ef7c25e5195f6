/// A point in a source file. `column` counts UTF-8 bytes (as compilers and Xcode do);
/// `utf16Column` counts UTF-16 code units (as SARIF and editors do). Both are 1-based.
public struct SourcePosition: Codable, Sendable, Hashable, Comparable {
  public var line: Int
  public var column: Int
  public var utf16Column: Int
  /// Byte offset from the start of the file, 0-based.
  public var offset: Int

  public init(line: Int, column: Int, utf16Column: Int, offset: Int) {
    self.line = line
    self.column = column
    self.utf16Column = utf16Column
    self.offset = offset
  }

  public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool { lhs.offset < rhs.offset }
}

/// A range in a file whose `path` is relative to the scan root and uses `/` separators.
/// In a built app, `path` is the scanned `.ipa`, `.app` or Mach-O file, `binary` says where
/// inside it, and `start`/`end` are line 1, column 1 with the byte offset in that Mach-O file.
public struct SourceLocation: Codable, Sendable, Hashable {
  public var path: String
  public var start: SourcePosition
  public var end: SourcePosition
  public var binary: BinarySite?

  public init(path: String, start: SourcePosition, end: SourcePosition, binary: BinarySite? = nil) {
    self.path = path
    self.start = start
    self.end = end
    self.binary = binary
  }

  /// The place as a reader looks for it: `path:line:column` in source; in a built app, which has
  /// no lines, `path: Mach-O file (architecture, address)`.
  public var place: String {
    guard binary != nil else { return "\(path):\(start.line):\(start.column)" }
    return siteInApp.map { "\(path): \($0)" } ?? path
  }

  /// Where inside a built app ("Payload/App.app/App (arm64, 0x100004010)"); nil for source, and
  /// for a finding about the app as a whole.
  public var siteInApp: String? {
    guard let site = binary?.description, !site.isEmpty else { return nil }
    return site
  }
}

/// A second place that explains a finding, such as the keychain query a weak constant reaches.
public struct RelatedLocation: Codable, Sendable, Hashable {
  public var message: String
  public var location: SourceLocation

  public init(message: String, location: SourceLocation) {
    self.message = message
    self.location = location
  }
}

/// Replace the bytes `start..<end` of a file with `replacement`.
public struct TextEdit: Codable, Sendable, Hashable {
  public var start: Int
  public var end: Int
  public var replacement: String

  public init(start: Int, end: Int, replacement: String) {
    self.start = start
    self.end = end
    self.replacement = replacement
  }
}

/// A proposed change. `safe` fixes keep the code's behaviour apart from the security property
/// and may be applied automatically; the others are applied only on request. A safe fix that
/// `changesBehavior` does what it should but changes what users see (`.biometryCurrentSet`
/// makes the item unreadable once a fingerprint or face is enrolled, so the app needs a way
/// back): `keyward fix` applies it only when asked to (`--include-behavior-changes`).
public struct Fix: Codable, Sendable, Hashable {
  public var description: String
  public var safe: Bool
  public var edits: [TextEdit]
  public var changesBehavior: Bool

  /// `changesBehavior`, when not given, is true for the replacements known to change behaviour
  /// (`behaviorChanges`).
  public init(description: String, safe: Bool, changesBehavior: Bool? = nil, edits: [TextEdit]) {
    self.description = description
    self.safe = safe
    self.edits = edits
    self.changesBehavior = changesBehavior ?? edits.contains { Self.behaviorChanges[$0.replacement] != nil }
  }

  /// Replacement texts whose fix changes what the app does, and what the app then needs.
  public static let behaviorChanges: [String: String] = [
    "biometryCurrentSet":
      "the item becomes unreadable when a fingerprint or face is added or removed, so the app needs a recovery path (sign in again and store the item anew)"
  ]

  /// What changes for the app when the fix is applied, for a fix that `changesBehavior`.
  public var behaviorChange: String? {
    guard changesBehavior else { return nil }
    return edits.lazy.compactMap { Self.behaviorChanges[$0.replacement] }.first
      ?? "it changes what the app does at run time; review it before applying"
  }

  enum CodingKeys: String, CodingKey { case description, safe, edits, changesBehavior }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      description: try container.decode(String.self, forKey: .description),
      safe: try container.decode(Bool.self, forKey: .safe),
      changesBehavior: try container.decodeIfPresent(Bool.self, forKey: .changesBehavior),
      edits: try container.decode([TextEdit].self, forKey: .edits))
  }
}

/// Why a finding is not reported as active.
public struct Suppression: Codable, Sendable, Hashable {
  public enum Kind: String, Codable, Sendable { case inline, baseline }
  public var kind: Kind
  public var justification: String?

  public init(kind: Kind, justification: String?) {
    self.kind = kind
    self.justification = justification
  }
}

/// Lines of code around a finding, for reports that show them.
public struct CodeExcerpt: Sendable, Hashable {
  /// The 1-based number of the first line.
  public var firstLine: Int
  /// The lines, without their line breaks.
  public var lines: [String]

  public init(firstLine: Int, lines: [String]) {
    self.firstLine = firstLine
    self.lines = lines
  }
}

public struct Finding: Codable, Sendable, Hashable {
  public var ruleId: String
  public var severity: Severity
  public var confidence: Confidence
  public var message: String
  public var location: SourceLocation
  /// The source line where the finding starts, without its line break.
  public var snippet: String
  public var tags: [String]
  public var fingerprint: String
  public var suppression: Suppression?
  public var fix: Fix?
  public var related: [RelatedLocation]
  /// Where the code lives (app, test, sample, third-party, generated); decided by the engine.
  public var origin: CodeOrigin = .app
  /// Set when the code is built only for debug or only for the simulator.
  public var buildCondition: BuildCondition? = nil
  /// Where the finding's context went, while a scan of other files may still settle it; not
  /// part of the report.
  public var handOff: HandOff? = nil
  /// The lines around the finding, when the scan was asked for them (`ScanRequest.contextLines`);
  /// not part of the JSON report or the cache.
  public var excerpt: CodeExcerpt? = nil

  public init(
    ruleId: String, severity: Severity, confidence: Confidence, message: String,
    location: SourceLocation, snippet: String, tags: [String], fingerprint: String,
    suppression: Suppression? = nil, fix: Fix? = nil, related: [RelatedLocation] = [],
    handOff: HandOff? = nil, origin: CodeOrigin = .app, buildCondition: BuildCondition? = nil
  ) {
    self.ruleId = ruleId
    self.severity = severity
    self.confidence = confidence
    self.message = message
    self.location = location
    self.snippet = snippet
    self.tags = tags
    self.fingerprint = fingerprint
    self.suppression = suppression
    self.fix = fix
    self.related = related
    self.handOff = handOff
    self.origin = origin
    self.buildCondition = buildCondition
  }

  private enum CodingKeys: String, CodingKey {
    case ruleId, severity, confidence, message, location, snippet, tags, fingerprint
    case suppression, fix, related, origin, buildCondition
  }

  // Read by hand so that reports written before `origin` and `buildCondition` existed still read.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      ruleId: try container.decode(String.self, forKey: .ruleId),
      severity: try container.decode(Severity.self, forKey: .severity),
      confidence: try container.decode(Confidence.self, forKey: .confidence),
      message: try container.decode(String.self, forKey: .message),
      location: try container.decode(SourceLocation.self, forKey: .location),
      snippet: try container.decode(String.self, forKey: .snippet),
      tags: try container.decode([String].self, forKey: .tags),
      fingerprint: try container.decode(String.self, forKey: .fingerprint),
      suppression: try container.decodeIfPresent(Suppression.self, forKey: .suppression),
      fix: try container.decodeIfPresent(Fix.self, forKey: .fix),
      related: try container.decodeIfPresent([RelatedLocation].self, forKey: .related) ?? [],
      origin: try container.decodeIfPresent(CodeOrigin.self, forKey: .origin) ?? .app,
      buildCondition: try container.decodeIfPresent(BuildCondition.self, forKey: .buildCondition))
  }

  // Written by hand so that `suppression`, `fix` and `buildCondition` appear as explicit nulls:
  // readers of the report can rely on every key being present.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(ruleId, forKey: .ruleId)
    try container.encode(severity, forKey: .severity)
    try container.encode(confidence, forKey: .confidence)
    try container.encode(message, forKey: .message)
    try container.encode(location, forKey: .location)
    try container.encode(snippet, forKey: .snippet)
    try container.encode(tags, forKey: .tags)
    try container.encode(fingerprint, forKey: .fingerprint)
    try container.encode(suppression, forKey: .suppression)
    try container.encode(fix, forKey: .fix)
    try container.encode(related, forKey: .related)
    try container.encode(origin, forKey: .origin)
    try container.encode(buildCondition, forKey: .buildCondition)
  }

  /// Reported as active: not suppressed inline or by the baseline.
  public var isActive: Bool { suppression == nil }

  /// Report order: by path, position, then rule id, so output never depends on scheduling.
  public static func reportOrder(_ lhs: Finding, _ rhs: Finding) -> Bool {
    (lhs.location.path, lhs.location.start.offset, lhs.location.end.offset, lhs.ruleId, lhs.message)
      < (rhs.location.path, rhs.location.start.offset, rhs.location.end.offset, rhs.ruleId, rhs.message)
  }
}
