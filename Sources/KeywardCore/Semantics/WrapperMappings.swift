import SwiftSyntax

/// Where a keychain wrapper library takes one kind of setting, and what its values mean.
public struct WrapperSite: Sendable, Hashable {
  /// Arguments with these labels: `withAccessibility: .always`.
  public var argumentLabels: [String] = []
  /// The first argument of calls of these methods: `.accessibility(.always)`.
  public var methods: [String] = []
  /// Assignments to, or values of, properties with these names: `keychain.accessibility = .always`.
  public var properties: [String] = []
  /// Calls whose use alone means the setting is on: `Valet.iCloudValet(...)` synchronises.
  public var impliedByCalls: [String] = []
  /// The library's case names (or constant names) and what they mean: `always` →
  /// `kSecAttrAccessibleAlways`, `biometricAny` → `biometryAny`.
  public var values: [String: String] = [:]

  public init(
    argumentLabels: [String] = [], methods: [String] = [], properties: [String] = [], impliedByCalls: [String] = [],
    values: [String: String] = [:]
  ) {
    self.argumentLabels = argumentLabels
    self.methods = methods
    self.properties = properties
    self.impliedByCalls = impliedByCalls
    self.values = values
  }

  var isEmpty: Bool { argumentLabels.isEmpty && methods.isEmpty && properties.isEmpty && impliedByCalls.isEmpty }

  /// The same text for the same site in every process (dictionary order is per process).
  var canonicalDescription: String {
    let meanings = values.keys.sorted().map { "\($0)=\(values[$0]!)" }
    return [argumentLabels, methods, properties, impliedByCalls, meanings].map { $0.joined(separator: ",") }
      .joined(separator: ";")
  }
}

/// How a keychain wrapper library expresses keychain settings. A mapping applies to a file only
/// where the file imports one of its modules or uses one of its types, so an app's own `.always`
/// case is never read as an accessibility.
public struct WrapperMapping: Sendable, Hashable {
  public enum Setting: String, Sendable, CaseIterable {
    case accessibility, authenticationPolicy, synchronizable, authenticationContext
  }

  public var library: String
  public var modules: [String]
  public var types: [String]
  public var accessibility: WrapperSite
  /// Values map to `SecAccessControlCreateFlags` member names.
  public var authenticationPolicy: WrapperSite
  /// Values are ignored: true literals turn synchronisation on.
  public var synchronizable: WrapperSite
  /// Where the wrapper takes the `LAContext` it reads with (its `kSecUseAuthenticationContext`);
  /// values are ignored.
  public var authenticationContext: WrapperSite
  /// The function that makes one of the library's stores (`Keychain` of KeychainAccess), when
  /// its items get `defaultAccessibility` unless a class is named on the store.
  public var storeMaker: String?
  /// The `kSecAttrAccessible...` constant a store made by `storeMaker` gives its items when no
  /// class is named.
  public var defaultAccessibility: String?
  /// The store's methods that write an item, with the value as their first argument (besides
  /// subscript assignments).
  public var writeMethods: [String]
  /// How code names a class on such a store, for the fix (`.accessibility(.afterFirstUnlockThisDeviceOnly)`).
  public var namingAccessibility: String?

  public init(
    library: String, modules: [String], types: [String], accessibility: WrapperSite = WrapperSite(),
    authenticationPolicy: WrapperSite = WrapperSite(), synchronizable: WrapperSite = WrapperSite(),
    authenticationContext: WrapperSite = WrapperSite(), storeMaker: String? = nil,
    defaultAccessibility: String? = nil, writeMethods: [String] = [], namingAccessibility: String? = nil
  ) {
    self.library = library
    self.modules = modules
    self.types = types
    self.accessibility = accessibility
    self.authenticationPolicy = authenticationPolicy
    self.synchronizable = synchronizable
    self.authenticationContext = authenticationContext
    self.storeMaker = storeMaker
    self.defaultAccessibility = defaultAccessibility
    self.writeMethods = writeMethods
    self.namingAccessibility = namingAccessibility
  }

  /// The same text for the same mapping in every process, for cache keys.
  public var canonicalDescription: String {
    ([library, modules.joined(separator: ","), types.joined(separator: ",")]
      + Setting.allCases.map { "\($0.rawValue): \(site($0).canonicalDescription)" }
      + [
        "default: \(storeMaker ?? "")=\(defaultAccessibility ?? "") writes: \(writeMethods.joined(separator: ",")) fix: \(namingAccessibility ?? "")"
      ])
      .joined(separator: " | ")
  }

  public func site(_ setting: Setting) -> WrapperSite {
    switch setting {
    case .accessibility: accessibility
    case .authenticationPolicy: authenticationPolicy
    case .synchronizable: synchronizable
    case .authenticationContext: authenticationContext
    }
  }

  /// Byte strings of which a file must contain one for the mapping to apply.
  public var prefilterTokens: [String] { modules + types }
}

/// A setting made through a wrapper: the expression to report and what it means.
public struct WrapperValue {
  public var library: String
  public var expression: ExprSyntax
  /// The keychain constant or flag the value stands for (empty for synchronizable).
  public var meaning: String
  public var isConditional: Bool
  /// The call that makes the setting, for related locations and for names near it.
  public var call: FunctionCallExprSyntax?
}

extension SemanticModel {
  /// The mappings that apply to this file: those whose module it imports or whose types it uses.
  public var activeWrappers: [WrapperMapping] {
    wrappers.filter { mapping in
      mapping.modules.contains(where: index.importedModules.contains)
        || mapping.types.contains { type in
          index.callsByName[type] != nil || index.qualifiedMembersByType[type] != nil
        }
    }
  }

