// From the OWASP testing guide chapter on iOS local authentication: the Objective-C samples
// (a LocalAuthentication-only check, storing a password behind user presence, reading it back).
#import <LocalAuthentication/LocalAuthentication.h>
#import <Security/Security.h>

void checkPolicy(void) {
    LAContext *myContext = [[LAContext alloc] init];
    NSError *authError = nil;

    if ([myContext canEvaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics error:&authError]) {
        [myContext ↓↓evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics
                      localizedReason:@"Please, pass authorisation to enter this area"
                                reply:^(BOOL success, NSError *error) {
                if (success) {
                    // User authenticated successfully, take appropriate action
                } else {
                    // User did not authenticate successfully, look at error and take appropriate action
                }
            }];
    } else {
        // Could not evaluate policy; look at authError and present an appropriate message to user
    }
}

void saveItem(void) {
    // 1. create AccessControl object that will represent authentication settings
    CFErrorRef *err = nil;

    SecAccessControlRef sacRef = SecAccessControlCreateWithFlags(kCFAllocatorDefault,
        kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
        ↓kSecAccessControlUserPresence,
        err);

    // 2. define Keychain services query. Pay attention that kSecAttrAccessControl is mutually exclusive with kSecAttrAccessible attribute
    NSDictionary *query = @{ (__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
        (__bridge id)kSecAttrLabel: @"com.me.myapp.password",
        (__bridge id)kSecAttrAccount: @"OWASP Account",
        (__bridge id)kSecValueData: [↓@"S00p3r_haCk3r_strong_password" dataUsingEncoding:NSUTF8StringEncoding],
        (__bridge id)kSecAttrAccessControl: (__bridge_transfer id)sacRef };

    // 3. save item
    OSStatus status = ↓SecItemAdd((__bridge CFDictionaryRef)query, nil);
}

void readItem(void) {
    NSDictionary *query = @{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
        (__bridge id)kSecReturnData: @YES,
        (__bridge id)kSecAttrAccount: @"My Name1",
        (__bridge id)kSecAttrLabel: @"com.me.myapp.password",
        (__bridge id)↓kSecUseOperationPrompt: @"Please, pass authorisation to enter this area" };

    CFTypeRef queryResult = NULL;
    OSStatus status = ↓SecItemCopyMatching((__bridge CFDictionaryRef)query, &queryResult);
}
