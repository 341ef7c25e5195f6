import Foundation
import KeywardCore
import KeywardRules
import KeywardServer
import Testing

/// `keyward lsp` end to end: the built executable, driven over pipes with real protocol messages.
@Suite("Language server", .serialized)
struct LanguageServerTests {
  typealias LSP = ServerProcess<ContentLengthFraming>
  static let ruleID = "swift.weak_keychain_accessibility"

  static let flagged = """
    import Security

    func saveToken(_ data: Data) {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecValueData as String: data,
            kSecAttrAccessible as String: kSecAttrAccessibleAlways
        ]
        let status = SecItemAdd(query as CFDictionary, nil)
        if status != errSecSuccess { print("failed: \\(status)") }
    }

    """
  static let clean = flagged.replacingOccurrences(
    of: "kSecAttrAccessibleAlways", with: "kSecAttrAccessibleWhenUnlockedThisDeviceOnly")

  /// The 0-based line and UTF-16 character where `needle` starts in `text`.
  static func place(of needle: String, in text: String) -> (line: Int, character: Int) {
    let lines = text.components(separatedBy: "\n")
    let line = lines.firstIndex { $0.contains(needle) }!
    let prefix = lines[line].components(separatedBy: needle)[0]
    return (line, prefix.utf16.count)
  }

  /// A workspace on disk; its `.keyward.yml` lowers the rule to medium, which the server must honour.
  static func workspace(configured: Bool = true) throws -> URL {
    var files = [
      "Sources/App/TokenStore.swift": """
      import Security

      struct TokenStore {
          func put(_ secret: Data, protection: CFString) -> OSStatus {
              let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: secret,
                                          kSecAttrAccessible as String: protection]
              return SecItemAdd(query as CFDictionary, nil)
          }
      }

      """
    ]
    if configured { files[".keyward.yml"] = "rules:\n  \(ruleID):\n    severity: medium\n" }
    return try Paths.tree(files)
  }

  static func start(root: URL) throws -> LSP {
    let server = try LSP(["lsp"])
    let reply = try server.request(
      "initialize", ["processId": nil, "rootUri": .string(root.absoluteString), "capabilities": [:]])
    let capabilities = try #require(reply["result"]?["capabilities"])
    #expect(capabilities["hoverProvider"] == true)
    #expect(capabilities["codeActionProvider"] != nil)
    #expect(capabilities["textDocumentSync"]?["change"] == 1)
    server.notify("initialized")
    return server
  }

  static func open(_ server: LSP, uri: String, text: String, version: Int = 1) {
    server.notify(
      "textDocument/didOpen",
      ["textDocument": ["uri": .string(uri), "languageId": "swift", "version": .int(version), "text": .string(text)]])
  }

