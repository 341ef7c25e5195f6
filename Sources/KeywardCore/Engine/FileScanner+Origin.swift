/// Where the findings of a file live (ARCHITECTURE.md, principle 3c): decided here, by the
/// engine, never by the rules.
extension FileScanner {
  /// The outcome with its findings' origins decided: the contents said theirs (and are cached
  /// with them); the configuration and the path, which can change without the file changing,
  /// come over them here.
  static func placed(_ outcome: FileOutcome, in file: DiscoveredFile) -> FileOutcome {
    var outcome = placedInventory(outcome, in: file)
    guard !outcome.findings.isEmpty else { return outcome }
    let unbuilt = file.isBuiltByNoTarget
    if file.originIsConfigured || file.origin != .app || unbuilt {
      for index in outcome.findings.indices {
        outcome.findings[index].origin = file.origin(content: outcome.findings[index].origin)
        // A file no target compiles ships in no build, whatever its clauses say.
        if unbuilt { outcome.findings[index].buildCondition = .unbuilt }
      }
    }
    // Whether another file calls a function is judged only for shipped code of a project the
    // scan holds whole: a scan of one folder of an app does not see the callers outside it.
    for index in outcome.findings.indices where outcome.findings[index].handOff?.waitsForProjectNames == true {
      let finding = outcome.findings[index]
      guard !file.isInsideScannedProject || finding.origin != .app || finding.buildCondition != nil else { continue }
      outcome.findings[index].handOff?.unlessNamedInProject = nil
      outcome.findings[index].handOff?.unlessTypeNamedInProject = nil
      outcome.findings[index].handOff?.conformances = []
      if outcome.findings[index].handOff?.waitsForNothing == true { outcome.findings[index].handOff = nil }
    }
    return outcome
  }

  /// The findings with where their code lives by the contents, and the build it is in.
  /// `calledElsewhere` names the internal function around an offset that only other files
  /// could call, and the internal type around it that only other files could name
  /// (`FunctionsCalledElsewhere`): a finding there waits for the whole scan.
  static func placing(
    _ findings: [Finding], origin: CodeOrigin, condition: (Int) -> BuildCondition?,
    calledElsewhere: (Int) -> FunctionsCalledElsewhere.Candidates = { _ in .init() }
  ) -> [Finding] {
    findings.map { finding in
      var placed = finding
      placed.origin = origin
      placed.buildCondition = condition(finding.location.start.offset)
      guard placed.buildCondition == nil else { return placed }
      let names = calledElsewhere(finding.location.start.offset)
      if names.function != nil || names.type != nil {
        var handOff = placed.handOff ?? HandOff(call: nil, settledMessage: nil)
        handOff.unlessNamedInProject = names.function
        handOff.unlessTypeNamedInProject = names.type
        handOff.conformances = names.conformances
        placed.handOff = handOff
      }
      return placed
    }
  }
}
