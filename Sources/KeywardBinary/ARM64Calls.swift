/// What an argument register holds at a call, recovered from the instructions before it.
public enum ArgumentValue: Sendable, Hashable {
  case constant(UInt64)
  /// One of these constants, picked by a branch (a conditional select, `cmov`), ascending.
  case choice([UInt64])
  /// The value stored at an imported symbol, such as `kSecAttrAccessibleAlways`.
  case symbolValue(String)
  case unknown
}

/// A direct call (`bl`, or a tail call `b`) to an imported function's stub.
public struct CallSite: Sendable, Hashable {
  public var address: UInt64
  /// From the start of the image.
  public var fileOffset: Int
  /// x0, x1, x2... as far as asked for.
  public var arguments: [ArgumentValue]
}

/// Finds calls to an imported function in arm64 code and recovers its arguments by walking back
/// through the straight-line code before each call: `mov`/`movz`/`movk`/`movn`, `orr` with a
/// bitmask immediate, register copies, and pointers loaded from the image's symbol slots
/// (`adrp` + `ldr`, literal `ldr`). Anything else that writes the register makes it unknown.
public enum ARM64Calls {
  static let lookBehind = 64
  /// Runtime functions that return the object they are given.
  static let retains: Set<String> = [
    "_objc_retain", "_swift_retain", "_swift_unknownObjectRetain", "_objc_retainAutoreleasedReturnValue",
    "_objc_claimAutoreleasedReturnValue", "_objc_retainAutorelease",
  ]

  public static func calls(to symbol: String, in image: MachOImage, arguments: Int) -> [CallSite] {
    guard image.architecture.hasPrefix("arm64"), image.is64Bit,
      let text = image.section("__TEXT", "__text"),
      image.stubTargets.values.contains(symbol)
    else { return [] }
    let code = Code(bytes: image.bytes(of: text), address: text.address)
    var sites: [CallSite] = []
    for index in 0..<code.count {
      let instruction = code[index]
      // B and BL: 0b?00101 followed by a 26-bit word offset.
      guard instruction & 0x7C00_0000 == 0x1400_0000 else { continue }
      let target = code.address(of: index) &+ UInt64(bitPattern: signExtend(instruction & 0x03FF_FFFF, bits: 26) * 4)
      guard image.stubTargets[target] == symbol else { continue }
      let tracker = Tracker(code: code, image: image)
      sites.append(
        CallSite(
          address: code.address(of: index), fileOffset: text.fileOffset + index * 4,
          arguments: (0..<arguments).map { tracker.argument(register: UInt32($0), before: index) }))
    }
    return sites
  }

  struct Code {
    let bytes: ArraySlice<UInt8>
    let address: UInt64
    var count: Int { bytes.count / 4 }

    subscript(index: Int) -> UInt32 {
      let at = bytes.startIndex + index * 4
      return UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }

    func address(of index: Int) -> UInt64 { address &+ UInt64(index * 4) }
  }

  enum Value: Equatable {
    case constant(UInt64)
    case choice([UInt64])
    case address(UInt64)
    case symbolAddress(String)
    case symbolValue(String)
    case unknown
  }

  struct Tracker {
    let code: Code
    let image: MachOImage

    func argument(register: UInt32, before index: Int) -> ArgumentValue {
      switch value(of: register, before: index, depth: 0) {
      case .constant(let value): .constant(value)
      case .choice(let values): .choice(values)
      case .symbolValue(let name): .symbolValue(name)
      default: .unknown
      }
    }

    func value(of register: UInt32, before end: Int, depth: Int) -> Value {
      guard depth < 8 else { return .unknown }
      var pendingMovk: [(shift: UInt64, bits: UInt64)] = []
      var index = end - 1
      while index >= max(0, end - lookBehind) {
        defer { index -= 1 }
        let instruction = code[index]
        if let flow = Self.flow(instruction) {
          // Calls clobber x0-x18; an unconditional jump means the code above does not run first.
          if flow == .call && register > 18 { continue }
          if flow == .conditional { continue }
          // Retaining returns the object retained: x0 after the call is x0 before it.
          if flow == .call && register == 0 && isRetain(instruction, at: index) { continue }
          return .unknown
        }
        guard Self.writes(instruction, register) else { continue }
        let decoded = decode(instruction, at: index, depth: depth)
        if case .movk(let shift, let bits) = decoded {
          pendingMovk.append((shift, bits))
          continue
        }
        guard case .value(var value) = decoded else { return .unknown }
        if case .constant(var number) = value {
          for (shift, bits) in pendingMovk {
            number = number & ~(0xFFFF << shift) | bits << shift
          }
          value = .constant(instruction >> 31 == 0 ? number & 0xFFFF_FFFF : number)
        } else if !pendingMovk.isEmpty {
          return .unknown
        }
        return value
      }
      return .unknown
    }

