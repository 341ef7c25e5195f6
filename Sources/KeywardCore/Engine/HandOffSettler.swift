/// Settles findings that wait on what a called function does (`HandOff`), once the whole scan
/// has said what its functions do with their parameters.
///
/// A weak value passed as an argument stands where some function the call may mean passes that
/// parameter to the sink (with the path there as related locations), and is dropped otherwise.
///
/// For an `LAContext` kept in a property other files read, a finding is dropped when shipped
/// code reads that property into a protected keychain item or key, and stays as it was otherwise.
///
/// For an `LAContext`, a finding is dropped when every function the call may mean reaches a protected keychain item
/// (the authentication is keychain-bound after all); it gets its rule's own confidence and a
/// message saying where the context went when none of them does; otherwise (no such function in
/// the scan, or candidates that disagree) it stays as it was, at low confidence.
public struct HandOffSettler {
  private let usesByName: [String: [ContextParameterUse]]
  private let reachesByName: [String: [ParameterReach]]
  private let propertyReadsByName: [String: [ContextPropertyRead]]
  /// Whether shipped code reads an `LAContext`'s domain state somewhere in the scan.
  private let checksEnrollment: Bool
  private let propertyReachesByOwner: [String: [PropertyReach]]
  private let relaysByName: [String: [ValueRelay]]
  /// Routes already worked out, by call and sink: many findings pass values to the same call.
  private let routes = RouteMemo()
  private let defaultConfidence: [String: Confidence]
  /// Read only when a finding asks: most scans have none that does.
  private let faceIDUsage: LazyFaceIDUsage
  /// The files (relative paths) of a library repository's shipped targets (`isLibraryCode`).
  private let libraryFiles: Set<String>
  /// The words of every Swift file of a whole scan; nil when the scan saw only some files.
  private let projectWords: ProjectWords?

  public init(
    facts: CallFacts, rules: [ConfiguredRule], faceIDUsage: @escaping () -> FaceIDUsage = { .unknown },
    libraryFiles: Set<String> = [], projectWords: ProjectWords? = nil
  ) {
    self.projectWords = projectWords
    self.faceIDUsage = LazyFaceIDUsage(read: faceIDUsage)
    self.libraryFiles = libraryFiles
    usesByName = Dictionary(grouping: facts.contextUses, by: \.name)
    reachesByName = Dictionary(grouping: facts.parameterReaches, by: \.callable.name)
    propertyReadsByName = Dictionary(grouping: facts.contextPropertyReads, by: \.name)
    checksEnrollment = facts.enrollmentChecks.contains { PathOrigin.origin(of: $0.path) == .app }
    propertyReachesByOwner = Dictionary(grouping: facts.propertyReaches, by: \.owner)
    relaysByName = Dictionary(grouping: facts.relays, by: \.calledName)
    defaultConfidence = Dictionary(rules.map { ($0.metadata.id, $0.metadata.confidence) }) { first, _ in first }
  }

  /// Where a handed context ends up: the functions it passes through, first to last.
  private enum Verdict {
    case keychainBound
    case unprotected(through: [ContextParameterUse])
    case notToKeychain(through: [ContextParameterUse])
    case unsettled

    var kind: Int {
      switch self {
      case .keychainBound: 0
      case .unprotected: 1
      case .notToKeychain: 2
      case .unsettled: 3
      }
    }
  }

  /// How a message names the project's protocols the code's type conforms to, when it does.
  private static func protocols(_ names: [String]) -> String {
    guard !names.isEmpty else { return "" }
    let listed = names.map { "`\($0)`" }.joined(separator: ", ")
    return
      " (here or in \(names.count == 1 ? "the protocol" : "the protocols") \(listed) it implements, which only the project's own code calls)"
  }

