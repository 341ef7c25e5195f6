import Foundation

/// The parameter and property reaches of the scanned files (`CallFacts.parameterReaches`,
/// `.propertyReaches`), kept in a spool file during the scan and read back at its end only for
/// the functions and types a waiting finding's call may mean. They are the bulk of the facts: a
/// tree that declares a `save(_ data: Data, …)` storing its argument in every file has one per
/// file, and held in memory they made the scan grow with the number of files although nothing
/// passed those functions a value to judge.
final class SpooledReaches: @unchecked Sendable {
  private let spool = ByteSpool()
  private let lock = NSLock()
  private var pieces: [Int: ByteSpool.Piece] = [:]
  /// The names calls of waiting findings hand a value to (`HandOff.call`, `.enclosingCall`).
  private var waitingNames: Set<String> = []
  private var waitsOnFacts = false

  /// Whether a waiting finding needs what other files' functions do (`HandOff.needsCallFacts`).
  var anyWaitsOnFacts: Bool { lock.withLock { waitsOnFacts } }

  /// Moves the reaches out of `facts`, into the spool, as those of file `file`.
  func keep(_ facts: inout CallFacts, file: Int) {
    guard !facts.parameterReaches.isEmpty || !facts.propertyReaches.isEmpty else { return }
    let reaches = CallFacts(parameterReaches: facts.parameterReaches, propertyReaches: facts.propertyReaches)
    facts.parameterReaches = []
    facts.propertyReaches = []
    var writer = CacheWriter()
    FileOutcome(facts: reaches).write(to: &writer)
    let piece = spool.append(writer.bytes)
    lock.withLock { pieces[file] = piece }
  }

  /// Notes the calls that `findings` wait on.
  func noteWaiting(_ findings: [Finding]) {
    let names = findings.flatMap { [$0.handOff?.call?.name, $0.handOff?.enclosingCall?.name].compactMap { $0 } }
    let needsFacts = findings.contains { $0.handOff?.needsCallFacts == true }
    guard !names.isEmpty || needsFacts else { return }
    lock.withLock {
      waitingNames.formUnion(names)
      waitsOnFacts = waitsOnFacts || needsFacts
    }
  }

  /// Puts back into each file's facts the reaches of the names a waiting call may lead to
  /// (through `relays`, as far as a route is followed), or all of them when `everything`.
  func restore(into outcomes: inout [Int: FileOutcome], relays: [ValueRelay], everything: Bool) throws {
    let wanted = everything ? nil : Self.names(reachableFrom: lock.withLock { waitingNames }, through: relays)
    for (file, piece) in lock.withLock({ pieces }) where outcomes[file] != nil {
      var facts: CallFacts
      do {
        var reader = CacheReader(try spool.read(piece)[...])
        facts = try FileOutcome(from: &reader).facts
      } catch {
        throw KeptAsideReadError(description: "facts kept aside during the scan could not be read back: \(error)")
      }
      if let wanted {
        facts.parameterReaches.removeAll { !wanted.contains($0.callable.name) }
        facts.propertyReaches.removeAll { !wanted.contains($0.owner) }
      }
      outcomes[file]!.facts.parameterReaches = facts.parameterReaches
      outcomes[file]!.facts.propertyReaches = facts.propertyReaches
    }
    lock.withLock { pieces = [:] }
  }

  /// `names`, and the names of the calls the relays of those functions pass a value on to, as
  /// many steps as `HandOffSettler` follows.
  static func names(reachableFrom names: Set<String>, through relays: [ValueRelay]) -> Set<String> {
    guard !names.isEmpty else { return [] }
    let relaysByName = Dictionary(grouping: relays, by: \.calledName)
    var found = names
    var frontier = Array(names)
    for _ in 0..<HandOffSettler.longestRoute {
      frontier = frontier.flatMap { name in
        (relaysByName[name] ?? []).map(\.call.name).filter { found.insert($0).inserted }
      }
    }
    return found
  }
}