  /// Every value given for `setting` through an active wrapper.
  public func wrapperValues(_ setting: WrapperMapping.Setting) -> [WrapperValue] {
    var found: [WrapperValue] = []
    for mapping in activeWrappers {
      let site = mapping.site(setting)
      for name in site.impliedByCalls {
        for call in index.calls(named: name) {
          found.append(
            WrapperValue(
              library: mapping.library, expression: ExprSyntax(call), meaning: "", isConditional: false, call: call))
        }
      }
      for (source, call) in wrapperSources(site, of: mapping) {
        found += meanings(of: source, in: site, setting: setting).map {
          WrapperValue(library: mapping.library, expression: $0.0, meaning: $0.1, isConditional: $0.2, call: call)
        }
      }
    }
    return found
  }

  /// The expressions given for `setting` through active wrappers, as written (for settings whose
  /// value is not a case, such as an authentication context).
  public func wrapperArguments(_ setting: WrapperMapping.Setting) -> [ExprSyntax] {
    activeWrappers.flatMap { wrapperSources($0.site(setting), of: $0).map(\.expression) }
  }

  /// Wrapper calls that look items up or remove them: a setting given to them selects items,
  /// it stores none (`hasValue(forKey:withAccessibility:)`, `string(forKey:withAccessibility:)`).
  static let lookupCallPrefixes = [
    "has", "string", "data", "object", "bool", "integer", "double", "float", "remove", "delete", "get", "contains",
    "exists", "read", "load", "fetch", "all",
  ]

  static func looksItemsUp(_ call: FunctionCallExprSyntax) -> Bool {
    guard let name = SyntaxFacts.calledName(call)?.lowercased() else { return false }
    return lookupCallPrefixes.contains(where: name.hasPrefix)
  }

  /// Whether a wrapper setting is made on a chain (or call) that also turns iCloud Keychain
  /// synchronization on: `Keychain(service:).synchronizable(true).accessibility(.afterFirstUnlock)`,
  /// `Valet.iCloudValet(with:accessibility:)`, or on the local the chain is used through.
  public func isSynchronizedAlong(_ value: WrapperValue) -> Bool {
    guard let call = value.call else { return false }
    return wrapperValues(.synchronizable).contains { synchronizing in
      guard let other = synchronizing.call,
        synchronizing.expression.id == ExprSyntax(other).id || SyntaxFacts.text(synchronizing.expression) == "true"
      else { return false }
      func holds(_ outer: some SyntaxProtocol, _ inner: FunctionCallExprSyntax) -> Bool {
        outer.range.lowerBound <= inner.range.lowerBound && inner.range.upperBound <= outer.range.upperBound
      }
      // Also on the store's local: `let keychain = Keychain(...).synchronizable(true)`, then
      // `keychain.accessibility(.afterFirstUnlock).set(...)`.
      return holds(call, other) || holds(other, call)
        || initialChain(ofStoreUsedBy: call).map { holds($0, other) } == true
    }
  }

  /// Whether `call` is `Type(...)` for a type that is not one of the wrapper's.
  private func constructsAnotherType(_ call: FunctionCallExprSyntax, than mapping: WrapperMapping) -> Bool {
    guard let callee = call.calledExpression.as(DeclReferenceExprSyntax.self) else { return false }
    let name = callee.baseName.text
    return name.first?.isUppercase == true && !mapping.types.contains(name)
  }

  /// The expressions a site is given: labelled arguments, first arguments of its methods, and
  /// what its properties are set to or return.
  private func wrapperSources(_ site: WrapperSite, of mapping: WrapperMapping) -> [(
    expression: ExprSyntax, call: FunctionCallExprSyntax?
  )] {
    var sources: [(expression: ExprSyntax, call: FunctionCallExprSyntax?)] = []
    if !site.argumentLabels.isEmpty {
      for calls in index.callsByName.values {
        // Building a value of another type (`Entry(isSynchronizable: true)`) sets nothing of the
        // wrapper's, whatever its argument labels.
        for call in calls where !constructsAnotherType(call, than: mapping) && !Self.looksItemsUp(call) {
          for argument in call.arguments where site.argumentLabels.contains(argument.label?.text ?? "") {
            sources.append((argument.expression, call))
          }
        }
      }
    }
    for method in site.methods {
      for call in index.calls(named: method) {
        if let first = call.arguments.first, first.label == nil { sources.append((first.expression, call)) }
      }
    }
    for property in site.properties {
      sources += (index.memberAssignmentsByName[property] ?? []).map { ($0.value, nil) }
      for binding in index.bindingsByName[property] ?? [] where binding.kind != .parameter {
        sources += (binding.initializer.map { [$0] } ?? []).map { ($0, nil) }
        sources += binding.returnedExpressions.map { ($0, nil) }
      }
    }
    return sources
  }

  private func meanings(of source: ExprSyntax, in site: WrapperSite, setting: WrapperMapping.Setting)
    -> [(ExprSyntax, String, Bool)]
  {
    var result: [(ExprSyntax, String, Bool)] = []
    var pending = resolver.values(of: source)
    var budget = 64
    while let value = pending.popLast(), budget > 0 {
      budget -= 1
      let leaf = value.expression
      if let array = leaf.as(ArrayExprSyntax.self) {
        pending += array.elements.flatMap { resolver.values(of: $0.expression) }
        continue
      }
      if setting == .synchronizable {
        if SyntaxFacts.isTrue(leaf) { result.append((leaf, "", value.isConditional)) }
        continue
      }
      let name =
        leaf.as(MemberAccessExprSyntax.self)?.declName.baseName.text
        ?? leaf.as(DeclReferenceExprSyntax.self)?.baseName.text
      if let name, let meaning = site.values[name] { result.append((leaf, meaning, value.isConditional)) }
    }
    return result.sorted { $0.0.position < $1.0.position }
  }
}