  /// `findings` with every hand-off settled as far as the scan allows, in the same order.
  public func settle(_ findings: [Finding]) -> [Finding] {
    // Where each rule of the file already reports on its own: a value whose way ends there is
    // that finding. Made on the first value that reaches a sink.
    var reported: Set<String>?
    return findings.compactMap { finding in
      guard let handOff = finding.handOff else { return finding }
      var settled = finding
      settled.handOff = nil
      // An internal function no file of the project names: nothing calls it.
      // Conforming only to the project's plain protocols, whose requirements only its own code
      // calls by name: none of the system's, which it may call by names no file writes.
      let onlyProjectCalls = projectWords.map { words in handOff.conformances.allSatisfy(words.declaresPlainProtocol) }
      if let name = handOff.unlessNamedInProject, let projectWords, onlyProjectCalls == true,
        !projectWords.contains(name)
      {
        settled.buildCondition = .uncalled
        settled.message +=
          " No file of the scanned project names `\(name)` but to declare it\(Self.protocols(handOff.conformances)), so nothing calls this code."
      } else if let name = handOff.unlessTypeNamedInProject, let projectWords, onlyProjectCalls == true,
        !projectWords.contains(name)
      {
        settled.buildCondition = .uncalled
        settled.message +=
          " No file of the scanned project names the type `\(name)` but to declare it\(Self.protocols(handOff.conformances)), so nothing makes or calls into it and this code never runs."
      }
      if handOff.unlessEnrollmentIsChecked && checksEnrollment { return nil }
      // A library's own code: the apps that link it declare the usage, not this repository.
      if handOff.unlessFaceIDUsageIsDeclared
        && (libraryFiles.contains(finding.location.path) || faceIDUsage.value != .missing)
      {
        return nil
      }
      guard let call = handOff.call else { return settled }
      if let sink = handOff.sink {
        // A value passed by `call` stands where a function the call may mean passes it on to
        // `sink`, or where the call builds a type whose property it becomes and that property
        // reaches `sink`, also through functions of other files it is relayed to: the first such
        // path (shipped code first) explains it. Each step to a method matched only by its name
        // and labels, the receiver's type unknown, is a guess that lowers the confidence a level.
        guard
          let route = route(from: call, to: sink, depth: 0)
            ?? handOff.enclosingCall.flatMap({ route(from: $0, to: sink, depth: 0) })
        else { return nil }
        // A value whose way ends where its rule reports on its own (a secret handed to a function
        // that writes it under a key named for it) is that finding, reported once, there.
        if reported == nil {
          reported = Set(findings.lazy.filter { $0.handOff?.standsWhereItIs ?? true }.map(Self.site))
        }
        if let end = route.steps.last, reported!.contains(Self.site(finding.ruleId, end.location)) { return nil }
        settled.related = route.steps + finding.related
        settled.confidence = finding.confidence.lowered(by: route.guesses)
        return settled
      }
      if handOff.isPropertyRead { return isReadIntoProtectedItem(call) ? nil : settled }
      let chain: [ContextParameterUse]
      let ending: String
      switch verdict(for: call, depth: 0) {
      case .keychainBound: return nil
      case .unsettled: return settled
      case .unprotected(let through):
        chain = through
        ending =
          "which passes it to a keychain query, but the items stored there have no access control (`kSecAttrAccessControl`), so the keychain releases them without authentication."
      case .notToKeychain(let through):
        chain = through
        ending = "which passes it to no keychain query."
      }
      let path = chain.map { "`\($0.signature)` (\($0.location.place))" }.joined(separator: " and on to ")
      if let message = handOff.settledMessage {
        settled.message = "The context is handed to \(path), \(ending) \(message)"
      }
      settled.confidence = defaultConfidence[finding.ruleId] ?? finding.confidence
      settled.related += chain.map {
        RelatedLocation(message: "the context is handed to `\($0.signature)`, declared here", location: $0.location)
      }
      return settled
    }
  }

  /// A rule's finding at a place.
  static func site(_ finding: Finding) -> String { site(finding.ruleId, finding.location) }

  static func site(_ ruleId: String, _ location: SourceLocation) -> String { "\(ruleId) \(location.place)" }

  /// The way from a call to a sink, and how many of its steps were guessed.
  struct Route: Hashable {
    var steps: [RelatedLocation]
    var guesses: Int
  }

  /// The most calls a route passes through.
  static let longestRoute = 4

  /// The steps from a call to `sink`, or nil when the value passed never reaches it.
  private func route(from call: CallShape, to sink: ValueSink, depth: Int) -> Route? {
    // Longer chains are cycles, or too long to explain.
    guard depth < Self.longestRoute else { return nil }
    let key = RouteMemo.Key(call: call, sink: sink, depth: depth)
    if let known = routes.known[key] { return known }
    let found = findRoute(from: call, to: sink, depth: depth)
    routes.known[key] = .some(found)
    return found
  }

