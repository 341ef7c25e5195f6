/// Finds calls to an imported function in x86_64 code (simulator builds, Intel Mac apps) and
/// recovers its arguments (rdi, rsi, rdx, rcx, r8, r9) with a forward pass through each function,
/// from its start in `LC_FUNCTION_STARTS`: `mov reg, imm`, `xor reg, reg`, register copies, and
/// pointers loaded through the image's symbol slots (`mov reg, [rip + slot]`, then
/// `mov reg, [reg]`). Anything else that writes a register makes it unknown; a call forgets the
/// registers it may change, an unconditional jump or a return everything, and an instruction the
/// decoder does not know ends the pass until the next function.
public enum X86Calls {
  static let argumentRegisters = [7, 6, 2, 1, 8, 9]
  static let callerSaved: [Int] = [0, 1, 2, 6, 7, 8, 9, 10, 11]

  public static func calls(to symbol: String, in image: MachOImage, arguments: Int) -> [CallSite] {
    guard image.architecture == "x86_64", let text = image.section("__TEXT", "__text"),
      image.stubTargets.values.contains(symbol)
    else { return [] }
    let bytes = image.bytes(of: text)
    let end = text.address &+ UInt64(bytes.count)
    let starts = image.functionStarts.filter { $0 >= text.address && $0 < end }
    var sites: [CallSite] = []
    for (index, start) in ([text.address] + starts).enumerated() {
      let stop = index < starts.count ? starts[index] : end
      guard start < stop else { continue }
      let from = bytes.startIndex + Int(start - text.address)
      let to = bytes.startIndex + Int(stop - text.address)
      var pass = Pass(image: image, symbol: symbol, arguments: arguments)
      pass.run(bytes[from..<to], address: start, fileOffset: text.fileOffset + Int(start - text.address))
      sites += pass.sites
    }
    return sites
  }

  enum Value: Equatable {
    case constant(UInt64)
    case choice([UInt64])
    case symbolAddress(String)
    case symbolValue(String)
    case unknown
  }

  struct Pass {
    let image: MachOImage
    let symbol: String
    let arguments: Int
    var registers = [Value](repeating: .unknown, count: 16)
    var sites: [CallSite] = []

    init(image: MachOImage, symbol: String, arguments: Int) {
      self.image = image
      self.symbol = symbol
      self.arguments = arguments
    }

    mutating func run(_ code: ArraySlice<UInt8>, address: UInt64, fileOffset: Int) {
      var index = code.startIndex
      while index < code.endIndex {
        guard let instruction = X86Instruction(code, at: index) else { return }
        let pc = address &+ UInt64(index - code.startIndex)
        apply(instruction, at: pc, fileOffset: fileOffset + (index - code.startIndex))
        index += instruction.length
      }
    }

    mutating func apply(_ instruction: X86Instruction, at pc: UInt64, fileOffset: Int) {
      let next = pc &+ UInt64(instruction.length)
      switch instruction.effect {
      case .call(let displacement), .jump(let displacement):
        let target = next &+ UInt64(bitPattern: displacement)
        if image.stubTargets[target] == symbol {
          let values = (0..<arguments).map { index -> ArgumentValue in
            guard index < argumentRegisters.count else { return .unknown }
            switch registers[argumentRegisters[index]] {
            case .constant(let value): return .constant(value)
            case .choice(let values): return .choice(values)
            case .symbolValue(let name): return .symbolValue(name)
            default: return .unknown
            }
          }
          sites.append(CallSite(address: pc, fileOffset: fileOffset, arguments: values))
        }
        if case .call = instruction.effect { forget(callerSaved) } else { forget(Array(0..<16)) }
      case .callIndirect:
        forget(callerSaved)
      case .end:
        forget(Array(0..<16))
      case .conditional:
        break
      case .set(let register, let value):
        registers[register] = value
      case .copy(let destination, let source):
        registers[destination] = registers[source]
      case .select(let destination, let source):
        registers[destination] = Self.either(registers[destination], registers[source])
      case .loadSlot(let destination, let displacement):
        let slot = next &+ UInt64(bitPattern: displacement)
        registers[destination] = image.pointerSlots[slot].map(Value.symbolAddress) ?? .unknown
      case .loadThrough(let destination, let base):
        if case .symbolAddress(let name) = registers[base] {
          registers[destination] = .symbolValue(name)
        } else {
          registers[destination] = .unknown
        }
      case .clobber(let written):
        forget(written)
      }
    }

