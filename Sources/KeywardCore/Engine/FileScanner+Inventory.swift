/// The inventory part of a file's scan (`keyward inventory`): taken from the same parse and
/// semantic model as the rules' findings, and placed the way findings are.
extension FileScanner {
  /// A scanner like this one that also takes each file's inventory. Its outcomes are not cached.
  func takingInventory() -> FileScanner {
    var scanner = self
    scanner.inventoryTokens = TokenSearch(
      tokens: ["kSec", "evaluatePolicy", "SecItem", "SecKey"] + wrappers.flatMap(\.prefilterTokens))
    return scanner
  }

  /// What `take` lists in the file, each record with where its code lives by the file's contents
  /// (`origin`) and the build it is in (`condition`, by byte offset).
  static func inventory(
    text: SourceText, path: String, origin: CodeOrigin, condition: (Int) -> BuildCondition?,
    taken take: ((Int) -> InventoryPlace) -> FileInventory
  ) -> FileInventory? {
    var offsets: [InventoryPlace: Int] = [:]
    var inventory = take { offset in
      let position = text.position(of: offset)
      let place = InventoryPlace(path: path, line: position.line, column: position.column)
      offsets[place] = offset
      return place
    }
    guard !inventory.isEmpty else { return nil }
    let conditions = offsets.compactMapValues(condition)
    for index in inventory.keychainItems.indices {
      inventory.keychainItems[index].origin = origin
      inventory.keychainItems[index].buildCondition = conditions[inventory.keychainItems[index].place]
    }
    for index in inventory.gates.indices {
      inventory.gates[index].origin = origin
      inventory.gates[index].buildCondition = conditions[inventory.gates[index].place]
    }
    return inventory
  }

  /// The inventory with where its code lives decided as for findings: the configuration and the
  /// path over the contents.
  static func placedInventory(_ outcome: FileOutcome, in file: DiscoveredFile) -> FileOutcome {
    guard var inventory = outcome.inventory, !inventory.keychainItems.isEmpty || !inventory.gates.isEmpty else {
      return outcome
    }
    let unbuilt = file.isBuiltByNoTarget
    for index in inventory.keychainItems.indices {
      inventory.keychainItems[index].origin = file.origin(content: inventory.keychainItems[index].origin)
      if unbuilt { inventory.keychainItems[index].buildCondition = .unbuilt }
    }
    for index in inventory.gates.indices {
      inventory.gates[index].origin = file.origin(content: inventory.gates[index].origin)
      if unbuilt { inventory.gates[index].buildCondition = .unbuilt }
    }
    var placed = outcome
    placed.inventory = inventory
    return placed
  }
}
