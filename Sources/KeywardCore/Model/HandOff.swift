/// A call that hands a value (an `LAContext`, a weak setting) to a function the calling file may
/// not declare (`store.retrieve(context: context)`), as far as a call site tells: the function's
/// base name (a type's name for an initializer), argument labels, and the receiver's type when
/// the file declares it; or a property the value is stored in (`isProperty`).
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
  /// The case the value is written as, when it is one (`userPresence` for `.userPresence`): an
  /// enum of the callee's that maps its cases to flags of the same names is matched by it.
  public var valueName: String?

  public init(
    name: String, labels: [String], argument: Int, receiverType: String? = nil, memberPath: [String] = [],
    isProperty: Bool = false, valueName: String? = nil
  ) {
    self.name = name
    self.labels = labels
    self.argument = argument
    self.receiverType = receiverType
    self.memberPath = memberPath
    self.isProperty = isProperty
    self.valueName = valueName
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
  /// Nil for a finding that waits only on what the whole scan holds (`unlessEnrollmentIsChecked`).
  public var call: CallShape?
  /// The message once it is known the context does not unlock a protected item, after a
  /// sentence saying where it went; nil keeps the message.
  public var settledMessage: String?
  /// For a value handed to a parameter: what the parameter must reach for the finding to stand.
  /// A finding whose parameter reaches no such sink anywhere in the scan is dropped.
  public var sink: ValueSink?
  /// For an `LAContext` kept in a stored property other files can read: `call` names the
  /// property (`name`) and its type (`receiverType`), and has no arguments. The finding is
  /// dropped when another file reads that property into a protected keychain item or key.
  public var isPropertyRead: Bool
  /// Dropped when shipped code anywhere in the scan reads an `LAContext`'s domain state
  /// (`CallFacts.enrollmentChecks`): the app checks for new enrollments, in a place a
  /// finding about this gate cannot tie to it.
  public var unlessEnrollmentIsChecked: Bool
  /// Stands only when the scanned folder has an app's settings (Info.plist, Xcode project,
  /// `.xcconfig`) and none of them declares `NSFaceIDUsageDescription` (`FaceIDUsage`).
  public var unlessFaceIDUsageIsDeclared: Bool
  /// For a value handed inside a value built for another call (`Vault(settings: .init(protection:
  /// value))`): that call, tried when `call` settles nothing.
  public var enclosingCall: CallShape?
  /// The internal function the finding's code is in, when its own file never calls it: the
  /// finding is in code no build runs (`BuildCondition.uncalled`) unless some file of the scan
  /// names the function (`ProjectWords`). Set by the engine, not by rules.
  public var unlessNamedInProject: String?
  /// The internal type the finding's code is in, when its own file never names it but to declare
  /// it: nothing makes or calls into it (`BuildCondition.uncalled`) unless some file of the scan
  /// names it. Set by the engine, not by rules.
  public var unlessTypeNamedInProject: String?
  /// What the declarations around the finding's code conform to: the function or type counts as
  /// uncalled only when each is a protocol the project declares plainly, whose requirements only
  /// its own code calls, by name (`ProjectWords.declaresPlainProtocol`). Set by the engine.
  public var conformances: [String] = []

  public init(
    call: CallShape?, settledMessage: String?, sink: ValueSink? = nil, isPropertyRead: Bool = false,
    unlessEnrollmentIsChecked: Bool = false, unlessFaceIDUsageIsDeclared: Bool = false, enclosingCall: CallShape? = nil,
    unlessNamedInProject: String? = nil, unlessTypeNamedInProject: String? = nil
  ) {
    self.call = call
    self.settledMessage = settledMessage
    self.sink = sink
    self.isPropertyRead = isPropertyRead
    self.unlessEnrollmentIsChecked = unlessEnrollmentIsChecked
    self.unlessFaceIDUsageIsDeclared = unlessFaceIDUsageIsDeclared
    self.enclosingCall = enclosingCall
    self.unlessNamedInProject = unlessNamedInProject
    self.unlessTypeNamedInProject = unlessTypeNamedInProject
  }

  /// Whether the finding waits to learn if some file of the project names its function or type.
  var waitsForProjectNames: Bool { unlessNamedInProject != nil || unlessTypeNamedInProject != nil }

  /// Whether the finding stands at its own place whatever the scan learns: it waits at most to
  /// learn whether its code is called.
  var standsWhereItIs: Bool {
    var rest = self
    (rest.unlessNamedInProject, rest.unlessTypeNamedInProject) = (nil, nil)
    return rest.waitsForNothing
  }

  /// Whether settling needs what the functions of other files do (`CallFacts`).
  var needsCallFacts: Bool { call != nil || enclosingCall != nil || isPropertyRead || unlessEnrollmentIsChecked }

  /// Whether nothing is left to wait for.
  var waitsForNothing: Bool {
    call == nil && settledMessage == nil && sink == nil && !isPropertyRead && !unlessEnrollmentIsChecked
      && !unlessFaceIDUsageIsDeclared && enclosingCall == nil && !waitsForProjectNames
  }
}

