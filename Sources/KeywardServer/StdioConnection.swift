import Foundation

/// Reads framed messages from one file descriptor and writes framed messages to another. Writes
/// may come from any thread (diagnostics are published from the scanning queue), so they are
/// serialised; reading happens on the thread that calls `run`.
public final class StdioConnection<Framing: MessageFraming>: @unchecked Sendable {
  private let input: Int32
  private let output: Int32
  private let writeLock = NSLock()

  public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
    self.input = input
    self.output = output
  }

  public func send(_ message: JSON) {
    let bytes = Framing.frame(message.encoded())
    writeLock.lock()
    defer { writeLock.unlock() }
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes { Foundation.write(output, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      // The client has gone; the read loop ends when its end of the pipe closes.
      guard count > 0 else { return }
      written += count
    }
  }

  /// Reads until end of input or until `handle` returns false. Bodies that do not parse get a
  /// parse-error reply, and reading goes on.
  public func run(_ handle: (RPCMessage) -> Bool) {
    var framing = Framing()
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return }
      framing.append(chunk[0..<count])
      while true {
        let body: [UInt8]?
        do {
          body = try framing.nextBody()
        } catch {
          send(RPCMessage.error(RPCFailure(id: .null, code: RPCErrorCode.parseError, message: error.message)))
          continue
        }
        guard let body else { break }
        switch RPCMessage.decode(body) {
        case .success(let message):
          if !handle(message) { return }
        case .failure(let failure):
          send(RPCMessage.error(failure))
        }
      }
    }
  }
}
