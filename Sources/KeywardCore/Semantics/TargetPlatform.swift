import SwiftSyntax

/// Whether code is built only for native macOS, as far as the file shows: inside an
/// `#if os(macOS)` clause (or `canImport(AppKit)`), or in a file that imports AppKit or Cocoa
/// unconditionally and not UIKit, or in a project built only for macOS (`ProjectPlatform`: a
/// package declaring only macOS, an Xcode project whose every SDK is `macosx`). Mac Catalyst and
/// iOS apps on Apple silicon Macs are not native macOS code.
public enum TargetPlatform {
  /// Whether `node` is compiled only for macOS.
  public static func isMacOSOnly(_ node: some SyntaxProtocol, in model: SemanticModel) -> Bool {
    var current = node.parent
    while let candidate = current {
      if let clause = candidate.as(IfConfigClauseSyntax.self), let verdict = clauseVerdict(clause) {
        return verdict
      }
      current = candidate.parent
    }
    return importsOnlyMacFrameworks(model) || model.projectPlatform == .macOSOnly
  }

  /// True for a clause only macOS builds take, false for one they never take (`#if os(iOS)`,
  /// the `#else` of `#if os(macOS)`), nil when the clause says nothing about the platform.
  private static func clauseVerdict(_ clause: IfConfigClauseSyntax) -> Bool? {
    if let condition = clause.condition { return platformVerdict(condition) }
    // `#else`: the opposite of a lone earlier `#if os(macOS)`.
    guard let clauses = clause.parent?.as(IfConfigClauseListSyntax.self), clauses.count == 2,
      let first = clauses.first?.condition, platformVerdict(first) == true
    else { return nil }
    return false
  }

  private static let otherPlatforms: Set<String> = ["iOS", "tvOS", "watchOS", "visionOS", "Linux", "Windows"]

  private static func platformVerdict(_ condition: ExprSyntax) -> Bool? {
    let condition = SequenceShape.unwrap(condition)
    if let call = condition.as(FunctionCallExprSyntax.self), let name = SyntaxFacts.calledName(call),
      call.arguments.count == 1, let argument = call.arguments.first?.expression.trimmedDescription
    {
      switch name {
      case "os":
        return argument == "macOS" || argument == "OSX" ? true : (otherPlatforms.contains(argument) ? false : nil)
      case "canImport": return argument == "AppKit" ? true : (argument == "UIKit" ? false : nil)
      default: return nil
      }
    }
    // `os(macOS) && DEBUG`: macOS-only when a conjunct is.
    guard let sequence = condition.as(SequenceExprSyntax.self) else { return nil }
    let elements = Array(sequence.elements)
    guard elements.count >= 3,
      stride(from: 1, to: elements.count, by: 2).allSatisfy({ SequenceShape.operatorText(elements[$0]) == "&&" })
    else { return nil }
    let verdicts = stride(from: 0, to: elements.count, by: 2).compactMap { platformVerdict(elements[$0]) }
    if verdicts.contains(false) { return false }
    return verdicts.contains(true) ? true : nil
  }

  /// A file importing AppKit or Cocoa outside any `#if`, and UIKit nowhere, is macOS code.
  private static func importsOnlyMacFrameworks(_ model: SemanticModel) -> Bool {
    guard !model.index.importedModules.contains("UIKit") else { return false }
    return model.tree.statements.contains { item in
      guard let module = item.item.as(ImportDeclSyntax.self)?.path.first?.name.text else { return false }
      return module == "AppKit" || module == "Cocoa"
    }
  }
}
