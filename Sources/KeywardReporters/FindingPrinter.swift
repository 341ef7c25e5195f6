import KeywardCore

/// Prints one finding as JSON bytes, laid out exactly as `JSONValue` lays out the same object
/// (keys in sorted order, two-space indentation), without building the value first: reports of
/// tens of thousands of findings spend most of their printing time here.
struct FindingPrinter {
  private(set) var bytes: [UInt8] = []

  /// The finding at `indent` spaces, its first line not indented (as inside an array).
  static func print(_ finding: Finding, indent: Int) -> [UInt8] {
    var printer = FindingPrinter()
    printer.bytes.reserveCapacity(1536)
    printer.finding(finding, indent)
    return printer.bytes
  }

  private mutating func finding(_ finding: Finding, _ indent: Int) {
    var members = Members(indent: indent)
    members.next("buildCondition", &self)
    if let condition = finding.buildCondition { string(condition.rawValue) } else { ascii("null") }
    members.next("confidence", &self)
    string(finding.confidence.rawValue)
    members.next("fingerprint", &self)
    string(finding.fingerprint)
    members.next("fix", &self)
    if let fix = finding.fix {
      var fixMembers = Members(indent: indent + 2)
      fixMembers.next("changesBehavior", &self)
      ascii(fix.changesBehavior ? "true" : "false")
      fixMembers.next("description", &self)
      string(fix.description)
      fixMembers.next("edits", &self)
      array(fix.edits, indent + 6) { printer, edit, indent in
        var editMembers = Members(indent: indent)
        editMembers.next("end", &printer)
        printer.int(edit.end)
        editMembers.next("replacement", &printer)
        printer.string(edit.replacement)
        editMembers.next("start", &printer)
        printer.int(edit.start)
        editMembers.close(&printer)
      }
      fixMembers.next("safe", &self)
      ascii(fix.safe ? "true" : "false")
      fixMembers.close(&self)
    } else {
      ascii("null")
    }
    members.next("location", &self)
    location(finding.location, indent + 2)
    members.next("message", &self)
    string(finding.message)
    members.next("origin", &self)
    string(finding.origin.rawValue)
    members.next("related", &self)
    array(finding.related, indent + 4) { printer, related, indent in
      var relatedMembers = Members(indent: indent)
      relatedMembers.next("location", &printer)
      printer.location(related.location, indent + 2)
      relatedMembers.next("message", &printer)
      printer.string(related.message)
      relatedMembers.close(&printer)
    }
    members.next("ruleId", &self)
    string(finding.ruleId)
    members.next("severity", &self)
    string(finding.severity.rawValue)
    members.next("snippet", &self)
    string(finding.snippet)
    members.next("suppression", &self)
    if let suppression = finding.suppression {
      var suppressionMembers = Members(indent: indent + 2)
      suppressionMembers.next("justification", &self)
      if let justification = suppression.justification { string(justification) } else { ascii("null") }
      suppressionMembers.next("kind", &self)
      string(suppression.kind.rawValue)
      suppressionMembers.close(&self)
    } else {
      ascii("null")
    }
    members.next("tags", &self)
    array(finding.tags, indent + 4) { printer, tag, _ in printer.string(tag) }
    members.close(&self)
  }

  private mutating func location(_ location: SourceLocation, _ indent: Int) {
    var members = Members(indent: indent)
    if let site = location.binary {
      members.next("binary", &self)
      var siteMembers = Members(indent: indent + 2)
      siteMembers.next("address", &self)
      if let address = site.address { string("0x" + String(address, radix: 16)) } else { ascii("null") }
      siteMembers.next("architecture", &self)
      if let architecture = site.architecture { string(architecture) } else { ascii("null") }
      siteMembers.next("bundle", &self)
      if let bundle = site.bundle { self.bundle(bundle, indent + 4) } else { ascii("null") }
      siteMembers.next("file", &self)
      string(site.file)
      siteMembers.close(&self)
    }
    members.next("end", &self)
    position(location.end, indent + 2)
    members.next("path", &self)
    string(location.path)
    members.next("start", &self)
    position(location.start, indent + 2)
    members.close(&self)
  }

  private mutating func bundle(_ bundle: ShippingBundle, _ indent: Int) {
    var members = Members(indent: indent)
    members.next("identifier", &self)
    if let identifier = bundle.identifier { string(identifier) } else { ascii("null") }
    members.next("kind", &self)
    string(bundle.kind.rawValue)
    members.next("name", &self)
    string(bundle.name)
    members.next("version", &self)
    if let version = bundle.version { string(version) } else { ascii("null") }
    members.close(&self)
  }

  private mutating func position(_ position: SourcePosition, _ indent: Int) {
    var members = Members(indent: indent)
    members.next("column", &self)
    int(position.column)
    members.next("line", &self)
    int(position.line)
    members.next("offset", &self)
    int(position.offset)
    members.next("utf16Column", &self)
    int(position.utf16Column)
    members.close(&self)
  }

  /// The members of one object: opens it before the first key, closes it after the last.
  private struct Members {
    let indent: Int
    var count = 0

    mutating func next(_ key: String, _ printer: inout FindingPrinter) {
      printer.ascii(count == 0 ? "{\n" : ",\n")
      printer.spaces(indent + 2)
      printer.string(key)
      printer.ascii(": ")
      count += 1
    }

    func close(_ printer: inout FindingPrinter) {
      printer.ascii("\n")
      printer.spaces(indent)
      printer.ascii("}")
    }
  }

  /// An array whose items stand at `itemIndent` spaces.
  private mutating func array<T>(_ items: [T], _ itemIndent: Int, _ item: (inout FindingPrinter, T, Int) -> Void) {
    guard !items.isEmpty else { return ascii("[]") }
    ascii("[\n")
    for (position, value) in items.enumerated() {
      spaces(itemIndent)
      item(&self, value, itemIndent)
      ascii(position + 1 < items.count ? ",\n" : "\n")
    }
    spaces(itemIndent - 2)
    ascii("]")
  }

  private mutating func ascii(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  private mutating func spaces(_ count: Int) {
    bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: count))
  }

  private mutating func int(_ value: Int) {
    bytes.append(contentsOf: String(value).utf8)
  }

  private mutating func string(_ text: String) {
    JSONValue.writeString(text, into: &bytes)
  }
}
