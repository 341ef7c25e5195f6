import SwiftSyntax

/// A Keyward rule: metadata, options, examples and a checker, all in one type.
///
/// Rules are stateless; `check` is called once per file that passed the rule's prefilter, with a
/// context that gives the parsed file, its semantic model and the rule's effective options.
public protocol Rule: Sendable {
  static var metadata: RuleMetadata { get }
  static var options: [OptionSpec] { get }
  static var examples: RuleExamples { get }
  /// Byte strings of which a file must contain at least one for `check` to be able to report
  /// anything. Files containing none are not parsed for this rule.
  static func prefilterTokens(options: RuleOptions) -> [String]
  /// A second, finer look at a file that holds one of the rule's tokens, before it is parsed for
  /// the rule: whether the rest of the evidence the rule needs can be in the file at all (a
  /// secret's name beside `UserDefaults`). False only when the rule certainly reports nothing.
  static func mayReport(in bytes: [UInt8], options: RuleOptions) -> Bool
  static func check(_ context: RuleContext)
  /// Whether the rule also reads settings made through keychain wrapper libraries; the engine
  /// then adds the wrappers' module and type names to its prefilter.
  static var readsWrapperSettings: Bool { get }
  /// Whether the rule reports findings that other files may settle (`HandOff`); the
  /// engine then also parses files that take an `LAContext`, to learn what they do with it.
  static var followsContextsAcrossFiles: Bool { get }
  /// The sinks whose weak values the rule also reports where a call passes them to a parameter
  /// that reaches the sink (`HandOff.sink`); the engine then summarizes, in every file naming
  /// such a sink, which parameters reach it.
  static var valueSinks: [ValueSink] { get }
  /// The language of the files the rule reads.
  static var language: SourceLanguage { get }
}

/// The languages Keyward reads, by file extension.
public enum SourceLanguage: String, Sendable, CaseIterable {
  /// `binary` rules read built apps (Mach-O), not source; the source scanner never runs them.
  case swift, objectiveC, binary

  public init?(pathExtension: String) {
    switch pathExtension {
    case "swift": self = .swift
    case "m", "mm", "h": self = .objectiveC
    default: return nil
    }
  }

  /// The extension examples of this language are scanned under.
  public var exampleExtension: String {
    switch self {
    case .swift: "swift"
    case .objectiveC: "m"
    case .binary: "macho"
    }
  }
}

extension Rule {
  public static var language: SourceLanguage { .swift }
  public static var options: [OptionSpec] { [] }
  public static var readsWrapperSettings: Bool { false }
  public static var followsContextsAcrossFiles: Bool { false }
  public static var valueSinks: [ValueSink] { [] }
  public static func mayReport(in bytes: [UInt8], options: RuleOptions) -> Bool { true }
}

/// What a rule reports: a byte range and a message. Lines and columns are computed later, once
/// per file, only for files with findings.
public struct RuleReport: Sendable {
  public var start: Int
  public var end: Int
  public var message: String
  public var confidence: Confidence?
  public var fix: Fix?
  /// Other places that explain the finding, as (byte offset, note).
  public var related: [(offset: Int, note: String)]
  /// Set when a scan of other files may settle the finding (`HandOff`).
  public var handOff: HandOff?

  public init(
    start: Int, end: Int, message: String, confidence: Confidence? = nil, fix: Fix? = nil,
    related: [(offset: Int, note: String)] = [], handOff: HandOff? = nil
  ) {
    self.start = start
    self.end = end
    self.message = message
    self.confidence = confidence
    self.fix = fix
    self.related = related
    self.handOff = handOff
  }
}

/// One rule's view of one file: the Swift semantic model or the Objective-C token model,
/// whichever the rule's language reads.
public final class RuleContext {
  private let swiftModel: SemanticModel?
  private let objcModel: ObjCModel?
  public let options: RuleOptions
  public private(set) var reports: [RuleReport] = []
  private var reportedRanges: Set<[Int]> = []

  public init(model: SemanticModel, options: RuleOptions) {
    self.swiftModel = model
    self.objcModel = nil
    self.options = options
  }

  public init(objc: ObjCModel, options: RuleOptions) {
    self.swiftModel = nil
    self.objcModel = objc
    self.options = options
  }

  /// The Swift file's semantic model; the engine runs Swift rules only on Swift files.
  public var model: SemanticModel {
    guard let swiftModel else { preconditionFailure("a Swift rule was run on a file that is not Swift") }
    return swiftModel
  }

  /// The Objective-C file's tokens; the engine runs Objective-C rules only on such files.
  public var objc: ObjCModel {
    guard let objcModel else { preconditionFailure("an Objective-C rule was run on a file that is not Objective-C") }
    return objcModel
  }

  public var tree: SourceFileSyntax { model.tree }

  /// Reports a token of an Objective-C file.
  public func report(_ token: ObjCToken, message: String, confidence: Confidence? = nil) {
    report(start: token.start, end: token.end, message: message, confidence: confidence)
  }

  /// Reports `node` (without its surrounding trivia). A second report of the same range is
  /// dropped, so a constant that reaches several sinks yields one finding.
  public func report(
    _ node: some SyntaxProtocol, message: String, confidence: Confidence? = nil, fix: Fix? = nil,
    related: [(offset: Int, note: String)] = [], handOff: HandOff? = nil
  ) {
    report(
      start: node.positionAfterSkippingLeadingTrivia.utf8Offset, end: node.endPositionBeforeTrailingTrivia.utf8Offset,
      message: message, confidence: confidence, fix: fix, related: related, handOff: handOff)
  }

  /// Reports each of `atoms` that is passed as an argument to a function, with the message and
  /// fix `judge` gives it (nil: not weak), pending: the finding
  /// stands only if, somewhere in the scan, that parameter reaches `sink` (`HandOff.sink`).
  /// Atoms already reported where they take effect are not reported again, and a call on a
  /// branch the function's own caller picks only under the strict profile (as a ternary on a
  /// parameter is).
  public func reportPassed(
    _ atoms: [ExprSyntax], to sink: ValueSink, judge: (ExprSyntax, CallShape) -> (message: String, fix: Fix?)?
  ) {
    for (atom, call, enclosing) in model.argumentHandOffs(of: atoms) {
      guard options.reportsWeakEvidence || !model.isChosenByCaller(Syntax(atom)),
        let (message, fix) = judge(atom, call)
      else { continue }
      report(
        atom, message: message, fix: fix,
        handOff: HandOff(call: call, settledMessage: nil, sink: sink, enclosingCall: enclosing))
    }
  }

  /// Reports the bytes `start..<end`, for findings that cover part of a node.
  public func report(
    start: Int, end: Int, message: String, confidence: Confidence? = nil, fix: Fix? = nil,
    related: [(offset: Int, note: String)] = [], handOff: HandOff? = nil
  ) {
    guard reportedRanges.insert([start, end]).inserted else { return }
    reports.append(
      RuleReport(
        start: start, end: end, message: message, confidence: confidence, fix: fix,
        related: related.filter { $0.offset != start }, handOff: handOff))
  }

  /// The start of `node` without trivia, for related locations.
  public func offset(of node: some SyntaxProtocol) -> Int { node.positionAfterSkippingLeadingTrivia.utf8Offset }

  /// An edit replacing `node`'s text (without trivia) with `replacement`.
  public func replacement(of node: some SyntaxProtocol, with replacement: String) -> TextEdit {
    TextEdit(
      start: node.positionAfterSkippingLeadingTrivia.utf8Offset,
      end: node.endPositionBeforeTrailingTrivia.utf8Offset, replacement: replacement)
  }
}
