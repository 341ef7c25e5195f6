/// A call that hands an `LAContext` to a function the calling file does not declare
/// (`store.retrieve(context: context)`), as far as a call site tells: the function's base name
/// (a type's name for an initializer), argument labels, and the receiver's type when the file
/// declares it.
public struct CallShape: Sendable, Hashable, Codable {
  public var name: String
  /// One per argument, `_` for an unlabelled one.
  public var labels: [String]
  /// The argument that carries the context.
  public var argument: Int
  /// The type the receiver is declared with (`let store: SecureStore`, `= SecureStore()`,
  /// `self`, or a type named directly); nil when the call has no receiver or its type is unknown.
  public var receiverType: String?
  /// Where in the argument the value sits when it is handed inside a value built for the call:
  /// `["protection"]` for `Vault(settings: .init(protection: value))`. Empty: the argument itself.
  public var memberPath: [String]
  /// Not a call: the value is stored in, or returned by, the property `labels[0]` of the type
  /// `name` (`copy.flags = value` in a builder, `var policy: LAPolicy { … }`), and matched as the
  /// initializer argument of that name would be.
  public var isProperty: Bool

  public init(
    name: String, labels: [String], argument: Int, receiverType: String? = nil, memberPath: [String] = [],
    isProperty: Bool = false
  ) {
    self.name = name
    self.labels = labels
    self.argument = argument
    self.receiverType = receiverType
    self.memberPath = memberPath
    self.isProperty = isProperty
  }

  /// Where the value goes, for messages: "Passed to `protect(_:with:)`", "Stored in `Builder.flags`".
  public var destination: String {
    isProperty ? "Stored in `\(name).\(labels.first ?? "")`" : "Passed to `\(signature)`"
  }

  /// The label of the argument carrying the value, nil when it has none.
  public var argumentLabel: String? {
    labels.indices.contains(argument) && labels[argument] != "_" && labels[argument] != Self.trailingClosure
      ? labels[argument] : nil
  }

  /// Whether the call names a type, so builds a value of it (`Settings(…)`).
  public var isInitializer: Bool { name.first?.isUppercase == true }

  /// `retrieve(context:)`.
  public var signature: String { Self.signature(name: name, labels: labels.filter { $0 != Self.trailingClosure }) }

  /// Stands for an unlabelled trailing closure in `labels`: it takes the next parameter that
  /// has no default (or, failing one, the next parameter), as Swift's forward scan does for a
  /// closure parameter.
  public static let trailingClosure = "{}"

  /// A function's name as Swift writes it with its argument labels: `retrieve(context:)`.
  static func signature(name: String, labels: [String]) -> String {
    "\(name)(\(labels.map { $0 + ":" }.joined()))"
  }
}

/// What a function declared in a scanned file does with one of its `LAContext` parameters:
/// the fact a finding in another file needs when it hands its context to that function.
public struct ContextParameterUse: Sendable, Hashable, Codable {
  public enum Outcome: Sendable, Hashable, Codable {
    /// The parameter reaches a keychain query as its authentication context, and the file's
    /// items are protected by an access control (or its wrapper is given one).
    case keychainBound
    /// It reaches a keychain query, but the file stores its items without access control.
    case unprotectedItems
    /// It is handed on to a function this file does not declare.
    case handedOn(CallShape)
    /// It reaches no keychain query and leaves the file nowhere.
    case notToKeychain
  }

  public struct Parameter: Sendable, Hashable, Codable {
    /// The argument label, `_` for none.
    public var label: String
    public var hasDefault: Bool

    public init(label: String, hasDefault: Bool) {
      self.label = label
      self.hasDefault = hasDefault
    }
  }

  /// The type a method belongs to, and the types that type's declaration (or the extension
  /// holding the method) names as its superclass or protocols.
  public struct Owner: Sendable, Hashable, Codable {
    public var type: String
    public var supertypes: [String]

    public init(type: String, supertypes: [String]) {
      self.type = type
      self.supertypes = supertypes
    }
  }

  /// The function's base name, or its type's name for an initializer.
  public var name: String
  public var parameters: [Parameter]
  /// Which of `parameters` is the context.
  public var parameter: Int
  public var outcome: Outcome
  /// Where the function is declared (its name).
  public var location: SourceLocation
  /// Nil for a free function.
  public var owner: Owner?

  public init(
    name: String, parameters: [Parameter], parameter: Int, outcome: Outcome, location: SourceLocation,
    owner: Owner? = nil
  ) {
    self.name = name
    self.parameters = parameters
    self.parameter = parameter
    self.outcome = outcome
    self.location = location
    self.owner = owner
  }

  /// `retrieve(context:)`.
  public var signature: String { CallShape.signature(name: name, labels: parameters.map(\.label)) }

  /// The function as calls are matched against it.
  public var callable: CallableShape {
    CallableShape(name: name, parameters: parameters, owner: owner, location: location)
  }

  /// Whether `call` calls this function with the context in this parameter
  /// (`CallableShape.accepts(_:in:)`).
  public func accepts(_ call: CallShape) -> Bool { callable.accepts(call, in: parameter) }
}

/// Attached to a finding whose verdict depends on where a value was handed, so that a scan of
/// the other files can settle it: an `LAContext` (`EvaluationBinding.handedOff`), or a weak
/// setting passed as an argument (`sink` set), which counts only where the parameter reaches it.
public struct HandOff: Sendable, Hashable {
  public var call: CallShape
  /// The message once it is known the context does not unlock a protected item, after a
  /// sentence saying where it went; nil keeps the message.
  public var settledMessage: String?
  /// For a value handed to a parameter: what the parameter must reach for the finding to stand.
  /// A finding whose parameter reaches no such sink anywhere in the scan is dropped.
  public var sink: ValueSink?
  /// For a value handed inside a value built for another call (`Vault(settings: .init(protection:
  /// value))`): that call, tried when `call` settles nothing.
  public var enclosingCall: CallShape?

