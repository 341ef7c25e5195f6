import Foundation
import SwiftParser
import SwiftParserDiagnostics
import SwiftSyntax

/// What scanning one file produced.
public struct FileOutcome: Sendable, Codable {
  public var findings: [Finding] = []
  public var issues: [ScanIssue] = []
  public var parsed = false
  /// For a built app: what it links and contains.
  public var binaries: [BinarySummary] = []
  /// What the file's functions do with what callers pass them, and which properties of other
  /// files' types it reads into the keychain: the facts other files' findings are settled with.
  public var facts = CallFacts()
  /// The file's keychain items and LocalAuthentication gates, when the scan takes an inventory.
  public var inventory: FileInventory?

  public init(
    findings: [Finding] = [], issues: [ScanIssue] = [], parsed: Bool = false, binaries: [BinarySummary] = [],
    facts: CallFacts = CallFacts()
  ) {
    self.findings = findings
    self.issues = issues
    self.parsed = parsed
    self.binaries = binaries
    self.facts = facts
  }

  /// Whether a finding waits for other files to be settled (`HandOff`).
  var hasUnsettledFindings: Bool { findings.contains { $0.handOff != nil } }

  /// Whether the outcome holds nothing at all: a file no rule needed to parse.
  var isEmpty: Bool {
    findings.isEmpty && issues.isEmpty && !parsed && binaries.isEmpty && facts.isEmpty && inventory == nil
  }
}

/// Scans one file: read, check it is text, prefilter, parse, run the applicable rules, and turn
/// their byte ranges into findings. Runs on one worker thread; shares nothing.
public struct FileScanner: Sendable {
  public static let defaultMaximumFileSize = 16 * 1024 * 1024

  public let rules: [ConfiguredRule]
  public let wrappers: [WrapperMapping]
  public let maximumFileSize: Int
  /// Every rule id Keyward knows, for telling unknown ids in suppressions from disabled ones.
  public let knownRuleIDs: Set<String>
  /// One search for every rule's prefilter tokens (and the suppression marker).
  let tokenSearch: TokenSearch
  /// For each rule, the indices of its prefilter tokens in `tokenSearch`.
  let ruleTokens: [Set<Int>]
  let markerToken: Int
  /// `LAContext`, when a rule follows contexts across files: a file naming it is parsed to learn
  /// what its functions do with contexts handed to them.
  let contextToken: Int?
  /// The sinks the rules follow values into, with the token a file must hold to reach one.
  let valueSinkTokens: [(sink: ValueSink, tokens: Set<Int>)]
  public static let contextParameterToken = Binding.contextTypeName
  /// Outcomes of earlier runs, by path and contents.
  public var cache: ScanCache?
  /// Reads built apps; without one, they are reported as not scanned.
  public var binaryAnalyzer: (any BinaryAnalyzer)?
  /// Lines of code kept before and after each finding (`Finding.excerpt`); 0 keeps none.
  public var contextLines = 0
  /// Set when the scan takes an inventory: the words a file must hold to have one.
  var inventoryTokens: TokenSearch?
  /// Where a whole scan collects the words of its Swift files, to tell which functions no file
  /// calls.
  var projectWords: ProjectWords?

  public init(
    rules: [ConfiguredRule], wrappers: [WrapperMapping] = WrapperMapping.builtIn,
    maximumFileSize: Int = FileScanner.defaultMaximumFileSize, knownRuleIDs: Set<String>? = nil
  ) {
    self.rules = rules
    self.wrappers = wrappers
    self.maximumFileSize = maximumFileSize
    self.knownRuleIDs = knownRuleIDs ?? Set(rules.map(\.metadata.id))
    let marker = Array(SuppressionDirective.marker.utf8)
    let context = rules.contains { $0.rule.followsContextsAcrossFiles } ? Array(Self.contextParameterToken.utf8) : nil
    let sinks = ValueSink.allCases.filter { sink in rules.contains { $0.rule.valueSinks.contains(sink) } }
    var tokens: [[UInt8]] = rules.flatMap(\.prefilter.tokens)
    tokens.append(marker)
    if let context { tokens.append(context) }
    for sink in sinks { tokens += sink.tokens.map { Array($0.utf8) } }
    let search = TokenSearch(tokens: tokens)
    let indexOfToken = Dictionary(uniqueKeysWithValues: search.tokens.enumerated().map { ($1, $0) })
    self.tokenSearch = search
    self.ruleTokens = rules.map { Set($0.prefilter.tokens.compactMap { indexOfToken[$0] }) }
    self.markerToken = indexOfToken[marker]!
    self.contextToken = context.flatMap { indexOfToken[$0] }
    self.valueSinkTokens = sinks.map { sink in (sink, Set(sink.tokens.compactMap { indexOfToken[Array($0.utf8)] })) }
  }

