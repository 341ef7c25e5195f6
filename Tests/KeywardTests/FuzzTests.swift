import Foundation
import KeywardCore
import KeywardReporters
import KeywardRules
import PropertyBased
import Testing

/// Property-based fuzzing: the example app's files and every rule example, mutated by
/// truncation, byte flips and token splicing, never crash the scanner, never hang it (each case
/// runs under a time limit) and always give a report that parses and points inside the file.
/// Three tests of 3,400 cases: 10,200 per run, each with a fresh random seed (a failure prints
/// the seed that reproduces it).
@Suite struct FuzzTests {
  static let casesPerMutation = 3_400
  /// Generous for a debug build on a loaded machine; a hang is minutes, not seconds.
  static let timeLimit = 20.0

  struct Sample: Sendable {
    var path: String
    var bytes: [UInt8]
  }

  static let corpus: [Sample] = {
    var samples = allRules.flatMap { rule in
      (rule.examples.flagged + rule.examples.clean).map {
        Sample(path: "Example." + rule.language.exampleExtension, bytes: Array($0.withoutMarkers.code.utf8))
      }
    }
    let app = Paths.packageRoot.appendingPathComponent("Examples/VaultApp")
    let files = FileManager.default.enumerator(atPath: app.path)?.compactMap { $0 as? String } ?? []
    for file in files.sorted() where FileDiscovery.sourceExtensions.contains((file as NSString).pathExtension) {
      let bytes = try! FileBytes.read(app.appendingPathComponent(file).path)
      samples.append(Sample(path: file, bytes: bytes))
    }
    return samples
  }()

  static let scanner = FileScanner(
    rules: Configuration(profile: .strict).configuredRules(from: .standard), knownRuleIDs: Set(RuleCatalog.standard.ids)
  )

  enum Mutation: Sendable { case truncate, flipBytes, spliceToken }

  /// Applies `mutation` to sample `target`; `position` and `value` pick where and what.
  static func mutate(_ mutation: Mutation, target: Int, donor: Int, position: Int, value: Int) -> Sample {
    var sample = corpus[target]
    let bytes = sample.bytes
    let at = bytes.isEmpty ? 0 : position % (bytes.count + 1)
    switch mutation {
    case .truncate:
      sample.bytes = Array(bytes.prefix(at))
    case .flipBytes:
      // One to four bytes near `at` take new values, which may make the text invalid UTF-8.
      for step in 0..<(value % 4 + 1) where !sample.bytes.isEmpty {
        let index = (at + step * 7) % sample.bytes.count
        sample.bytes[index] = UInt8(truncatingIfNeeded: value &* (step + 31))
      }
    case .spliceToken:
      // A token of another sample (an identifier, a constant, a bracket) inserted at `at`.
      let other = corpus[donor].bytes
      guard !other.isEmpty else { break }
      var start = position % other.count
      while start > 0 && !isBoundary(other[start - 1]) { start -= 1 }
      var end = start
      while end < other.count && !isBoundary(other[end]) { end += 1 }
      let token = end > start ? Array(other[start..<end]) : [other[start]]
      sample.bytes.insert(contentsOf: token + (value % 2 == 0 ? [] : [0x20]), at: at)
    }
    return sample
  }

  static func isBoundary(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D || byte == 0x28 || byte == 0x29 || byte == 0x2C
  }

  /// Scans the sample on a worker thread with a large stack and a time limit, and checks the
  /// outcome and its JSON and SARIF reports.
  static func check(_ sample: Sample) throws {
    let outcome = ParallelWork.map(
      count: 1, jobs: 1, timeLimit: timeLimit, onTimeout: { _ in FileOutcome?.none }
    ) { _ in Optional(scanner.scan(bytes: sample.bytes, path: sample.path)) }[0]
    let scanned = try #require(outcome, "over \(timeLimit) s on \(sample.path): \(sample.bytes.count) bytes")
    for finding in scanned.findings {
      let location = finding.location
      #expect(location.path == sample.path && !finding.fingerprint.isEmpty)
      #expect(location.start.offset <= location.end.offset && location.end.offset <= sample.bytes.count)
      #expect(location.start.line >= 1 && location.start.column >= 1 && location.end.line >= location.start.line)
    }
    let result = ScanResult(
      root: "/fuzz", findings: scanned.findings, errors: scanned.issues, rules: scanner.rules, filesScanned: 1,
      filesParsed: scanned.parsed ? 1 : 0)
    let json = try JSONSerialization.jsonObject(with: Data(try JSONReporter().render(result).utf8))
    let report = try #require(json as? [String: Any])
    let findings = report["findings"] as? [Any] ?? []
    let errors = report["errors"] as? [Any] ?? []
    #expect(findings.count == scanned.findings.count && errors.count == scanned.issues.count)
    let sarif = try JSONSerialization.jsonObject(with: Data(try SARIFReporter().render(result).utf8))
    #expect(sarif is [String: Any])
  }

  func run(_ mutation: Mutation) async {
    let samples = Self.corpus.count - 1
    await propertyCheck(
      count: Self.casesPerMutation, input: Gen.int(in: 0...samples), Gen.int(in: 0...samples),
      Gen.int(in: 0...1_000_000), Gen.int(in: 0...255)
    ) { target, donor, position, value in
      try Self.check(Self.mutate(mutation, target: target, donor: donor, position: position, value: value))
    }
  }

  @Test func truncatedFilesNeverCrashOrHang() async { await run(.truncate) }
  @Test func flippedBytesNeverCrashOrHang() async { await run(.flipBytes) }
  @Test func splicedTokensNeverCrashOrHang() async { await run(.spliceToken) }

  @Test func theCorpusCoversBothLanguagesAndTheMutationsChangeIt() {
    #expect(Self.corpus.count > 100)
    #expect(Self.corpus.contains { $0.path.hasSuffix(".m") } && Self.corpus.contains { $0.path.hasSuffix(".swift") })
    let target = Self.corpus.firstIndex { $0.bytes.count > 100 }!
    let original = Self.corpus[target].bytes
    #expect(
      Self.mutate(.truncate, target: target, donor: 0, position: 50, value: 0).bytes == Array(original.prefix(50)))
    #expect(Self.mutate(.flipBytes, target: target, donor: 0, position: 50, value: 7).bytes != original)
    #expect(Self.mutate(.spliceToken, target: target, donor: 1, position: 50, value: 1).bytes.count > original.count)
  }
}