  public init(call: CallShape, settledMessage: String?, sink: ValueSink? = nil, enclosingCall: CallShape? = nil) {
    self.call = call
    self.settledMessage = settledMessage
    self.sink = sink
    self.enclosingCall = enclosingCall
  }
}

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
  /// The `kSecValueData` of a stored item, before its conversion to data (`value` in
  /// `Data(value.utf8)`).
  case valueData

  /// For the documentation of the rules that follow values into their sinks.
  public static let howFarValuesAreFollowed = """
    A value given as an argument is followed into the function or initializer receiving it, in \
    any file of the scan, and on through the functions it is passed to, in that file and in \
    others (up to four steps, cycles cut). A value a type is built with \
    (`Settings(protection: …)`, memberwise or not, inside another call's argument as in \
    `Vault(settings: .init(protection: …))`, or in a property wrapper's attribute) is followed \
    into the stored property of that name, and so is a value a method stores in a property (a \
    builder's `copy.flags = …`) or a computed property returns. The weak value is reported where \
    it is chosen, with the path to where it takes effect (the property, the calls, the setting) \
    as related locations. A weak default is not reported when every caller can be seen to \
    override it (a `private` function whose every call passes the argument). A type's initializer \
    is matched to a property by the argument's label; values carried through closures, \
    collections or an enum's cases are not followed.
    """

  /// A file must name one of these for its functions to be summarized.
  public var tokens: [String] {
    switch self {
    case .accessControlFlags: ["SecAccessControlCreateWithFlags"]
    case .accessibility: ["kSecAttrAccessible", "SecAccessControlCreateWithFlags"]
    case .policy: ["evaluatePolicy"]
    case .reuseDuration: ["touchIDAuthenticationAllowableReuseDuration"]
    case .valueData: ["kSecValueData"]
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

  public init(
    callable: CallableShape, parameter: Int, sink: ValueSink, steps: [RelatedLocation], memberPath: [String] = []
  ) {
    self.callable = callable
    self.parameter = parameter
    self.sink = sink
    self.steps = steps
    self.memberPath = memberPath
  }

  /// Whether `call` passes its `call.argument` to this parameter, with the value where this
  /// parameter's reach reads it.
  public func accepts(_ call: CallShape) -> Bool {
    memberPath == call.memberPath && callable.accepts(call, in: parameter)
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

/// A declared function or initializer as calls are matched against it.
public struct CallableShape: Sendable, Hashable, Codable {
  /// The function's base name, or its type's name for an initializer.
  public var name: String
  public var parameters: [ContextParameterUse.Parameter]
  /// Nil for a free function.
  public var owner: ContextParameterUse.Owner?
  /// Where it is declared (its name).
  public var location: SourceLocation

  public init(
    name: String, parameters: [ContextParameterUse.Parameter], owner: ContextParameterUse.Owner?,
    location: SourceLocation
  ) {
    self.name = name
    self.parameters = parameters
    self.owner = owner
    self.location = location
  }

  /// `protect(_:with:)`.
  public var signature: String { CallShape.signature(name: name, labels: parameters.map(\.label)) }

  /// Whether `call` calls this callable with its `call.argument` in `parameter`: same name, the
  /// call's labels are the parameters' labels in order with only defaulted parameters left out,
  /// and, when the receiver's type is known, the callable belongs to that type or to one
  /// declaring it as superclass or protocol (a protocol's requirement is met by its conformers).
  public func accepts(_ call: CallShape, in parameter: Int) -> Bool {
    guard call.name == name else { return false }
    if let receiverType = call.receiverType {
      guard let owner, owner.type == receiverType || owner.supertypes.contains(receiverType) else { return false }
    }
    var next = 0
    for (position, label) in call.labels.enumerated() {
      if label == CallShape.trailingClosure {
        let rest = parameters[next...]
        guard let taken = rest.firstIndex(where: { !$0.hasDefault }) ?? rest.indices.first,
          rest[..<taken].allSatisfy(\.hasDefault)
        else { return false }
        if position == call.argument, taken != parameter { return false }
        next = taken + 1
        continue
      }
      while next < parameters.count, parameters[next].label != label {
        guard parameters[next].hasDefault else { return false }
        next += 1
      }
      guard next < parameters.count else { return false }
      if position == call.argument, next != parameter { return false }
      next += 1
    }
    return parameters[next...].allSatisfy(\.hasDefault)
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

/// What one file's functions do with what callers pass them: the facts other files' findings
/// are settled with once every file is scanned.
public struct CallFacts: Sendable {
  public var contextUses: [ContextParameterUse]
  public var parameterReaches: [ParameterReach]
  public var propertyReaches: [PropertyReach]
  public var relays: [ValueRelay]

  public init(
    contextUses: [ContextParameterUse] = [], parameterReaches: [ParameterReach] = [],
    propertyReaches: [PropertyReach] = [], relays: [ValueRelay] = []
  ) {
    self.contextUses = contextUses
    self.parameterReaches = parameterReaches
    self.propertyReaches = propertyReaches
    self.relays = relays
  }

  public mutating func append(_ other: CallFacts) {
    contextUses += other.contextUses
    parameterReaches += other.parameterReaches
    propertyReaches += other.propertyReaches
    relays += other.relays
  }
}
