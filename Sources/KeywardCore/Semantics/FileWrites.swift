import SwiftSyntax

/// A call that writes a file: `data.write(to: url)`, `text.write(toFile:…)`,
/// `FileManager.createFile(atPath:contents:)`, `NSKeyedArchiver.archiveRootObject(_:toFile:)`.
public struct FileWrite {
  public var call: FunctionCallExprSyntax
  /// The URL or path written to.
  public var destination: ExprSyntax
  /// What is written, when the call names it.
  public var contents: ExprSyntax?
}

extension SemanticModel {
  /// The file's calls that write files.
  public var fileWrites: [FileWrite] {
    var writes: [FileWrite] = []
    for call in index.calls(named: "write") {
      guard let receiver = SyntaxFacts.receiver(of: call),
        let destination = SyntaxFacts.argument(call, labeled: "to") ?? SyntaxFacts.argument(call, labeled: "toFile")
      else { continue }
      writes.append(FileWrite(call: call, destination: destination, contents: receiver))
    }
    for call in index.calls(named: "createFile") {
      guard let destination = SyntaxFacts.argument(call, labeled: "atPath") else { continue }
      writes.append(
        FileWrite(call: call, destination: destination, contents: SyntaxFacts.argument(call, labeled: "contents")))
    }
    for call in index.calls(named: "archiveRootObject") {
      guard let destination = SyntaxFacts.argument(call, labeled: "toFile") else { continue }
      writes.append(FileWrite(call: call, destination: destination, contents: SyntaxFacts.argument(call, at: 0)))
    }
    return writes.sorted { $0.call.position < $1.call.position }
  }

  /// Whether `node` sits in the attributes or options of a write whose contents are no secret:
  /// a file created empty (`createFile(atPath:contents: nil, attributes: [.protectionKey: …])`,
  /// a marker whose existence is all it says), or contents that are a flag, number or date
  /// (`String(version).data(using: .utf8)!.write(to: url, options: .noFileProtection)`). Its
  /// protection class then guards nothing worth the passcode.
  public func protectsNoSecretContents(_ node: some SyntaxProtocol) -> Bool {
    var current = Syntax(node)
    while let parent = current.parent, !parent.is(CodeBlockItemSyntax.self) {
      if let (call, argument) = SyntaxFacts.callTaking(current) {
        switch (SyntaxFacts.calledName(call), argument.label?.text) {
        case ("createFile", "attributes"):
          guard let contents = SyntaxFacts.argument(call, labeled: "contents") else { return false }
          return Self.isEmptyContents(contents) || holdsPlainContents(contents)
        case ("write", "options"):
          return SyntaxFacts.receiver(of: call).map(holdsPlainContents) ?? false
        default:
          break
        }
      }
      current = parent
    }
    return false
  }

  /// Bytes made from a flag, number or date (`String(version).data(using: .utf8)!`).
  private func holdsPlainContents(_ contents: ExprSyntax) -> Bool {
    SensitiveNames.holdsPlainValue(SequenceShape.convertedValue(SequenceShape.unwrap(contents)), model: self)
  }

  /// `nil`, `Data()`, `Data("".utf8)`: nothing to write.
  static func isEmptyContents(_ contents: ExprSyntax) -> Bool {
    let value = SequenceShape.unwrap(contents)
    if value.is(NilLiteralExprSyntax.self) { return true }
    guard let call = value.as(FunctionCallExprSyntax.self), SyntaxFacts.calledName(call) == "Data" else { return false }
    return call.arguments.isEmpty
  }

  /// The `containerURL(forSecurityApplicationGroupIdentifier:)` call a URL or path is built
  /// from (`container.appendingPathComponent("vault")`, `.path`, through locals and
  /// properties of this file), with the path components added on the way.
  public func appGroupContainer(of expression: ExprSyntax, depth: Int = 0) -> (
    call: FunctionCallExprSyntax, components: [ExprSyntax]
  )? {
    guard depth < 8 else { return nil }
    let leaf = SequenceShape.unwrap(expression)
    if let call = leaf.as(FunctionCallExprSyntax.self) {
      let name = SyntaxFacts.calledName(call)
      if name == "containerURL", SyntaxFacts.argument(call, labeled: "forSecurityApplicationGroupIdentifier") != nil {
        return (call, [])
      }
      let pathBuilders: Set<String> = [
        "appendingPathComponent", "appending", "appendingPathExtension", "URL", "standardizedFileURL",
      ]
      guard let name, pathBuilders.contains(name) else { return nil }
      let base =
        SyntaxFacts.receiver(of: call)
        ?? (name == "URL" ? SyntaxFacts.argument(call, labeled: "fileURLWithPath") : nil)
      guard let base, var found = appGroupContainer(of: base, depth: depth + 1) else { return nil }
      found.components += call.arguments.map(\.expression)
      return found
    }
    if let member = leaf.as(MemberAccessExprSyntax.self), let base = member.base,
      ["path", "absoluteURL", "standardizedFileURL"].contains(member.declName.baseName.text),
      let found = appGroupContainer(of: base, depth: depth + 1)
    {
      return found
    }
    for value in resolver.values(of: leaf) where value.expression.id != leaf.id {
      if let found = appGroupContainer(of: value.expression, depth: depth + 1) { return found }
    }
    return nil
  }
}
