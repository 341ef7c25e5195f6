import KeywardCore
import KeywardRules
import SwiftParser
import SwiftSyntax
import Testing

/// The numeric evaluator of the semantic layer: exact values, lower bounds, and what is unknown.
@Suite struct NumericValueTests {
  /// The numbers the value assigned to `x` may have, each as "value" or "≥value".
  static func numbers(_ assignment: String) -> [String] {
    let source = "func f(requested: Double, other: Double, flag: Bool) {\n\(assignment)\n}"
    let model = SemanticModel(tree: Parser.parse(source: source))
    let values = model.index.assignmentsByName["x"]?.last?.value
    return values.map { value in
      model.resolver.numbers(of: value, constants: ["LIMIT": 300]).map {
        ($0.isExact ? "" : "≥") + String(Int($0.atLeast))
      }
    } ?? ["no assignment"]
  }

  @Test(arguments: [
    ("x = 5 * 60 + 1", ["301"]),
    ("x = min(600, LIMIT)", ["300"]),
    ("x = max(10, requested)", ["≥10"]),
    ("x = max(10, requested) * 2 + 1", ["≥21"]),
    ("x = max(10, requested) - 5", ["≥5"]),
    ("x = 60 - max(10, requested)", []),
    ("x = 60 / max(10, requested)", []),
    ("x = -1 * max(10, requested)", []),
    ("x = min(max(10, requested), 20)", ["≥10"]),
    ("x = max(10, 20)", ["20"]),
    ("let a = flag ? 10 : 20\nx = a * 2", ["≥20"]),
    ("let a = 15.0\nx = a * 2", ["30"]),
    ("x = 61 % 60", []),
    ("x = requested", []),
  ])
  func numbersAreExactOrBoundedBelow(_ assignment: String, _ expected: [String]) {
    #expect(Self.numbers(assignment) == expected)
  }

  @Test func theReuseWindowMessageSaysWhenTheWindowIsOnlyBoundedBelow() {
    let lead = "func f(context: LAContext, requested: Double) {\n"
    let bounded = Scan.findings(
      lead + "context.touchIDAuthenticationAllowableReuseDuration = max(10, requested)\n}",
      rule: BiometricReuseWindow.self)
    let exact = Scan.findings(
      lead + "context.touchIDAuthenticationAllowableReuseDuration = 5 * 60\n}", rule: BiometricReuseWindow.self)
    #expect(bounded.map(\.message).allSatisfy { $0.contains("last 10 seconds or more") })
    #expect(exact.map(\.message).allSatisfy { $0.contains("last 300 seconds will") })
    #expect(bounded.count == 1 && exact.count == 1)
  }
}
