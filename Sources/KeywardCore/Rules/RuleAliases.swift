/// Rule ids that were renamed. A former id keeps working wherever an id is accepted (the
/// configuration's `rules:` keys, suppression comments, baselines, `keyward explain`) and means
/// the rule's current id; findings always carry the current id.
public enum RuleAliases {
  /// Former id → current id.
  public static let currentIDs: [String: String] = [
    "binary.accessible_always": "binary.weak_keychain_accessibility"
  ]

  /// The current id of `id` (itself when it was never renamed).
  public static func currentID(_ id: String) -> String { currentIDs[id] ?? id }

  /// The ids `id` had before, for its documentation.
  public static func formerIDs(of id: String) -> [String] {
    currentIDs.filter { $0.value == id }.map(\.key).sorted()
  }
}
