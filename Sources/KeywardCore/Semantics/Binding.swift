import SwiftSyntax

/// A name a file declares that can hold a value: a constant, a variable, a stored or computed
/// property, a function parameter, an optional binding, or a function whose result is a value.
public struct Binding: Sendable {
  public enum Kind: Sendable { case constant, variable, parameter, computed, function }

  public var name: String
  public var kind: Kind
  /// The declaration, for positions and identity.
  public var node: Syntax
  /// The scope the name is visible in: a code block, closure, member block, function, or file.
  public var scope: SyntaxIdentifier
  /// The declared type as written, if any.
  public var type: TypeSyntax?
  /// The initial value, or a parameter's default value.
  public var initializer: ExprSyntax?
  /// For computed properties and functions: their statements, read only when asked for.
  public internal(set) var body: Syntax?
  public var isStatic: Bool

  /// For computed properties and functions: the expressions they return. Computed on demand:
  /// most bodies are never asked about, and walking them all would double the index's cost.
  public var returnedExpressions: [ExprSyntax] {
    guard let body else { return [] }
    if let statements = body.as(CodeBlockItemListSyntax.self) { return SyntaxFacts.returnedExpressions(in: statements) }
    if let accessors = body.as(AccessorBlockSyntax.self) {
      return SyntaxFacts.returnedExpressions(ofGetterIn: accessors)
    }
    return []
  }

  /// The declared type's name (`SecAccessControlCreateFlags`), optionality stripped. Worked out
  /// when asked: few bindings' types are ever asked about.
  public var typeName: String? { type.map(SyntaxFacts.typeName) }

  /// The LocalAuthentication context type, whose bindings the context analyses follow.
  public static let contextTypeName = "LAContext"
  /// Whether the declared type is `LAContext` (optional or not).
  public var isDeclaredContext: Bool { typeName == Self.contextTypeName }

  public var id: SyntaxIdentifier { node.id }
  public var position: AbsolutePosition { node.position }
}

/// `x = value` or `self.x = value`, recorded by the target's name.
public struct Assignment: Sendable {
  public var targetName: String
  /// The assignment's left side, where name lookup starts.
  public var target: ExprSyntax
  public var value: ExprSyntax
  public var node: Syntax
}

/// A call `receiver.method(...)` whose receiver is a plain name or `self.name`.
public struct MemberCall: Sendable {
  public var receiverName: String
  public var receiver: ExprSyntax
  public var method: String
  public var call: FunctionCallExprSyntax
}
