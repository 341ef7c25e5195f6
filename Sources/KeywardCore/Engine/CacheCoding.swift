/// The cache's byte format for file outcomes: fields in a fixed order, integers as LEB128
/// varints, strings as a length and their UTF-8, optionals behind a presence byte. Decoding is
/// about twenty times faster than Foundation's JSON on Linux, and each entry is decoded only
/// when its file is looked up.
struct CacheWriter {
  var bytes: [UInt8] = []

  mutating func int(_ value: Int) {
    // Zig-zag, so small negative numbers stay short.
    var rest = UInt64(bitPattern: Int64(value) << 1 ^ Int64(value) >> 63)
    while rest >= 0x80 {
      bytes.append(UInt8(rest & 0x7F) | 0x80)
      rest >>= 7
    }
    bytes.append(UInt8(rest))
  }

  mutating func string(_ value: String) {
    int(value.utf8.count)
    bytes.append(contentsOf: value.utf8)
  }

  mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }

  mutating func optional<T>(_ value: T?, _ write: (inout CacheWriter, T) -> Void) {
    bool(value != nil)
    if let value { write(&self, value) }
  }

  mutating func array<T>(_ values: [T], _ write: (inout CacheWriter, T) -> Void) {
    int(values.count)
    for value in values { write(&self, value) }
  }
}

struct CacheFormatError: Error {}

/// Reads what `CacheWriter` wrote; any inconsistency throws, and the entry is scanned again.
struct CacheReader {
  let bytes: ArraySlice<UInt8>
  var position: Int

  init(_ bytes: ArraySlice<UInt8>) {
    self.bytes = bytes
    self.position = bytes.startIndex
  }

  var isAtEnd: Bool { position == bytes.endIndex }

  mutating func byte() throws(CacheFormatError) -> UInt8 {
    guard position < bytes.endIndex else { throw CacheFormatError() }
    defer { position += 1 }
    return bytes[position]
  }

  mutating func int() throws(CacheFormatError) -> Int {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      let next = try byte()
      guard shift < 64 else { throw CacheFormatError() }
      value |= UInt64(next & 0x7F) << shift
      if next < 0x80 { break }
      shift += 7
    }
    return Int(Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1))
  }

  mutating func count() throws(CacheFormatError) -> Int {
    let value = try int()
    guard value >= 0, value <= bytes.endIndex - position else { throw CacheFormatError() }
    return value
  }

  mutating func string() throws(CacheFormatError) -> String {
    let length = try count()
    defer { position += length }
    return String(decoding: bytes[position..<(position + length)], as: UTF8.self)
  }

  mutating func strings() throws(CacheFormatError) -> [String] {
    try array { (reader) throws(CacheFormatError) in try reader.string() }
  }

  mutating func optionalString() throws(CacheFormatError) -> String? {
    try optional { (reader) throws(CacheFormatError) in try reader.string() }
  }

  mutating func bool() throws(CacheFormatError) -> Bool {
    switch try byte() {
    case 0: return false
    case 1: return true
    default: throw CacheFormatError()
    }
  }

  mutating func raw<T: RawRepresentable>(_: T.Type) throws(CacheFormatError) -> T where T.RawValue == String {
    guard let value = T(rawValue: try string()) else { throw CacheFormatError() }
    return value
  }

  mutating func optional<T>(_ read: (inout CacheReader) throws(CacheFormatError) -> T) throws(CacheFormatError) -> T? {
    try bool() ? try read(&self) : nil
  }

  mutating func array<T>(_ read: (inout CacheReader) throws(CacheFormatError) -> T) throws(CacheFormatError) -> [T] {
    let count = try count()
    var values: [T] = []
    values.reserveCapacity(count)
    for _ in 0..<count { values.append(try read(&self)) }
    return values
  }
}

