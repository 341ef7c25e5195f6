import SwiftSyntax

/// Values chosen by an enum case: `level.secAttrValue` or `level.flags()`, where `secAttrValue` is
/// a computed property (or `flags()` a method without parameters) of an enum this file declares
/// whose body switches over `self`. Hand-written keychain wrappers name accessibility classes and
/// access-control flags this way.
extension ConstantResolver {
  /// The values `member` may have, each with the case expression that chose it: those returned
  /// for the cases its base may be (followed through constants, parameters' defaults and the
  /// arguments of the file's calls). When the cases are not known, none: the enum is a mapping
  /// table that offers every value, and the choice is made where the file cannot see it. Nil
  /// when `member` is not such a property.
  func switchedValues(of member: MemberAccessExprSyntax, called: Bool = false) -> [(
    value: ExprSyntax, choice: ExprSyntax
  )]? {
    guard let base = member.base,
      let property = switchingProperty(named: member.declName.baseName.text, kind: called ? .function : .computed)
    else {
      return nil
    }
    var visited: Set<SyntaxIdentifier> = []
    guard let cases = caseNames(of: base, enumName: property.enumName, visited: &visited) else { return [] }
    return cases.flatMap { chosen in
      (property.returnsByCase.first { $0.names.contains(chosen.name) }?.values ?? property.defaultReturns).map {
        ($0, chosen.choice)
      }
    }
  }

  /// A case name and the expression that names it (`.always` in a call).
  typealias CaseChoice = (name: String, choice: ExprSyntax)

  /// The cases of `enumName`, declared in this file, that its `switch self` property `member`
  /// maps to a value of the same name (`case .userPresence: return [.userPresence]`); nil when
  /// the file declares no such table.
  public func mirroredCases(of member: String, in enumName: String) -> [String]? {
    guard let property = switchingProperty(named: member, kind: .computed), property.enumName == enumName else {
      return nil
    }
    return property.returnsByCase.flatMap { names, values in
      let returned = Set(values.flatMap(Self.memberNames))
      return names.filter(returned.contains)
    }
  }

  /// The member names a returned value is made of: `.userPresence`, `[.privateKeyUsage,
  /// .userPresence]`, `SecAccessControlCreateFlags.userPresence`.
  private static func memberNames(_ value: ExprSyntax) -> [String] {
    let value = SequenceShape.unwrap(value)
    if let array = value.as(ArrayExprSyntax.self) { return array.elements.flatMap { memberNames($0.expression) } }
    return value.as(MemberAccessExprSyntax.self).map { [$0.declName.baseName.text] } ?? []
  }

  private struct SwitchingProperty {
    var enumName: String
    /// Per `case` clause: the case names it matches and the values it returns.
    var returnsByCase: [(names: [String], values: [ExprSyntax])]
    var defaultReturns: [ExprSyntax]
  }

  /// Whether `binding` is a mapping table: a computed property (or a method without parameters)
  /// of an enum this file declares whose body only switches over `self`, offering one value per
  /// case. Its values are judged where a case is chosen, not where the table lists them.
  public func isMappingTable(_ binding: Binding) -> Bool {
    switchOverSelf(binding) != nil
  }

  private func switchOverSelf(_ binding: Binding) -> (enumName: String, switchExpr: SwitchExprSyntax)? {
    let declaringBlock =
      binding.kind == .function
      ? SyntaxFacts.memberBlock(holding: binding.node) : SyntaxFacts.memberBlock(declaring: binding.node)
    guard let block = declaringBlock,
      let enumName = SyntaxFacts.typeName(declaring: block),
      index.declaresEnum(enumName),
      let switchExpr = Self.soleSwitchOverSelf(in: tableBody(of: binding))
    else { return nil }
    return (enumName, switchExpr)
  }

  /// The statements of a computed property's getter or of a method that takes nothing.
  private func tableBody(of binding: Binding) -> CodeBlockItemListSyntax? {
    switch binding.kind {
    case .computed:
      return binding.body?.as(AccessorBlockSyntax.self).flatMap(SyntaxFacts.getterStatements(of:))
    case .function:
      guard let function = binding.node.as(FunctionDeclSyntax.self),
        function.signature.parameterClause.parameters.isEmpty
      else { return nil }
      return binding.body?.as(CodeBlockItemListSyntax.self)
    default:
      return nil
    }
  }

