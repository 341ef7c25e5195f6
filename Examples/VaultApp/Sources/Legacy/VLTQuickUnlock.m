#import <Foundation/Foundation.h>
#import <LocalAuthentication/LocalAuthentication.h>
#import <Security/Security.h>

// Quick unlock for the legacy layer: the vault key is bound to the current biometrics and read
// with the evaluated context. The prompt's text was left empty.
@implementation VLTQuickUnlock

- (SecAccessControlRef)vaultKeyAccess {
    return SecAccessControlCreateWithFlags(NULL, kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                                           kSecAccessControlBiometryCurrentSet, NULL);
}

- (void)unlockWithCompletion:(void (^)(NSData *key))completion {
    LAContext *context = [[LAContext alloc] init];
    [context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics
            localizedReason:@""
                      reply:^(BOOL success, NSError *error) {
        if (!success) { completion(nil); return; }
        NSDictionary *query = @{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
                                (__bridge id)kSecAttrAccount: @"vaultKey",
                                (__bridge id)kSecReturnData: @YES,
                                (__bridge id)kSecUseAuthenticationContext: context};
        CFTypeRef result = NULL;
        OSStatus status = SecItemCopyMatching((__bridge CFDictionaryRef)query, &result);
        completion(status == errSecSuccess ? (__bridge_transfer NSData *)result : nil);
    }];
}

// The share extension reads the session from the App Group container.
- (void)publishSessionToken:(NSData *)sessionToken {
    NSURL *shared = [[NSFileManager defaultManager] containerURLForSecurityApplicationGroupIdentifier:@"group.com.example.vault"];
    [sessionToken writeToURL:[shared URLByAppendingPathComponent:@"session_token"] atomically:YES];
}

@end
