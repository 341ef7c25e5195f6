@_spi(RawSyntax) import SwiftSyntax

/// Everything the rules ask about a file, collected in one walk of its syntax tree.
///
/// The index is built once per file and shared by all rules (ARCHITECTURE.md, principle 3), so
/// adding a rule does not add a walk of the tree.
public final class SyntaxIndex {
  /// Calls by the name of the called function or method (`SecItemAdd`, `evaluatePolicy`).
  public private(set) var callsByName: [String: [FunctionCallExprSyntax]] = [:]
  public private(set) var bindingsByScope: [SyntaxIdentifier: [String: [Binding]]] = [:]
  public private(set) var bindingsByName: [String: [Binding]] = [:]
  public private(set) var assignmentsByName: [String: [Assignment]] = [:]
  public private(set) var memberCallsByReceiver: [String: [MemberCall]] = [:]
  /// Member blocks of types and extensions, by type name, so `Type.member` can be looked up.
  public private(set) var memberBlocksByType: [String: [MemberBlockSyntax]] = [:]
  /// `Type.member` expressions by type name (`SecAccessControlCreateFlags.biometryAny`).
  public private(set) var qualifiedMembersByType: [String: [MemberAccessExprSyntax]] = [:]
  /// `base.member` and `.member` expressions by member name.
  public private(set) var memberAccessesByName: [String: [MemberAccessExprSyntax]] = [:]
  /// References to platform constants (`kSec…`, `NSFileProtection…`) by name.
  public private(set) var constantReferencesByName: [String: [DeclReferenceExprSyntax]] = [:]
  /// `anything.member = value`, by member name.
  public private(set) var memberAssignmentsByName: [String: [(target: MemberAccessExprSyntax, value: ExprSyntax)]] = [:]
  public private(set) var dictionaryElements: [DictionaryElementSyntax] = []
  /// Modules named by `import` declarations.
  public private(set) var importedModules: Set<String> = []
  /// `if`, `guard` and `switch` cases, in the order a walk finishing each node meets them, for
  /// rules that judge branches (failure paths of authentication) without walking again.
  public private(set) var branches: [Syntax] = []
  /// `typealias Name = Type` declarations: the type's text, by `Owner.Name` for an alias
  /// declared in a type (`RawValue` of one enum is not another's), by `Name` at the top level.
  public private(set) var typeAliases: [String: String] = [:]
  /// `container[key] = value`.
  public private(set) var subscriptAssignments: [(subscript: SubscriptCallExprSyntax, value: ExprSyntax)] = []

  public init(tree: SourceFileSyntax) {
    let collector = Collector(index: self)
    collector.walk(tree)
  }

  public func calls(named name: String) -> [FunctionCallExprSyntax] { callsByName[name] ?? [] }

