import Foundation

/// Which build of Keyward is running, for the cache's key. The version string stays the same
/// across development builds, so a cache written by one build would hand its findings to the
/// next for every unchanged file; the running executable's size and modification time tell
/// builds apart. Copying the executable only costs one cold run.
enum EngineBuild {
  static let identity: String = identity(ofExecutableAt: Bundle.main.executablePath)

  /// `keyward VERSION` plus the file's size and modification time; the version alone when the
  /// file cannot be read (the cache then behaves as before builds were told apart).
  static func identity(ofExecutableAt path: String?) -> String {
    let version = "keyward \(KeywardVersion.current)"
    var info = stat()
    guard let path, stat(path, &info) == 0 else { return version }
    #if canImport(Darwin)
      let modified = info.st_mtimespec
    #else
      let modified = info.st_mtim
    #endif
    return "\(version) build \(info.st_size) \(modified.tv_sec).\(modified.tv_nsec)"
  }
}
