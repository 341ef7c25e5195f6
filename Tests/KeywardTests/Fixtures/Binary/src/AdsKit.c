// A vendor SDK embedded in VaultFamily.app. It names kSecAttrAccessibleAlwaysThisDeviceOnly in a
// table of the classes it knows, but no code of it loads the constant.
extern const void *kSecAttrAccessibleAlwaysThisDeviceOnly;
extern const void *kSecAttrAccessibleWhenUnlockedThisDeviceOnly;

const void *const *const adsKnownClasses[] = {&kSecAttrAccessibleAlwaysThisDeviceOnly,
                                              &kSecAttrAccessibleWhenUnlockedThisDeviceOnly};

int adsClassCount(void) { return 2; }
