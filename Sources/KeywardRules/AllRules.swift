import KeywardCore

/// Every rule Keyward ships, in the order they are listed. A test fails when a rule type in
/// this module is missing here.
public let allRules: [any Rule.Type] = [
  WeakBiometricACL.self,
  WeakKeychainAccessibility.self,
  EventBoundBiometricAuth.self,
  PasscodeFallbackPolicy.self,
  PasscodeFallbackACL.self,
  StatusUnchecked.self,
  HardcodedKeychainSecret.self,
  SynchronizableSecret.self,
  ConflictingAttributes.self,
  ItemMigratable.self,
  DeprecatedSecurityAPI.self,
  UnprotectedFileStorage.self,
  BiometricReuseWindow.self,
  EnrollmentChangeUnchecked.self,
  CleartextStoragePreferences.self,
  LocalAuthFailOpen.self,
  ObjCWeakKeychainAccessibility.self,
  ObjCWeakBiometricACL.self,
  ObjCEventBoundBiometricAuth.self,
  ObjCPasscodeFallbackPolicy.self,
  ObjCEnrollmentChangeUnchecked.self,
  ObjCBiometricReuseWindow.self,
  ObjCUnprotectedFileStorage.self,
  ObjCDeprecatedSecurityAPI.self,
  ObjCLocalAuthFailOpen.self,
  ObjCCleartextStoragePreferences.self,
  ObjCConflictingAttributes.self,
  ObjCHardcodedKeychainSecret.self,
  ObjCPasscodeFallbackACL.self,
  ObjCSynchronizableSecret.self,
  ObjCStatusUnchecked.self,
  ObjCItemMigratable.self,
  BinaryWeakKeychainAccessibility.self,
  BinaryEventBoundAuth.self,
  BinaryWeakBiometricACL.self,
  BinaryMissingFaceIDUsage.self,
  BinaryWeakDataProtection.self,
  UnusedSuppression.self,
  UnknownSuppressedRule.self,
  MissingSuppressionReason.self,
]

extension RuleCatalog {
  public static let standard = RuleCatalog(rules: allRules)
}
