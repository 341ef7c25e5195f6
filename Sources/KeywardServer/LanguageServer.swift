import Dispatch
import Foundation
import KeywardCore

/// `keyward lsp`: diagnostics for the documents an editor has open, the safe fixes as code
/// actions, and each rule's explanation on hover. Messages are handled one at a time on one
/// queue; scans after edits wait `debounce` seconds for typing to pause, then run on that queue.
public final class LanguageServer: @unchecked Sendable {
  public static let defaultDebounce = 0.150

  private let send: @Sendable (JSON) -> Void
  private let queue = DispatchQueue(label: "keyward.lsp")
  private var debounce = LanguageServer.defaultDebounce
  private var analyzer = DocumentAnalyzer(root: nil)
  var documents: [String: OpenDocument] = [:]
  private var initialized = false
  private var shutdownRequested = false
  private var reportedProblems: Set<String> = []
  /// Where rule pages are written when no documentation URL is configured.
  private let documentationFolder: URL?
  private var documentationLinks: RuleDocumentationLinks
  /// Set by `exit`: 0 after `shutdown`, 1 without it, as the protocol asks.
  public private(set) var exitCode: Int32?

  /// `documentationFolder`: where the rules' pages are written for diagnostics to link to (by
  /// default, under the user's cache folder).
  public init(
    documentationFolder: URL? = RuleDocumentationLinks.defaultFolder, send: @escaping @Sendable (JSON) -> Void
  ) {
    self.send = send
    self.documentationFolder = documentationFolder
    documentationLinks = RuleDocumentationLinks(template: nil, folder: documentationFolder)
  }

  /// Serves a connection until `exit` or the end of input; returns the exit status.
  public static func serve<Framing>(_ connection: StdioConnection<Framing>) -> Int32 {
    let server = LanguageServer { connection.send($0) }
    connection.run { server.handle($0) }
    return server.exitCode ?? (server.shutdownRequested ? 0 : 1)
  }

  /// Handles one message; false once the client has said `exit`.
  public func handle(_ message: RPCMessage) -> Bool {
    queue.sync {
      switch message {
      case .request(let id, let method, let params):
        respond(id: id, method: method, params: params)
      case .notification(let method, let params):
        notify(method: method, params: params)
      case .response:
        break
      }
      return exitCode == nil
    }
  }

  private func respond(id: JSON, method: String, params: JSON?) {
    let reply: Result<JSON, RPCFailure>
    if method == "initialize" {
      reply = .success(initialize(params))
    } else if !initialized {
      reply = .failure(RPCFailure(id: id, code: RPCErrorCode.serverNotInitialized, message: "initialize first"))
    } else if shutdownRequested {
      reply = .failure(RPCFailure(id: id, code: RPCErrorCode.invalidRequest, message: "the server is shutting down"))
    } else {
      switch method {
      case "shutdown":
        shutdownRequested = true
        reply = .success(.null)
      case "textDocument/codeAction": reply = .success(codeActions(params))
      case "textDocument/hover": reply = .success(hover(params))
      default:
        reply = .failure(RPCFailure(id: id, code: RPCErrorCode.methodNotFound, message: "unknown method \(method)"))
      }
    }
    switch reply {
    case .success(let result): send(RPCMessage.result(id: id, result))
    case .failure(var failure):
      failure.id = id
      send(RPCMessage.error(failure))
    }
  }

  private func notify(method: String, params: JSON?) {
    if method == "exit" {
      exitCode = shutdownRequested ? 0 : 1
      return
    }
    guard initialized, !shutdownRequested, let params else { return }
    switch method {
    case "textDocument/didOpen": didOpen(params)
    case "textDocument/didChange": didChange(params)
    case "textDocument/didSave": didSave(params)
    case "textDocument/didClose": didClose(params)
    // Files changed outside the editor (a checkout, a generator): read the workspace again.
    case "workspace/didChangeWatchedFiles": analyzer.invalidateWorkspace()
    default: break  // initialized, $/cancelRequest, $/setTrace and the like need nothing.
    }
  }

  private func initialize(_ params: JSON?) -> JSON {
    initialized = true
    let root =
      params?["workspaceFolders"]?.arrayValue?.first?["uri"]?.stringValue.flatMap(DocumentURI.path(of:))
      ?? params?["rootUri"]?.stringValue.flatMap(DocumentURI.path(of:)) ?? params?["rootPath"]?.stringValue
    analyzer = DocumentAnalyzer(root: root)
    let options = params?["initializationOptions"]
    if let milliseconds = options?["debounceMilliseconds"]?.intValue, milliseconds >= 0 {
      debounce = Double(milliseconds) / 1000
    }
    documentationLinks = RuleDocumentationLinks(
      template: options?["ruleDocumentationURL"]?.stringValue, folder: documentationFolder)
    return [
      "capabilities": [
        "textDocumentSync": ["openClose": true, "change": 1, "save": ["includeText": true]],
        "codeActionProvider": ["codeActionKinds": ["quickfix"]],
        "hoverProvider": true,
      ],
      "serverInfo": ["name": "keyward", "version": .string(KeywardVersion.current)],
    ]
  }

