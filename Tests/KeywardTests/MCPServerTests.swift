import Foundation
import KeywardCore
import KeywardRules
import KeywardServer
import Testing

/// `keyward mcp` end to end: the built executable, driven over pipes with newline-delimited
/// JSON-RPC as MCP clients speak it.
@Suite("MCP server", .serialized)
struct MCPServerTests {
  typealias MCP = ServerProcess<NewlineFraming>

  static func start(in folder: URL? = nil) throws -> MCP {
    let server = try MCP(["mcp"], in: folder)
    let reply = try server.request(
      "initialize",
      [
        "protocolVersion": "2025-06-18", "capabilities": [:],
        "clientInfo": ["name": "keyward-tests", "version": "1"],
      ])
    #expect(reply["result"]?["protocolVersion"] == "2025-06-18")
    #expect(reply["result"]?["serverInfo"]?["name"] == "keyward")
    #expect(reply["result"]?["capabilities"]?["tools"] != nil)
    server.notify("notifications/initialized")
    return server
  }

  static func call(_ server: MCP, _ tool: String, _ arguments: JSON) throws -> JSON {
    let reply = try server.request("tools/call", ["name": .string(tool), "arguments": arguments])
    return try #require(reply["result"])
  }

  @Test("initialize, tools/list, scan_snippet, explain_rule, propose_fix, list_rules")
  func tools() throws {
    let server = try Self.start()
    let listed = try server.request("tools/list")["result"]?["tools"]?.arrayValue ?? []
    #expect(
      Set(listed.compactMap { $0["name"]?.stringValue })
        == ["scan_path", "scan_snippet", "explain_rule", "list_rules", "propose_fix"])
    #expect(listed.allSatisfy { $0["inputSchema"]?["type"] == "object" })

    let source = LanguageServerTests.flagged
    let scanned = try Self.call(server, "scan_snippet", ["source": .string(source), "language": "swift"])
    #expect(scanned["isError"] == false)
    let findings = try #require(scanned["structuredContent"]?["findings"]?.arrayValue)
    let finding = try #require(findings.first { $0["ruleId"] == .string(LanguageServerTests.ruleID) })
    // The JSON report's shape: 1-based lines, UTF-8 columns and UTF-16 columns, a fingerprint.
    #expect(finding["location"]?["start"]?["line"] == 7)
    #expect(finding["location"]?["path"] == "Snippet.swift")
    #expect(finding["severity"] == "high")
    #expect(finding["fix"]?["safe"] == true)
    let fingerprint = try #require(finding["fingerprint"]?.stringValue)
    // The same JSON as text, for clients that read only text content.
    let text = try #require(scanned["content"]?.arrayValue?.first?["text"]?.stringValue)
    #expect(try JSON.parse(Array(text.utf8)) == scanned["structuredContent"])

    let explained = try Self.call(server, "explain_rule", ["ruleId": .string(LanguageServerTests.ruleID)])
    let rule = try #require(RuleCatalog.standard.rule(withID: LanguageServerTests.ruleID))
    #expect(explained["structuredContent"]?["markdown"] == .string(RuleDocumentation.markdown(for: rule)))
    let unknown = try Self.call(server, "explain_rule", ["ruleId": "swift.weak_keychain_accesibility"])
    #expect(unknown["isError"] == true)
    #expect(unknown["content"]?.arrayValue?.first?["text"]?.stringValue?.contains(LanguageServerTests.ruleID) == true)

    let proposed = try Self.call(
      server, "propose_fix", ["source": .string(source), "fingerprint": .string(fingerprint)])
    let proposal = try #require(proposed["structuredContent"]?["proposals"]?.arrayValue?.first)
    let diff = try #require(proposal["fix"]?["diff"]?.stringValue)
    #expect(diff.contains("-        kSecAttrAccessible as String: kSecAttrAccessibleAlways\n"))
    #expect(diff.contains("+        kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock\n"))
    let byLine = try Self.call(server, "propose_fix", ["source": .string(source), "line": 7])
    #expect(byLine["structuredContent"]?["proposals"]?.arrayValue?.first?["fix"] == proposal["fix"])
    let nowhere = try Self.call(server, "propose_fix", ["source": .string(source), "line": 1])
    #expect(nowhere["isError"] == true)

    let rules = try Self.call(server, "list_rules", ["profile": "essential"])
    let listedRules = try #require(rules["structuredContent"]?["rules"]?.arrayValue)
    #expect(listedRules.count == RuleCatalog.standard.rules.count)
    #expect(listedRules.contains { $0["profile"] == "strict" && $0["enabled"] == false })

    #expect(try server.request("resources/list")["error"]?["code"] == .int(RPCErrorCode.methodNotFound))
    server.write(Array("{\"jsonrpc\":\"2.0\",\"id\":\n".utf8))
    #expect(try server.next { $0["error"]?["code"] == .int(RPCErrorCode.parseError) }["id"] == .null)
    #expect(try server.request("ping")["result"] == [:])
    server.closeInput()
    #expect(server.exitStatus() == 0)
  }

  @Test("scan_path scans a folder relative to the server's folder; propose_fix finds the finding there")
  func scanPath() throws {
    let root = try Paths.tree(["App/Store.swift": LanguageServerTests.flagged])
    let server = try Self.start(in: root)
    let scanned = try Self.call(server, "scan_path", ["path": "App"])
    let findings = try #require(scanned["structuredContent"]?["findings"]?.arrayValue)
    let finding = try #require(findings.first { $0["ruleId"] == .string(LanguageServerTests.ruleID) })
    #expect(finding["location"]?["path"] == "Store.swift")
    #expect(scanned["structuredContent"]?["filesScanned"] == 1)
    let fingerprint = try #require(finding["fingerprint"]?.stringValue)
    let proposed = try Self.call(server, "propose_fix", ["path": "App", "fingerprint": .string(fingerprint)])
    let fix = try #require(proposed["structuredContent"]?["proposals"]?.arrayValue?.first?["fix"])
    #expect(fix["edits"]?.arrayValue?.first?["replacement"] == "kSecAttrAccessibleAfterFirstUnlock")
    #expect(fix["edits"]?.arrayValue?.first?["startLine"] == 7)
    // The file is not changed: the fix is only proposed.
    let onDisk = try String(contentsOf: root.appendingPathComponent("App/Store.swift"), encoding: .utf8)
    #expect(onDisk == LanguageServerTests.flagged)
    let missing = try Self.call(server, "scan_path", ["path": "Nowhere"])
    #expect(missing["isError"] == true)
    server.closeInput()
    #expect(server.exitStatus() == 0)
  }
}
