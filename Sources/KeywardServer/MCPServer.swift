import Foundation
import KeywardCore

/// `keyward mcp`: the Model Context Protocol over stdio (one JSON-RPC message per line), serving
/// the tools of `MCPTools`. Tool results carry the JSON both as `structuredContent` and as text,
/// for clients that read only text.
public final class MCPServer: @unchecked Sendable {
  /// Protocol revisions this server speaks; a client asking for another gets the newest.
  static let protocolVersions = ["2025-06-18", "2025-03-26", "2024-11-05"]

  private let send: @Sendable (JSON) -> Void
  private let tools: MCPTools

  public init(
    workingDirectory: String = FileManager.default.currentDirectoryPath, send: @escaping @Sendable (JSON) -> Void
  ) {
    self.send = send
    tools = MCPTools(workingDirectory: workingDirectory)
  }

  /// Serves a connection until the end of input.
  public static func serve<Framing>(_ connection: StdioConnection<Framing>) -> Int32 {
    let server = MCPServer { connection.send($0) }
    connection.run { server.handle($0) }
    return 0
  }

  /// Handles one message; always true (an MCP client ends the session by closing stdin).
  public func handle(_ message: RPCMessage) -> Bool {
    guard case .request(let id, let method, let params) = message else { return true }
    switch method {
    case "initialize":
      let asked = params?["protocolVersion"]?.stringValue ?? ""
      let version = Self.protocolVersions.contains(asked) ? asked : Self.protocolVersions[0]
      send(
        RPCMessage.result(
          id: id,
          [
            "protocolVersion": .string(version),
            "capabilities": ["tools": ["listChanged": false]],
            "serverInfo": ["name": "keyward", "version": .string(KeywardVersion.current)],
            "instructions": .string(MCPTools.instructions),
          ]))
    case "ping":
      send(RPCMessage.result(id: id, [:]))
    case "tools/list":
      send(RPCMessage.result(id: id, ["tools": .array(MCPTools.definitions)]))
    case "tools/call":
      guard let name = params?["name"]?.stringValue else {
        send(RPCMessage.error(RPCFailure(id: id, code: RPCErrorCode.invalidParams, message: "tools/call needs a name")))
        return true
      }
      guard MCPTools.names.contains(name) else {
        send(RPCMessage.error(RPCFailure(id: id, code: RPCErrorCode.invalidParams, message: "unknown tool \(name)")))
        return true
      }
      let outcome = tools.call(name, arguments: params?["arguments"] ?? [:])
      send(RPCMessage.result(id: id, Self.toolResult(outcome)))
    default:
      send(
        RPCMessage.error(RPCFailure(id: id, code: RPCErrorCode.methodNotFound, message: "unknown method \(method)")))
    }
    return true
  }

  /// A tool's answer, or its error as a result the model can read (`isError`), as MCP asks for
  /// failures of the tool itself rather than of the protocol.
  static func toolResult(_ outcome: Result<JSON, ToolError>) -> JSON {
    switch outcome {
    case .success(let value):
      return [
        "content": [["type": "text", "text": .string(value.text)]], "structuredContent": value, "isError": false,
      ]
    case .failure(let error):
      return ["content": [["type": "text", "text": .string(error.message)]], "isError": true]
    }
  }
}

struct ToolError: Error {
  var message: String
  init(_ message: String) { self.message = message }
}
