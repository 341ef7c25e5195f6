import SwiftSyntax

/// A keychain accessibility class (`kSecAttrAccessible` values, Apple's `SecItem.h`).
public struct AccessibilityClass: Sendable, Hashable {
  public var name: String
  /// The constant's string value, as stored under the key `pdmn`.
  public var rawValue: String
  public var isDeprecated: Bool
  /// Apple's stated replacement for deprecated classes.
  public var replacement: String?

  public var isThisDeviceOnly: Bool { name.hasSuffix("ThisDeviceOnly") }

  public static let all: [AccessibilityClass] = [
    .init(name: "kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly", rawValue: "akpu", isDeprecated: false),
    .init(name: "kSecAttrAccessibleWhenUnlockedThisDeviceOnly", rawValue: "aku", isDeprecated: false),
    .init(name: "kSecAttrAccessibleWhenUnlocked", rawValue: "ak", isDeprecated: false),
    .init(name: "kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly", rawValue: "cku", isDeprecated: false),
    .init(name: "kSecAttrAccessibleAfterFirstUnlock", rawValue: "ck", isDeprecated: false),
    .init(
      name: "kSecAttrAccessibleAlways", rawValue: "dk", isDeprecated: true,
      replacement: "kSecAttrAccessibleAfterFirstUnlock"),
    .init(
      name: "kSecAttrAccessibleAlwaysThisDeviceOnly", rawValue: "dku", isDeprecated: true,
      replacement: "kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly"),
  ]

  public static let names: [String] = all.map(\.name)

  public static func named(_ name: String) -> AccessibilityClass? { all.first { $0.name == name } }

  /// The class a resolved value denotes: the constant by name (bare or module-qualified), or
  /// its raw string (`"dk"`). `isRaw` tells which, since only the named form can be fixed by
  /// swapping names.
  public static func denoted(by expression: ExprSyntax) -> (value: AccessibilityClass, isRaw: Bool)? {
    if let reference = expression.as(DeclReferenceExprSyntax.self) {
      return named(reference.baseName.text).map { ($0, false) }
    }
    if let member = expression.as(MemberAccessExprSyntax.self), member.base != nil {
      return named(member.declName.baseName.text).map { ($0, false) }
    }
    if let text = SyntaxFacts.stringLiteralValue(expression) {
      return all.first { $0.rawValue == text }.map { ($0, true) }
    }
    return nil
  }

  /// The class an Objective-C token denotes: the constant by name, or its raw string (`@"dk"`).
  public static func denoted(by token: ObjCToken) -> (value: AccessibilityClass, isRaw: Bool)? {
    switch token.kind {
    case .identifier: named(token.text).map { ($0, false) }
    case .string: all.first { $0.rawValue == token.text }.map { ($0, true) }
    default: nil
    }
  }
}
