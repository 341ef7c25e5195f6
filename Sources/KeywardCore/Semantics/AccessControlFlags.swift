import SwiftSyntax

/// A member of `SecAccessControlCreateFlags` (Apple's `SecAccessControl.h`).
public struct AccessControlFlag: Sendable, Hashable {
  public var name: String
  public var objcName: String
  public var bit: UInt64
  /// For deprecated members, the member that replaces them.
  public var replacement: String?

  public static let all: [AccessControlFlag] = [
    .init(name: "userPresence", objcName: "kSecAccessControlUserPresence", bit: 1 << 0),
    .init(name: "biometryAny", objcName: "kSecAccessControlBiometryAny", bit: 1 << 1),
    .init(name: "touchIDAny", objcName: "kSecAccessControlTouchIDAny", bit: 1 << 1, replacement: "biometryAny"),
    .init(name: "biometryCurrentSet", objcName: "kSecAccessControlBiometryCurrentSet", bit: 1 << 3),
    .init(
      name: "touchIDCurrentSet", objcName: "kSecAccessControlTouchIDCurrentSet", bit: 1 << 3,
      replacement: "biometryCurrentSet"),
    .init(name: "devicePasscode", objcName: "kSecAccessControlDevicePasscode", bit: 1 << 4),
    .init(name: "watch", objcName: "kSecAccessControlWatch", bit: 1 << 5, replacement: "companion"),
    .init(name: "companion", objcName: "kSecAccessControlCompanion", bit: 1 << 5),
    .init(name: "or", objcName: "kSecAccessControlOr", bit: 1 << 14),
    .init(name: "and", objcName: "kSecAccessControlAnd", bit: 1 << 15),
    .init(name: "privateKeyUsage", objcName: "kSecAccessControlPrivateKeyUsage", bit: 1 << 30),
    .init(name: "applicationPassword", objcName: "kSecAccessControlApplicationPassword", bit: 1 << 31),
  ]

  public static let names: [String] = all.map(\.name)

  public static func named(_ name: String) -> AccessControlFlag? { all.first { $0.name == name } }

  /// The members whose bits make up `rawValue`, preferring current names over deprecated ones
  /// that share a bit. Unknown bits are ignored.
  public static func decode(_ rawValue: UInt64) -> [AccessControlFlag] {
    all.filter { $0.replacement == nil && rawValue & $0.bit != 0 }
  }

  /// The flags whose bits `name`'s bit covers, for matching a decoded raw value against a list
  /// of names: `touchIDAny` in a list matches a raw value decoded as `biometryAny`.
  public static func sameBit(as name: String) -> Set<String> {
    guard let flag = named(name) else { return [name] }
    return Set(all.filter { $0.bit == flag.bit }.map(\.name))
  }
}

/// Where a flag in an access control comes from.
public struct FlagOrigin {
  public var flag: AccessControlFlag
  /// The expression to report and to fix: the `.member`, or the integer of `rawValue:`.
  public var node: ExprSyntax
  public var isConditional: Bool
  public var fromRawValue: Bool
  public var reachedThroughName: Bool
  /// One branch of a choice the function's caller makes (`ResolvedValue.chosenByCaller`).
  public var chosenByCaller = false
  /// The flag set written together with this flag: the array literal (or the lone member, or
  /// the raw value) it is part of. Sets written in different places (the two sides of a
  /// ternary, two `#if` clauses, two assignments) are alternatives, never in force together.
  public var writtenSet: SyntaxIdentifier? = nil
  /// Added to whichever set the value holds (`flags.insert(.or)`, `.union(.devicePasscode)`).
  public var isAddition = false
  /// Where a mapping table's case was chosen (`ResolvedValue.choice`), when the flag came out of
  /// one: the choice is what to report, not the table offering the flag.
  public var choice: ExprSyntax? = nil

  /// Where a finding about the flag belongs: the choice, else the flag itself.
  public var reportedNode: ExprSyntax { choice ?? node }

  public init(
    flag: AccessControlFlag, node: ExprSyntax, isConditional: Bool, fromRawValue: Bool, reachedThroughName: Bool
  ) {
    self.flag = flag
    self.node = node
    self.isConditional = isConditional
    self.fromRawValue = fromRawValue
    self.reachedThroughName = reachedThroughName
  }
}