    /// What a register holds after a conditional move: one value or the other.
    static func either(_ first: Value, _ second: Value) -> Value {
      func constants(_ value: Value) -> [UInt64]? {
        switch value {
        case .constant(let number): [number]
        case .choice(let numbers): numbers
        default: nil
        }
      }
      guard let one = constants(first), let other = constants(second) else { return .unknown }
      let values = Set(one + other)
      return values.count == 1 ? .constant(values.first!) : .choice(values.sorted())
    }

    mutating func forget(_ written: [Int]) {
      for register in written { registers[register] = .unknown }
    }
  }
}

/// One decoded x86_64 instruction: its length, and what it does to the registers the call-site
/// recovery follows. Only lengths need to be right for instructions that do not matter.
struct X86Instruction {
  enum Effect {
    case call(Int64), jump(Int64), callIndirect, conditional, end
    case set(Int, X86Calls.Value)
    case copy(Int, Int)
    /// `cmov`: the destination keeps its value or takes the source's, by a condition.
    case select(Int, Int)
    /// `mov reg, [rip + displacement]`.
    case loadSlot(Int, Int64)
    /// `mov reg, [base]`.
    case loadThrough(Int, Int)
    case clobber([Int])
  }

  var length: Int
  var effect: Effect

  /// Operand size, address size, repeat, segment and lock prefixes.
  static let prefixes: Set<UInt8> = [0x66, 0x67, 0xF2, 0xF3, 0x2E, 0x3E, 0x26, 0x36, 0x64, 0x65, 0xF0]

  /// One-byte opcodes with a ModRM byte (the ALU block's 0-3 columns and the rest listed).
  static let modRMOpcodes: Set<UInt8> = {
    var opcodes: Set<UInt8> = [
      0x63, 0x69, 0x6B, 0x80, 0x81, 0x83, 0xC0, 0xC1, 0xC6, 0xC7, 0xD0, 0xD1, 0xD2, 0xD3, 0xF6, 0xF7, 0xFE, 0xFF,
    ]
    for row: UInt8 in 0..<8 {
      for column: UInt8 in 0...3 { opcodes.insert(row * 8 + column) }
    }
    for opcode: UInt8 in 0x84...0x8F { opcodes.insert(opcode) }
    for opcode: UInt8 in 0xD8...0xDF { opcodes.insert(opcode) }
    return opcodes
  }()

