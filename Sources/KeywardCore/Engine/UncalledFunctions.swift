import SwiftSyntax

/// `private` and `fileprivate` functions their file never names again: only that file can call
/// them, so code in them never runs. Functions the runtime may call by name (`@objc`,
/// `@IBAction`, `dynamic`) or that override another are left out.
enum UncalledFunctions {
  static func ranges(in tree: SourceFileSyntax) -> [Range<Int>] {
    let finder = Finder(viewMode: .sourceAccurate)
    finder.walk(tree)
    guard !finder.candidates.isEmpty else { return [] }
    var uses: [String: Int] = [:]
    for token in tree.tokens(viewMode: .sourceAccurate) {
      if case .identifier(let text) = token.tokenKind, finder.names.contains(text) { uses[text, default: 0] += 1 }
    }
    return finder.candidates.filter { uses[$0.name.text, default: 0] <= 1 }.map {
      $0.positionAfterSkippingLeadingTrivia.utf8Offset..<$0.endPositionBeforeTrailingTrivia.utf8Offset
    }
  }

  private final class Finder: SyntaxVisitor {
    var candidates: [FunctionDeclSyntax] = []
    var names: Set<String> = []

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
      if case .identifier(let name) = node.name.tokenKind, Self.isFileOnly(node) {
        candidates.append(node)
        names.insert(name)
      }
      return .visitChildren
    }

    private static func isFileOnly(_ function: FunctionDeclSyntax) -> Bool {
      let modifiers = Set(function.modifiers.map(\.name.text))
      guard !modifiers.isDisjoint(with: ["private", "fileprivate"]),
        modifiers.isDisjoint(with: ["override", "dynamic"])
      else { return false }
      return !function.attributes.contains { element in
        guard case .attribute(let attribute) = element else { return true }
        return ["objc", "IBAction", "IBSegueAction", "NSManaged"].contains(SyntaxFacts.text(attribute.attributeName))
      }
    }
  }
}
