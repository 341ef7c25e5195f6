import KeywardServer
import Testing

@Suite("JSON-RPC framing")
struct JSONRPCFramingTests {
  private func bytes(_ text: String) -> ArraySlice<UInt8> { ArraySlice(text.utf8) }

  @Test("a header split across reads waits for the rest")
  func splitHeader() throws {
    var framing = ContentLengthFraming()
    framing.append(bytes("Content-Len"))
    #expect(try framing.nextBody() == nil)
    framing.append(bytes("gth: 2\r"))
    #expect(try framing.nextBody() == nil)
    framing.append(bytes("\n\r\n{}"))
    #expect(try framing.nextBody() == Array("{}".utf8))
    #expect(try framing.nextBody() == nil)
  }

  @Test("two messages in one read come out one after the other")
  func twoMessagesInOneRead() throws {
    var framing = ContentLengthFraming()
    framing.append(
      ArraySlice(ContentLengthFraming.frame(Array("[1]".utf8)) + ContentLengthFraming.frame(Array("[22]".utf8))))
    #expect(try framing.nextBody() == Array("[1]".utf8))
    #expect(try framing.nextBody() == Array("[22]".utf8))
    #expect(try framing.nextBody() == nil)
  }

  @Test("a partial body waits; Content-Length counts bytes, not characters")
  func partialBody() throws {
    var framing = ContentLengthFraming()
    let body = Array(#"{"text":"clé 🔑"}"#.utf8)
    framing.append(
      bytes("Content-Type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length: \(body.count)\r\n\r\n"))
    framing.append(ArraySlice(body.prefix(10)))
    #expect(try framing.nextBody() == nil)
    framing.append(ArraySlice(body.dropFirst(10)))
    #expect(try framing.nextBody() == body)
  }

  @Test("a header without Content-Length is dropped with an error, and the next message still reads")
  func missingLength() throws {
    var framing = ContentLengthFraming()
    framing.append(bytes("X-Nothing: 1\r\n\r\n"))
    framing.append(ArraySlice(ContentLengthFraming.frame(Array("{}".utf8))))
    #expect(throws: FramingError.self) { try framing.nextBody() }
    #expect(try framing.nextBody() == Array("{}".utf8))
  }

  @Test("newline framing: one message per line, blank lines and CR ignored, partial lines wait")
  func newlineFraming() throws {
    var framing = NewlineFraming()
    framing.append(bytes("{\"a\":1}\r\n\n{\"b\""))
    #expect(try framing.nextBody() == Array("{\"a\":1}".utf8))
    #expect(try framing.nextBody() == nil)
    framing.append(bytes(":2}\n"))
    #expect(try framing.nextBody() == Array("{\"b\":2}".utf8))
    #expect(NewlineFraming.frame(Array("{}".utf8)) == Array("{}\n".utf8))
  }

  @Test("messages: requests, notifications, parse errors and invalid requests")
  func decoding() {
    #expect(
      RPCMessage.decode(Array(#"{"jsonrpc":"2.0","id":7,"method":"shutdown"}"#.utf8))
        == .success(.request(id: 7, method: "shutdown", params: nil)))
    #expect(
      RPCMessage.decode(Array(#"{"jsonrpc":"2.0","method":"exit","params":{"a":[true,null,1.5]}}"#.utf8))
        == .success(.notification(method: "exit", params: ["a": [true, nil, .double(1.5)]])))
    #expect(
      RPCMessage.decode(Array("{not json".utf8))
        == .failure(RPCFailure(id: nil, code: RPCErrorCode.parseError, message: "the message is not valid JSON")))
    #expect(
      RPCMessage.decode(Array(#"{"jsonrpc":"2.0","id":"x"}"#.utf8))
        == .failure(RPCFailure(id: "x", code: RPCErrorCode.invalidRequest, message: "the message has no method")))
  }

  @Test("JSON prints compactly with sorted keys and round-trips")
  func printing() throws {
    let value: JSON = ["b": [1, "two", nil], "a": ["z": false, "y": .double(0.5)]]
    #expect(value.text == #"{"a":{"y":0.5,"z":false},"b":[1,"two",null]}"#)
    #expect(try JSON.parse(value.encoded()) == value)
  }
}
