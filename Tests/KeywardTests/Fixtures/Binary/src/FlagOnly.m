// Face ID guards a flag and the app never touches the keychain. Built as VaultFlag (arm64).
#import "Declarations.h"

static int unlocked;

int main(void) {
  LAContext *context = [LAContext new];
  [context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics
          localizedReason:0
                    reply:^(BOOL success, id error) { unlocked = success; }];
  return unlocked;
}
