import Foundation

/// Whether the scanned folder's app settings declare `NSFaceIDUsageDescription`: in an
/// Info.plist (XML or binary), its `InfoPlist.strings` or string catalog, a Tuist or XcodeGen
/// manifest that generates it, or as the
/// `INFOPLIST_KEY_NSFaceIDUsageDescription` build setting of an Xcode project or `.xcconfig`
/// file that generates the Info.plist.
public enum FaceIDUsage: Sendable, Hashable {
  /// Some settings file declares it.
  case declared
  /// Settings files of an iOS app were found and none declares it.
  case missing
  /// No settings file of an iOS app was found (a folder of sources, a macOS app): nothing can
  /// be said.
  case unknown

  /// Reads the settings files (at most 8 MiB each; unreadable ones count as saying nothing).
  /// Missing only when some file shows an iOS app (`SDKROOT = iphoneos`, `LSRequiresIPhoneOS`,
  /// UIKit launch keys): macOS apps do not need the key. An Xcode project shows one only if it
  /// has an app target: a project building a static library or framework for iOS (a React
  /// Native or CocoaPods module) leaves the key to the apps that link it.
  public static func read(_ absolutePaths: [String]) -> FaceIDUsage {
    var showsIOSApp = false
    let key = Array("NSFaceIDUsageDescription".utf8)
    let iOSMarkers = [
      "iphoneos", "LSRequiresIPhoneOS", "UILaunchStoryboardName", "UIApplicationSceneManifest",
      "UISupportedInterfaceOrientations", "UIRequiredDeviceCapabilities",
    ].map { Array($0.utf8) }
    let appTarget = Array("com.apple.product-type.app".utf8)
    // Info.plists and `.xcconfig`s first: they are small and usually say it, and a project file
    // runs to megabytes. The order changes no answer.
    func isProjectFile(_ path: String) -> Bool { path.hasSuffix("project.pbxproj") }
    for path in absolutePaths.filter({ !isProjectFile($0) }) + absolutePaths.filter(isProjectFile) {
      guard let bytes = try? FileBytes.read(path, maximumSize: 8 << 20) else { continue }
      if ByteSearch.contains(key, in: bytes) { return .declared }
      if !showsIOSApp {
        showsIOSApp =
          iOSMarkers.contains { ByteSearch.contains($0, in: bytes) }
          && (!isProjectFile(path) || ByteSearch.contains(appTarget, in: bytes))
      }
    }
    return showsIOSApp ? .missing : .unknown
  }
}
