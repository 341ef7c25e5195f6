// The OWASP anti-pattern: Face ID guards a flag, not a keychain item. Also stores a token
// readable at any time. Built as VaultLegacy (Mach-O, arm64 and a universal arm64 + x86_64).
#import "Declarations.h"

static int unlocked;

void unlockVault(void) {
  LAContext *context = [LAContext new];
  [context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics
          localizedReason:0
                    reply:^(BOOL success, id error) { unlocked = success; }];
}

int storeToken(CFTypeRef token) {
  const void *keys[] = {kSecClass, kSecAttrAccessible, kSecValueData};
  const void *values[] = {kSecClassGenericPassword, kSecAttrAccessibleAlways, token};
  return SecItemAdd(CFDictionaryCreate(0, keys, values, 3, 0, 0), 0);
}

int main(void) {
  unlockVault();
  return storeToken(0);
}
