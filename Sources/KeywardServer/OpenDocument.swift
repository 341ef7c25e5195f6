import KeywardCore

/// A document the editor has open: its current text (which may differ from the file on disk)
/// and the analysis of the version last scanned.
struct OpenDocument {
  var uri: String
  /// Where the document is, or stands for (an unsaved buffer gets a name by its language).
  var path: String
  var text: String
  var version: Int
  /// Counts edits, also from clients that send no versions: a debounced scan runs only if no
  /// edit came after it was scheduled.
  var edits = 0
  var analysis: DocumentAnalysis?
  var analyzedEdits = -1

  var isStale: Bool { analyzedEdits != edits }

  /// Applies one `contentChanges` entry: the whole text, or (from clients that send ranges even
  /// though the server asks for full text) a replacement of a 0-based line/UTF-16 range.
  mutating func apply(_ change: JSON) {
    guard let newText = change["text"]?.stringValue else { return }
    edits += 1
    guard let range = change["range"], let start = offset(range["start"]), let end = offset(range["end"]),
      start <= end
    else {
      text = newText
      return
    }
    var units = Array(text.utf16)
    units.replaceSubrange(start..<end, with: Array(newText.utf16))
    text = String(decoding: units, as: UTF16.self)
  }

  /// The UTF-16 offset of an LSP position, clamped to the text.
  private func offset(_ position: JSON?) -> Int? {
    guard let line = position?["line"]?.intValue, let character = position?["character"]?.intValue else {
      return nil
    }
    let units = Array(text.utf16)
    var lineStart = 0
    var currentLine = 0
    var index = 0
    while currentLine < line && index < units.count {
      if units[index] == 10 {
        currentLine += 1
        lineStart = index + 1
      }
      index += 1
    }
    if currentLine < line { return units.count }
    var lineEnd = lineStart
    while lineEnd < units.count && units[lineEnd] != 10 { lineEnd += 1 }
    return min(lineStart + max(0, character), lineEnd)
  }

  /// The file name an unsaved buffer is scanned under, by the editor's language id.
  static func placeholderName(languageID: String?) -> String {
    switch languageID {
    case "objective-c": "Untitled.m"
    case "objective-cpp": "Untitled.mm"
    default: "Untitled.swift"
    }
  }

  /// Whether Keyward reads files with this path's extension.
  static func isSource(_ path: String) -> Bool {
    FileDiscovery.sourceExtensions.contains(FileDiscovery.pathExtension(path).lowercased())
  }
}
