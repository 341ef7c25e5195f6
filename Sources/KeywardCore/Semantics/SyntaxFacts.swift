import SwiftSyntax

/// Small questions about syntax nodes that several parts of the semantic layer ask.
public enum SyntaxFacts {
  /// The node's source text without its outer trivia: what `trimmedDescription` gives, without
  /// building a trimmed copy of the tree (which rules comparing many expressions pay for dearly).
  public static func text(_ node: some SyntaxProtocol) -> String {
    let bytes = node.syntaxTextBytes
    // Missing tokens count as first and last, as they do for `trimmed`.
    let start = node.firstToken(viewMode: .all)?.leadingTrivia.sourceLength.utf8Length ?? 0
    let trailing = node.lastToken(viewMode: .all)?.trailingTrivia.sourceLength.utf8Length ?? 0
    let end = max(start, bytes.count - trailing)
    return String(decoding: bytes[start..<end], as: UTF8.self)
  }

  /// A call's argument labels as `CallShape` lists them: `_` for an unlabelled argument, and
  /// `CallShape.trailingClosure` for an unlabelled trailing closure.
  public static func argumentLabels(_ call: FunctionCallExprSyntax) -> [String] {
    var labels = call.arguments.map { $0.label?.text ?? "_" }
    if call.trailingClosure != nil { labels.append(CallShape.trailingClosure) }
    labels += call.additionalTrailingClosures.map(\.label.text)
    return labels
  }

