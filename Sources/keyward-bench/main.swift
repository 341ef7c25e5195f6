import Foundation
import KeywardCore
import KeywardRules
import SwiftParser
@_spi(RawSyntax) import SwiftSyntax

/// Visits every node and token, doing nothing but count them.
final class NodeCounter: SyntaxAnyVisitor {
  var nodes = 0

  override func visitAny(_ node: Syntax) -> SyntaxVisitorContinueKind {
    nodes += 1
    return .visitChildren
  }
}

/// Counts the nodes and tokens under `raw` by reading the raw tree alone, without making a
/// `Syntax` value for any of them.
func rawNodeCount(_ raw: RawSyntax) -> Int {
  guard let layout = raw.layoutView else { return 1 }
  var total = 1
  for case let child? in layout.children { total += rawNodeCount(child) }
  return total
}

/// Helpers for Benchmarks/benchmark.py:
///   keyward-bench parse-only PATH [--jobs N]   parse every Swift file with swift-syntax and nothing else
///   keyward-bench parse-walk PATH [--jobs N]   the same, then visit every node once with an empty visitor
///                                              (the least any analysis reading the whole tree costs)
///   keyward-bench parse-rawwalk PATH [--jobs N] the same, but read every node of the raw tree instead
///                                              (what a walk costs without making `Syntax` values)
///   keyward-bench tokens                       the union of the standard rules' prefilter tokens
///   keyward-bench why-parsed PATH              per Swift or Objective-C file a scan parses, what makes it
///                                              (the rules whose tokens it holds, contexts, value sinks)
let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "parse-only", "parse-walk", "parse-rawwalk":
  guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: keyward-bench \(arguments[0]) PATH [--jobs N]\n".utf8))
    exit(2)
  }
  let mode = arguments[0]
  let jobs = arguments.firstIndex(of: "--jobs").flatMap { Int(arguments[$0 + 1]) } ?? 0
  let root = FileDiscovery.absolute(arguments[1])
  let files = FileDiscovery(root: root, excludes: []).discover([root]).files.filter {
    $0.relativePath.hasSuffix(".swift")
  }
  let sizes = files.map { FileDiscovery.size(of: $0.absolutePath) }
  let order = files.indices.sorted { sizes[$0] > sizes[$1] }
  let tokens = ParallelWork.map(count: files.count, jobs: jobs) { position -> Int in
    // Read as the scanner reads, so that the two differ only in what follows the parse.
    guard let bytes = try? FileBytes.read(files[order[position]].absolutePath) else { return 0 }
    let tree = bytes.withUnsafeBufferPointer { Parser.parse(source: $0) }
    switch mode {
    case "parse-walk":
      let visitor = NodeCounter(viewMode: .sourceAccurate)
      visitor.walk(tree)
      return visitor.nodes
    case "parse-rawwalk": return rawNodeCount(tree.raw)
    default: return tree.totalLength.utf8Length
    }
  }
  print("parsed \(files.count) files, \(tokens.reduce(0, +)) \(mode == "parse-only" ? "bytes" : "nodes visited")")
case "tokens":
  let rules = Configuration().configuredRules(from: .standard)
  // What the scanner searches for: the rules' tokens, and `LAContext` when a rule follows
  // contexts into other files.
  var tokens = Set(rules.flatMap { $0.prefilter.tokens.map { String(decoding: $0, as: UTF8.self) } })
  if rules.contains(where: { $0.rule.followsContextsAcrossFiles }) { tokens.insert(FileScanner.contextParameterToken) }
  print(tokens.sorted().joined(separator: "\n"))
case "why-parsed":
  guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: keyward-bench why-parsed PATH\n".utf8))
    exit(2)
  }
  let rules = Configuration().configuredRules(from: .standard)
  let root = FileDiscovery.absolute(arguments[1])
  let sinkTokens = ValueSink.allCases.flatMap { sink in sink.tokens.map { (sink.rawValue, $0) } }
  for file in FileDiscovery(root: root, excludes: []).discover([root]).files where file.kind == .source {
    guard let bytes = try? FileBytes.read(file.absolutePath) else { continue }
    let text = String(decoding: bytes, as: UTF8.self)
    let language = SourceLanguage(pathExtension: FileDiscovery.pathExtension(file.relativePath)) ?? .swift
    var reasons = rules.filter { configured in
      configured.rule.language == language
        && configured.prefilter.tokens.contains { text.contains(String(decoding: $0, as: UTF8.self)) }
        && configured.rule.mayReport(in: bytes, options: configured.options)
    }.map(\.metadata.id)
    if language == .swift {
      if text.contains(FileScanner.contextParameterToken) { reasons.append("(contexts)") }
      reasons += Set(sinkTokens.filter { text.contains($0.1) }.map { "(sink \($0.0))" }).sorted()
    }
    if !reasons.isEmpty { print("\(file.relativePath)\t\(bytes.count)\t\(reasons.joined(separator: " "))") }
  }
default:
  FileHandle.standardError.write(
    Data("usage: keyward-bench parse-only|parse-walk|parse-rawwalk PATH [--jobs N] | tokens\n".utf8))
  exit(2)
}
