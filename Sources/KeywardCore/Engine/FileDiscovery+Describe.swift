import Foundation

extension FileDiscovery {
  /// The source file at `absolutePath` as a walk of the root would describe it, without walking
  /// anything else: its configured origin, the library repository it lies in and the platform
  /// its nearest manifest declares and the Xcode projects that decide whether it is built, read
  /// from the folders between the root and the file. For
  /// editors, which scan one document at a time but must judge it as a scan of the project does.
  public func describe(fileAt absolutePath: String, size: Int) -> DiscoveredFile {
    let relative = relativePath(of: absolutePath)
    var library: LibraryLayout?
    var platform = ProjectPlatform.unspecified
    var xcodeProjects: XcodeProjectScope?
    var packaging = LibraryPackaging()
    var insideProject = false
    if absolutePath.hasPrefix(root.hasSuffix("/") ? root : root + "/") {
      var folder = root
      var relativePrefix = ""
      // Each folder from the root down to the file's own, with the entry the path goes on to.
      for next in relative.split(separator: "/").map(String.init) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        if let layout = LibraryLayout.read(folder: folder, relativePrefix: relativePrefix, entryNames: names) {
          library = layout
        }
        packaging = packaging.entering(folder: folder, entryNames: names)
        platform = ProjectPlatform.of(
          entry: next, declared: ProjectPlatform.declared(inFolder: folder, entryNames: names), outer: platform)
        xcodeProjects = XcodeProjectScope.below(folder: folder, entryNames: names, outer: xcodeProjects)
        insideProject = insideProject || names.contains(where: FileDiscovery.isProjectManifest)
        folder = (folder as NSString).appendingPathComponent(next)
        relativePrefix += next + "/"
      }
    }
    let (origin, configured) = givenOrigin(
      of: relative, namedInDependency: PathOrigin.isInsideDependencyFolder(absolutePath))
    var described = DiscoveredFile(
      absolutePath: absolutePath, relativePath: relative, size: size, origin: origin, originIsConfigured: configured,
      library: library, projectPlatform: platform, shipsInLibrary: packaging.shipsLibrary)
    described.xcodeProjects = xcodeProjects
    described.isInsideScannedProject = insideProject
    described.folderOrigin = PathOrigin.origin(ofFolder: PathOrigin.split(relative).folder)
    return described
  }
}
