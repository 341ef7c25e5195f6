/// A call that hands an `LAContext` to a function the calling file does not declare
/// (`store.retrieve(context: context)`), as far as a call site tells: the function's base name
/// (a type's name for an initializer), argument labels, and the receiver's type when the file
/// declares it.
public struct ContextCall: Sendable, Hashable, Codable {
  public var name: String
  /// One per argument, `_` for an unlabelled one.
  public var labels: [String]
  /// The argument that carries the context.
  public var argument: Int
  /// The type the receiver is declared with (`let store: SecureStore`, `= SecureStore()`,
  /// `self`, or a type named directly); nil when the call has no receiver or its type is unknown.
  public var receiverType: String?

  public init(name: String, labels: [String], argument: Int, receiverType: String? = nil) {
    self.name = name
    self.labels = labels
    self.argument = argument
    self.receiverType = receiverType
  }

  /// `retrieve(context:)`.
  public var signature: String { Self.signature(name: name, labels: labels) }

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
    case handedOn(ContextCall)
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
  public var signature: String { ContextCall.signature(name: name, labels: parameters.map(\.label)) }

  /// Whether `call` calls this function with the context in this parameter: same name, its
  /// labels are the parameters' labels in order with only defaulted parameters left out, and,
  /// when the receiver's type is known, the function belongs to that type or to one declaring it
  /// as superclass or protocol (a protocol's requirement is met by its conformers).
  public func accepts(_ call: ContextCall) -> Bool {
    guard call.name == name else { return false }
    if let receiverType = call.receiverType {
      guard let owner, owner.type == receiverType || owner.supertypes.contains(receiverType) else { return false }
    }
    var next = 0
    for (position, label) in call.labels.enumerated() {
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

/// Attached to a finding whose verdict depends on where its context was handed
/// (`EvaluationBinding.handedOff`), so that a scan of the other file can settle it.
public struct ContextHandOff: Sendable, Hashable {
  public var call: ContextCall
  /// The message once it is known the context does not unlock a protected item, after a
  /// sentence saying where it went; nil keeps the message.
  public var settledMessage: String?

  public init(call: ContextCall, settledMessage: String?) {
    self.call = call
    self.settledMessage = settledMessage
  }
}