  /// The binding a `let` / `var` pattern like `let status = ...` declares.
  public func binding(declaredBy pattern: PatternBindingSyntax) -> Binding? {
    guard let name = pattern.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return nil }
    return bindingsByName[name]?.first { $0.node.id == pattern.id }
  }

  /// Name prefixes of the platform constants whose references are indexed.
  static let constantPrefixes: [SyntaxText] = ["kSec", "NSFileProtection", "NSDataWritingFileProtection", "LATouchID"]

  /// Whether a name starts with an upper-case letter, as type names do; ASCII is judged in
  /// place, anything else as a `Character`.
  static func startsUppercase(_ name: SyntaxText) -> Bool {
    guard let first = name.first else { return false }
    if first < 0x80 { return first >= UInt8(ascii: "A") && first <= UInt8(ascii: "Z") }
    return String(syntaxText: name).first?.isUppercase == true
  }

  fileprivate func add(_ binding: Binding) {
    bindingsByScope[binding.scope, default: [:]][binding.name, default: []].append(binding)
    bindingsByName[binding.name, default: []].append(binding)
  }

  private final class Collector: SyntaxVisitor {
    unowned let index: SyntaxIndex

    init(index: SyntaxIndex) {
      self.index = index
      super.init(viewMode: .sourceAccurate)
    }

    override func visitPost(_ node: FunctionCallExprSyntax) {
      guard let name = SyntaxFacts.calledName(node) else { return }
      index.callsByName[name, default: []].append(node)
      if let member = node.calledExpression.as(MemberAccessExprSyntax.self),
        let base = member.base, let receiver = SyntaxFacts.storageName(base)
      {
        index.memberCallsByReceiver[receiver, default: []].append(
          MemberCall(receiverName: receiver, receiver: base, method: name, call: node))
      }
    }

    override func visitPost(_ node: DeclReferenceExprSyntax) {
      // Every name in the file comes through here: judge the token's bytes in place, and make a
      // `String` only of the few that name platform constants.
      let raw = node.baseName.rawText
      guard let first = raw.first,
        first == UInt8(ascii: "k") || first == UInt8(ascii: "N") || first == UInt8(ascii: "L"),
        SyntaxIndex.constantPrefixes.contains(where: raw.hasPrefix)
      else { return }
      index.constantReferencesByName[String(syntaxText: raw), default: []].append(node)
    }

    override func visitPost(_ node: MemberAccessExprSyntax) {
      index.memberAccessesByName[node.declName.baseName.text, default: []].append(node)
      if let base = node.base?.as(DeclReferenceExprSyntax.self), SyntaxIndex.startsUppercase(base.baseName.rawText) {
        index.qualifiedMembersByType[base.baseName.text, default: []].append(node)
      }
    }

    override func visitPost(_ node: ImportDeclSyntax) {
      if let module = node.path.first?.name.text { index.importedModules.insert(module) }
    }

    override func visitPost(_ node: IfExprSyntax) { index.branches.append(Syntax(node)) }

    override func visitPost(_ node: GuardStmtSyntax) { index.branches.append(Syntax(node)) }

    override func visitPost(_ node: SwitchCaseSyntax) { index.branches.append(Syntax(node)) }

    override func visitPost(_ node: DictionaryElementSyntax) {
      index.dictionaryElements.append(node)
    }

    override func visitPost(_ node: SequenceExprSyntax) {
      // Only the first three elements matter; most sequences are not assignments.
      let count = node.elements.count
      guard count >= 3 else { return }
      var elements = node.elements.makeIterator()
      let target = elements.next()!
      guard elements.next()!.is(AssignmentExprSyntax.self) else { return }
      // With operators on the right (`a = c ? x : y`), the value is the whole sequence, whose
      // right side the resolver reads.
      let value = count == 3 ? elements.next()! : ExprSyntax(node)
      if let member = target.as(MemberAccessExprSyntax.self) {
        index.memberAssignmentsByName[member.declName.baseName.text, default: []].append((member, value))
      }
      if let subscriptCall = target.as(SubscriptCallExprSyntax.self) {
        index.subscriptAssignments.append((subscriptCall, value))
      } else if let name = SyntaxFacts.storageName(target) {
        index.assignmentsByName[name, default: []].append(
          Assignment(targetName: name, target: target, value: value, node: Syntax(node)))
      }
    }

    override func visitPost(_ node: TypeAliasDeclSyntax) {
      let owner = SyntaxFacts.memberBlock(holding: Syntax(node)).flatMap(SyntaxFacts.typeName(declaring:))
      index.typeAliases[owner.map { "\($0).\(node.name.text)" } ?? node.name.text] =
        node.initializer.value.trimmedDescription
    }

    override func visitPost(_ node: MemberBlockSyntax) {
      guard let name = SyntaxFacts.typeName(declaring: node) else { return }
      index.memberBlocksByType[name, default: []].append(node)
    }

    override func visitPost(_ node: VariableDeclSyntax) {
      let isStatic = node.modifiers.contains {
        $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class)
      }
      let isLet = node.bindingSpecifier.tokenKind == .keyword(.let)
      guard let scope = SyntaxFacts.enclosingScope(of: Syntax(node)) else { return }
      for binding in node.bindings {
        guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
        var kind: Binding.Kind = isLet ? .constant : .variable
        if binding.accessorBlock != nil { kind = .computed }
        index.add(
          Binding(
            name: name, kind: kind, node: Syntax(binding), scope: scope,
            type: binding.typeAnnotation?.type,
            initializer: binding.initializer?.value, body: binding.accessorBlock.map(Syntax.init), isStatic: isStatic))
      }
    }

    override func visitPost(_ node: OptionalBindingConditionSyntax) {
      guard let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
        let scope = SyntaxFacts.scope(ofConditionBinding: node)
      else { return }
      // `if let x` without a value only unwraps the outer `x`, which lookup finds anyway.
      guard let value = node.initializer?.value else { return }
      index.add(
        Binding(
          name: name, kind: node.bindingSpecifier.tokenKind == .keyword(.var) ? .variable : .constant,
          node: Syntax(node), scope: scope, type: node.typeAnnotation?.type,
          initializer: value, body: nil, isStatic: false))
    }

    override func visitPost(_ node: FunctionParameterSyntax) {
      guard let function = SyntaxFacts.enclosingFunction(of: Syntax(node)) else { return }
      let name = (node.secondName ?? node.firstName).text
      guard name != "_" else { return }
      index.add(
        Binding(
          name: name, kind: .parameter, node: Syntax(node), scope: function.id,
          type: node.type, initializer: node.defaultValue?.value, body: nil,
          isStatic: false))
    }

    override func visitPost(_ node: FunctionDeclSyntax) {
      guard let scope = SyntaxFacts.enclosingScope(of: Syntax(node)), let body = node.body else { return }
      let isStatic = node.modifiers.contains {
        $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class)
      }
      index.add(
        Binding(
          name: node.name.text, kind: .function, node: Syntax(node), scope: scope,
          type: node.signature.returnClause?.type,
          initializer: nil, body: Syntax(body.statements), isStatic: isStatic))
    }
  }
}

extension SyntaxIndex {
  /// Whether this file declares `type` as an enum.
  public func declaresEnum(_ type: String) -> Bool {
    (memberBlocksByType[type] ?? []).contains { $0.parent?.is(EnumDeclSyntax.self) == true }
  }
}
