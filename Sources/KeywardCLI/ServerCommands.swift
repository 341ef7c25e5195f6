import ArgumentParser
import Foundation
import KeywardServer

/// `keyward lsp`: a language server for editors, over standard input and output.
struct LSPCommand: KeywardCommand {
  static let configuration = CommandConfiguration(
    commandName: "lsp",
    abstract: "Run the language server (LSP over stdin/stdout): findings as diagnostics, safe fixes as code actions.")

  func execute(_ io: inout CommandOutput) throws -> Int32 {
    // A client that goes away must end the server, not kill it mid-write.
    signal(SIGPIPE, SIG_IGN)
    return LanguageServer.serve(StdioConnection<ContentLengthFraming>())
  }
}

/// `keyward mcp`: a Model Context Protocol server for AI assistants, over standard input and output.
struct MCPCommand: KeywardCommand {
  static let configuration = CommandConfiguration(
    commandName: "mcp",
    abstract:
      "Run the Model Context Protocol server (stdio) with the tools scan_path, scan_snippet, explain_rule, list_rules and propose_fix."
  )

  func execute(_ io: inout CommandOutput) throws -> Int32 {
    signal(SIGPIPE, SIG_IGN)
    return MCPServer.serve(StdioConnection<NewlineFraming>())
  }
}
