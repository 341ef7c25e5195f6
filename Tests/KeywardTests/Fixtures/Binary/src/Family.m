// VaultFamily.app's executable: its secret is bound to the current biometric set, but the app is
// signed with a default data protection weaker than NSFileProtectionComplete and a keychain group
// shared with the team's other apps (see build.sh).
#import "Declarations.h"

CFTypeRef protection(void) {
  return SecAccessControlCreateWithFlags(0, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
                                         kSecAccessControlBiometryCurrentSet, 0);
}

int main(void) { return protection() != 0; }
