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
/// nor exposed to the Objective-C runtime. When the file itself never names one but to declare
/// it, a finding in it waits for the rest of the scan (`HandOff.unlessNamedInProject`). The same
/// for the internal class, struct, enum or actor around the code: what no file names, nothing
/// makes or calls into (`HandOff.unlessTypeNamedInProject`). A type or extension around the
/// code may conform only to protocols the project may declare itself (`HandOff.conformances`):
/// the system may call another protocol's requirement by a name no file of the app writes.
final class FunctionsCalledElsewhere {
  /// What a finding at an offset waits for: the internal function and type around it that this
  /// file never names, and the protocols the declarations around it conform to.
  struct Candidates {
    var function: String?
    var type: String?
    var conformances: [String] = []
  }

  private let tree: SourceFileSyntax
  private let namesUsed: NamesUsed
  /// What the file's types and extensions conform to, by type name: each of a type's
  /// declarations around some code conforms to all of them.
  private lazy var conformingTypes: [String: [String]] = {
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
  func names(at offset: Int) -> Candidates {
    guard let token = tree.token(at: AbsolutePosition(utf8Offset: offset)),
      let conformances = conformances(from: token.parent)
    else { return Candidates() }
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
    return Candidates(
      function: function.flatMap(candidateName), type: exposed ? nil : typeName(around: token),
      conformances: conformances)
  }

  private func candidateName(_ function: FunctionDeclSyntax) -> String? {
    // `callAsFunction` is called as `value()`, never by its name.
    guard case .identifier(let name) = function.name.tokenKind, name != "main", name != "callAsFunction",
      !namesUsed.names.contains(name),
      Self.isInternal(function.modifiers, function.attributes)
    else { return nil }
    return name
  }

  /// The innermost class, struct, enum or actor around `token`, when this file names it
  /// nowhere but in its declaration.
  private func typeName(around token: TokenSyntax) -> String? {
    var node = token.parent
    while let current = node, SyntaxFacts.declarationGroup(current) == nil { node = current.parent }
    guard let type = node else { return nil }
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

  /// What the declaration groups from `start` outwards conform to (in this file), which must
  /// all be the project's own plain protocols for callers this scan cannot see to be kept out;
  /// nil when a group is a protocol or is opened by its modifiers or attributes.
  private func conformances(from start: Syntax?) -> [String]? {
    var found: [String] = []
    var node = start
    while let current = node {
      if let group = SyntaxFacts.declarationGroup(current) {
        guard !current.is(ProtocolDeclSyntax.self), Self.isInternal(group.modifiers, group.attributes) else {
          return nil
        }
        if let name = Self.declaredTypeName(current), let inherited = conformingTypes[name] { found += inherited }
      }
      node = current.parent
    }
    return Array(Set(found)).sorted()
  }

  /// The name of the type a class, struct, enum, actor or extension declaration is about.
  private static func declaredTypeName(_ node: Syntax) -> String? {
    switch node.kind {
    case .classDecl: node.cast(ClassDeclSyntax.self).name.text
    case .structDecl: node.cast(StructDeclSyntax.self).name.text
    case .enumDecl: node.cast(EnumDeclSyntax.self).name.text
    case .actorDecl: node.cast(ActorDeclSyntax.self).name.text
    case .extensionDecl: node.cast(ExtensionDeclSyntax.self).extendedType.trimmedDescription
    default: nil
    }
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
    // The compiler calls these types' methods by names no file writes (`buildBlock`,
    // `dynamicallyCall(withArguments:)`).
    "resultBuilder", "dynamicCallable",
  ]

  private final class ConformingTypes: SyntaxVisitor {
    var names: [String: [String]] = [:]

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
      note(node.extendedType.trimmedDescription, node.inheritanceClause)
    }

    private func note(_ name: TokenSyntax, _ clause: InheritanceClauseSyntax?) -> SyntaxVisitorContinueKind {
      note(name.text, clause)
    }

    /// Records what `clause` names (each side of `A & B` apart), but the marker protocols
    /// `Sendable` and `AnyObject`, whose requirements nobody calls.
    private func note(_ name: String, _ clause: InheritanceClauseSyntax?) -> SyntaxVisitorContinueKind {
      guard let clause else { return .visitChildren }
      for inherited in clause.inheritedTypes {
        let parts =
          inherited.type.as(CompositionTypeSyntax.self)?.elements.map(\.type.trimmedDescription)
          ?? [inherited.type.trimmedDescription]
        names[name, default: []] += parts.filter { $0 != "Sendable" && $0 != "AnyObject" }
      }
      return .visitChildren
    }

    // Function bodies declare no types worth knowing here.
    override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
  }
}