  /// The name a call calls: `f` in `f(x)`, `m` in `a.b.m(x)`.
  public static func calledName(_ call: FunctionCallExprSyntax) -> String? {
    let callee = call.calledExpression
    if let reference = callee.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
    if let member = callee.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text }
    return nil
  }

  /// The receiver of a method call written `receiver.method(...)`, if any.
  public static func receiver(of call: FunctionCallExprSyntax) -> ExprSyntax? {
    call.calledExpression.as(MemberAccessExprSyntax.self)?.base
  }

  /// The property whose setter `reference` is the new value of (`newValue` in `var size: Int
  /// { set { … } }`, or the name the setter gives it); with `observers`, also of its `willSet`.
  public static func propertySet(
    byNewValue reference: DeclReferenceExprSyntax, observers: Bool = false
  ) -> PatternBindingSyntax? {
    var current = reference.parent
    while let node = current {
      if node.is(ClosureExprSyntax.self) || node.is(FunctionDeclSyntax.self) { return nil }
      if let accessor = node.as(AccessorDeclSyntax.self) {
        let specifier = accessor.accessorSpecifier.tokenKind
        guard specifier == .keyword(.set) || (observers && specifier == .keyword(.willSet)),
          reference.baseName.text == (accessor.parameters?.name.text ?? "newValue")
        else { return nil }
        return accessor.parent?.parent?.parent?.as(PatternBindingSyntax.self)
      }
      current = node.parent
    }
    return nil
  }

  /// The declared type of the property whose setter or `willSet` `reference` is the new value of.
  public static func setterValueType(_ reference: DeclReferenceExprSyntax) -> TypeSyntax? {
    propertySet(byNewValue: reference, observers: true)?.typeAnnotation?.type
  }

  /// Whether `expression` is the value an assignment gives (`x = value`), as the index records
  /// it: the right side, or the whole sequence when operators follow (`x = c ? a : b`).
  public static func isAssignedValue(_ expression: ExprSyntax) -> Bool {
    let sequence =
      expression.as(SequenceExprSyntax.self)
      ?? expression.parent?.as(ExprListSyntax.self)?.parent?.as(SequenceExprSyntax.self)
    guard let elements = sequence?.elements, elements.count >= 3,
      elements.dropFirst().first?.is(AssignmentExprSyntax.self) == true
    else { return false }
    return expression.is(SequenceExprSyntax.self)
      ? elements.count > 3 : elements.count == 3 && elements.last?.id == expression.id
  }

  /// The operator that writes to `expression` when it is the left side of an assignment: `=`
  /// (`x = …`) or a compound one (`x += …`); nil when it is not written to.
  public static func assignmentOperator(writing expression: ExprSyntax) -> String? {
    guard let elements = expression.parent?.as(ExprListSyntax.self),
      let position = elements.firstIndex(where: { $0.id == expression.id })
    else { return nil }
    let next = elements.index(after: position)
    guard next < elements.endIndex else { return nil }
    if elements[next].is(AssignmentExprSyntax.self) { return "=" }
    guard let operation = elements[next].as(BinaryOperatorExprSyntax.self) else { return nil }
    let text = operation.operator.text
    return text.hasSuffix("=") && !["==", "!=", "<=", ">=", "===", "!=="].contains(text) ? text : nil
  }

  /// The call one of whose arguments `node` is (`f(x: node)`), with that argument.
  public static func callTaking(_ node: some SyntaxProtocol) -> (
    call: FunctionCallExprSyntax, argument: LabeledExprSyntax
  )? {
    guard let argument = node.parent?.as(LabeledExprSyntax.self),
      let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self)
    else { return nil }
    return (call, argument)
  }

  /// The name an expression's value is given under where it is written: the constant or variable
  /// it initialises (`let publicAccess = ...`) or the argument label it is passed with
  /// (`publicKeyAccessControl: ...`).
  public static func receivingName(of expression: some SyntaxProtocol) -> String? {
    let parent = expression.parent
    if let argument = parent?.as(LabeledExprSyntax.self) { return argument.label?.text }
    if let binding = parent?.as(InitializerClauseSyntax.self)?.parent?.as(PatternBindingSyntax.self) {
      return binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
    }
    return nil
  }

  /// The stored name an expression denotes: `x` for `x` and for `self.x`.
  public static func storageName(_ expr: ExprSyntax) -> String? {
    if let reference = expr.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
    if let member = expr.as(MemberAccessExprSyntax.self), let base = member.base, isSelf(base) {
      return member.declName.baseName.text
    }
    return nil
  }

  /// A type as written, without optionality, `some` / `any` and module qualification:
  /// `SecAccessControlCreateFlags` for `Security.SecAccessControlCreateFlags?`.
  public static func typeName(_ type: TypeSyntax) -> String {
    var type = type
    while true {
      if let optional = type.as(OptionalTypeSyntax.self) {
        type = optional.wrappedType
      } else if let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
        type = unwrapped.wrappedType
      } else if let existential = type.as(SomeOrAnyTypeSyntax.self) {
        type = existential.constraint
      } else {
        break
      }
    }
    if let member = type.as(MemberTypeSyntax.self) { return member.name.text }
    if let identifier = type.as(IdentifierTypeSyntax.self) { return identifier.name.text }
    // Arrays, dictionaries, tuples, closures: callers compare names only, so the kind suffices
    // (and spelling the whole type out is costly on large files).
    return kindName(type.kind)
  }

  /// `"<arrayType>"` for an array type: the spelling of `"<\(kind)>"` for the kinds of types,
  /// written out because interpolating an enum makes the runtime search every protocol
  /// conformance of the program the first time it meets each case.
  private static func kindName(_ kind: SyntaxKind) -> String {
    switch kind {
    case .arrayType: "<arrayType>"
    case .dictionaryType: "<dictionaryType>"
    case .tupleType: "<tupleType>"
    case .functionType: "<functionType>"
    case .attributedType: "<attributedType>"
    case .compositionType: "<compositionType>"
    case .metatypeType: "<metatypeType>"
    case .classRestrictionType: "<classRestrictionType>"
    case .namedOpaqueReturnType: "<namedOpaqueReturnType>"
    case .packExpansionType: "<packExpansionType>"
    case .packElementType: "<packElementType>"
    case .suppressedType: "<suppressedType>"
    case .missingType: "<missingType>"
    default: "<\(kind)>"
    }
  }

  /// The attributes of the declaration `node` is (`@available(…)` on a function, a property, a
  /// type), by its kind, for the reason `declarationGroup(_:)` gives; nil for any other node.
  public static func declarationAttributes(_ node: Syntax) -> AttributeListSyntax? {
    switch node.as(SyntaxEnum.self) {
    case .functionDecl(let declaration): declaration.attributes
    case .initializerDecl(let declaration): declaration.attributes
    case .deinitializerDecl(let declaration): declaration.attributes
    case .variableDecl(let declaration): declaration.attributes
    case .subscriptDecl(let declaration): declaration.attributes
    case .accessorDecl(let declaration): declaration.attributes
    case .enumCaseDecl(let declaration): declaration.attributes
    case .typeAliasDecl(let declaration): declaration.attributes
    case .associatedTypeDecl(let declaration): declaration.attributes
    case .macroDecl(let declaration): declaration.attributes
    default: declarationGroup(node)?.attributes
    }
  }

  /// `node` as a type or extension declaration, by its kind. `asProtocol(DeclGroupSyntax.self)`
  /// answers the same, but makes the runtime search every protocol conformance of the program
  /// the first time it meets each node type, in every process: a walk up from a node meets many.
  public static func declarationGroup(_ node: Syntax) -> (any DeclGroupSyntax)? {
    switch node.kind {
    case .classDecl: node.cast(ClassDeclSyntax.self)
    case .structDecl: node.cast(StructDeclSyntax.self)
    case .enumDecl: node.cast(EnumDeclSyntax.self)
    case .actorDecl: node.cast(ActorDeclSyntax.self)
    case .extensionDecl: node.cast(ExtensionDeclSyntax.self)
    case .protocolDecl: node.cast(ProtocolDeclSyntax.self)
    default: nil
    }
  }

  /// The name of the type whose body (or extension body) `block` is.
  public static func typeName(declaring block: MemberBlockSyntax) -> String? {
    guard let parent = block.parent else { return nil }
    if let decl = parent.as(StructDeclSyntax.self) { return decl.name.text }
    if let decl = parent.as(ClassDeclSyntax.self) { return decl.name.text }
    if let decl = parent.as(EnumDeclSyntax.self) { return decl.name.text }
    if let decl = parent.as(ActorDeclSyntax.self) { return decl.name.text }
    if let decl = parent.as(ProtocolDeclSyntax.self) { return decl.name.text }
    if let decl = parent.as(ExtensionDeclSyntax.self) { return typeName(decl.extendedType) }
    return nil
  }

  /// The names of the functions and types around `node` (an extension's: the type it extends),
  /// innermost first.
  public static func enclosingDeclarationNames(of node: Syntax) -> [(name: String, isFunction: Bool)] {
    var names: [(String, Bool)] = []
    var current = node.parent
    while let ancestor = current {
      if let function = ancestor.as(FunctionDeclSyntax.self) {
        names.append((function.name.text, true))
      } else if let group = declarationGroup(ancestor),
        let name = typeName(declaring: group.memberBlock)
      {
        names.append((name, false))
      }
      current = ancestor.parent
    }
    return names
  }

  /// The member block a declaration is a member of directly (declaration, member, member list,
  /// block); nil for a local or top-level one.
  public static func memberBlock(holding declaration: Syntax) -> MemberBlockSyntax? {
    declaration.parent?.parent?.parent?.as(MemberBlockSyntax.self)
  }

  /// The type whose body holds `node` and the supertypes its declaration (or extension) names:
  /// `extension UserDefaults { … }` → `["UserDefaults"]`; empty outside any type.
  public static func enclosingTypeAndSupertypes(of node: some SyntaxProtocol) -> [String] {
    guard let block = enclosingMemberBlock(of: node), let name = typeName(declaring: block) else { return [] }
    let inherited = block.parent.flatMap(declarationGroup)?.inheritanceClause?.inheritedTypes ?? []
    return [name] + inherited.map { typeName($0.type) }
  }

  /// The body of the type whose declaration (or extension) holds `node`, however deep.
  public static func enclosingMemberBlock(of node: some SyntaxProtocol) -> MemberBlockSyntax? {
    var current = node.parent
    while let candidate = current {
      if let block = candidate.as(MemberBlockSyntax.self) { return block }
      current = candidate.parent
    }
    return nil
  }

  /// Whether a closure lies on the way up from `node` to its ancestor `ancestor`: code that may
  /// run later than the code around it.
  public static func hasClosure(between node: Syntax, and ancestor: Syntax) -> Bool {
    var current = node.parent
    while let next = current, next.id != ancestor.id {
      if next.is(ClosureExprSyntax.self) { return true }
      current = next.parent
    }
    return false
  }

  /// Whether `expr` is `self`, also in parentheses (`switch(self)`).
  public static func isSelf(_ expr: ExprSyntax) -> Bool {
    SequenceShape.unwrap(expr).as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self)
  }

  /// The member block a property's pattern binding is declared in directly (through its list and
  /// variable declaration); nil for a local variable.
  public static func memberBlock(declaring binding: Syntax) -> MemberBlockSyntax? {
    binding.parent?.parent.flatMap(memberBlock(holding:))
  }

  /// Whether names declared directly in `node` form a scope of their own.
  public static func isScope(_ node: Syntax) -> Bool {
    switch node.kind {
    case .codeBlock, .closureExpr, .memberBlock, .sourceFile, .functionDecl, .initializerDecl,
      .subscriptDecl, .accessorDecl:
      return true
    default:
      return false
    }
  }

  /// Whether lookup in this scope sees only names declared before the use (statement lists).
  public static func isOrderedScope(_ node: Syntax) -> Bool {
    node.kind == .codeBlock || node.kind == .closureExpr
  }

  /// The nearest scope strictly containing `node`.
  public static func enclosingScope(of node: Syntax) -> SyntaxIdentifier? {
    var current = node.parent
    while let candidate = current {
      if isScope(candidate) { return candidate.id }
      current = candidate.parent
    }
    return nil
  }

  /// The function, initializer or subscript whose parameter list holds `node`.
  public static func enclosingFunction(of node: Syntax) -> Syntax? {
    var current = node.parent
    while let candidate = current {
      switch candidate.kind {
      case .functionDecl, .initializerDecl, .subscriptDecl: return candidate
      case .codeBlock, .memberBlock, .closureExpr, .sourceFile: return nil
      default: current = candidate.parent
      }
    }
    return nil
  }

  /// The function declaration whose body holds `node`, through closures; nil outside any.
  public static func functionDeclaration(holding node: Syntax) -> FunctionDeclSyntax? {
    var current = node.parent
    while let candidate = current {
      if let function = candidate.as(FunctionDeclSyntax.self) { return function }
      if candidate.is(MemberBlockSyntax.self) { return nil }
      current = candidate.parent
    }
    return nil
  }

  /// The body of the `if` or `while` whose conditions `condition` is one of.
  public static func bodyOfConditions(_ condition: ConditionElementSyntax) -> CodeBlockSyntax? {
    let statement = condition.parent?.parent
    return statement?.as(IfExprSyntax.self)?.body ?? statement?.as(WhileStmtSyntax.self)?.body
  }

  /// Where a name bound by `if let` / `guard let` / `while let` is visible.
  public static func scope(ofConditionBinding node: OptionalBindingConditionSyntax) -> SyntaxIdentifier? {
    var current = node.parent
    while let candidate = current {
      if let guardStatement = candidate.as(GuardStmtSyntax.self) {
        return enclosingScope(of: Syntax(guardStatement))
      }
      if let ifExpression = candidate.as(IfExprSyntax.self) { return ifExpression.body.id }
      if let whileStatement = candidate.as(WhileStmtSyntax.self) { return whileStatement.body.id }
      if isScope(candidate) { return nil }
      current = candidate.parent
    }
    return nil
  }

  /// The expressions a body returns, not counting nested closures and functions. A body that is
  /// a single expression returns it implicitly.
  public static func returnedExpressions(in statements: CodeBlockItemListSyntax) -> [ExprSyntax] {
    if statements.count == 1, let only = statements.first?.item.as(ExprSyntax.self) { return [only] }
    let finder = ReturnFinder(viewMode: .sourceAccurate)
    finder.walk(statements)
    return finder.expressions
  }

  public static func returnedExpressions(ofGetterIn accessors: AccessorBlockSyntax) -> [ExprSyntax] {
    getterStatements(of: accessors).map(returnedExpressions(in:)) ?? []
  }

  /// A computed property's getter: the block of `{ ... }`, or of its `get { ... }`.
  public static func getterStatements(of accessors: AccessorBlockSyntax) -> CodeBlockItemListSyntax? {
    switch accessors.accessors {
    case .getter(let statements): statements
    case .accessors(let list): list.first(where: { $0.accessorSpecifier.tokenKind == .keyword(.get) })?.body?.statements
    }
  }

  private final class ReturnFinder: SyntaxVisitor {
    var expressions: [ExprSyntax] = []

    override func visit(_ node: ReturnStmtSyntax) -> SyntaxVisitorContinueKind {
      if let expression = node.expression { expressions.append(expression) }
      return .skipChildren
    }

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
  }

  /// The text of a string literal without interpolation, or nil.
  public static func stringLiteralValue(_ expr: ExprSyntax) -> String? {
    guard let literal = expr.as(StringLiteralExprSyntax.self) else { return nil }
    var text = ""
    for segment in literal.segments {
      guard let plain = segment.as(StringSegmentSyntax.self) else { return nil }
      text += plain.content.text
    }
    return text
  }

  /// The value of an integer literal (decimal, hex, octal or binary, with `_` separators).
  public static func integerLiteralValue(_ expr: ExprSyntax) -> UInt64? {
    guard let literal = expr.as(IntegerLiteralExprSyntax.self) else { return nil }
    var text = literal.literal.text.replacingOccurrences(of: "_", with: "")
    var radix = 10
    for (prefix, base) in [("0x", 16), ("0o", 8), ("0b", 2)] where text.hasPrefix(prefix) {
      text.removeFirst(2)
      radix = base
    }
    return UInt64(text, radix: radix)
  }

  /// Whether a resolved value is boolean true: `true`, `kCFBooleanTrue`, `NSNumber(value: true)`.
  public static func isTrue(_ expr: ExprSyntax) -> Bool { booleanValue(expr) == true }

  /// `false`, `kCFBooleanFalse`, `NSNumber(value: false)`.
  public static func isFalse(_ expr: ExprSyntax) -> Bool { booleanValue(expr) == false }

  /// The boolean a literal, `kCFBoolean…` constant or `NSNumber(value:)` of one spells; nil for
  /// anything else.
  private static func booleanValue(_ expr: ExprSyntax) -> Bool? {
    if let literal = expr.as(BooleanLiteralExprSyntax.self) { return literal.literal.tokenKind == .keyword(.true) }
    if let reference = expr.as(DeclReferenceExprSyntax.self) {
      switch reference.baseName.text {
      case "kCFBooleanTrue": return true
      case "kCFBooleanFalse": return false
      default: return nil
      }
    }
    if let call = expr.as(FunctionCallExprSyntax.self), calledName(call) == "NSNumber",
      let value = argument(call, labeled: "value")
    {
      return booleanValue(SequenceShape.unwrap(value))
    }
    return nil
  }

  /// The `index`th argument of a call (trailing closures not counted).
  /// The names a closure gives its parameters (`_` where it ignores one), or `$0`, `$1` when it
  /// declares none.
  public static func closureParameterNames(_ closure: ClosureExprSyntax) -> [String] {
    guard let parameters = closure.signature?.parameterClause else { return ["$0", "$1"] }
    switch parameters {
    case .simpleInput(let list): return list.map(\.name.text)
    case .parameterClause(let clause): return clause.parameters.map { ($0.secondName ?? $0.firstName).text }
    }
  }

  public static func argument(_ call: FunctionCallExprSyntax, at index: Int) -> ExprSyntax? {
    let arguments = Array(call.arguments)
    return index < arguments.count ? arguments[index].expression : nil
  }

  /// The argument with the given label.
  public static func argument(_ call: FunctionCallExprSyntax, labeled label: String) -> ExprSyntax? {
    call.arguments.first { $0.label?.text == label }?.expression
  }
}
