import Foundation
import KeywardCLI
import KeywardCore
import KeywardRules
import Testing

/// `swift.local_auth_missing_reason` for `NSFaceIDUsageDescription`: judged against the app
/// settings in the scanned folder, after the whole scan.
@Suite struct FaceIDUsageTests {
  static let gate = """
    import LocalAuthentication
    func unlock(_ context: LAContext) {
        context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock your vault") { _, _ in }
        context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Approve the payment") { _, _ in }
    }
    """

  static func plist(_ keys: [String: String]) -> String {
    let entries = keys.map { "<key>\($0.key)</key><string>\($0.value)</string>" }.joined()
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\"><dict>\(entries)</dict></plist>"
  }

  /// The rule's findings in a folder holding `files` (also checks a cached scan agrees).
  func findings(_ files: [String: String]) throws -> [Finding] {
    try CrossFileContextTests.findings(
      files, rules: [LocalAuthMissingReason.metadata.id, ObjCLocalAuthMissingReason.metadata.id])
  }

  @Test func anAppWhoseInfoPlistLacksTheKeyIsToldOncePerFile() throws {
    let found = try findings([
      "App/Info.plist": Self.plist(["LSRequiresIPhoneOS": "true"]), "App/Unlock.swift": Self.gate,
    ])
    #expect(found.map(\.location.place) == ["App/Unlock.swift:3:13"])
    #expect(found.first?.message.contains("NSFaceIDUsageDescription") == true)
  }

  /// A published library's own gate: the apps linking it declare the key. Its example app's
  /// gate is the example's, judged against the example's Info.plist.
  @Test func aLibrarysOwnCodeIsLeftToTheAppsThatLinkIt() throws {
    let manifest = """
      // swift-tools-version:5.9
      import PackageDescription
      let package = Package(name: "Kit", products: [.library(name: "Kit", targets: ["Kit"])], targets: [.target(name: "Kit")])
      """
    let found = try findings([
      "Package.swift": manifest, "Kit.podspec": "Pod::Spec.new do |s| end",
      "Sources/Kit/Unlock.swift": Self.gate,
      "Example/Info.plist": Self.plist(["LSRequiresIPhoneOS": "true"]), "Example/Unlock.swift": Self.gate,
    ])
    #expect(found.map(\.location.place) == ["Example/Unlock.swift:3:13"])
  }

  /// A module described only by its podspec (React Native, Flutter, CocoaPods), and a package
  /// whose products are all libraries beside the Xcode project of its demo app: the apps linking
  /// them declare the key. A package of an app's own modules, inside the app project's folder,
  /// is the app's code and is judged with it.
  @Test func modulesAndLibraryPackagesAreLeftToTheAppsThatLinkThem() throws {
    let demo = Self.plist(["LSRequiresIPhoneOS": "true"])
    let podModule = try findings([
      "LockModule.podspec": "Pod::Spec.new do |s| end", "ios/LockModule.m": Self.objectiveCGate,
      "example/ios/Info.plist": demo,
    ])
    #expect(podModule.isEmpty)
    let manifest = """
      // swift-tools-version:5.9
      import PackageDescription
      let package = Package(name: "Kit", products: [.library(name: "Kit", targets: ["Kit"])], targets: [.target(name: "Kit", path: "KitUI")])
      """
    let package = try findings([
      "Package.swift": manifest,
      "Kit.xcodeproj/project.pbxproj": "productType = \"com.apple.product-type.application\";",
      "KitUI/Unlock.swift": Self.gate, "Example/Info.plist": demo,
    ])
    #expect(package.isEmpty)
    let appModules = try findings([
      "App.xcodeproj/project.pbxproj": "productType = \"com.apple.product-type.application\"; SDKROOT = iphoneos;",
      "Packages/Vault/Package.swift": manifest, "Packages/Vault/KitUI/Unlock.swift": Self.gate,
    ])
    #expect(appModules.map(\.location.place) == ["Packages/Vault/KitUI/Unlock.swift:3:13"])
  }

  static let objectiveCGate = """
    [context evaluatePolicy:LAPolicyDeviceOwnerAuthentication localizedReason:@"Unlock" reply:^(BOOL ok, NSError *e) {}];
    """

