import Foundation

/// Where a finding's code lives. Decided once per file by the engine: from the file's path at
/// discovery (and `.keyward.yml`'s `origins`), else from its contents (test-framework imports, a
/// generated-file header). Rules never decide it.
public enum CodeOrigin: String, Codable, Sendable, CaseIterable, Comparable {
  /// Code that ships in the app: everything not recognised as one of the others.
  case app
  /// Unit and UI tests, their helpers and mocks.
  case test
  /// Example and demo apps, playgrounds.
  case sample
  /// Dependencies: CocoaPods, Carthage, SwiftPM checkouts, vendored SDKs.
  case thirdParty = "third-party"
  /// Generated code (SwiftGen, Sourcery, R.swift, protobuf...).
  case generated

  public static func < (lhs: CodeOrigin, rhs: CodeOrigin) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }

  /// How a text report names findings of this origin ("tests", "third-party code").
  public var plural: String {
    switch self {
    case .app: "app code"
    case .test: "tests"
    case .sample: "samples"
    case .thirdParty: "third-party code"
    case .generated: "generated code"
    }
  }
}

/// The build a finding's code is compiled into, when not every build: inside `#if DEBUG` or a
/// simulator-only clause (`#if targetEnvironment(simulator)`, ObjC `#if TARGET_OS_SIMULATOR`);
/// or code no build runs: a `private` function nothing in its file calls, or an internal one no
/// file of the scanned project names (`uncalled`); a file no target of its Xcode project compiles
/// (`unbuilt`).
public enum BuildCondition: String, Codable, Sendable, CaseIterable, Comparable {
  case debug, simulator, uncalled, unbuilt

  public static func < (lhs: BuildCondition, rhs: BuildCondition) -> Bool { lhs.rawValue < rhs.rawValue }

  /// "debug-only", "simulator-only", "uncalled", "unbuilt".
  public var label: String { self == .uncalled || self == .unbuilt ? rawValue : rawValue + "-only" }
}

/// Which findings make a scan fail (`--fail-on` counts only these): by default, those in app code
/// that is built for release. Each added origin counts too; `all` counts every finding,
/// including DEBUG- and simulator-only code.
public struct FailPolicy: Sendable, Hashable {
  /// Always holds `.app`.
  public private(set) var origins: Set<CodeOrigin>
  public private(set) var countsBuildConditions: Bool

  public static let `default` = FailPolicy(adding: [])
  public static let all = FailPolicy(adding: Set(CodeOrigin.allCases), countsBuildConditions: true)

  public init(adding origins: Set<CodeOrigin>, countsBuildConditions: Bool = false) {
    self.origins = origins.union([.app])
    self.countsBuildConditions = countsBuildConditions
  }

  /// The values `--fail-origin` and `failOrigins` take.
  public static let valueNames = CodeOrigin.allCases.map(\.rawValue) + ["all"]

  /// The policy of `--fail-origin` values, each one origin, a comma-separated list, or `all`;
  /// nil when a value is unknown (`invalid` names it).
  public init?(values: [String], invalid: ((String) -> Void)? = nil) {
    var origins: Set<CodeOrigin> = []
    var all = false
    for value in values.flatMap({ $0.split(separator: ",") }) {
      let name = value.trimmingCharacters(in: .whitespaces)
      if name == "all" {
        all = true
      } else if let origin = CodeOrigin(rawValue: name) ?? (name == "thirdParty" ? .thirdParty : nil) {
        origins.insert(origin)
      } else {
        invalid?(name)
        return nil
      }
    }
    self = all ? .all : FailPolicy(adding: origins)
  }

  public func fails(origin: CodeOrigin, buildCondition: BuildCondition?) -> Bool {
    origins.contains(origin) && (buildCondition == nil || countsBuildConditions)
  }

  public func fails(_ finding: Finding) -> Bool {
    fails(origin: finding.origin, buildCondition: finding.buildCondition)
  }

  /// The values that give this policy back, as `--fail-origin` takes them.
  public var valueNames: [String] {
    if self == .all { return ["all"] }
    return origins.sorted().map(\.rawValue)
  }
}
