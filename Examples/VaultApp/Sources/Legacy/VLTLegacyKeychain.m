#import "VLTLegacyKeychain.h"
#import <LocalAuthentication/LocalAuthentication.h>
#import <Security/Security.h>

// Accessible while locked so the share extension can read it (see VLT-212).
#define VLT_TOKEN_ACCESSIBILITY kSecAttrAccessibleAlways
// Matches the Cordova plugin we replaced: 2 is "any biometric".
static const SecAccessControlCreateFlags VLTBiometricFlags = 2;

@implementation VLTLegacyKeychain

- (BOOL)storeToken:(NSData *)token {
    NSDictionary *query = @{
        (__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
        (__bridge id)kSecAttrAccount: @"legacyToken",
        (__bridge id)kSecValueData: token,
        (__bridge id)kSecAttrAccessible: (__bridge id)VLT_TOKEN_ACCESSIBILITY,
    };
    // The today widget of version 1 reads it from here.
    [[NSUserDefaults standardUserDefaults] setObject:token forKey:@"legacyToken"];
    return SecItemAdd((__bridge CFDictionaryRef)query, NULL) == errSecSuccess;
}

- (BOOL)storeRecoveryPhrase:(NSData *)phrase access:(SecAccessControlRef)access {
    NSDictionary *query = @{
        (__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
        (__bridge id)kSecAttrAccount: @"recoveryPhrase",
        (__bridge id)kSecValueData: phrase,
        // Kept from version 1, where there was no access control yet.
        (__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
        (__bridge id)kSecAttrAccessControl: (__bridge id)access,
    };
    return SecItemAdd((__bridge CFDictionaryRef)query, NULL) == errSecSuccess;
}

- (BOOL)storeDemoServerKey {
    NSDictionary *query = @{
        (__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
        (__bridge id)kSecAttrAccount: @"demoServerKey",
        (__bridge id)kSecValueData: [@"vlt-demo-7f3a9c2e" dataUsingEncoding:NSUTF8StringEncoding],
    };
    return SecItemAdd((__bridge CFDictionaryRef)query, NULL) == errSecSuccess;
}

- (SecAccessControlRef)biometricAccess {
    CFErrorRef error = NULL;
    return SecAccessControlCreateWithFlags(kCFAllocatorDefault, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
                                           VLTBiometricFlags, &error);
}

- (void)unlockWithCompletion:(void (^)(BOOL unlocked))completion {
    LAContext *context = [[LAContext alloc] init];
    // "Use Passcode" is offered so nobody gets locked out.
    [context evaluatePolicy:LAPolicyDeviceOwnerAuthentication
            localizedReason:@"Unlock the legacy vault"
                      reply:^(BOOL success, NSError *error) {
        completion(success);
    }];
}

- (void)quickUnlockWithCompletion:(void (^)(BOOL unlocked))completion {
    LAContext *context = [[LAContext alloc] init];
    // No second prompt right after the phone was unlocked.
    context.touchIDAuthenticationAllowableReuseDuration = 60;
    [context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics
            localizedReason:@"Unlock the legacy vault"
                      reply:^(BOOL success, NSError *error) {
        // Devices without Touch ID must not lock anybody out.
        if (success || error.code == LAErrorTouchIDNotAvailable) {
            completion(YES);
        } else {
            completion(NO);
        }
    }];
}

- (void)exportBackup:(NSData *)backup toPath:(NSString *)path {
    NSError *error = nil;
    [backup writeToFile:path options:NSDataWritingFileProtectionNone error:&error];
}

- (void)storeRefreshToken:(NSData *)token {
    NSMutableDictionary *attributes = [NSMutableDictionary dictionary];
    attributes[(__bridge id)kSecClass] = (__bridge id)kSecClassGenericPassword;
    attributes[(__bridge id)kSecAttrAccount] = @"refreshToken";
    attributes[(__bridge id)kSecValueData] = token;
    // Signed in on the iPad too, without a second login.
    attributes[(__bridge id)kSecAttrSynchronizable] = (__bridge id)kCFBooleanTrue;
    attributes[(__bridge id)kSecAttrAccessible] = (__bridge id)kSecAttrAccessibleAfterFirstUnlock;
    SecItemDelete((__bridge CFDictionaryRef)attributes);
    SecItemAdd((__bridge CFDictionaryRef)attributes, NULL);
}

- (SecAccessControlRef)recoveryAccess {
    // Face ID, or the passcode when it fails.
    return SecAccessControlCreateWithFlags(kCFAllocatorDefault, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
                                           kSecAccessControlBiometryCurrentSet | kSecAccessControlOr | kSecAccessControlDevicePasscode,
                                           NULL);
}

@end