/// Evaluates expressions of type `SecAccessControlCreateFlags` to the flags they contain:
/// members (`.biometryAny`, `SecAccessControlCreateFlags.biometryAny`), array literals,
/// `union`, `rawValue:` integers, and names holding any of these, including variables grown
/// with `insert` / `formUnion` / `update(with:)`. One per file, shared by the rules through the
/// semantic model, so each expression is evaluated once however many rules ask.
public final class AccessControlEvaluator {
  public static let typeName = "SecAccessControlCreateFlags"
  static let growingMethods: Set<String> = ["insert", "formUnion", "update", "formSymmetricDifference"]
  static let combiningMethods: Set<String> = ["union", "symmetricDifference"]
  static let narrowingMethods: Set<String> = ["intersection", "subtracting"]

  let resolver: ConstantResolver
  private var originsByExpression: [SyntaxIdentifier: [FlagOrigin]] = [:]

  public init(resolver: ConstantResolver) { self.resolver = resolver }

  public func origins(of expression: ExprSyntax) -> [FlagOrigin] {
    if let known = originsByExpression[expression.id] { return known }
    var result: [FlagOrigin] = []
    collect(expression, Placement(), depth: 0, into: &result)
    // The flags, or the access control made from them, given only where the caller picks.
    if resolver.isGivenOnCallersChoice(expression)
      || Self.creation(takingFlags: expression).map({ resolver.isGivenOnCallersChoice(ExprSyntax($0)) }) == true
    {
      for index in result.indices { result[index].chosenByCaller = true }
    }
    originsByExpression[expression.id] = result
    return result
  }

  /// The `SecAccessControlCreateWithFlags` call `expression` is written as the flags of.
  static func creation(takingFlags expression: ExprSyntax) -> FunctionCallExprSyntax? {
    guard let call = SyntaxFacts.callTaking(expression)?.call,
      SyntaxFacts.calledName(call) == "SecAccessControlCreateWithFlags",
      SyntaxFacts.argument(call, at: 2)?.id == expression.id
    else { return nil }
    return call
  }

  /// The flag sets `expression` may hold, one per alternative way of writing it: each written
  /// set with every addition made to it. `cond ? [.biometryAny, .or, .devicePasscode] :
  /// [.devicePasscode]` is two sets, not one with both.
  public func flagSets(of expression: ExprSyntax) -> [[FlagOrigin]] {
    Self.flagSets(origins(of: expression))
  }

  public static func flagSets(_ origins: [FlagOrigin]) -> [[FlagOrigin]] {
    let additions = origins.filter(\.isAddition)
    var written: [SyntaxIdentifier: [FlagOrigin]] = [:]
    var order: [SyntaxIdentifier] = []
    for origin in origins where !origin.isAddition {
      let set = origin.writtenSet ?? origin.node.id
      if written[set] == nil { order.append(set) }
      written[set, default: []].append(origin)
    }
    if order.isEmpty { return additions.isEmpty ? [] : [additions] }
    return order.map { written[$0]! + additions }
  }

  /// Whether the device passcode alone opens an item with these flags: `.devicePasscode` with
  /// `.or`, or with no biometric or companion constraint beside it.
  public static func passcodeAloneOpens(_ set: [FlagOrigin]) -> Bool { passcodeAloneOpens(Set(set.map(\.flag.name))) }

  public static func passcodeAloneOpens(_ names: Set<String>) -> Bool {
    acceptsPasscodeInstead(names) || (names.contains("devicePasscode") && names.isDisjoint(with: userFactors))
  }

  /// Whether the flags offer the passcode in place of the other factors (`.or, .devicePasscode`).
  public static func acceptsPasscodeInstead(_ names: Set<String>) -> Bool {
    names.contains("or") && names.contains("devicePasscode")
  }

  /// Whether the flags also require the app's own password (`.applicationPassword` without
  /// `.or`): neither the device passcode nor a newly enrolled finger opens the item alone.
  public static func requiresApplicationPassword(_ names: Set<String>) -> Bool {
    names.contains("applicationPassword") && !names.contains("or")
  }

  /// Whether the array literal a flag is written in requires the app's password too
  /// (`[.userPresence, .applicationPassword]`).
  public static func writtenBesideApplicationPassword(_ flag: ExprSyntax) -> Bool {
    guard let array = flag.parent?.parent?.parent?.as(ArrayExprSyntax.self) else { return false }
    return requiresApplicationPassword(
      Set(array.elements.compactMap { $0.expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text }))
  }

  /// Flags that ask for the user's biometrics or another of their devices.
  public static let userFactors: Set<String> = [
    "biometryAny", "biometryCurrentSet", "touchIDAny", "touchIDCurrentSet", "userPresence", "watch", "companion",
  ]

  /// Where the walk is: inside which written set, and whether what it finds adds to the value.
  private struct Placement {
    var conditional = false
    var throughName = false
    var writtenSet: SyntaxIdentifier? = nil
    var isAddition = false

