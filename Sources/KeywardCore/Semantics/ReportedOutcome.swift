import SwiftSyntax

/// What a value handed to a completion, reply or callback reports: that an operation (typically
/// an authentication) succeeded, or that it failed.
///
/// `true` and `.success` report success; `false` and `.failure(...)` report failure. A
/// `.success(...)` / `Result.success(...)` carries its payload's answer: plug-ins that report
/// every outcome through the success channel of a `Result` write
/// `completion(.success(PromptResult(success: false, error: message, code: .userCanceled)))`,
/// which is a denial however it is wrapped.
public enum ReportedOutcome: Equatable, Sendable {
  case success
  case failure

  /// Argument labels whose boolean says whether the operation succeeded.
  static let successLabels: Set<String> = [
    "success", "succeeded", "isSuccess", "successful", "ok", "authenticated", "isAuthenticated", "granted",
    "authorized", "verified", "result",
  ]
  /// Argument labels naming an error; any value but `nil` reports a failure.
  static let errorLabels: Set<String> = ["error", "failure", "errorMessage", "errorCode"]
  /// Argument labels naming a result code or status.
  static let codeLabels: Set<String> = ["code", "status", "state", "outcome"]
  /// Words in a code or status case that report a failure: `.userCanceled`, `.failed`,
  /// `.biometryNotAvailable`, `.lockout`.
  static let failureCodeWords = [
    "cancel", "fail", "error", "denied", "deny", "notavailable", "unavailable", "notenrolled", "lockout",
    "invalid", "timeout", "rejected", "notset", "fallback",
  ]

  /// What `expression` reports, or nil when it is neither a boolean literal nor a `Result` case
  /// (or a `.success(...)` payload that does not say).
  public static func of(_ expression: ExprSyntax) -> ReportedOutcome? {
    let value = SequenceShape.unwrap(expression)
    if let literal = value.as(BooleanLiteralExprSyntax.self) {
      return literal.literal.tokenKind == .keyword(.true) ? .success : .failure
    }
    if let member = value.as(MemberAccessExprSyntax.self), isResultBase(member.base) {
      switch member.declName.baseName.text {
      case "success": return .success
      case "failure": return .failure
      default: return nil
      }
    }
    guard let call = value.as(FunctionCallExprSyntax.self),
      let member = call.calledExpression.as(MemberAccessExprSyntax.self), isResultBase(member.base)
    else { return nil }
    switch member.declName.baseName.text {
    case "failure": return .failure
    case "success":
      guard let payload = SyntaxFacts.argument(call, at: 0) else { return .success }
      return payloadReportsFailure(payload) ? .failure : .success
    default: return nil
    }
  }

  /// `.success` or `Result.success` (also `Result<T, E>.success`), not `Status.success`.
  static func isResultBase(_ base: ExprSyntax?) -> Bool {
    guard let base else { return true }
    if let reference = base.as(DeclReferenceExprSyntax.self) { return reference.baseName.text == "Result" }
    if let generic = base.as(GenericSpecializationExprSyntax.self) {
      return generic.expression.as(DeclReferenceExprSyntax.self)?.baseName.text == "Result"
    }
    return false
  }

  /// Whether the payload of a `.success(...)` says the operation failed: `false`, or a value built
  /// with `success: false`, a non-nil `error:`, or a failure code such as `code: .userCanceled`.
  static func payloadReportsFailure(_ payload: ExprSyntax) -> Bool {
    let value = SequenceShape.unwrap(payload)
    if let literal = value.as(BooleanLiteralExprSyntax.self) { return literal.literal.tokenKind == .keyword(.false) }
    guard let call = value.as(FunctionCallExprSyntax.self) else { return false }
    for argument in call.arguments {
      guard let label = argument.label?.text else { continue }
      let argumentValue = SequenceShape.unwrap(argument.expression)
      if successLabels.contains(label), let literal = argumentValue.as(BooleanLiteralExprSyntax.self) {
        if literal.literal.tokenKind == .keyword(.false) { return true }
      } else if errorLabels.contains(label) {
        if !argumentValue.is(NilLiteralExprSyntax.self) { return true }
      } else if codeLabels.contains(label), let member = argumentValue.as(MemberAccessExprSyntax.self) {
        let name = member.declName.baseName.text.lowercased()
        if failureCodeWords.contains(where: name.contains) { return true }
      }
    }
    return false
  }
}
