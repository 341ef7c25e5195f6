/// Where a setting takes effect: the places whose values rules judge.
public enum ValueSink: String, Sendable, Hashable, Codable, CaseIterable {
  /// The flags argument of `SecAccessControlCreateWithFlags`.
  case accessControlFlags
  /// A `kSecAttrAccessible` value of a stored item, or the protection argument of
  /// `SecAccessControlCreateWithFlags`.
  case accessibility
  /// The policy of `evaluatePolicy`.
  case policy
  /// An `LAContext`'s `touchIDAuthenticationAllowableReuseDuration`.
  case reuseDuration
  /// The value (`kSecValueData`) of a stored keychain item, through the conversions to bytes
  /// (`Data(x.utf8)`, `x.data(using:)`).
  case storedValue
  /// The value `set(_:forKey:)` (or `setValue`, `setObject`) writes to `UserDefaults` or iCloud
  /// key-value storage.
  case preferencesValue

  /// For the documentation of the rules that follow values into their sinks.
  public static let howFarValuesAreFollowed = """
    A value given as an argument is followed into the function or initializer receiving it, in \
    any file of the scan, and on through the functions it is passed to, in that file and in \
    others (up to four steps, cycles cut). A value a type is built with \
    (`Settings(protection: …)`, memberwise or not, inside another call's argument as in \
    `Vault(settings: .init(protection: …))`, or in a property wrapper's attribute) is followed \
    into the stored property of that name, a value assigned to a wrapped property into its \
    wrapper's `wrappedValue` setter (`newValue`), and so is a value a method stores in a property (a \
    builder's `copy.flags = …`) or a computed property returns. The weak value is reported where \
    it is chosen, with the path to where it takes effect (the property, the calls, the setting) \
    as related locations. A step to a method found only by its name and argument labels (the \
    receiver's type unknown) is a guess, and lowers the finding's confidence a level. A weak default is not reported when every caller can be seen to \
    override it (a `private` function whose every call passes the argument). A type's initializer \
    is matched to a property by the argument's label; values carried through closures, \
    collections or an enum's cases are not followed.
    """

  /// Whether a file is parsed for this sink's summaries alone. Preferences are named in a good
  /// part of an app's files, nearly all without a secret; parsing each of them made a scan of a
  /// real app up to 1.8 times slower. Their summaries come only from files a rule reads anyway.
  public var parsesFiles: Bool { self != .preferencesValue }

  /// A file must name one of these for its functions to be summarized.
  public var tokens: [String] {
    switch self {
    case .accessControlFlags: ["SecAccessControlCreateWithFlags"]
    case .accessibility: ["kSecAttrAccessible", "SecAccessControlCreateWithFlags"]
    case .policy: ["evaluatePolicy"]
    case .reuseDuration: ["touchIDAuthenticationAllowableReuseDuration"]
    // A property wrapper's setter hands what the wrapped property is set to on to its store.
    case .storedValue: ["kSecValueData", "@propertyWrapper"]
    case .preferencesValue: SemanticModel.preferencesStores
    }
  }
}

/// A parameter of a function (or initializer) declared in a scanned file that reaches a sink,
/// directly or through this file's other functions: the fact a call site passing a weak value
/// needs, in whatever file it is.
public struct ParameterReach: Sendable, Hashable, Codable {
  public var callable: CallableShape
  /// Which of the callable's parameters.
  public var parameter: Int
  public var sink: ValueSink
  /// From the parameter to the sink: the calls it passes through, then the sink itself.
  public var steps: [RelatedLocation]
  /// The member of the parameter's value that reaches the sink (`["protection"]` when the
  /// function reads `settings.protection`); empty for the value itself.
  public var memberPath: [String]
  /// When `memberPath` is one member that maps the cases of the parameter's enum (`switch self`)
  /// to values: the cases it maps to the value of the same name (`case .userPresence: return
  /// [.userPresence]`). A call passing such a case (`CallShape.valueName`) passes that value.
  public var mirroredCases: [String]?

  public init(
    callable: CallableShape, parameter: Int, sink: ValueSink, steps: [RelatedLocation], memberPath: [String] = [],
    mirroredCases: [String]? = nil
  ) {
    self.callable = callable
    self.parameter = parameter
    self.sink = sink
    self.steps = steps
    self.memberPath = memberPath
    self.mirroredCases = mirroredCases
  }

  /// Whether `call` passes its `call.argument` to this parameter, with the value where this
  /// parameter's reach reads it, or a case its table maps to the value of that name.
  public func accepts(_ call: CallShape) -> Bool {
    guard memberPath == call.memberPath || passesMirroredCase(call) else { return false }
    return callable.accepts(call, in: parameter)
  }

  private func passesMirroredCase(_ call: CallShape) -> Bool {
    guard let mirroredCases, let value = call.valueName, call.memberPath.isEmpty else { return false }
    return mirroredCases.contains(value)
  }
}

/// A stored property of a type declared in the scan whose value reaches a sink when the type's
/// methods read it (`settings.protection` passed to a keychain query): what a call building that
/// type with a weak value for the property (`Settings(protection: …)`, its memberwise or any
/// initializer labelling the argument with the property's name) needs to know.
public struct PropertyReach: Sendable, Hashable, Codable {
  /// The type declaring the property.
  public var owner: String
  public var property: String
  /// The member of the property's value that reaches the sink; empty for the value itself.
  public var memberPath: [String]
  public var sink: ValueSink
  /// From the read of the property to the sink.
  public var steps: [RelatedLocation]

  public init(owner: String, property: String, memberPath: [String], sink: ValueSink, steps: [RelatedLocation]) {
    self.owner = owner
    self.property = property
    self.memberPath = memberPath
    self.sink = sink
    self.steps = steps
  }

  /// `Settings.protection`.
  public var name: String { ([owner, property] + memberPath).joined(separator: ".") }

  /// Whether `call` builds the owner with its `call.argument` as this property.
  public func accepts(_ call: CallShape) -> Bool {
    call.name == owner && call.argumentLabel == property && call.memberPath == memberPath
  }
}

/// A parameter of a file's function, or a stored property of one of its types, whose value the
/// file passes to a function it does not declare (`KeychainHelper.save(value, protection:
/// protection)` in a property wrapper's setter): followed on into other files' summaries when
/// the scan settles, to a fixed depth.
public struct ValueRelay: Sendable, Hashable, Codable {
  /// The function receiving the value, with `parameter`; nil for a property.
  public var callable: CallableShape?
  public var parameter: Int
  /// The type and name of the property holding the value; nil for a parameter.
  public var owner: String?
  public var property: String?
  /// The member of the value that is passed on; empty for the value itself.
  public var memberPath: [String]
  /// Where it is passed on.
  public var call: CallShape
  public var step: RelatedLocation

  public init(
    callable: CallableShape?, parameter: Int, owner: String?, property: String?, memberPath: [String],
    call: CallShape, step: RelatedLocation
  ) {
    self.callable = callable
    self.parameter = parameter
    self.owner = owner
    self.property = property
    self.memberPath = memberPath
    self.call = call
    self.step = step
  }

  /// The name calls reaching this relay use: the function's, or the property's type.
  public var calledName: String { callable?.name ?? owner ?? "" }

  /// Whether `call` hands its value to the relayed parameter or property.
  public func accepts(_ call: CallShape) -> Bool {
    guard call.memberPath == memberPath else { return false }
    if let callable { return callable.accepts(call, in: parameter) }
    return call.isInitializer && call.name == owner && call.argumentLabel == property
  }
}