  private func switchingProperty(named name: String, kind: Binding.Kind) -> SwitchingProperty? {
    for binding in index.bindingsByName[name] ?? [] where binding.kind == kind {
      guard let (enumName, switchExpr) = switchOverSelf(binding) else { continue }
      var property = SwitchingProperty(enumName: enumName, returnsByCase: [], defaultReturns: [])
      for clause in switchExpr.cases {
        guard let switchCase = clause.as(SwitchCaseSyntax.self) else { return nil }
        let values = SyntaxFacts.returnedExpressions(in: switchCase.statements)
        switch switchCase.label {
        case .default: property.defaultReturns = values
        case .case(let label):
          let names = label.caseItems.compactMap {
            $0.pattern.as(ExpressionPatternSyntax.self)?.expression.as(MemberAccessExprSyntax.self)?.declName.baseName
              .text
          }
          // A pattern this reading does not understand (`case let x`) makes the mapping unknown.
          guard names.count == label.caseItems.count else { return nil }
          property.returnsByCase.append((names, values))
        }
      }
      return property
    }
    return nil
  }

  /// `switch self { ... }` as the body's only statement, with or without `return`.
  private static func soleSwitchOverSelf(in statements: CodeBlockItemListSyntax?) -> SwitchExprSyntax? {
    guard let statements, statements.count == 1, let item = statements.first?.item
    else { return nil }
    let expression =
      item.as(ReturnStmtSyntax.self)?.expression ?? item.as(ExpressionStmtSyntax.self)?.expression
      ?? item.as(ExprSyntax.self)
    guard let switchExpr = expression?.as(SwitchExprSyntax.self),
      SyntaxFacts.isSelf(switchExpr.subject)
    else { return nil }
    return switchExpr
  }

  /// The cases of `enumName` that `expression` may be, or nil when some value is not known.
  /// A parameter may be its default or any argument of the file's calls of its function.
  private func caseNames(of expression: ExprSyntax, enumName: String, visited: inout Set<SyntaxIdentifier>)
    -> [CaseChoice]?
  {
    if let parameter = binding(denotedBy: SequenceShape.unwrap(expression)), parameter.kind == .parameter {
      return caseNames(ofParameter: parameter, enumName: enumName, visited: &visited)
    }
    var names: [CaseChoice] = []
    for value in values(of: expression) {
      let leaf = value.expression
      let parameter =
        parameterDefaulted(to: leaf) ?? binding(denotedBy: leaf).flatMap { $0.kind == .parameter ? $0 : nil }
      if let parameter {
        guard let more = caseNames(ofParameter: parameter, enumName: enumName, visited: &visited) else { return nil }
        names += more
      } else if let name = Self.caseName(leaf, enumName: enumName) {
        names.append((name, leaf))
      } else {
        return nil
      }
    }
    return names
  }

  private func caseNames(ofParameter parameter: Binding, enumName: String, visited: inout Set<SyntaxIdentifier>)
    -> [CaseChoice]?
  {
    // A parameter already being followed adds nothing new (recursive calls).
    guard visited.insert(parameter.id).inserted else { return [] }
    guard visited.count < Self.maximumDepth else { return nil }
    var names: [CaseChoice] = []
    if let initializer = parameter.initializer {
      let unwrapped = SequenceShape.unwrap(initializer)
      guard let name = Self.caseName(unwrapped, enumName: enumName) else { return nil }
      names.append((name, unwrapped))
    }
    let arguments = arguments(passedTo: parameter)
    if parameter.initializer == nil && arguments.isEmpty { return nil }
    for argument in arguments {
      guard let more = caseNames(of: argument, enumName: enumName, visited: &visited) else { return nil }
      names += more
    }
    return names
  }

  /// `.always` or `Level.always`.
  private static func caseName(_ expression: ExprSyntax, enumName: String) -> String? {
    guard let member = expression.as(MemberAccessExprSyntax.self),
      member.base == nil || member.base.map(SyntaxFacts.text) == enumName
    else { return nil }
    return member.declName.baseName.text
  }

  /// The parameter whose default value `expression` is.
  private func parameterDefaulted(to expression: ExprSyntax) -> Binding? {
    guard let clause = expression.parent?.as(InitializerClauseSyntax.self),
      let parameter = clause.parent?.as(FunctionParameterSyntax.self)
    else { return nil }
    return index.bindingsByName[(parameter.secondName ?? parameter.firstName).text]?.first {
      $0.id == Syntax(parameter).id
    }
  }
}
