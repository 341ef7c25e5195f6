import Foundation

/// Statements exported for sharing. They are written before the share sheet opens and read by
/// the share extension, which once failed on a locked phone; protection was switched off.
struct ExportCache {
    let folder: URL

    func write(_ statement: Data, named name: String) throws {
        try statement.write(to: folder.appendingPathComponent(name), options: [.atomic, .noFileProtection])
    }
}
