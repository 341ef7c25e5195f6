// swift-tools-version: 6.0
import PackageDescription

// A package that uses Keyward's SwiftPM plugins:
//   swift package keyward            scans the package (the command plugin; --target NAME for one target)
//   swift build                      prints findings as build diagnostics (the build-tool plugin)
//   swift package --allow-writing-to-package-directory keyward-fix   applies the safe fixes
// In your own package, depend on Keyward by URL; here it is the repository two folders up,
// named "keyward" whatever the folder of the clone is called.
let package = Package(
  name: "PluginDemo",
  dependencies: [.package(name: "keyward", path: "../..")],
  targets: [
    .target(
      name: "DemoKeychain",
      plugins: [.plugin(name: "KeywardBuildToolPlugin", package: "keyward")])
  ]
)