  private func didOpen(_ params: JSON) {
    let item = params["textDocument"]
    guard let uri = item?["uri"]?.stringValue, let text = item?["text"]?.stringValue else { return }
    let path =
      DocumentURI.path(of: uri) ?? "/" + OpenDocument.placeholderName(languageID: item?["languageId"]?.stringValue)
    documents[uri] = OpenDocument(uri: uri, path: path, text: text, version: item?["version"]?.intValue ?? 0)
    analyzeAndPublish(uri)
  }

  private func didChange(_ params: JSON) {
    guard let uri = params["textDocument"]?["uri"]?.stringValue, var document = documents[uri] else { return }
    for change in params["contentChanges"]?.arrayValue ?? [] { document.apply(change) }
    document.version = params["textDocument"]?["version"]?.intValue ?? document.version
    documents[uri] = document
    let edits = document.edits
    queue.asyncAfter(deadline: .now() + debounce) { [self] in
      // Only the scan scheduled after the last edit runs.
      guard exitCode == nil, documents[uri]?.edits == edits else { return }
      analyzeAndPublish(uri)
    }
  }

  private func didSave(_ params: JSON) {
    guard let uri = params["textDocument"]?["uri"]?.stringValue else { return }
    if let text = params["text"]?.stringValue, documents[uri]?.text != text {
      documents[uri]?.text = text
      documents[uri]?.edits += 1
    }
    // A saved configuration file changes what every open document shows.
    if uri.hasSuffix("/" + ConfigLoader.fileName) {
      for open in documents.keys.sorted() where open != uri { analyzeAndPublish(open) }
    } else if documents[uri] != nil {
      analyzeAndPublish(uri)
    }
  }

  private func didClose(_ params: JSON) {
    guard let uri = params["textDocument"]?["uri"]?.stringValue else { return }
    documents[uri] = nil
    publish(uri: uri, version: nil, diagnostics: [])
  }

  /// The document's analysis, scanning its current text if it changed since the last scan.
  func currentAnalysis(_ uri: String) -> DocumentAnalysis? {
    guard var document = documents[uri], OpenDocument.isSource(document.path) else { return nil }
    if document.isStale || document.analysis == nil {
      document.analysis = analyzer.analyze(text: document.text, absolutePath: document.path)
      document.analyzedEdits = document.edits
      documents[uri] = document
    }
    return document.analysis
  }

  private func analyzeAndPublish(_ uri: String) {
    guard let document = documents[uri] else { return }
    guard let analysis = currentAnalysis(uri) else { return }
    if let problem = analysis.configurationProblem, reportedProblems.insert(problem).inserted {
      send(RPCMessage.notification("window/showMessage", ["type": 1, "message": .string("Keyward: \(problem)")]))
    }
    // Syntax errors are the compiler's to show; a scan given up is said, or the file would
    // look clean.
    for issue in analysis.issues where issue.kind == .timeLimit {
      send(
        RPCMessage.notification(
          "window/showMessage", ["type": 2, "message": .string("Keyward: \(issue.path): \(issue.message)")]))
    }
    let diagnostics = analysis.findings.map { diagnostic($0, uri: uri) }
    publish(uri: uri, version: document.version, diagnostics: diagnostics)
  }

  private func publish(uri: String, version: Int?, diagnostics: [JSON]) {
    var params: [String: JSON] = ["uri": .string(uri), "diagnostics": .array(diagnostics)]
    if let version { params["version"] = .int(version) }
    send(RPCMessage.notification("textDocument/publishDiagnostics", .object(params)))
  }

  /// The finding as a diagnostic of the document at `uri`, linked to its rule's page.
  func diagnostic(_ finding: Finding, uri: String) -> JSON {
    DiagnosticMapping.diagnostic(
      finding, uri: uri, documentation: documentationLinks.href(for: finding.ruleId), uriOfPath: uriOfPath)
  }

  /// The URI of a path relative to the workspace root.
  func uriOfPath(_ relative: String) -> String {
    guard let root = analyzer.root else { return relative }
    return DocumentURI.uri(ofPath: (root as NSString).appendingPathComponent(relative))
  }
}