  @Test func anIOSAppProjectWithoutTheKeyIsTold() throws {
    let found = try findings([
      "App.xcodeproj/project.pbxproj": "productType = \"com.apple.product-type.application\"; SDKROOT = iphoneos;",
      "App/Unlock.swift": Self.gate,
    ])
    #expect(found.map(\.location.place) == ["App/Unlock.swift:3:13"])
  }

  @Test func anObjectiveCGateIsToldToo() throws {
    let gate = """
      [context evaluatePolicy:LAPolicyDeviceOwnerAuthentication localizedReason:@"Unlock" reply:^(BOOL ok, NSError *e) {}];
      """
    let found = try findings(["App/Info.plist": Self.plist(["LSRequiresIPhoneOS": "true"]), "App/Unlock.m": gate])
    #expect(found.map(\.location.place) == ["App/Unlock.m:1:10"])
    let mac = try findings([
      "App/Info.plist": Self.plist(["LSRequiresIPhoneOS": "true"]), "App/Unlock.m": "#import <Cocoa/Cocoa.h>\n" + gate,
    ])
    #expect(mac.isEmpty)
  }

  @Test(arguments: [
    // Declared in the Info.plist.
    ["App/Info.plist": plist(["NSFaceIDUsageDescription": "Unlock your vault"]), "App/Unlock.swift": gate],
    // Declared as a build setting of the Xcode project that generates the Info.plist.
    [
      "App.xcodeproj/project.pbxproj": "INFOPLIST_KEY_NSFaceIDUsageDescription = \"Unlock your vault\";",
      "App/Unlock.swift": gate,
    ],
    // Translated in InfoPlist.strings.
    [
      "App/Info.plist": plist(["LSRequiresIPhoneOS": "true"]),
      "App/en.lproj/InfoPlist.strings": "\"NSFaceIDUsageDescription\" = \"Unlock your vault\";",
      "App/Unlock.swift": gate,
    ],
    // Translated in the strings of an Info.plist named App.plist.
    [
      "App.xcodeproj/project.pbxproj": "SDKROOT = iphoneos; INFOPLIST_FILE = App/App.plist;",
      "App/de.lproj/AppPlist.strings": "\"NSFaceIDUsageDescription\" = \"Tresor entsperren\";",
      "App/Unlock.swift": gate,
    ],
    // Translated in a string catalog.
    [
      "App/Info.plist": plist(["LSRequiresIPhoneOS": "true"]),
      "App/InfoPlist.xcstrings": #"{"strings":{"NSFaceIDUsageDescription":{"localizations":{}}}}"#,
      "App/Unlock.swift": gate,
    ],
    // Declared in the manifests a generator builds the project from (Tuist, XcodeGen).
    [
      "App/Info.plist": plist(["LSRequiresIPhoneOS": "true"]),
      "Tuist/ProjectDescriptionHelpers/InfoPlist.swift": #"let keys = ["NSFaceIDUsageDescription": "Unlock"]"#,
      "App/Unlock.swift": gate,
    ],
    [
      "App/Info.plist": plist(["LSRequiresIPhoneOS": "true"]),
      "project.yml": "targets:\n  App:\n    info:\n      properties:\n        NSFaceIDUsageDescription: Unlock\n",
      "App/Unlock.swift": gate,
    ],
    // A macOS app's project.
    ["App.xcodeproj/project.pbxproj": "SDKROOT = macosx;", "App/Unlock.swift": gate],
    // A folder of sources only: nothing to judge.
    // An iOS project that builds only a static library (a React Native module): the apps
    // linking it declare the key.
    [
      "ios/Module.xcodeproj/project.pbxproj":
        "productType = \"com.apple.product-type.library.static\"; SDKROOT = iphoneos;",
      "ios/Module.m":
        "[context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:@\"Sign in\" reply:^(BOOL ok, NSError *e) {}];",
    ],
    ["App/Unlock.swift": gate],
    // macOS code does not need it.
    ["App/Info.plist": plist(["LSRequiresIPhoneOS": "true"]), "App/Unlock.swift": "import AppKit\n" + gate],
  ])
  func nothingIsReportedWhereTheKeyIsDeclaredOrCannotBeKnown(_ files: [String: String]) throws {
    #expect(try findings(files).isEmpty)
  }
}