  /// Rules about suppression comments themselves; the engine runs them, not a checker.
  static func isSuppressionRule(_ id: String) -> Bool { id.hasPrefix("keyward.") }

  public func scan(_ file: DiscoveredFile) -> FileOutcome {
    let path = file.relativePath
    if file.kind == .binary {
      guard let binaryAnalyzer else {
        return FileOutcome(issues: [
          ScanIssue(path: path, kind: .unreadable, message: "built apps cannot be read by this build of Keyward")
        ])
      }
      return Self.placed(binaryAnalyzer.analyze(file, rules: rules), in: file)
    }
    let bytes: [UInt8]
    do {
      // Measured as it is opened (the walk does not measure every file).
      bytes = try FileBytes.read(file.absolutePath, maximumSize: maximumFileSize)
    } catch {
      if let size = error.tooLargeSize {
        return FileOutcome(issues: [
          ScanIssue(
            path: path, kind: .tooLarge,
            message: "skipped: \(size) bytes is over the \(maximumFileSize)-byte limit for one source file")
        ])
      }
      return FileOutcome(issues: [
        ScanIssue(path: path, kind: .unreadable, message: "cannot read: \(error)")
      ])
    }
    // Tests and samples are not where shipped code is called from: a function only they call
    // is uncalled in the app.
    if let projectWords, file.mayCallShippedCode, FileDiscovery.pathExtension(path) == "swift" {
      projectWords.add(bytes)
    }
    guard let cache, inventoryTokens == nil else {
      return excerpted(
        Self.placed(scan(bytes: bytes, path: path, platform: file.projectPlatform), in: file), bytes: bytes)
    }
    // The project's platforms change findings without the file changing: they are part of the key.
    let keyedPath = file.projectPlatform == .macOSOnly ? path + "\u{0}macOS" : path
    let key = ScanCache.key(path: keyedPath, bytes: bytes)
    if let known = cache.outcome(forKey: key) { return excerpted(Self.placed(known, in: file), bytes: bytes) }
    let outcome = scan(bytes: bytes, path: path, platform: file.projectPlatform)
    cache.store(outcome, forKey: key)
    return excerpted(Self.placed(outcome, in: file), bytes: bytes)
  }

  /// Scans source text held in memory (an editor's document) as the file `file` describes: its
  /// project's platform and where its code lives apply as in a scan of the folder.
  public func scan(bytes: [UInt8], as file: DiscoveredFile) -> FileOutcome {
    Self.placed(scan(bytes: bytes, path: file.relativePath, platform: file.projectPlatform), in: file)
  }

  /// The outcome with `contextLines` lines of code before and after each finding: the lines of
  /// the finding's start and those after it up to its end (at most `contextLines` of them), and
  /// `contextLines` more on each side. Added after the cache, which keeps none.
  func excerpted(_ outcome: FileOutcome, bytes: [UInt8]) -> FileOutcome {
    guard contextLines > 0, !outcome.findings.isEmpty else { return outcome }
    let text = SourceText(bytes: bytes)
    // A final line break ends the last line; it does not start an empty one.
    let lastLine =
      text.lineStarts.count > 1 && text.lineStarts.last == bytes.count
      ? text.lineStarts.count - 1 : text.lineStarts.count
    var excerpted = outcome
    for index in excerpted.findings.indices {
      let location = excerpted.findings[index].location
      let start = location.start.line
      let end = max(start, min(location.end.line, start + contextLines))
      let first = max(1, start - contextLines)
      let last = min(max(lastLine, end), end + contextLines)
      excerpted.findings[index].excerpt = CodeExcerpt(
        firstLine: first, lines: (first...last).map { text.lineText($0 - 1) })
    }
    return excerpted
  }

