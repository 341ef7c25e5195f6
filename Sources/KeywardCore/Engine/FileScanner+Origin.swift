/// Where the findings of a file live (ARCHITECTURE.md, principle 3c): decided here, by the
/// engine, never by the rules.
extension FileScanner {
  /// The outcome with its findings' origins decided: the contents said theirs (and are cached
  /// with them); the configuration and the path, which can change without the file changing,
  /// come over them here.
  static func placed(_ outcome: FileOutcome, in file: DiscoveredFile) -> FileOutcome {
    let outcome = placedInventory(outcome, in: file)
    guard !outcome.findings.isEmpty else { return outcome }
    let unbuilt = file.isBuiltByNoTarget
    guard file.originIsConfigured || file.origin != .app || unbuilt else { return outcome }
    var placed = outcome
    for index in placed.findings.indices {
      placed.findings[index].origin = file.origin(content: placed.findings[index].origin)
      // A file no target compiles ships in no build, whatever its clauses say.
      if unbuilt { placed.findings[index].buildCondition = .unbuilt }
    }
    return placed
  }

  /// The findings with where their code lives by the contents, and the build it is in.
  static func placing(
    _ findings: [Finding], origin: CodeOrigin, condition: (Int) -> BuildCondition?
  ) -> [Finding] {
    findings.map { finding in
      var placed = finding
      placed.origin = origin
      placed.buildCondition = condition(finding.location.start.offset)
      return placed
    }
  }
}
