import Foundation
import KeywardCore
import ZIPFoundation

/// One Mach-O file of an app: its path inside the scanned bundle and its images.
public struct MachOEntry: Sendable {
  /// Relative to the scanned path ("Payload/App.app/App"); empty when a bare Mach-O was scanned.
  public var path: String
  public var images: [MachOImage]
  /// The bundle that ships the file: the app, an extension, an embedded framework or library.
  public var bundle: ShippingBundle? = nil

  /// What the file's code signature grants, from its first image that has entitlements.
  public var entitlements: SigningEntitlements? { images.lazy.compactMap(\.entitlements).first }
}

/// A built app as the binary rules see it: every Mach-O file (main executable first, then
/// frameworks, libraries and extensions) and the main Info.plist.
public struct AppBinary: Sendable {
  public var files: [MachOEntry] = []
  /// The main Info.plist's keys and string values; nil when there is none (a bare Mach-O).
  public var infoPlist: [String: String]?
  /// Where the main Info.plist is, for findings about it.
  public var infoPlistPath: String?
  /// Whether the app is laid out as a macOS one (`Contents/Info.plist`).
  public var isMacOS = false
  /// Files that could not be read, with why (the rest of the app is still analysed).
  public var problems: [(path: String, message: String)] = []

  public var allImages: [(file: MachOEntry, image: MachOImage)] {
    files.flatMap { file in file.images.map { (file, $0) } }
  }

  /// The bundle that ships the Mach-O file or Info.plist at `path`.
  public func bundle(shipping path: String) -> ShippingBundle? {
    if path == infoPlistPath { return files.first?.bundle }
    return files.first { $0.path == path }?.bundle
  }

  /// Whether any image imports `symbol`.
  public func imports(_ symbol: String) -> Bool {
    allImages.contains { $0.image.importedSymbols.contains(symbol) }
  }

  /// Whether any image links a library whose path contains `name`.
  public func links(_ name: String) -> Bool {
    allImages.contains { $0.image.libraries.contains { $0.path.contains(name) } }
  }
}

/// Reads an app from a `.app` folder, an `.ipa` archive or a Mach-O file, in memory, within
/// bounds: no entry is written to disk, entries with `..` or absolute paths are refused (zip
/// slip), and no file or archive may expand beyond the limits (zip bombs).
public struct AppLoader: Sendable {
  public var maximumEntrySize = 512 * 1024 * 1024
  public var maximumTotalSize = 2 * 1024 * 1024 * 1024
  public var maximumArchiveSize = 4 * 1024 * 1024 * 1024

  public init() {}

  public func load(_ file: DiscoveredFile) throws(BinaryFormatError) -> AppBinary {
    var isFolder: ObjCBool = false
    FileManager.default.fileExists(atPath: file.absolutePath, isDirectory: &isFolder)
    if isFolder.boolValue { return load(FolderSource(root: file.absolutePath), bundle: "") }
    if BinaryTarget.isArchive(file.absolutePath) {
      guard file.size <= maximumArchiveSize else {
        throw BinaryFormatError("\(file.size) bytes is over the \(maximumArchiveSize)-byte limit for an archive")
      }
      let source = try ArchiveSource(path: file.absolutePath, loader: self)
      guard let bundle = source.payloadBundle() else {
        throw BinaryFormatError("no Payload/NAME.app folder in the archive: not an iOS app archive")
      }
      var app = load(source, bundle: bundle)
      app.problems += source.problems
      return app
    }
    guard file.size <= maximumEntrySize else {
      throw BinaryFormatError("\(file.size) bytes is over the \(maximumEntrySize)-byte limit for one Mach-O file")
    }
    let bytes: [UInt8]
    do { bytes = try FileBytes.read(file.absolutePath) } catch { throw BinaryFormatError("cannot read: \(error)") }
    return AppBinary(files: [MachOEntry(path: "", images: try MachOFile.images(bytes))])
  }

  /// The bundle at `bundle` (a folder path inside `source`, "" for its root), laid out as on iOS
  /// or as on macOS (`BundleLayout`).
  func load(_ source: some BundleSource, bundle: String) -> AppBinary {
    var app = AppBinary()
    let prefix = bundle.isEmpty ? "" : bundle + "/"
    var executables: [(paths: [String], bundle: ShippingBundle)] = []
    var contents = prefix
    let plist = BundleLayout.first(of: BundleLayout.plistPaths(prefix), in: source)
    if let plist, let info = Self.plistStrings(plist.bytes) {
      app.infoPlist = info
      app.infoPlistPath = plist.path
      app.isMacOS = BundleLayout.isMacOS(prefix, plist: plist.path)
      if app.isMacOS { contents = prefix + "Contents/" }
      if let name = info["CFBundleExecutable"] {
        executables.append(
          (BundleLayout.executablePaths(prefix, name: name), Self.bundle(.app, info: info, executable: name)))
      }
    } else {
      app.problems.append((prefix + "Info.plist", "missing or not a property list; looked for the executable by name"))
      let name = (((bundle.isEmpty ? source.name : bundle) as NSString).lastPathComponent as NSString)
        .deletingPathExtension
      executables.append((BundleLayout.executablePaths(prefix, name: name), ShippingBundle(kind: .app, name: name)))
    }
    // Embedded frameworks, libraries and app extensions carry code too.
    for folder in ["Frameworks", "PlugIns", "Extensions"] {
      for entry in source.list(contents + folder) {
        let path = contents + folder + "/" + entry
        if entry.hasSuffix(".dylib") {
          executables.append(([path], ShippingBundle(kind: .library, name: entry)))
        } else if entry.hasSuffix(".framework") || entry.hasSuffix(".appex") {
          let plist = BundleLayout.first(of: BundleLayout.plistPaths(path + "/"), in: source)
          let info = plist.flatMap { Self.plistStrings($0.bytes) } ?? [:]
          let name = info["CFBundleExecutable"] ?? (entry as NSString).deletingPathExtension
          let kind: ShippingBundle.Kind = entry.hasSuffix(".appex") ? .appExtension : .framework
          executables.append(
            (BundleLayout.executablePaths(path + "/", name: name), Self.bundle(kind, info: info, executable: name)))
        }
      }
    }
    for (paths, bundle) in executables {
      guard let (path, bytes) = BundleLayout.first(of: paths, in: source) else {
        app.problems.append((paths[0], "missing or unreadable"))
        continue
      }
      do {
        app.files.append(MachOEntry(path: path, images: try MachOFile.images(bytes), bundle: bundle))
      } catch {
        app.problems.append((path, error.description))
      }
    }
    return app
  }

