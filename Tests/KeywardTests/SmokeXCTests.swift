import KeywardCLI
import XCTest

/// One XCTest case beside the Swift Testing suites, so that both runners `swift test` starts
/// report tests (and CI never reads "Executed 0 tests" as the whole story).
final class SmokeXCTests: XCTestCase {
  func testVersionAndHelpExitZero() {
    let version = KeywardCLI.run(["--version"])
    XCTAssertEqual(version.status, 0)
    XCTAssertTrue(version.output.standardOutput.contains("0.1.0"))
    let help = KeywardCLI.run(["--help"])
    XCTAssertEqual(help.status, 0)
    XCTAssertTrue(help.output.standardOutput.contains("scan"))
  }
}