  /// What the functions of a Swift file outside the scan's selection (`--changed-since`,
  /// `include:`) do with their `LAContext` parameters, so that the selection's hand-offs settle
  /// as in a whole scan. Nothing else of the file is looked at or reported; a file that cannot
  /// be read or parsed cleanly says nothing.
  public func callFacts(of file: DiscoveredFile) -> CallFacts {
    guard file.kind == .source, contextToken != nil || !valueSinkTokens.isEmpty,
      SourceLanguage(pathExtension: FileDiscovery.pathExtension(file.relativePath)) == .swift,
      let bytes = try? FileBytes.read(file.absolutePath, maximumSize: maximumFileSize)
    else { return CallFacts() }
    if let known = cache?.outcome(forKey: ScanCache.key(path: file.relativePath, bytes: bytes)) {
      return known.facts
    }
    let found = tokenSearch.found(in: bytes)
    let takesContexts = contextToken.map(found.contains) == true
    let sinks = sinks(namedIn: found)
    guard takesContexts || sinks.contains(where: \.parsesFiles), !SourceText.looksBinary(bytes),
      ParserHazards.excessiveBracketRun(in: bytes) == nil
    else { return CallFacts() }
    let readable = SourceText.replacingInvalidUTF8(bytes)?.bytes ?? bytes
    let text = SourceText(bytes: readable)
    let tree = readable.withUnsafeBufferPointer { Parser.parse(source: $0) }
    let model = SemanticModel(tree: tree, wrappers: wrappers)
    return Self.callFacts(
      of: model, takesContexts: takesContexts, sinks: sinks,
      location: { Self.point($0, text: text, path: file.relativePath) })
  }

  /// The sinks whose tokens a file holds (`found`, indices into `tokenSearch`).
  private func sinks(namedIn found: Set<Int>) -> [ValueSink] {
    valueSinkTokens.filter { !$0.tokens.isDisjoint(with: found) }.map(\.sink)
  }

  /// What a file's functions do with what callers pass them, as far as the rules ask.
  private static func callFacts(
    of model: SemanticModel, takesContexts: Bool, sinks: [ValueSink], location: (Int) -> SourceLocation
  ) -> CallFacts {
    var facts = CallFacts()
    if !sinks.isEmpty {
      facts = model.valueReaches(sinks, location: location)
      // Relays lead on to other files' summaries; a file summarized only for preferences (see
      // `ValueSink.parsesFiles`) is a helper's own file, and it is not followed further.
      if sinks.contains(where: \.parsesFiles) { facts.relays = model.valueRelays(location: location) }
    }
    if takesContexts {
      facts.contextUses = model.contextParameterUses(location: location)
      facts.contextPropertyReads = model.boundContextPropertyReads(location: location)
      facts.enrollmentChecks = model.enrollmentChecks(location: location)
    }
    return facts
  }

