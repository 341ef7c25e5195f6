import KeywardCore
import KeywardRules
import Testing

/// A context stored where other files can read it: they may bind it to a protected item, so the
/// finding is uncertain.
@Suite struct ContextExposureTests {
  static let session = """
    final class GrantedSession {
        \\(access)let context: LAContext
        init(context: LAContext) { self.context = context }
    }
    func open() async throws -> GrantedSession? {
        let fresh = LAContext()
        guard try await fresh.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Open") else {
            return nil
        }
        return nil == nil ? keep(fresh) : nil
    }
    func keep(_ context: LAContext) -> GrantedSession { GrantedSession(context: context) }
    """

  static func confidences(access: String) -> [Confidence] {
    let code = session.replacingOccurrences(of: "\\(access)", with: access)
    return Scan.findings(code, rule: EventBoundBiometricAuth.self).map(\.confidence)
  }

  @Test func exposedPropertyLowersConfidence() {
    #expect(Self.confidences(access: "") == [.low])
    #expect(Self.confidences(access: "package ") == [.low])
    // Swift 6.2's `unsafe self.context = context`, for a `nonisolated(unsafe)` property.
    let unsafeStore = Self.session.replacingOccurrences(of: "\\(access)", with: "nonisolated(unsafe) ")
      .replacingOccurrences(of: "{ self.context = context }", with: "{ unsafe self.context = context }")
    #expect(Scan.findings(unsafeStore, rule: EventBoundBiometricAuth.self).map(\.confidence) == [.low])
  }

  @Test func privatePropertyKeepsTheRuleConfidence() {
    #expect(Self.confidences(access: "private ") == [EventBoundBiometricAuth.metadata.confidence])
  }
}
