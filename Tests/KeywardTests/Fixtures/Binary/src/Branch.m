// The flags are picked by a branch: userPresence when the caller asks for a passcode fallback,
// biometryCurrentSet otherwise. Compilers turn the choice into a conditional select (csinc,
// cmov). Built as VaultBranch (arm64 and x86_64 simulator, universal).
#import "Declarations.h"

CFTypeRef chosenProtection(int allowPasscode) {
  unsigned long flags = allowPasscode ? kSecAccessControlUserPresence : kSecAccessControlBiometryCurrentSet;
  return SecAccessControlCreateWithFlags(0, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, flags, 0);
}

CFTypeRef strictProtection(int strongest) {
  unsigned long flags = strongest ? kSecAccessControlBiometryCurrentSet
                                  : kSecAccessControlBiometryCurrentSet | kSecAccessControlDevicePasscode;
  return SecAccessControlCreateWithFlags(0, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, flags, 0);
}

int main(int argc, char **argv) { return chosenProtection(argc > 1) && strictProtection(argc > 2); }