  @Test("open, change, code action, hover, close, shutdown and exit")
  func documentLifecycle() throws {
    let root = try Self.workspace()
    let server = try Self.start(root: root)
    let uri = root.appendingPathComponent("Sources/App/Store.swift").absoluteString
    Self.open(server, uri: uri, text: Self.flagged)

    let published = try server.diagnostics(for: uri)
    #expect(published["params"]?["version"] == 1)
    let diagnostics = try #require(published["params"]?["diagnostics"]?.arrayValue)
    let diagnostic = try #require(diagnostics.first { $0["code"] == .string(Self.ruleID) })
    let (line, character) = Self.place(of: "kSecAttrAccessibleAlways", in: Self.flagged)
    let range: JSON = [
      "start": ["line": .int(line), "character": .int(character)],
      "end": ["line": .int(line), "character": .int(character + "kSecAttrAccessibleAlways".utf16.count)],
    ]
    #expect(diagnostic["range"] == range)
    #expect(diagnostic["source"] == "keyward")
    // .keyward.yml says medium: a warning, not the rule's default (high, an error).
    #expect(diagnostic["severity"] == 2)
    #expect(diagnostic["message"]?.stringValue?.contains("kSecAttrAccessibleAlways") == true)
    // The link opens the rule's page, as `keyward explain` prints it.
    let rule = try #require(RuleCatalog.standard.rule(withID: Self.ruleID))
    let page = try #require(diagnostic["codeDescription"]?["href"]?.stringValue.flatMap(URL.init(string:)))
    #expect(page.isFileURL && page.lastPathComponent == Self.ruleID + ".md")
    #expect(try String(contentsOf: page, encoding: .utf8) == RuleDocumentation.markdown(for: rule))

    // The safe fix, as an edit of exactly the weak constant.
    let actions = try server.request(
      "textDocument/codeAction",
      [
        "textDocument": ["uri": .string(uri)], "range": range,
        "context": ["diagnostics": [diagnostic]],
      ])["result"]?.arrayValue
    let action = try #require(actions?.first)
    #expect(action["kind"] == "quickfix")
    let edits = try #require(action["edit"]?["changes"]?[uri]?.arrayValue)
    #expect(edits == [["range": range, "newText": "kSecAttrAccessibleAfterFirstUnlock"]])

    // Hover over the finding: the rule's explanation, as `keyward explain` prints it.
    let hover = try server.request(
      "textDocument/hover",
      ["textDocument": ["uri": .string(uri)], "position": ["line": .int(line), "character": .int(character + 3)]])
    #expect(hover["result"]?["contents"]?["value"] == .string(RuleDocumentation.markdown(for: rule)))
    #expect(hover["result"]?["range"] == range)
    let elsewhere = try server.request(
      "textDocument/hover", ["textDocument": ["uri": .string(uri)], "position": ["line": 0, "character": 0]])
    #expect(elsewhere["result"] == .null)

    // The edited text in memory is scanned, not the file (which does not even exist).
    server.notify(
      "textDocument/didChange",
      ["textDocument": ["uri": .string(uri), "version": 2], "contentChanges": [["text": .string(Self.clean)]]])
    let cleaned = try server.diagnostics(for: uri)
    #expect(cleaned["params"]?["version"] == 2)
    #expect(cleaned["params"]?["diagnostics"] == [])

    server.notify("textDocument/didClose", ["textDocument": ["uri": .string(uri)]])
    #expect(try server.diagnostics(for: uri)["params"]?["diagnostics"] == [])

    #expect(try server.request("shutdown", nil)["result"] == .null)
    server.notify("exit", nil)
    #expect(server.exitStatus() == 0)
  }

  @Test("columns are UTF-16 characters: a line with non-ASCII text before the finding")
  func nonASCIIColumns() throws {
    let root = try Self.workspace(configured: false)
    let server = try Self.start(root: root)
    let text =
      "let label = \"Schlüssel 🔑 für café\"; let query = [kSecAttrAccessible: kSecAttrAccessibleAlwaysThisDeviceOnly] as CFDictionary\n"
    let uri = root.appendingPathComponent("Sources/Label.swift").absoluteString
    Self.open(server, uri: uri, text: text)
    let diagnostics = try #require(try server.diagnostics(for: uri)["params"]?["diagnostics"]?.arrayValue)
    let diagnostic = try #require(diagnostics.first { $0["code"] == .string(Self.ruleID) })
    let (_, character) = Self.place(of: "kSecAttrAccessibleAlwaysThisDeviceOnly", in: text)
    // UTF-8 bytes would put it 5 further right (ü, ü and é take two bytes, 🔑 four bytes but two units).
    let prefix = text.components(separatedBy: "kSecAttrAccessibleAlwaysThisDeviceOnly")[0]
    #expect(prefix.utf8.count - character == 5)
    #expect(diagnostic["range"]?["start"] == ["line": 0, "character": .int(character)])
    // Without a .keyward.yml the rule's own severity (high) makes it an error.
    #expect(diagnostic["severity"] == 1)
    try server.request("shutdown", nil)
    server.notify("exit", nil)
    #expect(server.exitStatus() == 0)
  }