    /// Whether the instruction calls a runtime function that returns its argument, as ARC's
    /// and Swift's retains do (`objc_retain(value)` between loading a constant and passing it on).
    func isRetain(_ instruction: UInt32, at index: Int) -> Bool {
      guard instruction & 0xFC00_0000 == 0x9400_0000 else { return false }  // BL
      let target = code.address(of: index) &+ UInt64(bitPattern: signExtend(instruction & 0x03FF_FFFF, bits: 26) * 4)
      return image.stubTargets[target].map(ARM64Calls.retains.contains) ?? false
    }

    enum Decoded {
      case value(Value)
      case movk(shift: UInt64, bits: UInt64)
    }

    func decode(_ instruction: UInt32, at index: Int, depth: Int) -> Decoded {
      let pc = code.address(of: index)
      let is64 = instruction >> 31 == 1
      let wide = (instruction >> 21) & 0x3
      let imm16 = UInt64((instruction >> 5) & 0xFFFF)
      let rn = (instruction >> 5) & 0x1F
      switch instruction & 0x7F80_0000 {
      case 0x5280_0000:  // MOVZ
        return .value(.constant(imm16 << (UInt64(wide) * 16)))
      case 0x7280_0000:  // MOVK
        return .movk(shift: UInt64(wide) * 16, bits: imm16)
      case 0x1280_0000:  // MOVN
        let value = ~(imm16 << (UInt64(wide) * 16))
        return .value(.constant(is64 ? value : value & 0xFFFF_FFFF))
      case 0x3200_0000 where rn == 31:  // ORR (immediate) from the zero register: MOV (bitmask)
        guard let mask = bitmask(instruction, is64: is64) else { return .value(.unknown) }
        return .value(.constant(mask))
      default:
        break
      }
      // CSEL and CSINC: one register, or the other (plus one), by a condition.
      if instruction & 0x7FE0_0800 == 0x1A80_0000 {
        let increment = UInt64((instruction >> 10) & 1)
        let mask: UInt64 = is64 ? ~0 : 0xFFFF_FFFF
        func operand(_ register: UInt32) -> Value {
          register == 31 ? .constant(0) : value(of: register, before: index, depth: depth + 1)
        }
        guard let first = Self.constants(operand(rn)),
          let second = Self.constants(operand((instruction >> 16) & 0x1F))
        else { return .value(.unknown) }
        let values = Set(first.map { $0 & mask } + second.map { ($0 &+ increment) & mask })
        return .value(values.count == 1 ? .constant(values.first!) : .choice(values.sorted()))
      }
      // MOV (register): ORR Rd, ZR, Rm with no shift.
      if instruction & 0x7FE0_FFE0 == 0x2A00_03E0 {
        return .value(value(of: (instruction >> 16) & 0x1F, before: index, depth: depth + 1))
      }
      // ADRP: a 4 KiB page relative to this instruction's page.
      if instruction & 0x9F00_0000 == 0x9000_0000 {
        let immediate = signExtend(((instruction >> 5) & 0x7FFFF) << 2 | (instruction >> 29) & 0x3, bits: 21)
        return .value(.address((pc & ~0xFFF) &+ UInt64(bitPattern: immediate << 12)))
      }
      // ADD (immediate), 64-bit: an address within the page.
      if instruction & 0xFF80_0000 == 0x9100_0000 {
        let shift: UInt64 = (instruction >> 22) & 1 == 1 ? 12 : 0
        guard case .address(let base) = value(of: rn, before: index, depth: depth + 1) else { return .value(.unknown) }
        return .value(.address(base &+ (UInt64((instruction >> 10) & 0xFFF) << shift)))
      }
      // LDR (literal), 64-bit: loads a slot near this instruction.
      if instruction & 0xFF00_0000 == 0x5800_0000 {
        let slot = pc &+ UInt64(bitPattern: signExtend((instruction >> 5) & 0x7FFFF, bits: 19) * 4)
        return .value(image.pointerSlots[slot].map(Value.symbolAddress) ?? .unknown)
      }
      // LDR (unsigned offset), 64-bit: a slot (adrp + ldr) or the value at a symbol's address.
      if instruction & 0xFFC0_0000 == 0xF940_0000 {
        let offset = UInt64((instruction >> 10) & 0xFFF) * 8
        switch value(of: rn, before: index, depth: depth + 1) {
        case .address(let base):
          return .value(image.pointerSlots[base &+ offset].map(Value.symbolAddress) ?? .unknown)
        case .symbolAddress(let name) where offset == 0:
          return .value(.symbolValue(name))
        default:
          return .value(.unknown)
        }
      }
      return .value(.unknown)
    }

