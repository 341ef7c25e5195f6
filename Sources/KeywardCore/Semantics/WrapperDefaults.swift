import SwiftSyntax

/// A keychain wrapper store made without naming an accessibility class, which the file writes
/// items through: they get the library's own default class (`Keychain(service: "x")` of
/// KeychainAccess keeps its items `AfterFirstUnlock`).
public struct WrapperDefaultStore {
  public var library: String
  /// Where the store is made (`Keychain(service: "x")`).
  public var creation: FunctionCallExprSyntax
  /// The `kSecAttrAccessible...` constant the library uses when none is named.
  public var meaning: String
  /// The values the file writes through the store.
  public var writtenValues: [ExprSyntax]
}

extension SemanticModel {
  /// Stores of active wrappers made without an accessibility class (and without
  /// synchronization, which is another rule's question) that the file writes through directly:
  /// on the chain that makes them (`Keychain(service:).set(token, key:)`), or through the name
  /// holding them (`keychain[key] = token`, `keychain.set(token, key:)`). A write through a chain
  /// that names a class (`keychain.accessibility(.whenUnlockedThisDeviceOnly).set(...)`) is that
  /// class's, not the default's.
  public var wrapperStoresOnDefaultAccessibility: [WrapperDefaultStore] {
    var found: [WrapperDefaultStore] = []
    for mapping in activeWrappers {
      guard let meaning = mapping.defaultAccessibility, let maker = mapping.storeMaker else { continue }
      let configuring = Set(mapping.accessibility.methods + mapping.synchronizable.methods)
      for call in index.calls(named: maker) where call.calledExpression.is(DeclReferenceExprSyntax.self) {
        let (top, methods) = Self.chain(from: call)
        guard methods.allSatisfy({ !configuring.contains($0.name) }) else { continue }
        var written = methods.filter { mapping.writeMethods.contains($0.name) }.compactMap {
          $0.call.arguments.first?.expression
        }
        if let holder = binding(initializedWith: top) { written += writes(through: holder, mapping: mapping) }
        guard !written.isEmpty else { continue }
        found.append(
          WrapperDefaultStore(library: mapping.library, creation: call, meaning: meaning, writtenValues: written))
      }
    }
    return found
  }

  /// The calls applied one after another to `call`'s result (`Keychain(…).label("x").set(…)`),
  /// and the outermost of them.
  private static func chain(from call: FunctionCallExprSyntax) -> (
    top: ExprSyntax, methods: [(name: String, call: FunctionCallExprSyntax)]
  ) {
    var current = ExprSyntax(call)
    var methods: [(name: String, call: FunctionCallExprSyntax)] = []
    while let member = current.parent?.as(MemberAccessExprSyntax.self), member.base?.id == current.id,
      let applied = member.parent?.as(FunctionCallExprSyntax.self), applied.calledExpression.id == member.id
    {
      methods.append((member.declName.baseName.text, applied))
      current = ExprSyntax(applied)
    }
    // `try Keychain(…)` and `(Keychain(…))` hold the same store.
    while let wrapper = current.parent?.as(TryExprSyntax.self) { current = ExprSyntax(wrapper) }
    return (current, methods)
  }

  /// The constant, variable or property whose declared value is `expression`.
  private func binding(initializedWith expression: ExprSyntax) -> Binding? {
    guard let pattern = expression.parent?.parent?.as(PatternBindingSyntax.self),
      let name = pattern.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
    else { return nil }
    return index.bindingsByName[name]?.first { $0.initializer?.id == expression.id }
  }

  /// What the file writes through the store `holder` names, directly (not through a chain that
  /// sets the store up anew).
  private func writes(through holder: Binding, mapping: WrapperMapping) -> [ExprSyntax] {
    var written: [ExprSyntax] = []
    for (subscriptCall, value) in index.subscriptAssignments
    where resolver.binding(denotedBy: subscriptCall.calledExpression)?.id == holder.id {
      written.append(value)
    }
    for call in index.memberCallsByReceiver[holder.name] ?? []
    where mapping.writeMethods.contains(call.method) && resolver.binding(denotedBy: call.receiver)?.id == holder.id {
      if let value = call.call.arguments.first?.expression { written.append(value) }
    }
    return written
  }
}