extension FileOutcome {
  func write(to out: inout CacheWriter) {
    out.array(findings) { $1.write(to: &$0) }
    out.array(issues) { out, issue in
      out.string(issue.path)
      out.string(issue.kind.rawValue)
      out.string(issue.message)
      out.optional(issue.line) { $0.int($1) }
      out.optional(issue.column) { $0.int($1) }
    }
    out.bool(parsed)
    out.array(binaries) { out, binary in
      out.string(binary.path)
      out.optional(binary.bundleIdentifier) { $0.string($1) }
      out.array(binary.files) { out, file in
        out.string(file.path)
        out.array(file.architectures) { out, architecture in
          out.string(architecture.name)
          out.bool(architecture.encrypted)
          out.array(architecture.linkedLibraries) { $0.string($1) }
        }
        out.optional(file.bundle) { $1.write(to: &$0) }
        out.optional(file.entitlements) { out, entitlements in
          out.optional(entitlements.applicationIdentifier) { $0.string($1) }
          out.optional(entitlements.defaultDataProtection) { $0.string($1) }
          out.array(entitlements.keychainAccessGroups) { $0.string($1) }
        }
      }
    }
    out.array(facts.contextUses) { out, use in
      CallableShape(name: use.name, parameters: use.parameters, owner: use.owner, location: use.location)
        .write(to: &out)
      out.int(use.parameter)
      use.outcome.write(to: &out)
    }
    out.array(facts.parameterReaches) { out, reach in
      reach.callable.write(to: &out)
      out.int(reach.parameter)
      out.string(reach.sink.rawValue)
      out.array(reach.steps) { out, step in
        out.string(step.message)
        step.location.write(to: &out)
      }
      out.array(reach.memberPath) { $0.string($1) }
      out.optional(reach.mirroredCases) { out, cases in out.array(cases) { $0.string($1) } }
    }
    out.array(facts.propertyReaches) { out, reach in
      out.string(reach.owner)
      out.string(reach.property)
      out.array(reach.memberPath) { $0.string($1) }
      out.string(reach.sink.rawValue)
      out.array(reach.steps) { out, step in
        out.string(step.message)
        step.location.write(to: &out)
      }
    }
    out.array(facts.relays) { out, relay in
      out.optional(relay.callable) { $1.write(to: &$0) }
      out.int(relay.parameter)
      out.optional(relay.owner) { $0.string($1) }
      out.optional(relay.property) { $0.string($1) }
      out.array(relay.memberPath) { $0.string($1) }
      relay.call.write(to: &out)
      out.string(relay.step.message)
      relay.step.location.write(to: &out)
    }
    out.array(facts.contextPropertyReads) { out, read in
      out.string(read.name)
      out.optional(read.receiverType) { $0.string($1) }
      read.location.write(to: &out)
    }
    out.array(facts.enrollmentChecks) { $1.write(to: &$0) }
  }

  init(from reader: inout CacheReader) throws(CacheFormatError) {
    let findings = try reader.array { (reader) throws(CacheFormatError) in try Finding(from: &reader) }
    let issues = try reader.array { (reader) throws(CacheFormatError) in
      ScanIssue(
        path: try reader.string(), kind: try reader.raw(ScanIssue.Kind.self), message: try reader.string(),
        line: try reader.optional { (reader) throws(CacheFormatError) in try reader.int() },
        column: try reader.optional { (reader) throws(CacheFormatError) in try reader.int() })
    }
    let parsed = try reader.bool()
    let binaries = try reader.array { (reader) throws(CacheFormatError) in
      BinarySummary(
        path: try reader.string(),
        bundleIdentifier: try reader.optionalString(),
        files: try reader.array { (reader) throws(CacheFormatError) in
          BinarySummary.File(
            path: try reader.string(),
            architectures: try reader.array { (reader) throws(CacheFormatError) in
              BinarySummary.Architecture(
                name: try reader.string(), encrypted: try reader.bool(),
                linkedLibraries: try reader.strings())
            },
            bundle: try reader.optional { (reader) throws(CacheFormatError) in try ShippingBundle(from: &reader) },
            entitlements: try reader.optional { (reader) throws(CacheFormatError) in
              SigningEntitlements(
                applicationIdentifier: try reader.optionalString(), defaultDataProtection: try reader.optionalString(),
                keychainAccessGroups: try reader.strings())
            })
        })
    }
    let contextUses = try reader.array { (reader) throws(CacheFormatError) in
      let callable = try CallableShape(from: &reader)
      return ContextParameterUse(
        name: callable.name, parameters: callable.parameters, parameter: try reader.int(),
        outcome: try ContextParameterUse.Outcome(from: &reader), location: callable.location, owner: callable.owner)
    }
    let parameterReaches = try reader.array { (reader) throws(CacheFormatError) in
      ParameterReach(
        callable: try CallableShape(from: &reader), parameter: try reader.int(), sink: try reader.raw(ValueSink.self),
        steps: try reader.array { (reader) throws(CacheFormatError) in
          RelatedLocation(message: try reader.string(), location: try SourceLocation(from: &reader))
        }, memberPath: try reader.strings(),
        mirroredCases: try reader.optional { (reader) throws(CacheFormatError) in try reader.strings() })
    }
    let propertyReaches = try reader.array { (reader) throws(CacheFormatError) in
      PropertyReach(
        owner: try reader.string(), property: try reader.string(), memberPath: try reader.strings(),
        sink: try reader.raw(ValueSink.self),
        steps: try reader.array { (reader) throws(CacheFormatError) in
          RelatedLocation(message: try reader.string(), location: try SourceLocation(from: &reader))
        })
    }
    let relays = try reader.array { (reader) throws(CacheFormatError) in
      ValueRelay(
        callable: try reader.optional { (reader) throws(CacheFormatError) in try CallableShape(from: &reader) },
        parameter: try reader.int(), owner: try reader.optionalString(), property: try reader.optionalString(),
        memberPath: try reader.strings(), call: try CallShape(from: &reader),
        step: RelatedLocation(message: try reader.string(), location: try SourceLocation(from: &reader)))
    }
    let contextPropertyReads = try reader.array { (reader) throws(CacheFormatError) in
      ContextPropertyRead(
        name: try reader.string(), receiverType: try reader.optionalString(),
        location: try SourceLocation(from: &reader))
    }
    let enrollmentChecks = try reader.array { (reader) throws(CacheFormatError) in try SourceLocation(from: &reader) }
    self.init(
      findings: findings, issues: issues, parsed: parsed, binaries: binaries,
      facts: CallFacts(
        contextUses: contextUses, parameterReaches: parameterReaches, contextPropertyReads: contextPropertyReads,
        enrollmentChecks: enrollmentChecks, propertyReaches: propertyReaches, relays: relays))
  }
}

