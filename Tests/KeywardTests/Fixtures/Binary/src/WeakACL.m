// Face ID bound to keychain items, but one item accepts any enrolled finger or face (biometryAny),
// another any biometry or the passcode; a third is right (biometryCurrentSet).
// Built as VaultMixed (arm64).
#import "Declarations.h"

CFTypeRef anyBiometry(void) {
  return SecAccessControlCreateWithFlags(0, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
                                         kSecAccessControlBiometryAny, 0);
}

CFTypeRef biometryOrPasscode(void) {
  return SecAccessControlCreateWithFlags(
      0, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
      kSecAccessControlBiometryAny | kSecAccessControlOr | kSecAccessControlDevicePasscode, 0);
}

CFTypeRef currentSet(void) {
  return SecAccessControlCreateWithFlags(0, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
                                         kSecAccessControlBiometryCurrentSet, 0);
}

CFTypeRef chosenAtRunTime(unsigned long flags) {
  return SecAccessControlCreateWithFlags(0, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, flags, 0);
}

int main(int argc, char **argv) {
  LAContext *context = [LAContext new];
  [context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:0 reply:^(BOOL ok, id e){}];
  return anyBiometry() && biometryOrPasscode() && currentSet() && chosenAtRunTime((unsigned long)argc);
}
