import Foundation
import KeywardCore
import KeywardRules
import Testing

/// Internal functions that no file of the scanned project calls: their findings are in code no
/// build runs (`uncalled`), judged from the words of every Swift file (`ProjectWords`).
@Suite struct UncalledAcrossFilesTests {
  /// A helper writing a session token to preferences: a finding of its own.
  static func store(_ name: String, in declaration: String = "final class LegacyStore", modifiers: String = "")
    -> String
  {
    """
    import Foundation
    \(declaration) {
        \(modifiers)func \(name)(_ token: String) {
            UserDefaults.standard.set(token, forKey: "sessionToken")
        }
    }

    """
  }

  /// A package whose `Sources/App/Store.swift` is `store`, beside `others`.
  static func package(_ others: [String: String] = [:], store: String = store("storeSessionToken")) -> [String: String]
  {
    others.merging(["Package.swift": "", "Sources/App/Store.swift": store]) { $1 }
  }

  func conditions(_ files: [String: String], scanning subfolder: String? = nil, cache: URL? = nil) throws
    -> [String: BuildCondition?]
  {
    let root = try Paths.tree(files)
    var request = ScanRequest(paths: [subfolder.map { root.appendingPathComponent($0).path } ?? root.path])
    request.cacheFolder = cache?.path
    let result = try Scanner(rules: Configuration().configuredRules(from: .standard)).scan(request)
    return Dictionary(
      result.findings.filter { $0.ruleId == "swift.cleartext_storage_preferences" }.map {
        ($0.location.path, $0.buildCondition)
      }
    ) { first, _ in first }
  }

  /// The message of the first finding a standard scan of `files` reports.
  func firstMessage(_ files: [String: String]) throws -> String? {
    let root = try Paths.tree(files)
    return try Scanner(rules: Configuration().configuredRules(from: .standard))
      .scan(ScanRequest(paths: [root.path])).findings.first?.message
  }

  @Test func aFunctionNoFileNamesIsUncalled() throws {
    let files = ["App.xcodeproj/project.pbxproj": "", "App/Store.swift": Self.store("storeSessionToken")]
    #expect(try conditions(files) == ["App/Store.swift": .uncalled])
    #expect(try firstMessage(files)?.contains("names `storeSessionToken` but to declare it") == true)
  }

  /// Any mention in another file keeps the finding: a call, a method reference, a selector, a
  /// comment or a string (Keyward does not tell which of them runs).
  @Test(arguments: [
    "func login(_ store: LegacyStore) { store.storeSessionToken(\"t\") }",
    "let save = LegacyStore().storeSessionToken",
    "struct Button { var action: (String) -> Void }\nlet button = Button(action: LegacyStore().storeSessionToken)",
    "// storeSessionToken is kept for the migration",
    "let name = \"storeSessionToken\"",
  ])
  func aFunctionAnotherFileNamesIsCalled(_ caller: String) throws {
    // The type is made elsewhere, so the judgement rests on the function's name.
    let files = Self.package([
      "Sources/App/Caller.swift": caller, "Sources/App/Setup.swift": "let store = LegacyStore()",
    ])
    #expect(try conditions(files) == ["Sources/App/Store.swift": nil])
  }

  /// Tests and samples do not ship: a function only they call is uncalled in the app.
  @Test func callsFromTestsAndSamplesDoNotCount() throws {
    let call = "func check() { LegacyStore().storeSessionToken(\"t\") }"
    for caller in ["Tests/AppTests/StoreTests.swift", "Sources/App/StoreMock.swift", "Examples/Demo/Demo.swift"] {
      let files = Self.package([caller: call])
      #expect(try conditions(files) == ["Sources/App/Store.swift": .uncalled], "\(caller)")
    }
  }

  /// Another declaration of the same name (`func storeSessionToken` in a protocol) is not a use.
  @Test func otherDeclarationsAreNotUses() throws {
    let files = Self.package([
      "Sources/App/Protocols.swift": "protocol TokenStoring {\n    func storeSessionToken(_ token: String)\n}\n"
    ])
    #expect(try conditions(files) == ["Sources/App/Store.swift": .uncalled])
  }