extension HandOff {
  /// `pending` (or a hand-off of its own) also dropped when shipped code of the scan checks the
  /// enrollment (`unlessEnrollmentIsChecked`): such a check elsewhere in the app may well guard
  /// the gate, so only the strict profile (`reportsWeakEvidence`) insists.
  public static func waitingForEnrollmentChecks(after pending: HandOff?, reportsWeakEvidence: Bool) -> HandOff? {
    guard !reportsWeakEvidence else { return pending }
    var handOff = pending ?? HandOff(call: nil, settledMessage: nil)
    handOff.unlessEnrollmentIsChecked = true
    return handOff
  }
}

/// A stored property of a type another file declares, read in this file and carried as the
/// authentication context into a keychain item protected by an access control, or a Secure
/// Enclave key (`existing.context` passed as `authenticationContext:`): it settles findings of
/// the file that keeps an evaluated `LAContext` there.
public struct ContextPropertyRead: Sendable, Hashable, Codable {
  public var name: String
  /// The type of the value read from, when this file declares it.
  public var receiverType: String?
  public var location: SourceLocation

  public init(name: String, receiverType: String?, location: SourceLocation) {
    self.name = name
    self.receiverType = receiverType
    self.location = location
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

/// What one file's functions do with what callers pass them: the facts other files' findings
/// are settled with once every file is scanned.
public struct CallFacts: Sendable, Codable {
  public var contextUses: [ContextParameterUse]
  public var parameterReaches: [ParameterReach]
  public var contextPropertyReads: [ContextPropertyRead]
  /// Where the file reads an `LAContext`'s `evaluatedPolicyDomainState` or `domainState`.
  public var enrollmentChecks: [SourceLocation]
  public var propertyReaches: [PropertyReach]
  public var relays: [ValueRelay]

  public init(
    contextUses: [ContextParameterUse] = [], parameterReaches: [ParameterReach] = [],
    contextPropertyReads: [ContextPropertyRead] = [], enrollmentChecks: [SourceLocation] = [],
    propertyReaches: [PropertyReach] = [], relays: [ValueRelay] = []
  ) {
    self.contextUses = contextUses
    self.parameterReaches = parameterReaches
    self.contextPropertyReads = contextPropertyReads
    self.enrollmentChecks = enrollmentChecks
    self.propertyReaches = propertyReaches
    self.relays = relays
  }

  public var isEmpty: Bool {
    contextUses.isEmpty && parameterReaches.isEmpty && contextPropertyReads.isEmpty && enrollmentChecks.isEmpty
      && propertyReaches.isEmpty && relays.isEmpty
  }

  public mutating func append(_ other: CallFacts) {
    contextUses += other.contextUses
    parameterReaches += other.parameterReaches
    contextPropertyReads += other.contextPropertyReads
    enrollmentChecks += other.enrollmentChecks
    propertyReaches += other.propertyReaches
    relays += other.relays
  }
}