extension CallableShape {
  func write(to out: inout CacheWriter) {
    out.string(name)
    out.array(parameters) { out, parameter in
      out.string(parameter.label)
      out.bool(parameter.hasDefault)
    }
    out.optional(owner) { out, owner in
      out.string(owner.type)
      out.array(owner.supertypes) { $0.string($1) }
    }
    location.write(to: &out)
  }

  init(from reader: inout CacheReader) throws(CacheFormatError) {
    self.init(
      name: try reader.string(),
      parameters: try reader.array { (reader) throws(CacheFormatError) in
        ContextParameterUse.Parameter(label: try reader.string(), hasDefault: try reader.bool())
      },
      owner: try reader.optional { (reader) throws(CacheFormatError) in
        ContextParameterUse.Owner(type: try reader.string(), supertypes: try reader.strings())
      },
      location: try SourceLocation(from: &reader))
  }
}

extension ContextParameterUse.Outcome {
  func write(to out: inout CacheWriter) {
    switch self {
    case .keychainBound: out.int(0)
    case .unprotectedItems: out.int(1)
    case .notToKeychain: out.int(2)
    case .handedOn(let call):
      out.int(3)
      call.write(to: &out)
    }
  }

  init(from reader: inout CacheReader) throws(CacheFormatError) {
    switch try reader.int() {
    case 0: self = .keychainBound
    case 1: self = .unprotectedItems
    case 2: self = .notToKeychain
    case 3: self = .handedOn(try CallShape(from: &reader))
    default: throw CacheFormatError()
    }
  }
}

extension CallShape {
  func write(to out: inout CacheWriter) {
    out.string(name)
    out.array(labels) { $0.string($1) }
    out.int(argument)
    out.optional(receiverType) { $0.string($1) }
    out.array(memberPath) { $0.string($1) }
    out.bool(isProperty)
    out.optional(valueName) { $0.string($1) }
  }

  init(from reader: inout CacheReader) throws(CacheFormatError) {
    self.init(
      name: try reader.string(), labels: try reader.strings(), argument: try reader.int(),
      receiverType: try reader.optionalString(), memberPath: try reader.strings(), isProperty: try reader.bool(),
      valueName: try reader.optionalString())
  }
}

extension Finding {
  func write(to out: inout CacheWriter) {
    out.string(ruleId)
    out.string(severity.rawValue)
    out.string(confidence.rawValue)
    out.string(message)
    location.write(to: &out)
    out.string(snippet)
    out.array(tags) { $0.string($1) }
    out.string(fingerprint)
    out.optional(suppression) { out, suppression in
      out.string(suppression.kind.rawValue)
      out.optional(suppression.justification) { $0.string($1) }
    }
    out.optional(fix) { out, fix in
      out.string(fix.description)
      out.bool(fix.safe)
      out.array(fix.edits) { out, edit in
        out.int(edit.start)
        out.int(edit.end)
        out.string(edit.replacement)
      }
    }
    out.array(related) { out, related in
      out.string(related.message)
      related.location.write(to: &out)
    }
    out.optional(handOff) { out, handOff in
      out.optional(handOff.call) { $1.write(to: &$0) }
      out.optional(handOff.settledMessage) { $0.string($1) }
      out.optional(handOff.sink) { $0.string($1.rawValue) }
      out.bool(handOff.isPropertyRead)
      out.bool(handOff.unlessEnrollmentIsChecked)
      out.bool(handOff.unlessFaceIDUsageIsDeclared)
      out.optional(handOff.enclosingCall) { $1.write(to: &$0) }
      out.optional(handOff.unlessNamedInProject) { $0.string($1) }
      out.optional(handOff.unlessTypeNamedInProject) { $0.string($1) }
      out.array(handOff.conformances) { $0.string($1) }
    }
    out.string(origin.rawValue)
    out.optional(buildCondition) { $0.string($1.rawValue) }
  }