    func with(conditional: Bool, throughName: Bool) -> Placement {
      var copy = self
      copy.conditional = self.conditional || conditional
      copy.throughName = self.throughName || throughName
      return copy
    }
  }

  /// Every expression in the file that is certainly of type `SecAccessControlCreateFlags`:
  /// the flags argument of `SecAccessControlCreateWithFlags`, values of names declared with that
  /// type, qualified members and `rawValue:` initialisers. Found once, for every rule that asks.
  public private(set) lazy var allFlagExpressions: [ExprSyntax] = findFlagExpressions()

  private func findFlagExpressions() -> [ExprSyntax] {
    let index = resolver.index
    var roots: [ExprSyntax] = []
    var tableBodies: Set<SyntaxIdentifier> = []
    for call in index.calls(named: "SecAccessControlCreateWithFlags") {
      if let flags = SyntaxFacts.argument(call, at: 2) { roots.append(flags) }
    }
    for bindings in index.bindingsByName.values {
      // A property several types each answer differently (`var flags: ... { [.biometryAny] }` in
      // one constraint type, `.biometryCurrentSet` in another) is a mapping table: the code that
      // picks the type chooses, and it is judged where its flags reach an access control.
      // The type may be named through an alias (`typealias RawValue = SecAccessControlCreateFlags`).
      let isFlags = { (binding: Binding) in
        guard let name = binding.typeName, name != Self.typeName else { return binding.typeName != nil }
        let owner = SyntaxFacts.memberBlock(declaring: binding.node).flatMap(SyntaxFacts.typeName(declaring:))
        return (owner.flatMap { index.typeAliases["\($0).\(name)"] } ?? index.typeAliases[name]) == Self.typeName
      }
      let answers = bindings.filter { $0.kind == .computed && isFlags($0) }
      let isTable = Set(answers.compactMap { SyntaxFacts.memberBlock(declaring: $0.node)?.id }).count >= 2
      for binding in bindings where binding.kind != .parameter && isFlags(binding) {
        // An enum's `switch self` table (`case .any: return .biometryAny`) is judged where a
        // case is chosen, through the resolver, when its flags reach an access control.
        if (binding.kind == .computed && isTable) || resolver.isMappingTable(binding) {
          if let body = binding.body { tableBodies.insert(body.id) }
          continue
        }
        roots += binding.initializer.map { [$0] } ?? []
        roots += binding.returnedExpressions
      }
    }
    for (receiver, calls) in index.memberCallsByReceiver {
      for call in calls where Self.growingMethods.contains(call.method) {
        guard let binding = resolver.binding(denotedBy: call.receiver), binding.name == receiver,
          binding.typeName == Self.typeName, let argument = call.call.arguments.first?.expression
        else { continue }
        roots.append(argument)
      }
    }
    // A qualified flag a table offers (`return SecAccessControlCreateFlags.biometryAny`) too.
    let isOffered = { (member: MemberAccessExprSyntax) in
      sequence(first: Syntax(member), next: \.parent).contains { tableBodies.contains($0.id) }
    }
    roots += (index.qualifiedMembersByType[Self.typeName] ?? []).filter { tableBodies.isEmpty || !isOffered($0) }
      .map { ExprSyntax($0) }
    roots += index.calls(named: Self.typeName).map { ExprSyntax($0) }
    return roots
  }

  private func collect(_ expression: ExprSyntax, _ placement: Placement, depth: Int, into result: inout [FlagOrigin]) {
    guard depth < ConstantResolver.maximumDepth else { return }
    for value in resolver.values(of: expression, mutatingMethods: Self.growingMethods) {
      let before = result.count
      defer {
        for index in before..<result.count {
          if value.chosenByCaller { result[index].chosenByCaller = true }
          if result[index].choice == nil { result[index].choice = value.choice }
        }
      }
      var here = placement.with(conditional: value.isConditional, throughName: value.reachedThroughName)
      here.isAddition = placement.isAddition || value.isAddedByMutation
      let leaf = value.expression
      if let array = leaf.as(ArrayExprSyntax.self) {
        here.writtenSet = here.writtenSet ?? array.id
        for element in array.elements { collect(element.expression, here, depth: depth + 1, into: &result) }
      } else if let member = leaf.as(MemberAccessExprSyntax.self) {
        guard isFlagMember(member), let flag = AccessControlFlag.named(member.declName.baseName.text) else { continue }
        result.append(origin(flag, at: leaf, here, fromRawValue: false))
      } else if let call = leaf.as(FunctionCallExprSyntax.self) {
        collect(call: call, here, depth: depth, into: &result)
      }
    }
  }