  init?(_ code: ArraySlice<UInt8>, at start: Int) {
    var index = start
    func byte() -> UInt8? {
      guard index < code.endIndex else { return nil }
      defer { index += 1 }
      return code[index]
    }
    var operandSize16 = false
    guard var opcode = byte() else { return nil }
    while Self.prefixes.contains(opcode) {
      if opcode == 0x66 { operandSize16 = true }
      guard let following = byte() else { return nil }
      opcode = following
    }
    var rex: UInt8 = 0
    if opcode & 0xF0 == 0x40 {
      rex = opcode
      guard let following = byte() else { return nil }
      opcode = following
    }
    let wide = rex & 0x8 != 0
    let immediate32 = operandSize16 ? 2 : 4
    var hasModRM = false
    var immediate = 0
    var twoByte: UInt8?
    switch opcode {
    case 0x0F:
      guard let second = byte() else { return nil }
      twoByte = second
      switch second {
      case 0x05, 0x0B, 0x31, 0xA2, 0xC8...0xCF: break
      case 0x80...0x8F: immediate = 4
      case 0x38:
        hasModRM = true
        guard byte() != nil else { return nil }
      case 0x3A:
        hasModRM = true; immediate = 1
        guard byte() != nil else { return nil }
      case 0x70...0x73, 0xA4, 0xAC, 0xBA, 0xC2, 0xC4, 0xC5, 0xC6: hasModRM = true; immediate = 1
      default: hasModRM = true
      }
    case 0x04, 0x0C, 0x14, 0x1C, 0x24, 0x2C, 0x34, 0x3C, 0x6A, 0x70...0x7F, 0xA8, 0xB0...0xB7, 0xCD, 0xE0...0xE7, 0xEB:
      immediate = 1
    case 0x05, 0x0D, 0x15, 0x1D, 0x25, 0x2D, 0x35, 0x3D, 0x68, 0xA9: immediate = immediate32
    case 0xB8...0xBF: immediate = wide ? 8 : immediate32
    case 0xE8, 0xE9: immediate = 4
    case 0xC2: immediate = 2
    case 0xC8: immediate = 3
    case 0xA0...0xA3: immediate = 8
    case 0x50...0x5F, 0x90...0x99, 0x9B...0x9F, 0xA4...0xA7, 0xAA...0xAF, 0xC3, 0xC9, 0xCB, 0xCC, 0xF4, 0xF5,
      0xF8...0xFD:
      break
    default:
      guard Self.modRMOpcodes.contains(opcode) else { return nil }
      hasModRM = true
      switch opcode {
      case 0x69, 0x81, 0xC7: immediate = immediate32
      case 0x6B, 0x80, 0x83, 0xC0, 0xC1, 0xC6: immediate = 1
      default: break
      }
    }
    var modRM: (mod: UInt8, reg: Int, rm: Int, ripRelative: Int64?, plainBase: Bool)?
    if hasModRM {
      guard let value = byte() else { return nil }
      let mod = value >> 6
      let reg = Int((value >> 3) & 7) | (rex & 0x4 != 0 ? 8 : 0)
      let rmLow = value & 7
      let rm = Int(rmLow) | (rex & 0x1 != 0 ? 8 : 0)
      var ripRelative: Int64?
      var hasSIB = false
      if mod != 3 && rmLow == 4 {
        guard let sib = byte() else { return nil }
        hasSIB = true
        if mod == 0 && sib & 7 == 5 { index += 4 }
      }
      if mod == 0 && rmLow == 5 {
        guard index + 4 <= code.endIndex else { return nil }
        let raw = (0..<4).reduce(UInt32(0)) { $0 | UInt32(code[index + $1]) << (UInt32($1) * 8) }
        ripRelative = Int64(Int32(bitPattern: raw))
        index += 4
      } else if mod == 1 {
        index += 1
      } else if mod == 2 {
        index += 4
      }
      // F6 and F7 take an immediate only as TEST (reg 0 or 1).
      if (opcode == 0xF6 || opcode == 0xF7) && twoByte == nil && (value >> 3) & 7 < 2 {
        immediate = opcode == 0xF6 ? 1 : immediate32
      }
      modRM = (mod, reg, rm, ripRelative, mod == 0 && !hasSIB && rmLow != 5)
    }
    let immediateStart = index
    index += immediate
    guard index <= code.endIndex else { return nil }
    length = index - start
    func immediateValue() -> UInt64 {
      (0..<immediate).reduce(UInt64(0)) { $0 | UInt64(code[immediateStart + $1]) << (UInt64($1) * 8) }
    }
    func signedImmediate() -> Int64 {
      let value = immediateValue()
      let shift = UInt64(64 - immediate * 8)
      return Int64(bitPattern: value << shift) >> Int64(shift)
    }
    let rexB = rex & 0x1 != 0 ? 8 : 0
    if let second = twoByte {
      switch second {
      case 0x80...0x8F: effect = .conditional
      case 0x40...0x4F where modRM?.mod == 3: effect = .select(modRM!.reg, modRM!.rm)
      case 0x1F, 0x18...0x1E: effect = .clobber([])  // NOP and hints
      case 0x05, 0x31, 0xA2: effect = .clobber(Array(0..<16))
      default: effect = .clobber(modRM.map { [$0.reg] + ($0.mod == 3 ? [$0.rm] : []) } ?? [])
      }
      return
    }
    switch opcode {
    case 0xE8: effect = .call(signedImmediate())
    case 0xE9, 0xEB: effect = .jump(signedImmediate())
    case 0x70...0x7F, 0xE0...0xE3: effect = .conditional
    case 0xC3, 0xC2, 0xCB, 0xCC, 0xF4: effect = .end
    case 0xB8...0xBF:
      effect = .set(Int(opcode & 7) | rexB, .constant(immediateValue()))
    case 0x50...0x57, 0x90: effect = .clobber([])
    case 0x58...0x5F: effect = .clobber([Int(opcode & 7) | rexB])
    case 0x91...0x97: effect = .clobber([0, Int(opcode & 7) | rexB])
    case 0xC7 where modRM?.mod == 3:
      let value = UInt64(bitPattern: signedImmediate())
      effect = .set(modRM!.rm, .constant(wide ? value : value & 0xFFFF_FFFF))
    case 0x31, 0x33, 0x29, 0x2B:  // xor and sub: of a register with itself, zero
      guard let modRM else { return nil }
      let zeroes = modRM.mod == 3 && modRM.reg == modRM.rm
      let destination = opcode & 2 == 0 ? (modRM.mod == 3 ? [modRM.rm] : []) : [modRM.reg]
      effect = zeroes ? .set(modRM.reg, .constant(0)) : .clobber(destination)
    case 0x89 where modRM?.mod == 3: effect = .copy(modRM!.rm, modRM!.reg)
    case 0x8B where modRM?.mod == 3: effect = .copy(modRM!.reg, modRM!.rm)
    case 0x8B where modRM?.ripRelative != nil && wide: effect = .loadSlot(modRM!.reg, modRM!.ripRelative!)
    case 0x8B where modRM?.plainBase == true && wide: effect = .loadThrough(modRM!.reg, modRM!.rm)
    case 0x38...0x3B, 0x84, 0x85, 0xA8, 0xA9, 0x3C, 0x3D: effect = .clobber([])  // compare and test: flags only
    case 0x88, 0x89, 0xC6, 0xC7: effect = .clobber(modRM.map { $0.mod == 3 ? [$0.rm] : [] } ?? [])
    case 0x80, 0x81, 0x83, 0xC0, 0xC1, 0xD0...0xD3:  // arithmetic and shifts of r/m by an immediate
      let isCompare = opcode <= 0x83 && modRM.map({ $0.reg & 7 }) == 7
      effect = .clobber(isCompare ? [] : modRM.map { $0.mod == 3 ? [$0.rm] : [] } ?? [])
    case 0xF6, 0xF7:
      switch modRM.map({ $0.reg & 7 }) {
      case 0, 1: effect = .clobber([])  // test
      case 2, 3: effect = .clobber(modRM.map { $0.mod == 3 ? [$0.rm] : [] } ?? [])  // not, neg
      default: effect = .clobber([0, 2])  // mul, imul, div, idiv write rax and rdx
      }
    case 0xFF:
      switch modRM.map({ $0.reg & 7 }) {
      case 2: effect = .callIndirect
      case 4: effect = .end
      case 6: effect = .clobber([])  // push
      default: effect = .clobber(modRM.map { $0.mod == 3 ? [$0.rm] : [] } ?? [])
      }
    default:
      if let modRM {
        effect = .clobber([modRM.reg] + (modRM.mod == 3 ? [modRM.rm] : []))
      } else {
        effect = .clobber(Array(0..<16))
      }
    }
  }
}
