import Foundation
import KeywardServer
import Testing

/// The built `keyward` running as a server (`keyward lsp`, `keyward mcp`), driven over pipes as
/// an editor or an assistant would. Every wait has a time limit, so a server that hangs fails
/// the test instead of the suite.
final class ServerProcess<Framing: MessageFraming>: @unchecked Sendable {
  private let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private let condition = NSCondition()
  private var received: [JSON] = []
  private var ended = false
  private var nextID = 1

  init(_ arguments: [String], in folder: URL? = nil) throws {
    let executable = try #require(Paths.builtExecutable("keyward"), "keyward was not built")
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let folder { process.currentDirectoryURL = folder }
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let reading = output.fileHandleForReading.fileDescriptor
    Thread.detachNewThread { [self] in readMessages(from: reading) }
  }

  deinit {
    if process.isRunning { process.terminate() }
  }

  private func readMessages(from descriptor: Int32) {
    var framing = Framing()
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      guard count > 0 else { break }
      framing.append(chunk[0..<count])
      while let body = try? framing.nextBody() {
        guard let message = try? JSON.parse(body) else { continue }
        condition.lock()
        received.append(message)
        condition.broadcast()
        condition.unlock()
      }
    }
    condition.lock()
    ended = true
    condition.broadcast()
    condition.unlock()
  }

  func write(_ bytes: [UInt8]) {
    input.fileHandleForWriting.write(Data(bytes))
  }

  func notify(_ method: String, _ params: JSON = [:]) {
    write(Framing.frame(RPCMessage.notification(method, params).encoded()))
  }

  /// Sends a request and waits for its reply.
  @discardableResult
  func request(_ method: String, _ params: JSON = [:], timeout: TimeInterval = 30) throws -> JSON {
    let id = nextID
    nextID += 1
    let message: JSON = ["jsonrpc": "2.0", "id": .int(id), "method": .string(method), "params": params]
    write(Framing.frame(message.encoded()))
    return try next(timeout: timeout) { $0["id"] == .int(id) }
  }

  /// The first message received (or still to come) that `matches`, taken out of the queue.
  func next(timeout: TimeInterval = 30, where matches: (JSON) -> Bool) throws -> JSON {
    let deadline = Date().addingTimeInterval(timeout)
    condition.lock()
    defer { condition.unlock() }
    while true {
      if let index = received.firstIndex(where: matches) { return received.remove(at: index) }
      if ended { throw ServerTestError("the server closed its output before the message came") }
      if !condition.wait(until: deadline) { throw ServerTestError("no such message within \(timeout) s") }
    }
  }

  /// The next `textDocument/publishDiagnostics` for `uri`.
  func diagnostics(for uri: String, timeout: TimeInterval = 30) throws -> JSON {
    try next(timeout: timeout) {
      $0["method"] == "textDocument/publishDiagnostics" && $0["params"]?["uri"] == .string(uri)
    }
  }

  func closeInput() { try? input.fileHandleForWriting.close() }

  /// The exit status, or nil if the process is still running after `timeout`.
  func exitStatus(timeout: TimeInterval = 30) -> Int32? {
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    if process.isRunning {
      process.terminate()
      return nil
    }
    return process.terminationStatus
  }
}

struct ServerTestError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