  /// Scans source text given as bytes, as if it were the file at `path` of a project built for
  /// `platform`.
  public func scan(bytes: [UInt8], path: String, platform: ProjectPlatform = .unspecified) -> FileOutcome {
    if SourceText.looksBinary(bytes) {
      let message =
        SourceText.isGitCryptEncrypted(bytes)
        ? "skipped: encrypted by git-crypt; unlock the checkout (`git-crypt unlock`) to scan it"
        : "skipped: binary data, not source text"
      return FileOutcome(issues: [ScanIssue(path: path, kind: .binary, message: message)])
    }
    // Bytes that are not UTF-8 (mostly Latin-1 in old comments) are read as `?`, offsets kept.
    if let repaired = SourceText.replacingInvalidUTF8(bytes) {
      var outcome = scan(bytes: repaired.bytes, path: path, platform: platform)
      let position = SourceText(bytes: repaired.bytes).position(of: repaired.first)
      let count = repaired.replaced == 1 ? "1 byte that is" : "\(repaired.replaced) bytes that are"
      outcome.issues.insert(
        ScanIssue(
          path: path, kind: .encoding,
          message: "\(count) not valid UTF-8 (the first at byte \(repaired.first)) read as `?`; the rest was scanned",
          line: position.line, column: position.column), at: 0)
      return outcome
    }
    let language = SourceLanguage(pathExtension: FileDiscovery.pathExtension(path)) ?? .swift
    let found = tokenSearch.found(in: bytes)
    let applicable = rules.indices.filter { index in
      rules[index].rule.language == language && !Self.isSuppressionRule(rules[index].metadata.id)
        && !ruleTokens[index].isDisjoint(with: found)
        && rules[index].rule.mayReport(in: bytes, options: rules[index].options)
    }.map { rules[$0] }
    let hasDirectives = found.contains(markerToken)
    let takesContexts = language == .swift && contextToken.map(found.contains) == true
    let sinks = language == .swift ? sinks(namedIn: found) : []
    let takesInventory = inventoryTokens.map { !$0.found(in: bytes).isEmpty } ?? false
    guard
      !applicable.isEmpty || hasDirectives || takesContexts || sinks.contains(where: \.parsesFiles) || takesInventory
    else {
      return FileOutcome()
    }

    var outcome = FileOutcome(parsed: true)
    let text = SourceText(bytes: bytes)
    let makeContext: (RuleOptions) -> RuleContext
    // Where the file's code lives and which build it is in, asked only if it has findings.
    let place: ([Finding]) -> [Finding]
    var directives: [SuppressionDirective] = []
    if language == .swift {
      if let offset = ParserHazards.excessiveBracketRun(in: bytes) {
        let position = text.position(of: offset)
        outcome.issues.append(
          ScanIssue(
            path: path, kind: .parse,
            message:
              "not parsed: more than \(ParserHazards.maximumBracketRun) consecutive '[' (the Swift parser takes exponential time on them); the file was skipped",
            line: position.line, column: position.column))
        outcome.parsed = false
        return outcome
      }
      let tree = bytes.withUnsafeBufferPointer { Parser.parse(source: $0) }
      if tree.hasError && (!applicable.isEmpty || takesInventory) {
        outcome.issues.append(parseIssue(tree, text: text, path: path))
      }
      if hasDirectives { directives = SuppressionDirective.directives(in: tree, text: text) }
      let model = SemanticModel(tree: tree, wrappers: wrappers)
      model.projectPlatform = platform
      makeContext = { RuleContext(model: model, options: $0) }
      // One per file: it finds the file's uncalled functions once, for findings and inventory.
      let conditions = SwiftBuildConditions(tree: tree)
      place = {
        Self.placing(
          $0, origin: ContentOrigin.origin(of: tree, bytes: bytes), condition: conditions.condition(at:),
          calledElsewhere: FunctionsCalledElsewhere(tree: tree, namesUsed: conditions.namesUsed).names(at:))
      }
      outcome.facts = Self.callFacts(
        of: model, takesContexts: takesContexts, sinks: sinks, location: { Self.point($0, text: text, path: path) })
      if takesInventory {
        outcome.inventory = Self.inventory(
          text: text, path: path, origin: ContentOrigin.origin(of: tree, bytes: bytes),
          condition: conditions.condition(at:), taken: model.inventory(place:))
      }
    } else {
      if hasDirectives { directives = SuppressionDirective.directives(inObjC: bytes, text: text) }
      let model = ObjCModel(bytes: bytes)
      model.projectPlatform = platform
      model.wrappers = wrappers
      makeContext = { RuleContext(objc: model, options: $0) }
      place = {
        Self.placing(
          $0, origin: ContentOrigin.origin(of: model.tokens, bytes: bytes),
          condition: ObjCBuildConditions(tokens: model.tokens, lexer: model.lexer).condition(at:))
      }
      if takesInventory {
        outcome.inventory = Self.inventory(
          text: text, path: path, origin: ContentOrigin.origin(of: model.tokens, bytes: bytes),
          condition: ObjCBuildConditions(tokens: model.tokens, lexer: model.lexer).condition(at:),
          taken: model.inventory(place:))
      }
    }
    var fileFindings: [Finding] = []
    for configured in applicable {
      let context = makeContext(configured.options)
      configured.rule.check(context)
      for report in context.reports {
        fileFindings.append(finding(report, rule: configured, text: text, path: path))
      }
    }
    if !directives.isEmpty {
      let enabled = Set(rules.map(\.metadata.id))
      // Suppressions of rules this scan does not run are neither used nor unused.
      let relevant = directives.filter { directive in
        directive.kind == .enable || directive.ruleIDs.isEmpty
          || directive.ruleIDs.contains { $0 == "all" || enabled.contains($0) || !knownRuleIDs.contains($0) }
      }
      let requireReason =
        rules.first { $0.metadata.id == SuppressionApplier.missingReasonID }?.options.bool("requireReason") ?? false
      let applier = SuppressionApplier(
        directives: relevant, knownRuleIDs: knownRuleIDs, requireReason: requireReason, text: text)
      let (marked, directiveReports) = applier.apply(to: fileFindings)
      fileFindings = marked
      for (ruleID, report) in directiveReports {
        guard let meta = rules.first(where: { $0.metadata.id == ruleID }) else { continue }
        fileFindings.append(finding(report, rule: meta, text: text, path: path))
      }
    }
    if !fileFindings.isEmpty { fileFindings = place(fileFindings) }
    outcome.findings = Self.assigningFingerprints(fileFindings.sorted(by: Finding.reportOrder), text: text)
    return outcome
  }

