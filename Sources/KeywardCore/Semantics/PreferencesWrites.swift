import SwiftSyntax

/// A value written to a preferences store (`UserDefaults`, iCloud key-value storage) under a key.
public struct PreferencesWrite {
  public var call: FunctionCallExprSyntax
  public var value: ExprSyntax
  public var key: ExprSyntax
  /// The store's type: one of `SemanticModel.preferencesStores`.
  public var store: String
}

extension SemanticModel {
  /// The types whose `set(_:forKey:)` keeps a value in a plain property list.
  public static let preferencesStores = ["UserDefaults", "NSUbiquitousKeyValueStore"]
  static let preferencesSetters = ["set", "setValue", "setObject"]

  /// The file's `set(_:forKey:)`, `setValue(_:forKey:)` and `setObject(_:forKey:)` calls on a
  /// preferences store, in source order (`preferencesWrites`).
  func findPreferencesWrites() -> [PreferencesWrite] {
    Self.preferencesSetters.flatMap { index.calls(named: $0) }.compactMap { call in
      guard let key = SyntaxFacts.argument(call, labeled: "forKey"), let value = SyntaxFacts.argument(call, at: 0),
        let store = preferencesStore(writtenBy: call)
      else { return nil }
      return PreferencesWrite(call: call, value: value, key: key, store: store)
    }.sorted { $0.call.position < $1.call.position }
  }

  /// The store a `set(_:forKey:)` call writes to: its receiver's, or, called on `self` (written
  /// or implied) in an extension or subclass of a store, that store (`extension UserDefaults {
  /// var apiSecret: String? { set { set(newValue, forKey: "apiSecret") } } }`).
  public func preferencesStore(writtenBy call: FunctionCallExprSyntax) -> String? {
    if let receiver = SyntaxFacts.receiver(of: call), !SyntaxFacts.isSelf(receiver) {
      return preferencesStore(denotedBy: receiver)
    }
    let types = SyntaxFacts.enclosingTypeAndSupertypes(of: call)
    return Self.preferencesStores.first { types.contains($0) }
  }

  /// The preferences store an expression is (`UserDefaults.standard`, a `defaults` bound to one).
  public func preferencesStore(denotedBy receiver: ExprSyntax) -> String? {
    let texts =
      resolver.values(of: receiver).map { SyntaxFacts.text($0.expression) }
      + [resolver.binding(denotedBy: SequenceShape.unwrap(receiver))?.typeName ?? ""]
    return Self.preferencesStores.first { store in texts.contains { $0.hasPrefix(store) } }
  }

  /// The property wrappers the file declares whose `wrappedValue` setter writes the new value to
  /// a preferences store (`@UserDefault("password") var password: String`), by type name, with
  /// the store.
  public var preferencesWrapperTypes: [String: String] {
    var found: [String: String] = [:]
    for write in preferencesWrites where SyntaxFacts.text(SequenceShape.unwrap(write.value)) == "newValue" {
      guard let accessor = write.call.ancestorOrSelf(mapping: { $0.as(AccessorDeclSyntax.self) }),
        accessor.accessorSpecifier.tokenKind == .keyword(.set),
        let property = accessor.ancestorOrSelf(mapping: { $0.as(PatternBindingSyntax.self) }),
        property.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "wrappedValue",
        let type = property.ancestorOrSelf(mapping: SyntaxFacts.declarationGroup),
        type.attributes.contains(where: {
          $0.as(AttributeSyntax.self).map { SyntaxFacts.text($0.attributeName) } == "propertyWrapper"
        }),
        let name = SyntaxFacts.typeName(declaring: type.memberBlock)
      else { continue }
      found[name] = write.store
    }
    return found
  }

  /// Whether one of the file's functions writes a value its caller gives it to a store: a
  /// preferences helper, to which the file's own calls may hand a secret.
  public var declaresPreferencesHelper: Bool {
    preferencesWrites.contains { write in
      sources(reaching: write.value).contains { source in
        if case .parameter = source { true } else { false }
      }
    }
  }
}
