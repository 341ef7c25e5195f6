/// Taking an inventory: a scan that lists each file's items and gates besides running the rule
/// that settles, across files, whether a gate is event-bound. Nothing is analysed twice.
extension Inventory {
  /// The rule whose findings say, after the whole scan, whether a gate that hands its context to
  /// another file's function is event-bound (`swift.event_bound_biometric_auth`).
  public static let gateRuleID = "swift.event_bound_biometric_auth"

  /// Scans as `request` says with `scanner` (which should run the `gateRuleID` rule), and lists
  /// what the code writes to the keychain, its LocalAuthentication gates and the frameworks its
  /// built apps link.
  public static func take(_ request: ScanRequest, with scanner: Scanner) throws -> Inventory {
    var request = request
    request.takesInventory = true
    request.cacheFolder = nil
    request.findingSink = nil
    return Inventory(settling: try scanner.scan(request))
  }

  /// The inventory of a scan that took one, with every gate whose context left its file settled
  /// by the scan's `gateRuleID` findings: none at the gate means the context reached a
  /// protected item; a finding at ordinary confidence means it did not; a low-confidence
  /// finding means no scanned file said.
  public init(settling result: ScanResult) {
    let gateFindings = Dictionary(
      result.findings.filter { $0.ruleId == Self.gateRuleID }.map {
        (InventoryPlace(path: $0.location.path, line: $0.location.start.line, column: $0.location.start.column), $0)
      }
    ) { first, _ in first }
    let gates = result.inventory.gates.map { gate -> AuthenticationGateRecord in
      guard let pending = gate.pending else { return gate }
      var settled = gate
      settled.pending = nil
      let finding = gateFindings[gate.place]
      switch pending {
      case .handedOff(let callee):
        if finding == nil {
          settled.binding = .keychainBound
          settled.bindingNote =
            "the context is handed to `\(callee)`, declared in another file, which reads a protected keychain item with it"
        } else if finding?.confidence != .low {
          settled.binding = .eventBound
          settled.bindingNote =
            "the context is handed to `\(callee)`, declared in another file, which does not open a protected keychain item with it"
        }
      case .keptIn(let property):
        if finding == nil {
          settled.binding = .keychainBound
          settled.bindingNote =
            "the context is kept in `\(property)`, which code in another file reads into a protected keychain item or key"
        }
      }
      return settled
    }
    self.init(
      root: result.root, keychainItems: result.inventory.keychainItems, gates: gates,
      binaries: result.binaries.map(BinaryInventoryRecord.init), errors: result.errors,
      filesScanned: result.filesScanned)
  }
}
