import Foundation

/// Progress of a long scan on standard error ("keyward: 120/480 files"), shown only once the scan
/// has run for `delay` seconds, redrawn at most ten times a second, and cleared at the end. It
/// never goes to standard output, where the report is.
public final class ProgressMeter: @unchecked Sendable {
  private let delay: TimeInterval
  private let write: @Sendable (String) -> Void
  private let lock = NSLock()
  private var start = Date()
  private var lastDrawn: Date?
  private var shown = false

  /// `write` receives the text to put on the terminal (with `\r` and an erase-line sequence).
  public init(delay: TimeInterval = 1, write: @escaping @Sendable (String) -> Void) {
    self.delay = delay
    self.write = write
  }

  /// On standard error when it is a terminal; nil otherwise.
  public static func forStandardError() -> ProgressMeter? {
    guard isatty(STDERR_FILENO) == 1 else { return nil }
    return ProgressMeter { FileHandle.standardError.write(Data($0.utf8)) }
  }

  func begin() {
    lock.lock()
    start = Date()
    lock.unlock()
  }

  func update(done: Int, total: Int) {
    lock.lock()
    defer { lock.unlock() }
    let now = Date()
    guard now.timeIntervalSince(start) >= delay else { return }
    if let lastDrawn, now.timeIntervalSince(lastDrawn) < 0.1, done < total { return }
    lastDrawn = now
    shown = true
    write("\r\u{1B}[Kkeyward: \(done)/\(total) files")
  }

  func finish() {
    lock.lock()
    defer { lock.unlock() }
    if shown { write("\r\u{1B}[K") }
    shown = false
  }
}
