// An embedded framework of VaultLegacy.app that keeps its cache key readable at any time.
extern const void *kSecAttrAccessibleAlwaysThisDeviceOnly;
const void *cacheKeyProtection(void) { return kSecAttrAccessibleAlwaysThisDeviceOnly; }
