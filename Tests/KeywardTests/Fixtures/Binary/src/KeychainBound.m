// Done right: the secret is a keychain item bound to the current biometric set, and the app
// declares NSFaceIDUsageDescription. Built as VaultSecure (arm64, inside VaultSecure.ipa).
#import "Declarations.h"

CFTypeRef protection(void) {
  return SecAccessControlCreateWithFlags(0, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
                                         kSecAccessControlBiometryCurrentSet, 0);
}

int main(void) {
  LAContext *context = [LAContext new];
  [context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:0 reply:^(BOOL ok, id e){}];
  return protection() != 0;
}
