import SwiftSyntax

/// The keychain items a Swift file writes through wrapper libraries (KeychainAccess, Valet,
/// SwiftKeychainWrapper... and those the configuration maps), from the wrapper mappings the
/// rules read.
extension SemanticModel {
  /// Items configured through a keychain wrapper library: one record per call that sets an
  /// accessibility, an authentication policy or synchronisation.
  func wrapperItemRecords(place: (Int) -> InventoryPlace) -> [KeychainItemRecord] {
    var order: [SyntaxIdentifier] = []
    var records: [SyntaxIdentifier: KeychainItemRecord] = [:]
    for setting in [WrapperMapping.Setting.accessibility, .authenticationPolicy, .synchronizable] {
      for value in wrapperValues(setting) {
        let anchor = value.call.map(Syntax.init) ?? Syntax(value.expression)
        if records[anchor.id] == nil {
          order.append(anchor.id)
          let name = value.call?.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName
          let start = name.map(Syntax.init) ?? anchor
          var record = KeychainItemRecord(
            place: place(start.positionAfterSkippingLeadingTrivia.utf8Offset), language: .swift, kind: .item,
            call: value.call.flatMap(SyntaxFacts.calledName) ?? value.library)
          record.wrapper = value.library
          record.attributesComplete = false
          if let call = value.call {
            record.service = Self.labelledText(["service"], around: call)
            record.account = Self.labelledText(["key", "forKey", "account"], around: call)
          }
          records[anchor.id] = record
        }
        switch setting {
        case .accessibility:
          if AccessibilityClass.named(value.meaning) != nil, !records[anchor.id]!.accessibility.contains(value.meaning)
          {
            records[anchor.id]!.accessibility = (records[anchor.id]!.accessibility + [value.meaning]).sorted()
          }
        case .authenticationPolicy:
          let previous = records[anchor.id]!.accessControl?.flags ?? []
          records[anchor.id]!.accessControl = AccessControlRecord(
            protection: [], flags: Set(previous + [value.meaning]).sorted(), resolved: true)
        case .synchronizable:
          // The wrapper mappings report only what turns synchronisation on.
          records[anchor.id]!.synchronizable = value.isConditional ? .conditional : .true
        case .authenticationContext:
          break
        }
      }
    }
    return order.map { records[$0]! }
  }

  /// A string literal given under one of `labels` to `call` or to the calls chained before or
  /// after it (`Keychain(service: "x").accessibility(.always).set(v, key: "k")`).
  private static func labelledText(_ labels: [String], around call: FunctionCallExprSyntax) -> String? {
    var chain: [FunctionCallExprSyntax] = [call]
    var inner = call.calledExpression.as(MemberAccessExprSyntax.self)?.base
    while let next = inner.flatMap({ SequenceShape.unwrap($0).as(FunctionCallExprSyntax.self) }) {
      chain.append(next)
      inner = next.calledExpression.as(MemberAccessExprSyntax.self)?.base
    }
    var outer = Syntax(call)
    while let member = outer.parent?.as(MemberAccessExprSyntax.self),
      let next = member.parent?.as(FunctionCallExprSyntax.self)
    {
      chain.append(next)
      outer = Syntax(next)
    }
    for candidate in chain {
      for label in labels {
        if let text = SyntaxFacts.argument(candidate, labeled: label).flatMap(SyntaxFacts.stringLiteralValue) {
          return text
        }
      }
    }
    return nil
  }
}