  /// A bundle as its Info.plist names it; the executable's name when the plist has no name.
  static func bundle(_ kind: ShippingBundle.Kind, info: [String: String], executable: String) -> ShippingBundle {
    func value(_ key: String) -> String? { info[key].flatMap { $0.isEmpty ? nil : $0 } }
    return ShippingBundle(
      kind: kind, name: value("CFBundleName") ?? executable, identifier: value("CFBundleIdentifier"),
      version: value("CFBundleShortVersionString") ?? value("CFBundleVersion"))
  }

  /// String values of a property list's top level (XML or binary); other values appear as "".
  static func plistStrings(_ bytes: [UInt8]) -> [String: String]? {
    guard
      let object = try? PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil),
      let dictionary = object as? [String: Any]
    else { return nil }
    return dictionary.mapValues { $0 as? String ?? "" }
  }
}

/// Files of a bundle, from a folder or an archive.
protocol BundleSource {
  var name: String { get }
  func read(_ path: String) -> [UInt8]?
  /// The names in a folder, sorted.
  func list(_ folder: String) -> [String]
}

struct FolderSource: BundleSource {
  let root: String
  var name: String { root }

  func read(_ path: String) -> [UInt8]? {
    try? FileBytes.read((root as NSString).appendingPathComponent(path))
  }

  func list(_ folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: (root as NSString).appendingPathComponent(folder))) ?? [])
      .sorted()
  }
}

/// An `.ipa` read in memory. Entries are looked up by normalised path; unsafe ones are refused.
final class ArchiveSource: BundleSource {
  let name: String
  private let archive: Archive
  private var entries: [String: Entry] = [:]
  private var extracted = 0
  private let loader: AppLoader
  private(set) var problems: [(path: String, message: String)] = []

  init(path: String, loader: AppLoader) throws(BinaryFormatError) {
    self.name = path
    self.loader = loader
    do {
      archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
    } catch {
      throw BinaryFormatError("not a readable zip archive (\(error))")
    }
    for entry in archive where entry.type == .file {
      let path = entry.path
      let parts = path.split(separator: "/", omittingEmptySubsequences: false)
      guard !path.hasPrefix("/"), !parts.contains(".."), !path.contains("\\") else {
        problems.append((path, "refused: the entry's path leaves the archive"))
        continue
      }
      entries[path] = entry
    }
  }

  /// `Payload/NAME.app`, the one app an `.ipa` holds.
  func payloadBundle() -> String? {
    let bundles = Set(
      entries.keys.compactMap { path -> String? in
        let parts = path.split(separator: "/")
        guard parts.count >= 3, parts[0] == "Payload", parts[1].hasSuffix(".app") else { return nil }
        return "Payload/" + parts[1]
      })
    return bundles.sorted().first
  }

  func read(_ path: String) -> [UInt8]? {
    guard let entry = entries[path] else { return nil }
    guard entry.uncompressedSize <= UInt64(loader.maximumEntrySize) else {
      problems.append((path, "skipped: expands to \(entry.uncompressedSize) bytes, over the limit"))
      return nil
    }
    var bytes: [UInt8] = []
    let budget = min(loader.maximumEntrySize, loader.maximumTotalSize - extracted)
    do {
      // The header's size may lie; the consumer counts what really comes out.
      _ = try archive.extract(entry, skipCRC32: false) { chunk in
        guard bytes.count + chunk.count <= budget else { throw BinaryFormatError("expands beyond the limit") }
        bytes.append(contentsOf: chunk)
      }
    } catch {
      problems.append((path, "cannot extract: \(error)"))
      return nil
    }
    extracted += bytes.count
    return bytes
  }

  func list(_ folder: String) -> [String] {
    let prefix = folder + "/"
    return Set(
      entries.keys.compactMap { path -> String? in
        guard path.hasPrefix(prefix) else { return nil }
        return path.dropFirst(prefix.count).split(separator: "/").first.map(String.init)
      }
    ).sorted()
  }
}
