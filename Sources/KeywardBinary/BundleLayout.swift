/// Where a bundle keeps its Info.plist and executable. iOS bundles keep both at their root
/// (`App.app/Info.plist`, `App.app/App`); macOS apps and extensions under `Contents`
/// (`Contents/Info.plist`, `Contents/MacOS/App`, frameworks in `Contents/Frameworks`); macOS
/// frameworks under `Versions/A`, the plist in `Resources`.
enum BundleLayout {
  /// The Info.plist paths to try, in order, for the bundle in `folder` ("" or ending in "/").
  static func plistPaths(_ folder: String) -> [String] {
    [
      "Info.plist", "Contents/Info.plist", "Resources/Info.plist", "Versions/Current/Resources/Info.plist",
      "Versions/A/Resources/Info.plist",
    ].map { folder + $0 }
  }

  /// The executable paths to try, in order, for the bundle in `folder` whose executable is `name`.
  static func executablePaths(_ folder: String, name: String) -> [String] {
    [name, "Contents/MacOS/" + name, "Versions/Current/" + name, "Versions/A/" + name].map { folder + $0 }
  }

  /// Whether the plist found at `plist` makes the bundle in `folder` a macOS one.
  static func isMacOS(_ folder: String, plist: String) -> Bool { plist == folder + "Contents/Info.plist" }

  /// The first of `paths` that `source` has, with its bytes.
  static func first(of paths: [String], in source: some BundleSource) -> (path: String, bytes: [UInt8])? {
    for path in paths {
      if let bytes = source.read(path) { return (path, bytes) }
    }
    return nil
  }
}
