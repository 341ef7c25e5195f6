import Foundation

public struct DiscoveredFile: Sendable, Hashable {
  public enum Kind: Sendable, Hashable { case source, binary }

  /// `origin` is given when the configuration or the command line decides it; otherwise the path
  /// decides, when asked.
  public init(
    absolutePath: String, relativePath: String, size: Int, kind: Kind = .source, origin: CodeOrigin? = nil,
    originIsConfigured: Bool = false, library: LibraryLayout? = nil, projectPlatform: ProjectPlatform = .unspecified,
    shipsInLibrary: Bool = false
  ) {
    self.shipsInLibrary = shipsInLibrary
    self.absolutePath = absolutePath
    self.relativePath = relativePath
    self.size = size
    self.kind = kind
    self.givenOrigin = origin
    self.originIsConfigured = originIsConfigured
    self.library = library
    self.projectPlatform = projectPlatform
  }

  /// The platforms the file's project builds it for, as its nearest manifest declares them.
  public var projectPlatform: ProjectPlatform

  /// Source files are parsed; binaries (`.ipa`, `.app`, Mach-O) go to the binary analyzer.
  public var kind: Kind

  /// The Xcode projects that decide whether the file is built (`XcodeProjectScope`).
  var xcodeProjects: XcodeProjectScope?

  /// What the file's folders say of where its code lives (`PathOrigin.origin(ofFolder:)`), worked
  /// out once per folder by the walk; nil when they say nothing or the file was described alone.
  var folderOrigin: CodeOrigin?

  /// Whether the file may call an app's internal functions as shipped code: not in a test,
  /// sample, generated or third-party folder, nor named for a test (`…Tests.swift`, a mock),
  /// unless the configuration says it is app code. Cheap: no contents, no per-file path walk.
  var mayCallShippedCode: Bool {
    if originIsConfigured || givenOrigin != nil { return givenOrigin == .app }
    guard folderOrigin == nil else { return false }
    return PathOrigin.fileOrigin(PathOrigin.split(relativePath).name) == .app
  }

  /// Whether a folder of the scan at or above the file holds a project or package manifest
  /// (`.xcodeproj`, `Package.swift`, a podspec, Tuist's or XcodeGen's): the scan then holds
  /// the code that may call the file's internal functions.
  public var isInsideScannedProject = false

  /// Whether the Xcode projects around the file compile it in no target
  /// (`XcodeProjectMembership`): code that ships in no app. Headers are in no build phase that
  /// compiles, so they are never judged. Asked only for files with findings.
  public var isBuiltByNoTarget: Bool {
    guard kind == .source, let xcodeProjects, FileDiscovery.pathExtension(absolutePath) != "h" else { return false }
    return xcodeProjects.buildsNothing(at: XcodeProjectMembership.standardized(absolutePath))
  }

  public var absolutePath: String
  /// Relative to the scan root, with `/` separators.
  public var relativePath: String
  /// In bytes; `unknownSize` for a file the walk took from its folder's listing without a
  /// `stat` (reading it checks the size limit).
  public var size: Int

  public static let unknownSize = -1
  private var givenOrigin: CodeOrigin?
  /// The library repository the file lies in, whose manifest says which folders ship.
  private var library: LibraryLayout?
  /// Where the file's code lives, by its path (`PathOrigin`), the library it lies in, or the
  /// configuration's `origins`. Worked out from the path only when asked: only files with
  /// findings ever are, and judging every path of an app up front was a third of a scan that
  /// parses few of its files.
  public var origin: CodeOrigin {
    if let givenOrigin { return givenOrigin }
    let byPath = PathOrigin.origin(of: relativePath)
    guard byPath == .app, let library else { return byPath }
    return library.origin(ofAppFile: relativePath)
  }
  /// Whether `origin` comes from the configuration, which overrides what the contents say.
  public var originIsConfigured: Bool

  /// Whether a folder around the file describes a library that apps link
  /// (`LibraryLayout.shipsLibrary`).
  public var shipsInLibrary: Bool

  /// Whether the file is code a library ships (`LibraryLayout`, `shipsInLibrary`): what its
  /// apps declare in their Info.plist is theirs to declare, not the library's.
  public var isLibraryCode: Bool { (library != nil || shipsInLibrary) && origin == .app }

  /// The origin of the file's findings, given what its contents say (`import XCTest`, a
  /// generated-file header): the configuration first, then the path, then the contents.
  public func origin(content: CodeOrigin) -> CodeOrigin {
    originIsConfigured || origin != .app ? origin : content
  }
}