    /// The constants a value may be; nil when it is not known.
    static func constants(_ value: Value) -> [UInt64]? {
      switch value {
      case .constant(let number): [number]
      case .choice(let numbers): numbers
      default: nil
      }
    }

    enum Flow { case call, conditional, jump }

    static func flow(_ instruction: UInt32) -> Flow? {
      // Branches, exceptions and system instructions share op0 = x101.
      guard instruction & 0x1C00_0000 == 0x1400_0000 else { return nil }
      if instruction & 0xFFC0_0000 == 0xD500_0000 { return nil }  // hints (NOP), barriers
      if instruction & 0xFC00_0000 == 0x9400_0000 { return .call }  // BL
      if instruction & 0xFFFF_FC1F == 0xD63F_0000 { return .call }  // BLR
      if instruction & 0xFF00_0010 == 0x5400_0000 { return .conditional }  // B.cond
      if instruction & 0x7E00_0000 == 0x3400_0000 { return .conditional }  // CBZ, CBNZ
      if instruction & 0x7E00_0000 == 0x3600_0000 { return .conditional }  // TBZ, TBNZ
      return .jump
    }

    /// Whether the instruction writes general register `register` (as Rd or a loaded Rt).
    static func writes(_ instruction: UInt32, _ register: UInt32) -> Bool {
      let destination = instruction & 0x1F
      let second = (instruction >> 10) & 0x1F
      if instruction & 0x1C00_0000 == 0x1000_0000 { return destination == register }  // data processing, immediate
      if instruction & 0x0E00_0000 == 0x0A00_0000 { return destination == register }  // data processing, register
      guard instruction & 0x0A00_0000 == 0x0800_0000 else { return false }  // loads and stores
      if instruction & 0x3B00_0000 == 0x1800_0000 { return destination == register }  // LDR (literal)
      let isLoad = (instruction >> 22) & 1 == 1
      guard isLoad, instruction & 0x0400_0000 == 0 else { return false }  // SIMD loads write V registers
      if instruction & 0x3A00_0000 == 0x2800_0000 { return destination == register || second == register }  // pairs
      return destination == register
    }

    /// DecodeBitMasks from the Arm ARM, for `orr` immediates.
    func bitmask(_ instruction: UInt32, is64: Bool) -> UInt64? {
      let n = (instruction >> 22) & 1
      let immr = UInt64((instruction >> 16) & 0x3F)
      let imms = UInt64((instruction >> 10) & 0x3F)
      let combined = n << 6 | UInt32(~imms & 0x3F)
      guard combined != 0 else { return nil }
      let length = 31 - combined.leadingZeroBitCount
      guard length >= 1 else { return nil }
      let size = UInt64(1) << length
      let levels = size - 1
      let ones = (imms & levels) + 1
      guard ones < size else { return nil }  // all ones is reserved
      let rotation = immr & levels
      var element: UInt64 = ones == 64 ? ~0 : (UInt64(1) << ones) - 1
      if rotation > 0 {
        element = (element >> rotation | element << (size - rotation)) & (size == 64 ? ~0 : (UInt64(1) << size) - 1)
      }
      var pattern: UInt64 = 0
      var filled: UInt64 = 0
      while filled < 64 {
        pattern |= element << filled
        filled += size
      }
      return is64 ? pattern : pattern & 0xFFFF_FFFF
    }
  }

  static func signExtend(_ value: UInt32, bits: Int) -> Int64 {
    let shift = 64 - bits
    return Int64(bitPattern: UInt64(value) << UInt64(shift)) >> Int64(shift)
  }
}