  init(from reader: inout CacheReader) throws(CacheFormatError) {
    self.init(
      ruleId: try reader.string(), severity: try reader.raw(Severity.self), confidence: try reader.raw(Confidence.self),
      message: try reader.string(), location: try SourceLocation(from: &reader), snippet: try reader.string(),
      tags: try reader.strings(),
      fingerprint: try reader.string(),
      suppression: try reader.optional { (reader) throws(CacheFormatError) in
        Suppression(
          kind: try reader.raw(Suppression.Kind.self),
          justification: try reader.optionalString())
      },
      fix: try reader.optional { (reader) throws(CacheFormatError) in
        Fix(
          description: try reader.string(), safe: try reader.bool(),
          edits: try reader.array { (reader) throws(CacheFormatError) in
            TextEdit(start: try reader.int(), end: try reader.int(), replacement: try reader.string())
          })
      },
      related: try reader.array { (reader) throws(CacheFormatError) in
        RelatedLocation(message: try reader.string(), location: try SourceLocation(from: &reader))
      },
      handOff: try reader.optional { (reader) throws(CacheFormatError) in
        var handOff = HandOff(
          call: try reader.optional { (reader) throws(CacheFormatError) in try CallShape(from: &reader) },
          settledMessage: try reader.optionalString(),
          sink: try reader.optional { (reader) throws(CacheFormatError) in try reader.raw(ValueSink.self) },
          isPropertyRead: try reader.bool(), unlessEnrollmentIsChecked: try reader.bool(),
          unlessFaceIDUsageIsDeclared: try reader.bool(),
          enclosingCall: try reader.optional { (reader) throws(CacheFormatError) in try CallShape(from: &reader) },
          unlessNamedInProject: try reader.optionalString(), unlessTypeNamedInProject: try reader.optionalString())
        handOff.conformances = try reader.strings()
        return handOff
      },
      origin: try reader.raw(CodeOrigin.self),
      buildCondition: try reader.optional { (reader) throws(CacheFormatError) in try reader.raw(BuildCondition.self) })
  }
}

extension SourceLocation {
  func write(to out: inout CacheWriter) {
    out.string(path)
    for position in [start, end] {
      out.int(position.line)
      out.int(position.column)
      out.int(position.utf16Column)
      out.int(position.offset)
    }
    out.optional(binary) { out, site in
      out.string(site.file)
      out.optional(site.architecture) { $0.string($1) }
      out.optional(site.address) { $0.int(Int(bitPattern: UInt($1))) }
      out.optional(site.bundle) { $1.write(to: &$0) }
    }
  }

  init(from reader: inout CacheReader) throws(CacheFormatError) {
    func position(_ reader: inout CacheReader) throws(CacheFormatError) -> SourcePosition {
      SourcePosition(
        line: try reader.int(), column: try reader.int(), utf16Column: try reader.int(), offset: try reader.int())
    }
    self.init(
      path: try reader.string(), start: try position(&reader), end: try position(&reader),
      binary: try reader.optional { (reader) throws(CacheFormatError) in
        BinarySite(
          file: try reader.string(),
          architecture: try reader.optionalString(),
          address: try reader.optional { (reader) throws(CacheFormatError) in UInt64(UInt(bitPattern: try reader.int()))
          },
          bundle: try reader.optional { (reader) throws(CacheFormatError) in try ShippingBundle(from: &reader) })
      })
  }
}

extension ShippingBundle {
  func write(to out: inout CacheWriter) {
    out.string(kind.rawValue)
    out.string(name)
    out.optional(identifier) { $0.string($1) }
    out.optional(version) { $0.string($1) }
  }

  init(from reader: inout CacheReader) throws(CacheFormatError) {
    self.init(
      kind: try reader.raw(Kind.self), name: try reader.string(), identifier: try reader.optionalString(),
      version: try reader.optionalString())
  }
}
