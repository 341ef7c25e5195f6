import KeywardCore
import Testing

/// Which Objective-C code is built only for native macOS, from its preprocessor lines.
@Suite struct ObjCTargetPlatformTests {
  /// Whether the line holding `marker` (a word in the source) is macOS-only.
  func isMacOnly(_ source: String, at marker: String = "here") -> Bool {
    let offset = source.utf8.count - (source.range(of: marker).map { source[$0.lowerBound...].utf8.count } ?? 0)
    return ObjCTargetPlatform(ObjCModel(bytes: Array(source.utf8))).isMacOSOnly(at: offset)
  }

  @Test func conditionsThatImplyMacOS() {
    #expect(isMacOnly("#if TARGET_OS_OSX\nhere;\n#endif\n"))
    #expect(isMacOnly("#if !TARGET_OS_IPHONE\nhere;\n#endif\n"))
    #expect(isMacOnly("#if TARGET_OS_MAC && !TARGET_OS_IPHONE\nhere;\n#endif\n"))
    #expect(isMacOnly("#if TARGET_OS_IPHONE\nx;\n#else\nhere;\n#endif\n"))
    #expect(isMacOnly("#if TARGET_OS_IPHONE\nx;\n#elif defined(SOMETHING)\nhere;\n#endif\n"))
    #expect(isMacOnly("#if (TARGET_OS_OSX)\n#if DEBUG\nhere;\n#endif\n#endif\n"))
  }

  @Test func conditionsThatDoNot() {
    #expect(!isMacOnly("#if TARGET_OS_MAC\nhere;\n#endif\n"))
    #expect(!isMacOnly("#if TARGET_OS_OSX || TARGET_OS_IOS\nhere;\n#endif\n"))
    #expect(!isMacOnly("#if TARGET_OS_OSX\nx;\n#else\nhere;\n#endif\n"))
    #expect(!isMacOnly("#if !(TARGET_OS_IOS || TARGET_OS_TV)\nhere;\n#endif\n"))
    #expect(!isMacOnly("#ifdef TARGET_OS_OSX\nhere;\n#endif\n"))
    #expect(!isMacOnly("#if TARGET_OS_OSX\nx;\n#endif\nhere;\n"))
    #expect(!isMacOnly("#if TARGET_OS_MACCATALYST\nhere;\n#endif\n"))
  }

  @Test func importsDecideTheRestOfTheFile() {
    #expect(isMacOnly("#import <Cocoa/Cocoa.h>\nhere;\n"))
    #expect(isMacOnly("#include <AppKit/AppKit.h>\nhere;\n"))
    #expect(!isMacOnly("#import <AppKit/AppKit.h>\n#import <UIKit/UIKit.h>\nhere;\n"))
    #expect(!isMacOnly("#if TARGET_OS_OSX\n#import <AppKit/AppKit.h>\n#endif\nhere;\n"))
    // An iOS clause inside a file importing AppKit is still not macOS code.
    #expect(!isMacOnly("#import <AppKit/AppKit.h>\n#if TARGET_OS_IOS\nhere;\n#endif\n"))
  }
}
