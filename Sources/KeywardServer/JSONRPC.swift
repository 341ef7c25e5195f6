/// JSON-RPC 2.0 as the Language Server Protocol and the Model Context Protocol use it: the
/// messages, the error codes, and the two ways stdio frames them (a `Content-Length` header for
/// LSP, one message per line for MCP).
public enum RPCMessage: Equatable, Sendable {
  case request(id: JSON, method: String, params: JSON?)
  case notification(method: String, params: JSON?)
  /// A reply to a request this side sent; neither server sends any, so replies are ignored.
  case response(id: JSON)

  /// Reads a message body. A body that is not JSON is a parse error (-32700); JSON that is not a
  /// request, notification or response is an invalid request (-32600), with its id if it had one.
  public static func decode(_ body: [UInt8]) -> Result<RPCMessage, RPCFailure> {
    guard let value = try? JSON.parse(body) else {
      return .failure(RPCFailure(id: .null, code: RPCErrorCode.parseError, message: "the message is not valid JSON"))
    }
    let id = value["id"]
    guard let method = value["method"]?.stringValue else {
      if let id, value["result"] != nil || value["error"] != nil { return .success(.response(id: id)) }
      return .failure(
        RPCFailure(id: id ?? .null, code: RPCErrorCode.invalidRequest, message: "the message has no method"))
    }
    let params = value["params"]
    guard let id else { return .success(.notification(method: method, params: params)) }
    return .success(.request(id: id, method: method, params: params))
  }

  public static func result(id: JSON, _ result: JSON) -> JSON {
    ["jsonrpc": "2.0", "id": id, "result": result]
  }

  public static func error(_ failure: RPCFailure) -> JSON {
    ["jsonrpc": "2.0", "id": failure.id, "error": ["code": .int(failure.code), "message": .string(failure.message)]]
  }

  public static func notification(_ method: String, _ params: JSON) -> JSON {
    ["jsonrpc": "2.0", "method": .string(method), "params": params]
  }
}

/// An error reply to send for a request.
public struct RPCFailure: Error, Equatable, Sendable {
  public var id: JSON
  public var code: Int
  public var message: String

  public init(id: JSON, code: Int, message: String) {
    self.id = id
    self.code = code
    self.message = message
  }
}

public enum RPCErrorCode {
  public static let parseError = -32700
  public static let invalidRequest = -32600
  public static let methodNotFound = -32601
  public static let invalidParams = -32602
  public static let internalError = -32603
  /// LSP: a request other than `initialize` before `initialize`.
  public static let serverNotInitialized = -32002
}

/// How message bodies are cut out of a byte stream and put into one.
public protocol MessageFraming: Sendable {
  init()
  /// Adds bytes read from the stream.
  mutating func append(_ bytes: ArraySlice<UInt8>)
  /// The next complete body, or nil until more bytes arrive. A malformed header throws, after
  /// dropping it, so that reading can go on with the next message.
  mutating func nextBody() throws(FramingError) -> [UInt8]?
  /// A body as it is written to the stream.
  static func frame(_ body: [UInt8]) -> [UInt8]
}

public struct FramingError: Error, Equatable, Sendable {
  public var message: String
}

/// LSP's base protocol: `Content-Length: N\r\n` (other headers allowed), a blank line, N bytes.
public struct ContentLengthFraming: MessageFraming {
  private var buffer: [UInt8] = []
  private var start = 0

  public init() {}

  public mutating func append(_ bytes: ArraySlice<UInt8>) {
    // Bodies already handed out are dropped only now and then, so appending stays cheap.
    if start > 0 && start >= buffer.count / 2 {
      buffer.removeFirst(start)
      start = 0
    }
    buffer += bytes
  }

  public mutating func nextBody() throws(FramingError) -> [UInt8]? {
    guard let headerEnd = Self.find([13, 10, 13, 10], in: buffer, from: start) else { return nil }
    let header = String(decoding: buffer[start..<headerEnd], as: UTF8.self)
    let length = header.split(separator: "\r\n").lazy.compactMap { line -> Int? in
      let parts = line.split(separator: ":", maxSplits: 1)
      guard parts.count == 2, parts[0].trimmingSpaces.lowercased() == "content-length" else { return nil }
      return Int(parts[1].trimmingSpaces)
    }.first
    guard let length, length >= 0 else {
      start = headerEnd + 4
      throw FramingError(message: "a message header has no valid Content-Length")
    }
    let bodyStart = headerEnd + 4
    guard buffer.count - bodyStart >= length else { return nil }
    start = bodyStart + length
    return Array(buffer[bodyStart..<start])
  }

  public static func frame(_ body: [UInt8]) -> [UInt8] {
    Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
  }

  private static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
    guard haystack.count - from >= needle.count else { return nil }
    var index = from
    while index + needle.count <= haystack.count {
      if haystack[index] == needle[0] && haystack[index..<index + needle.count].elementsEqual(needle) { return index }
      index += 1
    }
    return nil
  }
}

/// MCP's stdio transport: one JSON message per line, no embedded line breaks.
public struct NewlineFraming: MessageFraming {
  private var buffer: [UInt8] = []

  public init() {}

  public mutating func append(_ bytes: ArraySlice<UInt8>) { buffer += bytes }

  public mutating func nextBody() throws(FramingError) -> [UInt8]? {
    while let newline = buffer.firstIndex(of: 10) {
      var line = Array(buffer[..<newline])
      buffer.removeFirst(newline + 1)
      if line.last == 13 { line.removeLast() }
      // Blank lines between messages carry nothing.
      if !line.allSatisfy({ $0 == 32 || $0 == 9 }) { return line }
    }
    return nil
  }

  public static func frame(_ body: [UInt8]) -> [UInt8] { body + [10] }
}

extension Substring {
  fileprivate var trimmingSpaces: Substring {
    var text = self
    while text.first == " " || text.first == "\t" { text.removeFirst() }
    while text.last == " " || text.last == "\t" { text.removeLast() }
    return text
  }
}
