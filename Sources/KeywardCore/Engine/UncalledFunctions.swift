import SwiftSyntax

/// The identifiers a Swift file uses, but the names its functions and types are declared with:
/// one walk of the file's tokens, made on the first question and shared by the questions of which
/// of its functions anything calls (`UncalledFunctions`, `FunctionsCalledElsewhere`).
final class NamesUsed {
  private let tree: SourceFileSyntax
  private(set) lazy var names: Set<String> = {
    var names: Set<String> = []
    for token in tree.tokens(viewMode: .sourceAccurate) {
      guard case .identifier(let text) = token.tokenKind, !Self.isDeclaredName(token) else { continue }
      names.insert(text)
    }
    return names
  }()

  /// The name of a function, class, struct, enum or actor declaration.
  private static func isDeclaredName(_ token: TokenSyntax) -> Bool {
    guard let parent = token.parent else { return false }
    switch parent.kind {
    case .functionDecl: return parent.cast(FunctionDeclSyntax.self).name.id == token.id
    case .classDecl: return parent.cast(ClassDeclSyntax.self).name.id == token.id
    case .structDecl: return parent.cast(StructDeclSyntax.self).name.id == token.id
    case .enumDecl: return parent.cast(EnumDeclSyntax.self).name.id == token.id
    case .actorDecl: return parent.cast(ActorDeclSyntax.self).name.id == token.id
    default: return false
    }
  }

  init(tree: SourceFileSyntax) { self.tree = tree }
}

/// `private` and `fileprivate` functions their file never names but to declare them: only that
/// file can call them, so code in them never runs. Functions the runtime may call by name
/// (`@objc`, `@IBAction`, `dynamic`) or that override another are left out.
enum UncalledFunctions {
  static func ranges(in tree: SourceFileSyntax, namesUsed: NamesUsed) -> [Range<Int>] {
    let finder = Finder(viewMode: .sourceAccurate)
    finder.walk(tree)
    guard !finder.candidates.isEmpty else { return [] }
    return finder.candidates.filter { !namesUsed.names.contains($0.name.text) }.map {
      $0.positionAfterSkippingLeadingTrivia.utf8Offset..<$0.endPositionBeforeTrailingTrivia.utf8Offset
    }
  }

  private final class Finder: SyntaxVisitor {
    var candidates: [FunctionDeclSyntax] = []

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
      if case .identifier = node.name.tokenKind, Self.isFileOnly(node) { candidates.append(node) }
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

/// Internal functions that only other files could call: not `private` (`UncalledFunctions`
/// judges those), `public` or `open` (a library's callers are elsewhere), neither overriding
/// nor exposed to the Objective-C runtime, and in no type or extension that conforms to
/// anything (the system may call a conformance's requirement by a name no file of the app
/// writes). When the file itself never names one but to declare it, a finding in it waits for
/// the rest of the scan (`HandOff.unlessNamedInProject`). The same for the internal class,
/// struct, enum or actor around the code, conforming to nothing: what no file names, nothing
/// makes or calls into (`HandOff.unlessTypeNamedInProject`).
final class FunctionsCalledElsewhere {
  private let tree: SourceFileSyntax
  private let namesUsed: NamesUsed
  /// The types the file declares with an inheritance clause: their extensions conform too.
  private lazy var conformingTypes: Set<String> = {
    let finder = ConformingTypes(viewMode: .sourceAccurate)
    finder.walk(tree)
    return finder.names
  }()

  init(tree: SourceFileSyntax, namesUsed: NamesUsed) {
    self.tree = tree
    self.namesUsed = namesUsed
  }

  /// The internal function around `offset` that this file never calls, and the internal type
  /// around it that this file never names but to declare it, when there are such.
  func names(at offset: Int) -> (function: String?, type: String?) {
    guard let token = tree.token(at: AbsolutePosition(utf8Offset: offset)) else { return (nil, nil) }
    var function: FunctionDeclSyntax?
    var node = token.parent
    // A local function runs when the function around it does: that one is judged.
    while let current = node {
      if let declaration = current.as(FunctionDeclSyntax.self), Self.isMember(declaration) {
        function = declaration
        break
      }
      node = current.parent
    }
    // The runtime may call a method exposed to it (`@objc`, `@IBAction`) on an object it made.
    let exposed = function.map { !Self.isUnexposed($0.attributes) } ?? false
    return (function.flatMap(candidateName), exposed ? nil : typeName(around: token))
  }

