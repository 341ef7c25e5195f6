#import <Cocoa/Cocoa.h>
#import <Security/Security.h>

// The Mac menu-bar helper keeps its own copy of the vault key, behind Touch ID.
@implementation VLTMacKeychain

- (BOOL)storeVaultKey:(NSData *)key access:(SecAccessControlRef)access {
    NSDictionary *item = @{
        (__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
        (__bridge id)kSecAttrService: @"com.example.vault.mac",
        (__bridge id)kSecAttrAccount: @"vaultKey",
        (__bridge id)kSecValueData: key,
        (__bridge id)kSecAttrAccessControl: (__bridge id)access,
    };
    return SecItemAdd((__bridge CFDictionaryRef)item, NULL) == errSecSuccess;
}

@end