  private func findRoute(from call: CallShape, to sink: ValueSink, depth: Int) -> Route? {
    let candidates = (reachesByName[call.name] ?? []).filter { $0.sink == sink && $0.accepts(call) }
    if let reach = Self.preferringShippedCode(candidates, \.callable).first {
      let step = RelatedLocation(
        message: "passed to `\(reach.callable.signature)`, declared here", location: reach.callable.location)
      return Route(steps: [step] + reach.steps, guesses: Self.isGuess(call, reach.callable) ? 1 : 0)
    }
    if call.isInitializer,
      let reach = (propertyReachesByOwner[call.name] ?? []).first(where: { $0.sink == sink && $0.accepts(call) })
    {
      return Route(steps: reach.steps, guesses: 0)
    }
    for relay in relaysByName[call.name] ?? [] where relay.accepts(call) {
      if let rest = route(from: relay.call, to: sink, depth: depth + 1) {
        return Route(
          steps: [relay.step] + rest.steps, guesses: rest.guesses + (Self.isGuess(call, relay.callable) ? 1 : 0))
      }
    }
    return nil
  }

  /// Whether matching `call` to `callable` is a guess: a method found by its name and labels
  /// alone, the receiver's type being unknown.
  private static func isGuess(_ call: CallShape, _ callable: CallableShape?) -> Bool {
    call.receiverType == nil && callable?.owner != nil
  }

  /// Whether shipped code reads the property `shape` names (of its type, where the reading file
  /// knows the type) into a protected keychain item or a Secure Enclave key.
  private func isReadIntoProtectedItem(_ shape: CallShape) -> Bool {
    (propertyReadsByName[shape.name] ?? []).contains { read in
      (read.receiverType == nil || read.receiverType == shape.receiverType)
        && PathOrigin.origin(of: read.location.path) == .app
    }
  }

  /// The declarations a call may mean, without test doubles when app code declares it too: a
  /// mock in a test folder (or named `Mock…`, `…Fake`, `…Stub`) never runs in the app, so it
  /// neither vetoes nor settles what the real function does.
  static func preferringShippedCode<Fact>(_ candidates: [Fact], _ callable: (Fact) -> CallableShape) -> [Fact] {
    let shipped = candidates.filter { isShipped(callable($0)) }
    return shipped.isEmpty ? candidates : shipped
  }

  private static func isShipped(_ callable: CallableShape) -> Bool {
    let type = callable.owner?.type ?? ""
    let isDouble = ["Mock", "Fake", "Stub", "Spy"].contains { type.contains($0) }
    return !isDouble && PathOrigin.origin(of: callable.location.path) == .app
  }

  private func verdict(for call: CallShape, depth: Int) -> Verdict {
    // Chains longer than this are cycles, or too long to explain in a message.
    guard depth < 4 else { return .unsettled }
    let candidates = Self.preferringShippedCode((usesByName[call.name] ?? []).filter { $0.accepts(call) }, \.callable)
    guard !candidates.isEmpty else { return .unsettled }
    let verdicts = candidates.map { use -> Verdict in
      switch use.outcome {
      case .keychainBound: return .keychainBound
      case .unprotectedItems: return .unprotected(through: [use])
      case .notToKeychain: return .notToKeychain(through: [use])
      case .handedOn(let next):
        switch verdict(for: next, depth: depth + 1) {
        case .unprotected(let rest): return .unprotected(through: [use] + rest)
        case .notToKeychain(let rest): return .notToKeychain(through: [use] + rest)
        case let other: return other
        }
      }
    }
    // Several functions may be meant (`retrieve(context:)` on two types): settled only if they
    // agree, and explained by the first.
    return Set(verdicts.map(\.kind)).count == 1 ? verdicts[0] : .unsettled
  }
}

/// The settler's memo of routes; the settler runs on one thread.
private final class RouteMemo {
  struct Key: Hashable {
    var call: CallShape
    var sink: ValueSink
    var depth: Int
  }
  var known: [Key: HandOffSettler.Route?] = [:]
}

/// The app settings' Face ID usage, read the first time a finding needs it.
private final class LazyFaceIDUsage {
  private let read: () -> FaceIDUsage
  private(set) lazy var value: FaceIDUsage = read()
  init(read: @escaping () -> FaceIDUsage) { self.read = read }
}