  /// What the system, a superclass, another module or the Objective-C runtime may call by a name
  /// no file writes.
  @Test(arguments: [
    (declaration: "final class LegacyStore: NSObject", modifiers: ""),
    (declaration: "struct LegacyStore: TokenStoring", modifiers: ""),
    (declaration: "public final class LegacyStore", modifiers: "public "),
    (declaration: "final class LegacyStore", modifiers: "@objc "),
    (declaration: "@objcMembers final class LegacyStore", modifiers: ""),
    (declaration: "public extension UserDefaults", modifiers: ""),
    (declaration: "@resultBuilder struct LegacyStore", modifiers: "static "),
    (declaration: "@dynamicCallable struct LegacyStore", modifiers: ""),
    (
      declaration:
        "struct LegacyStore: CustomStringConvertible { var description: String { \"\" } }\nextension LegacyStore",
      modifiers: ""
    ),
  ])
  func callersKeywardCannotSeeKeepTheFinding(_ shape: (declaration: String, modifiers: String)) throws {
    let store = Self.store("storeSessionToken", in: shape.declaration, modifiers: shape.modifiers)
    let files = Self.package(store: store)
    #expect(try conditions(files) == ["Sources/App/Store.swift": nil])
  }

  /// Nothing makes an internal type no file names but to declare it, nor calls its static
  /// members: all its code is uncalled, whatever other files say of its methods' names.
  @Test(arguments: [
    "// storeSessionToken is kept for the migration",
    "struct Other { func storeSessionToken(_ token: String) {} }\nfunc f() { Other().storeSessionToken(\"t\") }",
  ])
  func aTypeNoFileNamesIsUncalled(_ otherFile: String) throws {
    let files = Self.package([
      "Sources/App/Other.swift": otherFile, "Tests/AppTests/StoreTests.swift": "let store = LegacyStore()",
    ])
    #expect(try conditions(files) == ["Sources/App/Store.swift": .uncalled])
    #expect(try firstMessage(files)?.contains("names the type `LegacyStore` but to declare it") == true)
  }

  /// A type named anywhere else, in its own file beyond its declaration, or opened to callers
  /// Keyward cannot see keeps the finding when another file names the method.
  @Test(arguments: [
    (declaration: "final class LegacyStore", otherFile: "// storeSessionToken\nlet store = LegacyStore()"),
    (
      declaration: "enum Holder { static let store = LegacyStore() }\nfinal class LegacyStore",
      otherFile: "// storeSessionToken"
    ),
    (declaration: "struct LegacyStore: Codable", otherFile: "// storeSessionToken"),
    (declaration: "public struct LegacyStore", otherFile: "// storeSessionToken"),
    (declaration: "extension LegacyStore", otherFile: "// storeSessionToken"),
  ])
  func aTypeNamedOrOpenIsJudgedByItsMethod(_ shape: (declaration: String, otherFile: String)) throws {
    let files = Self.package(
      ["Sources/App/Other.swift": shape.otherFile], store: Self.store("storeSessionToken", in: shape.declaration))
    #expect(try conditions(files) == ["Sources/App/Store.swift": nil])
  }

  /// A local function runs when the function around it runs: that one is judged.
  @Test func aLocalFunctionIsJudgedByTheOneAroundIt() throws {
    let store = """
      import Foundation
      extension UserDefaults {
          func rememberSession(_ token: String) {
              func write() { set(token, forKey: "sessionToken") }
              write()
          }
      }

      """
    let files = Self.package(store: store)
    #expect(try conditions(files) == ["Sources/App/Store.swift": .uncalled])
    let called = files.merging([
      "Sources/App/Login.swift": "func login() { UserDefaults.standard.rememberSession(\"t\") }"
    ]) { $1 }
    #expect(try conditions(called) == ["Sources/App/Store.swift": nil])
  }

  /// A scan of one folder of a project does not see the callers outside it; nor does a scan
  /// that holds no project manifest at all.
  @Test func withoutTheWholeProjectNothingIsJudged() throws {
    let files = [
      "App.xcodeproj/project.pbxproj": "", "App/Storage/Store.swift": Self.store("storeSessionToken"),
      "App/Login.swift": "func login() { LegacyStore().storeSessionToken(\"t\") }",
    ]
    #expect(try conditions(files, scanning: "App/Storage") == ["Store.swift": nil])
    #expect(try conditions(["Store.swift": Self.store("storeSessionToken")]) == ["Store.swift": nil])
  }

