// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "Keyward",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "keyward", targets: ["keyward"]),
    .library(name: "KeywardCore", targets: ["KeywardCore"]),
    .plugin(name: "KeywardCommandPlugin", targets: ["KeywardCommandPlugin"]),
    .plugin(name: "KeywardFixCommandPlugin", targets: ["KeywardFixCommandPlugin"]),
    .plugin(name: "KeywardBuildToolPlugin", targets: ["KeywardBuildToolPlugin"]),
  ],
  dependencies: [
    .package(url: "https://github.com/swiftlang/swift-syntax", exact: "603.0.1"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
  ],
  targets: [
    .target(
      name: "KeywardCore",
      dependencies: [
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftParser", package: "swift-syntax"),
        .product(name: "SwiftParserDiagnostics", package: "swift-syntax"),
        .product(name: "Yams", package: "Yams"),
      ]
    ),
    .target(name: "KeywardRules", dependencies: ["KeywardCore", "KeywardBinary"]),
    // Built apps (.ipa, .app, Mach-O): the reader and the binary.* rules.
    .target(
      name: "KeywardBinary",
      dependencies: ["KeywardCore", .product(name: "ZIPFoundation", package: "ZIPFoundation")]),
    .target(name: "KeywardReporters", dependencies: ["KeywardCore"]),
    // `keyward lsp` and `keyward mcp`: JSON-RPC over stdio, answered by the engine.
    .target(
      name: "KeywardServer",
      dependencies: [
        "KeywardCore", "KeywardRules", "KeywardBinary", .product(name: "SwiftParser", package: "swift-syntax"),
      ]),
    .target(
      name: "KeywardCLI",
      dependencies: [
        "KeywardCore", "KeywardRules", "KeywardReporters", "KeywardBinary", "KeywardServer",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .executableTarget(name: "keyward", dependencies: ["KeywardCLI"]),
    // Helpers for Benchmarks/benchmark.py (parse-only throughput, prefilter tokens).
    .executableTarget(
      name: "keyward-bench",
      dependencies: [
        "KeywardCore", "KeywardRules", .product(name: "SwiftParser", package: "swift-syntax"),
        .product(name: "SwiftSyntax", package: "swift-syntax"),
      ]),
    // Scanning reads only; applying fixes is a separate verb, the only one that asks to write.
    .plugin(
      name: "KeywardCommandPlugin",
      capability: .command(
        intent: .custom(verb: "keyward", description: "Scan the package (or --target NAME...) with Keyward")),
      dependencies: ["keyward"]),
    .plugin(
      name: "KeywardFixCommandPlugin",
      capability: .command(
        intent: .custom(verb: "keyward-fix", description: "Apply Keyward's safe fixes to the package's sources"),
        permissions: [.writeToPackageDirectory(reason: "keyward-fix rewrites source files with safe fixes")]),
      dependencies: ["keyward"]),
    .plugin(name: "KeywardBuildToolPlugin", capability: .buildTool(), dependencies: ["keyward"]),
    .testTarget(
      name: "KeywardTests",
      dependencies: [
        "KeywardCore", "KeywardRules", "KeywardReporters", "KeywardCLI", "KeywardBinary", "KeywardServer",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ],
      exclude: ["Fixtures", "Golden"]
    ),
  ]
)
