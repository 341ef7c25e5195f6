import KeywardCore
import SwiftParser
import SwiftSyntax
import Testing

/// What a value handed to a completion reports: success, failure, or nothing it says.
@Suite struct ReportedOutcomeTests {
  static func outcome(_ source: String) -> ReportedOutcome? {
    var parser = Parser(source)
    return ReportedOutcome.of(ExprSyntax.parse(from: &parser))
  }

  @Test(arguments: [
    ("true", ReportedOutcome.success),
    ("(false)", .failure),
    (".success", .success),
    (".success(token)", .success),
    ("Result.success(data)", .success),
    ("Result<Data, Error>.success(data)", .success),
    (".success(Outcome(success: true, error: nil, code: .ok))", .success),
    (".success(false)", .failure),
    (".failure(error)", .failure),
    (".success(Outcome(success: false, error: nil))", .failure),
    (".success(Outcome(publicKey: nil, error: \"Cancelled\"))", .failure),
    (".success(Outcome(publicKey: nil, code: .userCanceled))", .failure),
    (".success(Outcome(\n  success: false,\n  error: message\n))", .failure),
  ])
  func reportsTheOutcome(source: String, expected: ReportedOutcome) {
    #expect(Self.outcome(source) == expected, "\(source)")
  }

  @Test(arguments: ["token", "Status.success", "Status.success(x)", "make(success: false)"])
  func saysNothingOfOtherValues(source: String) {
    #expect(Self.outcome(source) == nil, "\(source)")
  }
}
