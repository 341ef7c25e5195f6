// swift-tools-version: 5.9
import PackageDescription

// The vault's menu-bar helper: a Mac-only companion of the iOS app.
let package = Package(
    name: "VaultMacHelper",
    platforms: [.macOS(.v13)],
    targets: [
        .executableTarget(name: "VaultMacHelper")
    ]
)