  @Test("a weak value passed to a function in another file of the workspace is settled and related")
  func crossFileHandOff() throws {
    let root = try Self.workspace(configured: false)
    let server = try Self.start(root: root)
    let text = """
      import Security

      func remember(_ store: TokenStore, _ token: Data) { _ = store.put(token, protection: kSecAttrAccessibleAlways) }

      """
    let uri = root.appendingPathComponent("Sources/App/Remember.swift").absoluteString
    Self.open(server, uri: uri, text: text)
    let diagnostics = try #require(try server.diagnostics(for: uri)["params"]?["diagnostics"]?.arrayValue)
    let diagnostic = try #require(diagnostics.first { $0["code"] == .string(Self.ruleID) })
    let related = try #require(diagnostic["relatedInformation"]?.arrayValue)
    let storeURI = root.appendingPathComponent("Sources/App/TokenStore.swift").absoluteString
    #expect(related.contains { $0["location"]?["uri"] == .string(storeURI) })
    try server.request("shutdown", nil)
    server.notify("exit", nil)
    #expect(server.exitStatus() == 0)
  }

  @Test("edits in quick succession are scanned once, at the last version; range edits are applied")
  func debouncedAndRangeEdits() throws {
    let root = try Self.workspace(configured: false)
    let server = try Self.start(root: root)
    let uri = root.appendingPathComponent("Sources/App/Store.swift").absoluteString
    Self.open(server, uri: uri, text: Self.clean)
    #expect(try server.diagnostics(for: uri)["params"]?["diagnostics"] == [])
    // Typing: three edits well within the debounce; the weak value comes back by a range edit.
    let (line, character) = Self.place(of: "kSecAttrAccessibleWhenUnlockedThisDeviceOnly", in: Self.clean)
    let weakened: JSON = [
      "range": [
        "start": ["line": .int(line), "character": .int(character)],
        "end": [
          "line": .int(line), "character": .int(character + "kSecAttrAccessibleWhenUnlockedThisDeviceOnly".count),
        ],
      ],
      "text": "kSecAttrAccessibleAlways",
    ]
    // Written at once, so that a busy machine cannot stretch the pauses past the debounce.
    let changes: [(Int, JSON)] = [
      (2, ["text": .string(Self.clean + "// 1\n")]), (3, ["text": .string(Self.clean)]), (4, weakened),
    ]
    server.write(
      changes.flatMap { version, change in
        ContentLengthFraming.frame(
          RPCMessage.notification(
            "textDocument/didChange",
            ["textDocument": ["uri": .string(uri), "version": .int(version)], "contentChanges": [change]]
          ).encoded())
      })
    let published = try server.diagnostics(for: uri)
    #expect(published["params"]?["version"] == 4)
    let codes = published["params"]?["diagnostics"]?.arrayValue?.compactMap { $0["code"] }
    #expect(codes == [.string(Self.ruleID)])
    #expect(
      published["params"]?["diagnostics"]?.arrayValue?.first?["range"]?["start"]
        == ["line": .int(line), "character": .int(character)])
    try server.request("shutdown", nil)
    server.notify("exit", nil)
    #expect(server.exitStatus() == 0)
  }

  @Test("files the configuration excludes get no diagnostics, as a scan of the workspace skips them")
  func excludedByConfiguration() throws {
    let root = try Paths.tree([".keyward.yml": "exclude: [\"Generated/**\", \"Fixtures\"]\n"])
    let server = try Self.start(root: root)
    var uris: [String: String] = [:]
    for path in ["Generated/Keys.swift", "Sources/Fixtures/Keys.swift", "Sources/Keys.swift"] {
      let uri = root.appendingPathComponent(path).absoluteString
      uris[path] = uri
      Self.open(server, uri: uri, text: Self.flagged)
    }
    for path in ["Generated/Keys.swift", "Sources/Fixtures/Keys.swift"] {
      #expect(try server.diagnostics(for: uris[path]!)["params"]?["diagnostics"] == [], "\(path)")
    }
    let kept = try server.diagnostics(for: uris["Sources/Keys.swift"]!)["params"]?["diagnostics"]?.arrayValue
    #expect(kept?.contains { $0["code"] == .string(Self.ruleID) } == true)
    // A code action request for other kinds than quick fixes gets none.
    let actions = try server.request(
      "textDocument/codeAction",
      [
        "textDocument": ["uri": .string(uris["Sources/Keys.swift"]!)],
        "range": ["start": ["line": 0, "character": 0], "end": ["line": 20, "character": 0]],
        "context": ["diagnostics": [], "only": ["source.organizeImports"]],
      ])
    #expect(actions["result"] == [])
    try server.request("shutdown", nil)
    server.notify("exit", nil)
    #expect(server.exitStatus() == 0)
  }

  @Test("where the code lives and what it is built for are judged as a scan of the workspace does")
  func projectContext() throws {
    let macStore = """
      import Security
      func remember(_ token: Data) -> OSStatus {
          let query: [String: Any] = [kSecValueData as String: token,
                                      kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly]
          return SecItemAdd(query as CFDictionary, nil)
      }

      """
    let root = try Paths.tree([
      ".keyward.yml": "origins:\n  test: [\"Support/**\"]\n",
      "Helper/Package.swift": ProjectPlatformTests.macPackage,
    ])
    let server = try LSP(["lsp"])
    try server.request(
      "initialize",
      [
        "rootUri": .string(root.absoluteString), "capabilities": [:],
        "initializationOptions": ["ruleDocumentationURL": "https://docs.example.com/keyward/{rule}.html"],
      ])
    server.notify("initialized")
    func diagnostics(_ path: String, _ text: String) throws -> [JSON] {
      let uri = root.appendingPathComponent(path).absoluteString
      Self.open(server, uri: uri, text: text)
      return try #require(try server.diagnostics(for: uri)["params"]?["diagnostics"]?.arrayValue)
    }
    // `origins:` makes Support/ test code: information, not an error.
    let support = try diagnostics("Support/Keys.swift", Self.flagged).first { $0["code"] == .string(Self.ruleID) }
    #expect(support?["severity"] == 3)
    let app = try diagnostics("Sources/Keys.swift", Self.flagged).first { $0["code"] == .string(Self.ruleID) }
    #expect(app?["severity"] == 1)
    #expect(app?["codeDescription"]?["href"] == .string("https://docs.example.com/keyward/\(Self.ruleID).html"))
    // The package declares only macOS: its sources are macOS code; the same text elsewhere is not.
    let macRule = "swift.macos_file_based_keychain"
    #expect(try diagnostics("Helper/Sources/Helper/Store.swift", macStore).contains { $0["code"] == .string(macRule) })
    #expect(try !diagnostics("Sources/Store.swift", macStore).contains { $0["code"] == .string(macRule) })
    try server.request("shutdown", nil)
    server.notify("exit", nil)
    #expect(server.exitStatus() == 0)
  }

  @Test("protocol errors: before initialize, unknown methods, malformed JSON; exit without shutdown is 1")
  func protocolErrors() throws {
    let server = try LSP(["lsp"])
    #expect(try server.request("textDocument/hover", [:])["error"]?["code"] == .int(RPCErrorCode.serverNotInitialized))
    try server.request("initialize", ["capabilities": [:]])
    #expect(try server.request("workspace/symbol", [:])["error"]?["code"] == .int(RPCErrorCode.methodNotFound))
    server.write(ContentLengthFraming.frame(Array("{\"jsonrpc\": \"2.0\", \"id\": 99, ".utf8)))
    let parseError = try server.next { $0["error"]?["code"] == .int(RPCErrorCode.parseError) }
    #expect(parseError["id"] == .null)
    // Still serving.
    #expect(try server.request("textDocument/hover", [:])["result"] == .null)
    server.notify("exit", nil)
    #expect(server.exitStatus() == 1)
  }
}
