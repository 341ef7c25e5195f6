import SwiftSyntax

/// A keychain wrapper store made without naming an accessibility class, which the file writes
/// items through: they get the library's own default class (`Keychain(service: "x")` of
/// KeychainAccess keeps its items `AfterFirstUnlock`).
public struct WrapperDefaultStore {
  public var library: String
  /// Where the store is made (`Keychain(service: "x")`), or named (`KeychainWrapper.standard`).
  public var creation: ExprSyntax
  /// The `kSecAttrAccessible...` constant the library uses when none is named.
  public var meaning: String
  /// The values the file writes through the store.
  public var writtenValues: [ExprSyntax]
  /// How code names a class on the store, for the fix.
  public var namingAccessibility: String?
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
      let configuringLabels = Set(mapping.accessibility.argumentLabels + mapping.synchronizable.argumentLabels)
      var stores = index.calls(named: maker).filter { Self.namesType($0.calledExpression, of: mapping) }.map {
        ExprSyntax($0)
      }
      // The library's shared store (`KeychainWrapper.standard`).
      for member in Self.sharedStoreNames {
        stores += (index.memberAccessesByName[member] ?? []).filter {
          $0.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == maker
        }.map { ExprSyntax($0) }
      }
      for store in stores {
        let (top, methods) = Self.chain(from: store)
        let arguments = store.as(FunctionCallExprSyntax.self)?.arguments.map { $0 } ?? []
        guard methods.allSatisfy({ !configuring.contains($0.name) }),
          arguments.allSatisfy({ !configuringLabels.contains($0.label?.text ?? "") })
        else { continue }
        var written = methods.filter { isDefaultWrite($0.call, named: $0.name, mapping: mapping) }.compactMap {
          $0.call.arguments.first?.expression
        }
        // `KeychainWrapper.standard[.token] = token`: a subscript write on the store itself.
        written += index.subscriptAssignments.filter { $0.subscript.calledExpression.id == top.id }.map(\.value)
        let holders = self.holders(of: top)
        guard !holders.contains(where: { isConfigured($0, mapping: mapping) }) else { continue }
        for holder in holders { written += writes(through: holder, mapping: mapping) }
        guard !written.isEmpty else { continue }
        found.append(
          WrapperDefaultStore(
            library: mapping.library, creation: store, meaning: meaning, writtenValues: written,
            namingAccessibility: mapping.namingAccessibility))
      }
    }
    return found
  }

  /// `Keychain` or `KeychainAccess.Keychain`: the library's type itself, not a member of a value.
  private static func namesType(_ called: ExprSyntax, of mapping: WrapperMapping) -> Bool {
    if called.is(DeclReferenceExprSyntax.self) { return true }
    guard let base = called.as(MemberAccessExprSyntax.self)?.base?.as(DeclReferenceExprSyntax.self) else {
      return false
    }
    return mapping.modules.contains(base.baseName.text)
  }

  /// The calls applied one after another to `call`'s result (`Keychain(…).label("x").set(…)`),
  /// and the outermost of them.
  /// Names libraries give their one shared store (`KeychainWrapper.standard`).
  static let sharedStoreNames = ["standard", "shared", "default"]

  private static func chain(from store: ExprSyntax) -> (
    top: ExprSyntax, methods: [(name: String, call: FunctionCallExprSyntax)]
  ) {
    var current = store
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

  /// The names that hold the store `expression` makes: the constant, variable, property or
  /// parameter it is the declared value (or default) of, or the computed property returning it;
  /// and the stored properties that name is assigned to (`self.keychain = keychain`).
  private func holders(of expression: ExprSyntax) -> [Binding] {
    guard let first = binding(initializedWith: expression) ?? assignedHolder(of: expression) else { return [] }
    var holders = [first]
    for (target, value) in index.memberAssignmentsByName.values.joined()
    where resolver.binding(denotedBy: value)?.id == first.id {
      if let property = resolver.binding(denotedBy: ExprSyntax(target)), property.id != first.id {
        holders.append(property)
      }
    }
    return holders
  }

  /// The property a store is assigned to where it is made (`self.keychain = Keychain(service:
  /// "x")` in an `init`), for a property declared without a value.
  private func assignedHolder(of expression: ExprSyntax) -> Binding? {
    guard let assignment = index.assignmentsByName.values.joined().first(where: { $0.value.id == expression.id }),
      let property = resolver.binding(denotedBy: assignment.target), property.initializer == nil
    else { return nil }
    return property
  }

  private func binding(initializedWith expression: ExprSyntax) -> Binding? {
    if let pattern = expression.parent?.parent?.as(PatternBindingSyntax.self),
      let name = pattern.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
    {
      return index.bindingsByName[name]?.first { $0.initializer?.id == expression.id }
    }
    if let parameter = expression.parent?.parent?.as(FunctionParameterSyntax.self) {
      let name = (parameter.secondName ?? parameter.firstName).text
      return index.bindingsByName[name]?.first { $0.initializer?.id == expression.id }
    }
    // `var keychain: Keychain { Keychain(service: "x") }`: a new store at every read, all alike.
    guard let pattern = expression.ancestorOrSelf(mapping: { $0.as(PatternBindingSyntax.self) }),
      pattern.accessorBlock != nil, let name = pattern.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
    else { return nil }
    return index.bindingsByName[name]?.first {
      $0.kind == .computed && $0.returnedExpressions.contains { $0.id == expression.id }
    }
  }

  /// Whether `call` writes an item without naming its class or synchronization (KeychainSwift's
  /// `set(_:forKey:withAccess:)` takes the class with each write).
  private func isDefaultWrite(_ call: FunctionCallExprSyntax, named method: String, mapping: WrapperMapping) -> Bool {
    let naming = Set(mapping.accessibility.argumentLabels + mapping.synchronizable.argumentLabels)
    return mapping.writeMethods.contains(method) && !call.arguments.contains { naming.contains($0.label?.text ?? "") }
  }

  /// Whether the file sets a class (or synchronization) on the store `holder` names after making
  /// it: `keychain.accessibility = .whenUnlocked`, `keychain.setAccessibility(...)`.
  private func isConfigured(_ holder: Binding, mapping: WrapperMapping) -> Bool {
    let properties = mapping.accessibility.properties + mapping.synchronizable.properties
    let methods = Set(mapping.accessibility.methods + mapping.synchronizable.methods)
    for property in properties {
      for assignment in index.memberAssignmentsByName[property] ?? [] {
        guard let base = assignment.target.base else { return true }
        if resolver.binding(denotedBy: base)?.id == holder.id { return true }
      }
    }
    return (index.memberCallsByReceiver[holder.name] ?? []).contains {
      methods.contains($0.method) && resolver.binding(denotedBy: $0.receiver)?.id == holder.id
    }
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
    where isDefaultWrite(call.call, named: call.method, mapping: mapping)
      && resolver.binding(denotedBy: call.receiver)?.id == holder.id
    {
      if let value = call.call.arguments.first?.expression { written.append(value) }
    }
    return written
  }
}
