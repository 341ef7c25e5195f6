import SwiftSyntax

/// What an evaluation's success path writes: a setting named for turning biometric unlock or an
/// app lock on (`isAppLockEnabled = sender.isOn`, `Defaults.isBiometryEnabled.toggle()`). Such a
/// prompt confirms a change of that setting inside an app the user already has open, as a prompt
/// reading "Enable Face ID" does (`PolicyEvaluation.confirmsLockSetting`).
extension SemanticModel {
  /// Whether the code that runs after `call` succeeds (its reply, or the statements after it in
  /// its block for the `async` form) writes a lock setting.
  func writesLockSetting(after call: FunctionCallExprSyntax, reply: ClosureExprSyntax?) -> Bool {
    let region: [Syntax]
    if let reply {
      region = [Syntax(reply.statements)]
    } else {
      region = Self.statements(after: Syntax(call))
    }
    return region.contains { Self.holdsLockSettingWrite($0) }
  }

  /// The statements after the one holding `node`, in its block.
  private static func statements(after node: Syntax) -> [Syntax] {
    var current = node
    while let parent = current.parent {
      if let item = current.as(CodeBlockItemSyntax.self), let list = parent.as(CodeBlockItemListSyntax.self) {
        return list.filter { $0.position > item.position }.map(Syntax.init)
      }
      if parent.is(ClosureExprSyntax.self) || parent.is(FunctionDeclSyntax.self) { return [] }
      current = parent
    }
    return []
  }

  private static func holdsLockSettingWrite(_ region: Syntax) -> Bool {
    for node in region.tokens(viewMode: .sourceAccurate).compactMap(\.parent) {
      // `setting = value` and `setting.toggle()`: the name written is the last one before them.
      if let name = node.as(DeclReferenceExprSyntax.self), namesLockSetting(name.baseName.text),
        isWritten(Syntax(name))
      {
        return true
      }
    }
    return false
  }

  /// Whether the reference (or the member access it ends) is assigned to or toggled.
  private static func isWritten(_ name: Syntax) -> Bool {
    var target = name
    if let member = name.parent?.as(MemberAccessExprSyntax.self), member.declName.id == name.id {
      target = Syntax(member)
    }
    if let member = target.parent?.as(MemberAccessExprSyntax.self), member.base?.id == target.id,
      member.declName.baseName.text == "toggle", member.parent?.is(FunctionCallExprSyntax.self) == true
    {
      return true
    }
    guard let sequence = target.parent?.as(ExprListSyntax.self) else { return false }
    let elements = Array(sequence)
    return elements.count >= 3 && elements[0].id == target.id && elements[1].is(AssignmentExprSyntax.self)
  }

  /// A name saying a biometric unlock or an app lock is enabled: `isAppLockEnabled`,
  /// `biometricsEnabled`, `isFaceIDEnabled`.
  static func namesLockSetting(_ name: String) -> Bool {
    let words = SensitiveNames.nameWords(name)
    let joined = words.joined()
    let namesLock =
      words.contains { $0.hasPrefix("biometr") || $0 == "lock" || $0 == "applock" }
      || joined.contains("faceid") || joined.contains("touchid")
    return namesLock && words.contains("enabled")
  }
}
