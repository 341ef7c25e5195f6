#import <Foundation/Foundation.h>

/// The Objective-C keychain layer from version 1 of the app, still used by the share extension.
@interface VLTLegacyKeychain : NSObject
- (BOOL)storeToken:(NSData *)token;
- (void)unlockWithCompletion:(void (^)(BOOL unlocked))completion;
- (void)quickUnlockWithCompletion:(void (^)(BOOL unlocked))completion;
@end
