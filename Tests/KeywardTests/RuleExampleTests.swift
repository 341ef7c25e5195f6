import Foundation
import KeywardCore
import KeywardRules
import Testing

/// Runs every rule's examples through the real file scanner, then runs each flagged example
/// again in forms where it must not be found (in a comment, in a string) or must be found at
/// shifted positions (after multi-byte text).
@Suite struct RuleExampleTests {
  @Test(arguments: ExampleCase.all("flagged"))
  func flaggedExampleIsFoundAtItsMarkers(_ testCase: ExampleCase) {
    let (code, markers) = testCase.example.withoutMarkers
    #expect(!markers.isEmpty, "a flagged example needs at least one ↓ marker")
    let findings = Scan.findings(
      code, rule: testCase.rule, options: testCase.example.options, profile: testCase.example.profile)
    #expect(findings.map(\.location.start.offset).sorted() == markers.sorted(), "\(code)")
    #expect(findings.allSatisfy { $0.ruleId == testCase.ruleID })
    for finding in findings {
      #expect(finding.location.end.offset > finding.location.start.offset)
      #expect(!finding.message.isEmpty && finding.message.hasSuffix(".") || finding.message.hasSuffix(".)"))
    }
  }

  @Test(arguments: ExampleCase.all("clean"))
  func cleanExampleHasNoFinding(_ testCase: ExampleCase) {
    let code = testCase.example.withoutMarkers.code
    let findings = Scan.findings(
      code, rule: testCase.rule, options: testCase.example.options, profile: testCase.example.profile)
    #expect(findings.isEmpty, "\(findings.map(\.message))")
  }

  @Test(arguments: ExampleCase.all("flagged"))
  func flaggedExampleInACommentIsNotFound(_ testCase: ExampleCase) {
    guard !testCase.example.skipCommentWrapping else { return }
    let code = testCase.example.withoutMarkers.code
    for wrapped in [
      "/*\n\(code)\n*/\n",
      code.split(separator: "\n", omittingEmptySubsequences: false).map { "// \($0)" }.joined(separator: "\n"),
    ] {
      #expect(
        Scan.findings(
          wrapped, rule: testCase.rule, options: testCase.example.options, profile: testCase.example.profile
        ).isEmpty, "\(wrapped)")
    }
  }

  @Test(arguments: ExampleCase.all("flagged"))
  func flaggedExampleInAStringIsNotFound(_ testCase: ExampleCase) {
    let code = testCase.example.withoutMarkers.code
    let wrapped = Scan.wrappedInString(code, language: testCase.rule.language)
    #expect(
      Scan.findings(wrapped, rule: testCase.rule, options: testCase.example.options, profile: testCase.example.profile)
        .isEmpty, "\(wrapped)")
  }

  @Test(arguments: ExampleCase.all("flagged"))
  func positionsStayExactAfterMultiByteText(_ testCase: ExampleCase) {
    let (code, _) = testCase.example.withoutMarkers
    let plain = Scan.findings(
      code, rule: testCase.rule, options: testCase.example.options, profile: testCase.example.profile)
    // A line of multi-byte characters above: lines shift by one, columns stay.
    let lineAbove = "let keys = \"🔑🔐 clé ключ 鍵\"\n"
    let shifted = Scan.findings(
      lineAbove + code, rule: testCase.rule, options: testCase.example.options, profile: testCase.example.profile)
    #expect(shifted.count == plain.count)
    for (before, after) in zip(plain, shifted) {
      #expect(after.location.start.line == before.location.start.line + 1)
      #expect(after.location.start.column == before.location.start.column)
      #expect(after.location.start.utf16Column == before.location.start.utf16Column)
      #expect(after.location.start.offset == before.location.start.offset + lineAbove.utf8.count)
    }
    // Multi-byte text before the finding on its own line: byte and UTF-16 columns shift apart.
    let inline = "/* 🔑 é */ "
    let sameLine = Scan.findings(
      inline + code, rule: testCase.rule, options: testCase.example.options, profile: testCase.example.profile)
    #expect(sameLine.count == plain.count)
    for (before, after) in zip(plain, sameLine) where before.location.start.line == 1 {
      #expect(after.location.start.column == before.location.start.column + inline.utf8.count)
      #expect(after.location.start.utf16Column == before.location.start.utf16Column + inline.utf16.count)
    }
  }

  /// The code in each rule's documentation is judged as the documentation says (binary rules
  /// document disassembly and plists; BinaryTests runs their fixture apps).
  @Test(arguments: allRules.filter { $0.language != .binary }.map { $0.metadata.id })
  func documentedExamplesAreJudgedRight(_ id: String) throws {
    let rule = try #require(RuleCatalog.standard.rule(withID: id))
    // Documented with the options of the first flagged example (a rule that needs an option on).
    let options = rule.examples.flagged.first?.options ?? [:]
    #expect(!Scan.findings(rule.metadata.vulnerableExample, rule: rule, options: options).isEmpty)
    #expect(Scan.findings(rule.metadata.fixedExample, rule: rule, options: options).isEmpty)
  }

  @Test func everyRuleHasExamplesOfBothKinds() {
    for rule in allRules {
      #expect(!rule.examples.flagged.isEmpty, "\(rule.metadata.id) has no flagged example")
      #expect(!rule.examples.clean.isEmpty, "\(rule.metadata.id) has no clean example")
    }
  }
}
