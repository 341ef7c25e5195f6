import KeywardCore

extension RuleMetadata {
  /// The Objective-C twin of a Swift rule: the same title, severity, tags, reasoning and
  /// references, with its own id (`objc.` for `swift.`) and Objective-C code.
  func objcTwin(description: String, vulnerableExample: String, fixedExample: String) -> RuleMetadata {
    var twin = self
    twin.id = "objc." + id.dropFirst("swift.".count)
    twin.language = "Objective-C"
    twin.description = description
    twin.vulnerableExample = vulnerableExample
    twin.fixedExample = fixedExample
    return twin
  }
}
