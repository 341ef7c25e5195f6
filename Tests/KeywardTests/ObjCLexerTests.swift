import KeywardCore
import Testing

/// The Objective-C lexer: nothing in a comment, string or character literal becomes code, and
/// every token has its exact byte position.
@Suite struct ObjCLexerTests {
  func identifiers(_ source: String) -> [String] {
    ObjCLexer(bytes: Array(source.utf8)).tokens().filter { $0.kind == .identifier }.map(\.text)
  }

  @Test func commentsAndLiteralsHideTheirContents() {
    let source = """
      // kSecAttrAccessibleAlways in a line comment
      /* kSecAttrAccessibleAlways in a
         block comment */ a;
      NSString *s = @"kSecAttrAccessibleAlways \\" still a string";
      const char *c = "kSecAccessControlBiometryAny";
      char q = '"'; char e = '\\''; b;
      const wchar_t *w = L"kSecAttrAccessibleAlways";
      auto r = R"x(kSecAttrAccessibleAlways )" still raw)x"; z;
      """
    #expect(
      identifiers(source) == [
        "a", "NSString", "s", "const", "char", "c", "char", "q", "char", "e", "b", "const", "wchar_t", "w", "auto", "r",
        "z",
      ])
  }

  /// Objective-C++ (`.mm`): digit separators are not character literals, and templates,
  /// scopes and lambdas leave the tokens after them intact.
  @Test func objectiveCPlusPlusLexesRight() {
    let source = """
      static const long limit = 1'000'000; auto mask = 0x1'00; a;
      namespace vault { template <typename T> struct Box { T value; }; }
      std::map<std::string, std::vector<int>> table; b;
      auto f = [&, self](int x) -> int { return std::max<int>(x, 0); }; c;
      """
    let tokens = ObjCLexer(bytes: Array(source.utf8)).tokens()
    #expect(!tokens.contains { $0.kind == .character })
    #expect(tokens.filter { $0.kind == .number }.map(\.text) == ["1'000'000", "0x1'00", "0"])
    let names = identifiers(source)
    #expect(["a", "b", "c", "namespace", "template", "typename", "self", "max"].allSatisfy(names.contains))
  }

  @Test func preprocessorLinesAreOneTokenAndDefinesAreRead() {
    let source =
      "#define FLAGS (kSecAccessControlBiometryAny | \\\n    kSecAccessControlPrivateKeyUsage)\nint x = FLAGS;\n"
    let tokens = ObjCLexer(bytes: Array(source.utf8)).tokens()
    #expect(tokens.first?.kind == .directive)
    #expect(tokens.filter { $0.kind == .directive }.count == 1)
    let model = ObjCModel(bytes: Array(source.utf8))
    #expect(
      model.constants["FLAGS"]?.filter { $0.kind == .identifier }.map(\.text) == [
        "kSecAccessControlBiometryAny", "kSecAccessControlPrivateKeyUsage",
      ])
    let use = model.tokens.first { $0.text == "FLAGS" && $0.kind == .identifier }!
    #expect(model.expand([use]).map(\.text).contains("kSecAccessControlBiometryAny"))
  }

  @Test func positionsAreByteExact() {
    let source = "/* ключ */ x = @\"🔑\"; y"
    let tokens = ObjCLexer(bytes: Array(source.utf8)).tokens()
    let x = tokens.first { $0.text == "x" }!
    #expect(x.start == "/* ключ */ ".utf8.count)
    let y = tokens.last!
    #expect(y.text == "y" && y.start == source.utf8.count - 1)
    #expect(tokens.first { $0.kind == .string }?.text == "🔑")
  }

  @Test func messageSendsSplitIntoArgumentsAcrossNestedBrackets() {
    let source =
      "[dict setObject:[self valueFor:@[a, b]] forKey:(__bridge id)kSecAttrAccessible]; [ctx evaluatePolicy:P localizedReason:@\"r\" reply:^(BOOL ok, NSError *e) { if (ok) { [self go]; } }];"
    let model = ObjCModel(bytes: Array(source.utf8))
    let writes = model.keyValueWrites
    #expect(writes.count == 1)
    #expect(writes.first?.key.map(\.text) == ["(", "__bridge", "id", ")", "kSecAttrAccessible"])
    #expect(writes.first?.value.first?.text == "[")
    #expect(model.messageArguments("evaluatePolicy").first?.argument.map(\.text) == ["P"])
    #expect(model.calls(named: "go").isEmpty)
  }

  @Test func integerLiteralsOfEveryBase() {
    func value(_ text: String) -> UInt64? {
      ObjCIntegers.value(of: ObjCToken(kind: .number, start: 0, end: text.utf8.count, text: text))
    }
    #expect(value("2") == 2)
    #expect(value("0x2u") == 2)
    #expect(value("0b10") == 2)
    #expect(value("010") == 8)
    #expect(value("2UL") == 2)
  }

  @Test func unterminatedInputNeverCrashes() {
    for source in ["@\"open", "/* open", "'", "#define", "R\"x(", "[[[", "@{", "\\"] {
      _ = ObjCModel(bytes: Array(source.utf8)).accessibilityValues
      _ = ObjCModel(bytes: Array(source.utf8)).accessControlFlags
    }
  }

  /// A local built up over many statements (`flags = flags | ...`) refers to all its earlier
  /// values at every level; in broken code a bracket left open makes one value run to the end
  /// of the file. Either way an expansion stays within its budget and still finds the flags.
  @Test func selfReferringValuesExpandWithinABudget() {
    let updates = (0..<40).map { _ in "  flags = flags | kSecAccessControlDevicePasscode;\n" }.joined()
    let source = """
      - (void)store {
        SecAccessControlCreateFlags flags = kSecAccessControlBiometryAny;
      \(updates)  SecAccessControlCreateWithFlags(NULL, kSecAttrAccessibleAlways, flags, NULL);
        NSDictionary *query = @{ (__bridge id)kSecAttrAccessible: (__bri[dge id)flags, flags: flags };
      }
      """
    let model = ObjCModel(bytes: Array(source.utf8))
    let names = Set(model.accessControlFlags.flatMap(\.flags).map(\.name))
    #expect(names == ["biometryAny", "devicePasscode"])
    #expect(model.accessibilityValues.map(\.value.name).contains("kSecAttrAccessibleAlways"))
    let value = model.tokens.filter { $0.text == "flags" }
    #expect(model.expand(value).count <= ObjCModel.expansionBudget(for: value) + value.count * 2)
  }
}
