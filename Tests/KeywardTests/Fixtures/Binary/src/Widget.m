// VaultFamily.app's widget extension: its item accepts the passcode as well as biometrics
// (userPresence). Signed with NSFileProtectionComplete.
#import "Declarations.h"

CFTypeRef widgetProtection(void) {
  return SecAccessControlCreateWithFlags(0, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
                                         kSecAccessControlUserPresence, 0);
}

int main(void) { return widgetProtection() != 0; }