  private func finding(_ report: RuleReport, rule: ConfiguredRule, text: SourceText, path: String) -> Finding {
    let start = text.position(of: report.start)
    let end = text.position(of: report.end)
    let metadata = rule.rule.metadata
    return Finding(
      ruleId: metadata.id, severity: rule.severity, confidence: report.confidence ?? metadata.confidence,
      message: report.message, location: SourceLocation(path: path, start: start, end: end),
      snippet: text.lineText(start.line - 1), tags: metadata.tags, fingerprint: "", fix: report.fix,
      related: report.related.map {
        RelatedLocation(message: $0.note, location: Self.point($0.offset, text: text, path: path))
      }, handOff: report.handOff)
  }

  /// The location of one byte offset (a related place, a declaration), empty-ranged.
  private static func point(_ offset: Int, text: SourceText, path: String) -> SourceLocation {
    let position = text.position(of: offset)
    return SourceLocation(path: path, start: position, end: position)
  }

  /// Fingerprints from the rule, the path, the finding's line and text without white space, and
  /// the count of identical earlier findings: stable when lines above move.
  static func assigningFingerprints(_ findings: [Finding], text: SourceText) -> [Finding] {
    Fingerprint.assign(findings) { finding in
      let matched = text.text(from: finding.location.start.offset, to: finding.location.end.offset)
      return [
        finding.ruleId, finding.location.path, Fingerprint.normalized(finding.snippet), Fingerprint.normalized(matched),
      ]
    }
  }

  private func parseIssue(_ tree: SourceFileSyntax, text: SourceText, path: String) -> ScanIssue {
    if let token = Self.equalsTheDiagnosticsGeneratorTrapsOn(tree) {
      let position = text.position(of: token.positionAfterSkippingLeadingTrivia.utf8Offset)
      return ScanIssue(
        path: path, kind: .parse,
        message:
          "syntax error: '=' must have consistent whitespace on both sides; the rest of the file was still scanned",
        line: position.line, column: position.column)
    }
    let diagnostics = ParseDiagnosticsGenerator.diagnostics(for: tree)
    guard let first = diagnostics.first else {
      return ScanIssue(path: path, kind: .parse, message: "syntax errors; findings in this file may be incomplete")
    }
    let position = text.position(of: first.position.utf8Offset)
    let more = diagnostics.count > 1 ? " (and \(diagnostics.count - 1) more)" : ""
    return ScanIssue(
      path: path, kind: .parse,
      message: "syntax error: \(first.message)\(more); the rest of the file was still scanned",
      line: position.line, column: position.column)
  }

  /// An `=` that swift-syntax's lexer finds unevenly spaced while the tokens on both sides carry
  /// spaces or tabs in their trivia (`a /**/\u{0B}= b`): its diagnostics generator then builds a
  /// Fix-It with no change and traps, which would end the whole scan. Such files are reported
  /// without it.
  static func equalsTheDiagnosticsGeneratorTrapsOn(_ tree: SourceFileSyntax) -> TokenSyntax? {
    func hasSpace(_ trivia: Trivia) -> Bool {
      trivia.contains {
        switch $0 {
        case .spaces, .tabs: true
        default: false
        }
      }
    }
    for token in tree.tokens(viewMode: .all)
    where token.tokenDiagnostic?.kind == .equalMustHaveConsistentWhitespaceOnBothSides {
      if hasSpace(token.trailingTrivia), hasSpace(token.previousToken(viewMode: .all)?.trailingTrivia ?? []) {
        return token
      }
    }
    return nil
  }
}
