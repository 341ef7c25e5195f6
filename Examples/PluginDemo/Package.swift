// swift-tools-version: 6.0
import PackageDescription

// A package that uses Keyward's SwiftPM plugins:
//   swift package keyward            scans the package (the command plugin; --fix applies safe fixes)
//   swift build                      prints findings as build diagnostics (the build-tool plugin)
// In your own package, depend on Keyward by URL; here it is the repository two folders up, which
// SwiftPM names after its folder: clone it as "keyward" (or change `package:` below to match).
let package = Package(
  name: "PluginDemo",
  dependencies: [.package(path: "../..")],
  targets: [
    .target(
      name: "DemoKeychain",
      plugins: [.plugin(name: "KeywardBuildToolPlugin", package: "keyward")])
  ]
)
