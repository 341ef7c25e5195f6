#import <Cocoa/Cocoa.h>
#import <Security/Security.h>

// The Mac menu-bar helper keeps its own copy of the vault key, meant to stay on this Mac.
@implementation VLTMacKeychain

- (BOOL)storeVaultKey:(NSData *)key {
    NSDictionary *item = @{
        (__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
        (__bridge id)kSecAttrService: @"com.example.vault.mac",
        (__bridge id)kSecAttrAccount: @"vaultKey",
        (__bridge id)kSecValueData: key,
        (__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
    };
    return SecItemAdd((__bridge CFDictionaryRef)item, NULL) == errSecSuccess;
}

@end
