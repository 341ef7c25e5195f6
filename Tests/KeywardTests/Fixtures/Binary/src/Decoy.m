// A test double compiled into the app: it implements evaluatePolicy:localizedReason:reply:, so
// the selector is in the binary, but nothing calls it. Built as VaultDecoy (arm64).
#import "Declarations.h"

__attribute__((objc_root_class))
@interface FakeContext
- (void)evaluatePolicy:(NSInteger)policy localizedReason:(id)reason reply:(void (^)(BOOL success, id error))reply;
@end

@implementation FakeContext
- (void)evaluatePolicy:(NSInteger)policy localizedReason:(id)reason reply:(void (^)(BOOL success, id error))reply {
}
@end

int main(void) { return 0; }
