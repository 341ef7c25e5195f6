import KeywardBinary
import KeywardCore

/// Flags `SecAccessControlCreateWithFlags` calls whose constant flags accept biometrics enrolled
/// later, recovered from arm64 instructions.
public struct BinaryWeakBiometricACL: BinaryRule {
  public static let metadata = RuleMetadata(
    id: "binary.weak_biometric_acl",
    title: "Weak biometric access control flags (in the binary)",
    severity: .high, confidence: .high, resource: "Authentication", language: "Mach-O",
    tags: ["CWE:287", "CWE:305", "MASWE:0014", "OWASP:2021:A07", "MASVS-AUTH-2", "MASTG-TEST-0270"],
    description: """
      For each call to `SecAccessControlCreateWithFlags` in arm64 and arm64e code, Keyward \
      recovers the flags argument (`x2`) from the instructions before the call (`mov`, `movk`, \
      `orr`, register copies), and in x86_64 code (simulator builds, Intel Mac apps) the `rdx` \
      argument from a forward pass through the calling function (`mov`, `xor`, register copies). \
      It decodes the flags into `SecAccessControlCreateFlags` names, with the protection class \
      (`x1`, `rsi`) when it is loaded from an imported constant (MASTG-DEMO-0043/0045's check). \
      Flags in `weakBiometricFlags` are reported, as by `swift.weak_biometric_acl`. Flags picked \
      between constants by a branch (a conditional select such as `csel`/`csinc`, or `cmov`) are \
      reported when one of them is weak, with medium confidence. Flags computed otherwise at run \
      time cannot be recovered and are not reported.
      """,
    rationale: """
      `biometryAny` accepts any finger or face enrolled on the device, including one added after \
      the item was stored by someone who learned the passcode; `userPresence` also accepts the \
      passcode itself.
      """,
    vulnerableExample: """
      mov  w2, #0x2        ; kSecAccessControlBiometryAny
      bl   _SecAccessControlCreateWithFlags

      movl $0x1, %edx      ; kSecAccessControlUserPresence
      callq _SecAccessControlCreateWithFlags
      """,
    remediation: """
      Use `kSecAccessControlBiometryCurrentSet` (`.biometryCurrentSet`): enrolling a new finger or \
      face then invalidates the item. Keep `userPresence` only for items where a passcode \
      fallback is an accepted risk.
      """,
    fixedExample: """
      mov  w2, #0x8        ; kSecAccessControlBiometryCurrentSet
      bl   _SecAccessControlCreateWithFlags
      """,
    references: [
      Reference("CWE-287: Improper Authentication", url: "https://cwe.mitre.org/data/definitions/287.html"),
      Reference("OWASP MASTG-TEST-0270: References to APIs Detecting Biometric Enrollment Changes"),
    ])

  public static let options = [
    OptionSpec(
      key: "weakBiometricFlags", summary: "Flags reported when they appear in a recovered flags value.",
      defaultValue: .strings(["biometryAny", "touchIDAny", "userPresence"]), allowedValues: AccessControlFlag.names)
  ]

  public static let examples = RuleExamples(
    flagged: ["VaultMixed", "VaultMixedUniversal", "VaultFamily.app", "VaultMac.app", "VaultBranch"],
    clean: ["VaultSecure.ipa", "VaultLegacy.app", "VaultFamily.app/VaultFamily"])

  public static func check(binary context: BinaryContext) {
    let weak = Set(context.options.strings("weakBiometricFlags").flatMap(AccessControlFlag.sameBit))
    for file in context.app.files {
      for image in file.images {
        for call in CallSites.calls(to: "_SecAccessControlCreateWithFlags", in: image, arguments: 3) {
          let candidates: [UInt64]
          switch call.arguments[2] {
          case .constant(let raw): candidates = [raw]
          case .choice(let values): candidates = values
          default: continue
          }
          let weakFlags = candidates.flatMap(AccessControlFlag.decode).filter { weak.contains($0.name) }
          guard let first = weakFlags.first else { continue }
          var protection = ""
          if case .symbolValue(let symbol) = call.arguments[1] { protection = " for `\(symbol.dropFirst())`" }
          let values = candidates.map { raw in
            "0x\(String(raw, radix: 16)) (\(AccessControlFlag.decode(raw).map(\.name).joined(separator: " | ")))"
          }
          let chosen = candidates.count > 1
          let flags = chosen ? values.joined(separator: " or ") + ", picked by a branch," : values[0]
          context.report(
            BinarySite(file: file.path, architecture: image.architecture, address: call.address),
            fileOffset: call.fileOffset,
            message:
              "`SecAccessControlCreateWithFlags` is called with flags \(flags)\(protection): "
              + (chosen ? "the weak flag is chosen on at least one path, and " : "")
              + "`.\(first.name)` \(WeakBiometricACL.consequence(of: first.name))",
            confidence: chosen ? .medium : nil,
            subject: "flags \(candidates.map { String($0, radix: 16) }.joined(separator: " or "))\(protection)")
        }
      }
    }
  }
}
