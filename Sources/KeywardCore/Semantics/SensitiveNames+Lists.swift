import SwiftSyntax

/// Lists of names: a value built only from identifiers keeps the names of secrets, not the
/// secrets (`SensitiveNames.revealsNothingSecret`).
extension SensitiveNames {
  /// Whether a variable is a list the code builds only from identifiers (`names.append(token.account)`),
  /// starting empty or from what a preferences store already holds (`stringArray(forKey:)`), and
  /// otherwise only filtered or sorted. It keeps the names of secrets, not the secrets; whatever
  /// the store held was judged where it was first written.
  static func listsOnlyIdentifiers(_ expression: ExprSyntax, model: SemanticModel) -> Bool {
    guard let list = model.resolver.binding(denotedBy: expression), list.kind == .variable,
      changesOnlyAsAWhole(list, model: model)
    else { return false }
    let values = model.resolver.values(of: list, mutatingMethods: ["append", "insert"])
    return !values.isEmpty
      && values.allSatisfy { value in
        let leaf = SequenceShape.unwrapCasts(value.expression)
        if value.isAddedByMutation {
          return ownName(of: leaf).map { namesIdentifier($0, among: identifierWords) } ?? false
        }
        return isEmptyCollection(leaf) || isPreferencesRead(leaf, model: model)
          || derives(leaf, from: list, model: model)
      }
  }

  /// Whether a variable changes only in ways its values show: assigned a whole value, or grown
  /// by `append`/`insert`. Not through a subscript (`list[i]["token"] = …`), `&list`, a compound
  /// operator (`list += …`) or a method that puts other values in.
  private static func changesOnlyAsAWhole(_ list: Binding, model: SemanticModel) -> Bool {
    guard let references = model.resolver.references(to: list)?.references else { return false }
    return references.allSatisfy { reference in
      guard let parent = reference.parent else { return true }
      if parent.is(SubscriptCallExprSyntax.self) || parent.is(InOutExprSyntax.self) { return false }
      if let member = parent.as(MemberAccessExprSyntax.self) {
        return !["replaceSubrange", "updateValue", "merge", "formUnion"].contains(member.declName.baseName.text)
          && SyntaxFacts.assignmentOperator(writing: ExprSyntax(member)) == nil
      }
      // A whole new value (`list = …`) is one the resolver follows; `list += …` is not.
      let written = SyntaxFacts.assignmentOperator(writing: ExprSyntax(reference))
      return written == nil || written == "="
    }
  }

  /// `[]`, `[:]`, `[String]()`.
  private static func isEmptyCollection(_ expression: ExprSyntax) -> Bool {
    if let array = expression.as(ArrayExprSyntax.self) { return array.elements.isEmpty }
    if let dictionary = expression.as(DictionaryExprSyntax.self) { return dictionary.content.is(TokenSyntax.self) }
    guard let call = expression.as(FunctionCallExprSyntax.self), call.arguments.isEmpty, call.trailingClosure == nil
    else { return false }
    return call.calledExpression.is(ArrayExprSyntax.self) || call.calledExpression.is(DictionaryExprSyntax.self)
  }

  /// A preferences store's read of what it holds under a key (`defaults.stringArray(forKey: key)`).
  private static func isPreferencesRead(_ expression: ExprSyntax, model: SemanticModel) -> Bool {
    guard let call = expression.as(FunctionCallExprSyntax.self), call.arguments.count == 1,
      call.arguments.first?.label?.text == "forKey", let receiver = SyntaxFacts.receiver(of: call)
    else { return false }
    return model.preferencesStore(denotedBy: receiver) != nil
  }

  /// `list.filter { ... }`, `list.sorted()`: a value made from the variable itself.
  private static func derives(_ expression: ExprSyntax, from list: Binding, model: SemanticModel) -> Bool {
    var current = expression
    while true {
      if let call = current.as(FunctionCallExprSyntax.self) {
        current = call.calledExpression
      } else if let member = current.as(MemberAccessExprSyntax.self), let base = member.base {
        current = SequenceShape.unwrap(base)
      } else {
        break
      }
    }
    return current.id != expression.id && model.resolver.binding(denotedBy: current)?.id == list.id
  }
}
