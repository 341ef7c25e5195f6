/// Whether Objective-C code is built only for native macOS, as far as the file shows: inside a
/// preprocessor clause whose condition implies macOS (`#if TARGET_OS_OSX`, `#if
/// !TARGET_OS_IPHONE`, the `#else` of `#if TARGET_OS_IPHONE`), or in a file that imports AppKit
/// or Cocoa outside any platform clause and UIKit nowhere, or whose project builds only for
/// macOS (`ProjectPlatform`). Mac Catalyst builds set
/// `TARGET_OS_IPHONE`, so they are not native macOS code.
public struct ObjCTargetPlatform {
  /// What a condition says about native macOS, and what its negation says.
  struct Implication {
    var impliesMac = false, impliesNotMac = false
    var negationImpliesMac = false, negationImpliesNotMac = false

    var negated: Implication {
      Implication(
        impliesMac: negationImpliesMac, impliesNotMac: negationImpliesNotMac,
        negationImpliesMac: impliesMac, negationImpliesNotMac: impliesNotMac)
    }

    /// Both hold: either part's implication is the whole's; the negation needs both parts'.
    static func all(_ parts: [Implication]) -> Implication {
      Implication(
        impliesMac: parts.contains(where: \.impliesMac), impliesNotMac: parts.contains(where: \.impliesNotMac),
        negationImpliesMac: parts.allSatisfy(\.negationImpliesMac),
        negationImpliesNotMac: parts.allSatisfy(\.negationImpliesNotMac))
    }

    static func any(_ parts: [Implication]) -> Implication { all(parts.map(\.negated)).negated }

    static func named(_ name: String) -> Implication {
      switch name {
      case "TARGET_OS_OSX":
        Implication(impliesMac: true, negationImpliesNotMac: true)
      case "TARGET_OS_IPHONE":
        Implication(impliesNotMac: true, negationImpliesMac: true)
      case "TARGET_OS_IOS", "TARGET_OS_TV", "TARGET_OS_WATCH", "TARGET_OS_VISION", "TARGET_OS_MACCATALYST",
        "TARGET_OS_SIMULATOR", "TARGET_IPHONE_SIMULATOR", "TARGET_OS_EMBEDDED":
        Implication(impliesNotMac: true)
      default: Implication()
      }
    }
  }

  /// Byte ranges of clauses whose condition says something about macOS.
  private var regions: [(range: Range<Int>, implication: Implication)] = []
  /// AppKit or Cocoa imported (and UIKit not), or a project built only for macOS.
  private var wholeFileIsMacOS = false

  public init(_ model: ObjCModel) {
    var open: [(conditions: [Implication], start: Int, isPlatformClause: Bool)] = []
    var importsMac = false
    var importsUIKit = false
    for token in model.tokens where token.kind == .directive {
      let words = model.lexer.tokens(in: (token.start + 1)..<token.end, directives: false).map(\.text)
      guard let keyword = words.first else { continue }
      let rest = Array(words.dropFirst())
      switch keyword {
      case "import", "include":
        let path = rest.joined()
        if path.contains("UIKit/") { importsUIKit = true }
        if open.allSatisfy({ !$0.isPlatformClause }), path.contains("AppKit/") || path.contains("Cocoa/") {
          importsMac = true
        }
      case "if", "ifdef", "ifndef":
        // `TARGET_OS_*` are always defined (as 0 or 1): only `#if` tests them.
        let condition = keyword == "if" ? Self.condition(rest) : Implication()
        open.append(([condition], token.end, Self.saysSomething(condition)))
      case "elif", "else", "endif":
        guard var current = open.popLast() else { continue }
        close(current.conditions, from: current.start, to: token.start)
        if keyword == "endif" { continue }
        // `#else` holds unconditionally once the earlier conditions are false.
        let next = keyword == "elif" ? Self.condition(rest) : Implication()
        current.conditions.append(next)
        current.isPlatformClause = current.isPlatformClause || Self.saysSomething(next)
        current.start = token.end
        open.append(current)
      default: continue
      }
    }
    wholeFileIsMacOS = (importsMac && !importsUIKit) || model.projectPlatform == .macOSOnly
  }

  /// The clause that is the last of `conditions` holds when every earlier condition is false
  /// and its own (true for `#else`) is true.
  private mutating func close(_ conditions: [Implication], from start: Int, to end: Int) {
    guard start <= end else { return }
    let implication = Implication.all(conditions.dropLast().map(\.negated) + [conditions[conditions.count - 1]])
    guard Self.saysSomething(implication) else { return }
    regions.append((start..<end, implication))
  }

  private static func saysSomething(_ implication: Implication) -> Bool {
    implication.impliesMac || implication.impliesNotMac || implication.negationImpliesMac
      || implication.negationImpliesNotMac
  }

  /// Whether the code at byte `offset` is compiled only for native macOS.
  public func isMacOSOnly(at offset: Int) -> Bool {
    let around = regions.filter { $0.range.contains(offset) }.map(\.implication)
    if around.contains(where: \.impliesNotMac) { return false }
    return around.contains(where: \.impliesMac) || wholeFileIsMacOS
  }

  static func condition(_ words: [String]) -> Implication { PreprocessorExpression.read(words) }
}

extension ObjCTargetPlatform.Implication: PreprocessorConditionValue {
  static var unknown: Self { Self() }
  static func not(_ operand: Self) -> Self { operand.negated }
  /// `TARGET_OS_*` are always defined (as 0 or 1): `defined(...)` says nothing about the platform.
  static func named(_ name: String?, isDefinedTest: Bool) -> Self {
    isDefinedTest ? Self() : name.map(Self.named) ?? Self()
  }
}
