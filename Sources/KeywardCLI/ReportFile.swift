import KeywardCore

/// Writes a report to a file as it is produced, replacing the file only once the report is whole
/// (`ReplacingFile`).
enum ReportFile {
  static func write(to path: String, _ produce: ((String) throws -> Void) throws -> Void) throws {
    let file = try ReplacingFile(path: path)
    try produce { piece in try file.write(piece.utf8) }
    try file.commit()
  }
}