  /// The cache keeps the waiting finding, and the words are read again from every file.
  @Test func theCacheKeepsTheJudgement() throws {
    let cache = Paths.temporaryFolder()
    let files = Self.package()
    #expect(try conditions(files, cache: cache) == ["Sources/App/Store.swift": .uncalled])
    #expect(try conditions(files, cache: cache) == ["Sources/App/Store.swift": .uncalled])
  }

  /// The fast word reader against a plain one, on text whose words cross the 64-byte blocks it
  /// reads, end the file, hold non-ASCII letters and follow `func`.
  @Test func wordsAreReadAsAPlainReaderReadsThem() {
    var generator = SeededGenerator(seed: 7)
    let pieces = [
      "func", " ", "  ", "\n", "\t", "(", ")", ".", "storeToken", "x", "_a1", "é", "naïve", "😀", "{", "//", "\"",
      String(repeating: "longIdentifier", count: 7), "func\n", "func(", "funcs", "0x1F", "class", "struct", "enum",
      "actor", "classes", "structs", "class func", ".swift", ".swiftc", ".swi", "Store.swift",
      // Protocol declarations cut anywhere, also at the end of the text.
      "protocol", "protocol ", " Storing", ":", "AnyObject", "&", ",", "@objc",
    ]
    for _ in 0..<300 {
      let text = (0..<Int.random(in: 0...60, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
        .joined()
      var fast: [UInt64] = []
      ProjectWords.forEachWord(in: Array(text.utf8)) { fast.append($0) }
      let words = ProjectWords()
      words.add(Array(text.utf8))
      let expected = Self.plainWords(text)
      #expect(fast.count == expected.count, "\(text.debugDescription)")
      for word in expected { #expect(words.contains(word), "\(word) in \(text.debugDescription)") }
    }
  }

  @Test func aNameNoFileHoldsIsMissing() {
    let words = ProjectWords()
    words.add(Array("func storeSessionToken() {}\nlet saved = restoreSessionToken()\n".utf8))
    #expect(words.contains("restoreSessionToken"))
    #expect(!words.contains("storeSessionToken"))
    #expect(!words.contains("storeSession"))
    // Names shorter than five bytes are never judged uncalled.
    #expect(words.contains("save"))
    let types = ProjectWords()
    types.add(
      Array(
        "//  Locker.swift\nfinal class LegacyStore {}\nstruct Vault<T> {}\nenum Modes {}\nactor Keeper {}\nclass func legacy()"
          .utf8))
    for name in ["Locker", "LegacyStore", "Vault", "Modes", "Keeper", "legacy"] {
      #expect(!types.contains(name), "\(name)")
    }
  }

  /// Words of five bytes or more as a plain reader sees them, the name after `func`, `class`,
  /// `struct`, `enum` or `actor` (white space between) left out, those words themselves, and
  /// words followed by `.swift` (file names).
  static func plainWords(_ text: String) -> [String] {
    func isWordByte(_ byte: UInt8) -> Bool {
      byte >= 0x80 || byte == 0x5F || (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
        || (0x61...0x7A).contains(byte)
    }
    let declaring: Set<String> = ["func", "class", "struct", "enum", "actor"]
    let bytes = Array(text.utf8)
    var words: [String] = []
    var index = 0
    var afterDeclaring = false
    var gapIsWhiteSpace = true
    while index < bytes.count {
      if !isWordByte(bytes[index]) {
        if ![0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { gapIsWhiteSpace = false }
        index += 1
        continue
      }
      let start = index
      while index < bytes.count && isWordByte(bytes[index]) { index += 1 }
      let word = String(decoding: bytes[start..<index], as: UTF8.self)
      defer { gapIsWhiteSpace = true }
      let declares = declaring.contains(word)
      let declared = afterDeclaring && gapIsWhiteSpace && !declares
      afterDeclaring = declares
      let isFileName =
        bytes[index...].starts(with: Array(".swift".utf8))
        && (index + 6 == bytes.count || !isWordByte(bytes[index + 6]))
      if !declared && !declares && !isFileName && index - start >= 5 { words.append(word) }
    }
    return words
  }
}

/// SplitMix64: the same words on every run, so a failure can be read again.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9e37_79b9_7f4a_7c15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xbf58_476d_1ce4_e5b9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94d0_49bb_1331_11eb
    return mixed ^ (mixed >> 31)
  }
}
