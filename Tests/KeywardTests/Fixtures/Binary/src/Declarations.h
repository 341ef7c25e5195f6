// Just enough of Security and LocalAuthentication to compile without Apple's SDK.
// Values are Apple's: SecAccessControlCreateFlags bits and LAPolicy cases.
typedef signed char BOOL;
typedef long NSInteger;
typedef const void *CFTypeRef;

enum {
  kSecAccessControlUserPresence = 1 << 0,
  kSecAccessControlBiometryAny = 1 << 1,
  kSecAccessControlBiometryCurrentSet = 1 << 3,
  kSecAccessControlDevicePasscode = 1 << 4,
  kSecAccessControlOr = 1 << 14,
};
enum { LAPolicyDeviceOwnerAuthenticationWithBiometrics = 1, LAPolicyDeviceOwnerAuthentication = 2 };

extern const CFTypeRef kSecClass, kSecClassGenericPassword, kSecAttrAccessible, kSecValueData;
extern const CFTypeRef kSecAttrAccessibleAlways;
extern const CFTypeRef kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly;
extern const CFTypeRef kSecAttrAccessibleWhenUnlockedThisDeviceOnly;
CFTypeRef SecAccessControlCreateWithFlags(CFTypeRef allocator, CFTypeRef protection, unsigned long flags,
                                          void **error);
int SecItemAdd(CFTypeRef attributes, CFTypeRef *result);
CFTypeRef CFDictionaryCreate(CFTypeRef allocator, const void **keys, const void **values, long count,
                             const void *keyCallBacks, const void *valueCallBacks);

__attribute__((objc_root_class))
@interface LAContext
+ (id)new;
- (void)evaluatePolicy:(NSInteger)policy localizedReason:(id)reason reply:(void (^)(BOOL success, id error))reply;
@end
