import KeywardBinary
import KeywardCore

/// Flags built apps that use the "always" accessibility constants, saying whether code loads
/// them or the file only imports them.
public struct BinaryWeakKeychainAccessibility: BinaryRule {
  public static let metadata = RuleMetadata(
    id: "binary.weak_keychain_accessibility",
    title: "Keychain items readable while locked (in the binary)",
    severity: .high, confidence: .high, resource: "Information leak", language: "Mach-O",
    tags: ["CWE:311", "CWE:312", "MASWE:0006", "OWASP:2021:A4", "MASVS-STORAGE-1"],
    description: """
      A Mach-O file of the app imports `kSecAttrAccessibleAlways` or \
      `kSecAttrAccessibleAlwaysThisDeviceOnly` from Security. The constants exist only to be \
      passed as a keychain item's `kSecAttrAccessible` value (or as the protection of \
      `SecAccessControlCreateWithFlags`), so the app (or one of its frameworks) stores items that \
      the system decrypts at any time, even while the device is locked. Both are deprecated since \
      iOS 12. Keyward looks for the code that loads the constant through its pointer slot (arm64 \
      `adrp` + `ldr`, x86_64 `mov` from `[rip + slot]`) and names the instruction, preferring a \
      load in a function that also calls `SecItemAdd` or `SecItemUpdate` (the item it stores); a \
      constant passed to `SecAccessControlCreateWithFlags` is named as such. When no code loads \
      it (a table of constants, code that was stripped), the finding has low confidence; when \
      the code is encrypted with FairPlay, medium.
      """,
    rationale: """
      Items readable while the device is locked are exposed to anyone who gets code running on a \
      locked device, and to forensic tools. The import is visible with `nm -u` or `otool -Iv`, so \
      auditors find it without the source.
      """,
    vulnerableExample: """
      $ nm -u VaultLegacy | grep kSecAttrAccessible
      _kSecAttrAccessibleAlways
      """,
    remediation: """
      In the source, replace the constant with `kSecAttrAccessibleWhenUnlockedThisDeviceOnly` (or \
      `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly` for items background work needs), and \
      update an embedded framework that uses it. `swift.weak_keychain_accessibility` and \
      `objc.weak_keychain_accessibility` find the exact line.
      """,
    fixedExample: """
      $ nm -u VaultSecure | grep kSecAttrAccessible
      _kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly
      """,
    references: [
      Reference(
        "CWE-311: Missing Encryption of Sensitive Data", url: "https://cwe.mitre.org/data/definitions/311.html"),
      Reference(
        "Apple: Restricting keychain item accessibility",
        url: "https://developer.apple.com/documentation/security/restricting-keychain-item-accessibility"),
    ])

  public static let examples = RuleExamples(
    flagged: ["VaultLegacy.app", "VaultLegacy.app/VaultLegacy", "VaultFamily.app"],
    clean: ["VaultSecure.ipa", "VaultMixed", "VaultMixedUniversal"])

  static let constants = ["_kSecAttrAccessibleAlways", "_kSecAttrAccessibleAlwaysThisDeviceOnly"]

  public static func check(binary context: BinaryContext) {
    for file in context.app.files {
      for constant in constants {
        let importing = file.images.filter { $0.importedSymbols.contains(constant) }
        guard !importing.isEmpty else { continue }
        let name = String(constant.dropFirst())
        let uses = importing.map { Use(of: constant, in: $0) }
        // The strongest evidence of any architecture speaks for the file.
        guard let use = uses.max(by: { $0.strength < $1.strength }) else { continue }
        let oneArchitecture = importing.count == 1 || use.address != nil
        context.report(
          BinarySite(
            file: file.path,
            architecture: oneArchitecture
              ? use.image.architecture : importing.map(\.architecture).joined(separator: ", "),
            address: oneArchitecture ? use.address : nil),
          fileOffset: oneArchitecture ? use.address.flatMap(use.image.fileOffset(of:)) ?? 0 : 0,
          message:
            "\(use.evidence(name)): it stores keychain items that are readable while the device is locked. Use `kSecAttrAccessibleWhenUnlockedThisDeviceOnly` or a stricter class.",
          confidence: use.confidence, subject: name)
      }
    }
  }

  /// What the code of one image shows about a constant it imports.
  struct Use {
    enum Kind: Int { case imported, encrypted, loaded, loadedWhereItemsAreStored, passedToAccessControl }
    var kind: Kind
    var image: MachOImage
    /// The instruction that loads the constant or calls with it, else its pointer slot.
    var address: UInt64?
    /// The call that stores an item in the function that loads the constant.
    var store: String?

    static let storeFunctions = ["_SecItemAdd", "_SecItemUpdate"]

    var strength: Int { kind.rawValue }

    init(of constant: String, in image: MachOImage) {
      self.image = image
      let slots = Set(image.pointerSlots.filter { $0.value == constant }.keys)
      if image.isEncrypted {
        kind = .encrypted
        address = slots.min()
      } else if let call = CallSites.calls(to: "_SecAccessControlCreateWithFlags", in: image, arguments: 2).first(
        where: { $0.arguments[1] == .symbolValue(constant) })
      {
        kind = .passedToAccessControl
        address = call.address
      } else if let load = CodeReferences.instructions(referringTo: slots, in: image).first {
        kind = .loaded
        address = load
        if let (store, beside) = Self.loadBesideStore(slots, in: image) {
          kind = .loadedWhereItemsAreStored
          address = beside
          self.store = store
        }
      } else {
        kind = .imported
        address = slots.min()
      }
    }

    /// A load of the constant in a function that also calls `SecItemAdd` or `SecItemUpdate`:
    /// the code builds the item it stores there (the constant goes into the query).
    static func loadBesideStore(_ slots: Set<UInt64>, in image: MachOImage) -> (String, UInt64)? {
      let loads = CodeReferences.instructions(referringTo: slots, in: image)
      for function in storeFunctions {
        let storing = Set(
          CallSites.calls(to: function, in: image, arguments: 0).compactMap {
            image.functionStart(containing: $0.address)
          })
        if let load = loads.first(where: { image.functionStart(containing: $0).map(storing.contains) ?? false }) {
          return (String(function.dropFirst()), load)
        }
      }
      return nil
    }

    func evidence(_ name: String) -> String {
      switch kind {
      case .loadedWhereItemsAreStored:
        "Code in this Mach-O file loads `\(name)` in a function that calls `\(store ?? "SecItemAdd")`"
      case .passedToAccessControl:
        "Code in this Mach-O file passes `\(name)` to `SecAccessControlCreateWithFlags` as the protection class"
      case .loaded: "Code in this Mach-O file loads `\(name)`"
      case .encrypted:
        "This Mach-O file imports `\(name)` (its code is encrypted with FairPlay, so whether code loads it cannot be checked)"
      case .imported:
        "This Mach-O file imports `\(name)`, though no code in it was seen loading the constant (it may sit in a table of values, or be loaded in a way not followed)"
      }
    }

    var confidence: Confidence {
      switch kind {
      case .passedToAccessControl, .loadedWhereItemsAreStored, .loaded: .high
      case .encrypted: .medium
      case .imported: .low
      }
    }
  }
}