  private func origin(_ flag: AccessControlFlag, at node: ExprSyntax, _ placement: Placement, fromRawValue: Bool)
    -> FlagOrigin
  {
    var origin = FlagOrigin(
      flag: flag, node: node, isConditional: placement.conditional, fromRawValue: fromRawValue,
      reachedThroughName: placement.throughName)
    origin.writtenSet = placement.writtenSet ?? node.id
    origin.isAddition = placement.isAddition
    return origin
  }

  private func collect(
    call: FunctionCallExprSyntax, _ placement: Placement, depth: Int, into result: inout [FlagOrigin]
  ) {
    let callee = call.calledExpression
    if let member = callee.as(MemberAccessExprSyntax.self), let base = member.base {
      let method = member.declName.baseName.text
      if Self.combiningMethods.contains(method) || Self.narrowingMethods.contains(method) {
        collect(base, placement, depth: depth + 1, into: &result)
        if Self.combiningMethods.contains(method), let argument = call.arguments.first?.expression {
          var added = placement
          added.isAddition = true
          collect(argument, added, depth: depth + 1, into: &result)
        }
        return
      }
    }
    guard isInitializer(callee) else { return }
    if let raw = SyntaxFacts.argument(call, labeled: "rawValue") {
      for value in resolver.values(of: raw) {
        guard let bits = Self.rawBits(startingAt: value.expression) else { continue }
        let site = Self.rawSite(startingAt: value.expression)
        var here = placement.with(conditional: value.isConditional, throughName: value.reachedThroughName)
        here.writtenSet = here.writtenSet ?? site.id
        for flag in AccessControlFlag.decode(bits) {
          result.append(origin(flag, at: site, here, fromRawValue: true))
        }
      }
    } else if call.arguments.count == 1, let only = call.arguments.first, only.label == nil {
      collect(only.expression, placement, depth: depth + 1, into: &result)
    }
  }

  /// The integer a raw value is: a literal, or the bit arithmetic it begins (`1 << 5`,
  /// `1 << 0 | 1 << 30`), which the resolver stands by its first element. Nil when a part is
  /// not a literal or the operator is another.
  static func rawBits(startingAt first: ExprSyntax) -> UInt64? {
    guard let list = first.parent?.as(ExprListSyntax.self), list.first?.id == first.id, list.count > 1 else {
      return SyntaxFacts.integerLiteralValue(first)
    }
    let elements = Array(list)
    guard elements.count % 2 == 1 else { return nil }
    // Shifts bind tighter than `|` and `+`: fold them into their left operand first.
    var terms: [UInt64] = []
    var joins: [String] = []
    guard var current = SyntaxFacts.integerLiteralValue(SequenceShape.unwrap(elements[0])) else { return nil }
    for index in stride(from: 1, to: elements.count, by: 2) {
      guard let op = SequenceShape.operatorText(elements[index]),
        let operand = SyntaxFacts.integerLiteralValue(SequenceShape.unwrap(elements[index + 1]))
      else { return nil }
      switch op {
      case "<<": current = operand < 64 ? current << operand : 0
      case "|", "+":
        terms.append(current)
        joins.append(op)
        current = operand
      default: return nil
      }
    }
    terms.append(current)
    return terms.dropFirst().enumerated().reduce(terms[0]) { total, next in
      joins[next.offset] == "|" ? total | next.element : total &+ next.element
    }
  }

  /// The whole of the bit arithmetic `first` begins, or `first` alone.
  static func rawSite(startingAt first: ExprSyntax) -> ExprSyntax {
    guard let list = first.parent?.as(ExprListSyntax.self), list.first?.id == first.id, list.count > 1,
      let sequence = list.parent?.as(SequenceExprSyntax.self)
    else { return first }
    return ExprSyntax(sequence)
  }

  /// `.member` (its type comes from context) or `SecAccessControlCreateFlags.member`.
  private func isFlagMember(_ member: MemberAccessExprSyntax) -> Bool {
    guard let base = member.base else { return true }
    return base.as(DeclReferenceExprSyntax.self)?.baseName.text == Self.typeName
  }

  /// `SecAccessControlCreateFlags(...)`, `SecAccessControlCreateFlags.init(...)`, `.init(...)`.
  private func isInitializer(_ callee: ExprSyntax) -> Bool {
    if let reference = callee.as(DeclReferenceExprSyntax.self) { return reference.baseName.text == Self.typeName }
    guard let member = callee.as(MemberAccessExprSyntax.self), member.declName.baseName.tokenKind == .keyword(.`init`)
    else { return false }
    return member.base == nil || member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == Self.typeName
  }
}