  private func candidateName(_ function: FunctionDeclSyntax) -> String? {
    guard case .identifier(let name) = function.name.tokenKind, name != "main", !namesUsed.names.contains(name),
      Self.isInternal(function.modifiers, function.attributes), isClosed(from: function.parent)
    else { return nil }
    return name
  }

  /// The innermost class, struct, enum or actor around `token`, when it and every declaration
  /// around it are closed (`isClosed`) and this file names it nowhere but in its declaration.
  private func typeName(around token: TokenSyntax) -> String? {
    var node = token.parent
    while let current = node, SyntaxFacts.declarationGroup(current) == nil { node = current.parent }
    guard let type = node, isClosed(from: type) else { return nil }
    let name: TokenSyntax
    switch type.kind {
    case .classDecl: name = type.cast(ClassDeclSyntax.self).name
    case .structDecl: name = type.cast(StructDeclSyntax.self).name
    case .enumDecl: name = type.cast(EnumDeclSyntax.self).name
    case .actorDecl: name = type.cast(ActorDeclSyntax.self).name
    default: return nil
    }
    guard case .identifier(let text) = name.tokenKind, !namesUsed.names.contains(text) else { return nil }
    return text
  }

  /// Whether no declaration group from `start` outwards lets callers this scan cannot see in:
  /// none is a protocol, conforms to anything, or is opened by its modifiers or attributes.
  private func isClosed(from start: Syntax?) -> Bool {
    var node = start
    while let current = node {
      if let group = SyntaxFacts.declarationGroup(current) {
        guard !current.is(ProtocolDeclSyntax.self), group.inheritanceClause == nil,
          Self.isInternal(group.modifiers, group.attributes)
        else { return false }
        if let extended = current.as(ExtensionDeclSyntax.self)?.extendedType.trimmedDescription,
          conformingTypes.contains(extended)
        {
          return false
        }
      }
      node = current.parent
    }
    return true
  }

  /// A function declared in a type, an extension or at the top of the file (not inside another
  /// function's body).
  private static func isMember(_ function: FunctionDeclSyntax) -> Bool {
    function.parent?.is(MemberBlockItemSyntax.self) == true
      || function.parent?.parent?.parent?.is(SourceFileSyntax.self) == true
  }

  /// Whether neither modifiers nor attributes open the declaration to callers Keyward cannot
  /// see: other modules, a superclass, the Objective-C runtime, Interface Builder, the entry
  /// point.
  private static func isInternal(_ modifiers: DeclModifierListSyntax, _ attributes: AttributeListSyntax) -> Bool {
    modifiers.allSatisfy { !Self.openingModifiers.contains($0.name.text) } && isUnexposed(attributes)
  }

  /// Whether no attribute exposes the declaration to callers by name (the Objective-C runtime,
  /// Interface Builder, the entry point, other modules).
  private static func isUnexposed(_ attributes: AttributeListSyntax) -> Bool {
    attributes.allSatisfy { element in
      guard case .attribute(let attribute) = element else { return false }
      return !Self.openingAttributes.contains(SyntaxFacts.text(attribute.attributeName))
    }
  }

  private static let openingModifiers: Set<String> = [
    "private", "fileprivate", "public", "open", "package", "override", "dynamic", "required",
  ]
  private static let openingAttributes: Set<String> = [
    "objc", "objcMembers", "IBAction", "IBSegueAction", "NSManaged", "main", "_cdecl", "_silgen_name",
    "_dynamicReplacement", "usableFromInline", "inlinable", "_spi",
  ]

  private final class ConformingTypes: SyntaxVisitor {
    var names: Set<String> = []

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
      note(node.name, node.inheritanceClause)
    }
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
      note(node.name, node.inheritanceClause)
    }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { note(node.name, node.inheritanceClause) }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
      note(node.name, node.inheritanceClause)
    }
    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
      if node.inheritanceClause != nil { names.insert(node.extendedType.trimmedDescription) }
      return .visitChildren
    }

    private func note(_ name: TokenSyntax, _ clause: InheritanceClauseSyntax?) -> SyntaxVisitorContinueKind {
      if clause != nil { names.insert(name.text) }
      return .visitChildren
    }

    // Function bodies declare no types worth knowing here.
    override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
  }
}
