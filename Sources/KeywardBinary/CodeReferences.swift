/// Which code refers to given places of an image, such as an imported constant's pointer slot or
/// a selector reference: evidence that the code uses them, not only that the file names them.
///
/// arm64: a forward pass over the code follows the addresses `adrp` (and `add`) put in each
/// register, so that `ldr Xt, [Xn, #offset]` and `add` name their target; `ldr` literals name
/// theirs directly. A register's address is forgotten when anything else writes it, at calls
/// (x0-x18) and after unconditional branches. x86_64: `mov` and `lea` with a `[rip + offset]`
/// operand.
public enum CodeReferences {
  /// For each target that code refers to, the address of the first instruction that does.
  public static func references(to targets: Set<UInt64>, in image: MachOImage) -> [UInt64: UInt64] {
    var found: [UInt64: UInt64] = [:]
    for (target, address) in hits(targets, in: image) where found[target] == nil { found[target] = address }
    return found
  }

  /// The addresses of every instruction that refers to one of the targets, ascending.
  public static func instructions(referringTo targets: Set<UInt64>, in image: MachOImage) -> [UInt64] {
    hits(targets, in: image).map(\.1).sorted()
  }

  static func hits(_ targets: Set<UInt64>, in image: MachOImage) -> [(UInt64, UInt64)] {
    guard !targets.isEmpty else { return [] }
    return codeSections(of: image).flatMap { section in
      let bytes = image.bytes(of: section)
      if image.architecture.hasPrefix("arm64") && image.is64Bit {
        return arm64(bytes, at: section.address, targets: targets)
      }
      return image.architecture == "x86_64" ? x86_64(bytes, at: section.address, targets: targets) : []
    }
  }

  /// The sections compilers put code in: `__text`, and the selector stubs of Xcode 14's linker.
  static func codeSections(of image: MachOImage) -> [MachOSection] {
    image.sections.filter { $0.segment == "__TEXT" && ($0.name == "__text" || $0.name == "__objc_stubs") }
  }

  static func arm64(_ bytes: ArraySlice<UInt8>, at start: UInt64, targets: Set<UInt64>) -> [(UInt64, UInt64)] {
    let code = ARM64Calls.Code(bytes: bytes, address: start)
    var known = [UInt64?](repeating: nil, count: 32)
    var hits: [(UInt64, UInt64)] = []
    func check(_ target: UInt64, _ index: Int) {
      if targets.contains(target) { hits.append((target, code.address(of: index))) }
    }
    for index in 0..<code.count {
      let instruction = code[index]
      let rd = Int(instruction & 0x1F)
      let rn = Int((instruction >> 5) & 0x1F)
      let pc = code.address(of: index)
      if instruction & 0x9F00_0000 == 0x9000_0000 {  // ADRP
        let immediate = ARM64Calls.signExtend(
          ((instruction >> 5) & 0x7FFFF) << 2 | (instruction >> 29) & 0x3, bits: 21)
        known[rd] = (pc & ~0xFFF) &+ UInt64(bitPattern: immediate << 12)
      } else if instruction & 0xFF80_0000 == 0x9100_0000 {  // ADD (immediate), 64-bit
        let shift: UInt64 = (instruction >> 22) & 1 == 1 ? 12 : 0
        let address = known[rn].map { $0 &+ (UInt64((instruction >> 10) & 0xFFF) << shift) }
        if let address { check(address, index) }
        known[rd] = address
      } else if instruction & 0xFFC0_0000 == 0xF940_0000 {  // LDR (unsigned offset), 64-bit
        if let base = known[rn] { check(base &+ UInt64((instruction >> 10) & 0xFFF) * 8, index) }
        known[rd] = nil
      } else if instruction & 0xFF00_0000 == 0x5800_0000 {  // LDR (literal), 64-bit
        check(pc &+ UInt64(bitPattern: ARM64Calls.signExtend((instruction >> 5) & 0x7FFFF, bits: 19) * 4), index)
        known[rd] = nil
      } else if let flow = ARM64Calls.Tracker.flow(instruction) {
        switch flow {
        case .call: for register in 0...18 { known[register] = nil }
        case .jump: known = [UInt64?](repeating: nil, count: 32)
        case .conditional: break
        }
      } else {
        for register in 0..<32 where ARM64Calls.Tracker.writes(instruction, UInt32(register)) {
          known[register] = nil
        }
      }
    }
    return hits
  }

  /// `mov reg, [rip + disp32]` (8B) and `lea reg, [rip + disp32]` (8D): the operand's address is
  /// the end of the instruction plus the displacement. A match inside another instruction's bytes
  /// would also have to land exactly on a target, which the callers' targets make unlikely.
  static func x86_64(_ bytes: ArraySlice<UInt8>, at start: UInt64, targets: Set<UInt64>) -> [(UInt64, UInt64)] {
    var hits: [(UInt64, UInt64)] = []
    var index = bytes.startIndex
    while index + 6 <= bytes.endIndex {
      defer { index += 1 }
      guard bytes[index] == 0x8B || bytes[index] == 0x8D, bytes[index + 1] & 0xC7 == 0x05 else { continue }
      let displacement = (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[index + 2 + $1]) << (UInt32($1) * 8) }
      let end = start &+ UInt64(index + 6 - bytes.startIndex)
      let target = end &+ UInt64(bitPattern: Int64(Int32(bitPattern: displacement)))
      if targets.contains(target) {
        let hasPrefix = index > bytes.startIndex && bytes[index - 1] & 0xF0 == 0x40
        hits.append((target, end &- (hasPrefix ? 7 : 6)))
      }
    }
    return hits
  }
}
