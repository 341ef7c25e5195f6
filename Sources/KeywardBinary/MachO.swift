import KeywardCore

/// A section of a Mach-O image: where it is in memory and in the file.
public struct MachOSection: Sendable, Hashable {
  public var segment: String
  public var name: String
  public var address: UInt64
  public var size: UInt64
  /// From the start of the image (the slice, in a universal file).
  public var fileOffset: Int
  /// The low byte of the section flags (S_SYMBOL_STUBS, S_NON_LAZY_SYMBOL_POINTERS...).
  public var type: UInt8
  public var reserved1: Int
  public var reserved2: Int
}

/// A library an image loads, as `otool -L` lists it.
public struct LinkedLibrary: Sendable, Hashable, Codable {
  public enum Kind: String, Sendable, Codable { case load, weak, reexport, lazy, upward }
  public var path: String
  public var kind: Kind
}

/// One architecture's image: its sections, the libraries it links, the symbols it imports, and
/// which stub or pointer slot stands for which imported symbol.
public struct MachOImage: Sendable {
  public var architecture: String
  public var is64Bit: Bool
  public var sections: [MachOSection] = []
  public var libraries: [LinkedLibrary] = []
  /// Undefined external symbols, sorted ("_SecAccessControlCreateWithFlags").
  public var importedSymbols: [String] = []
  /// Address of each symbol stub → the imported symbol it calls.
  public var stubTargets: [UInt64: String] = [:]
  /// Address of each non-lazy or lazy pointer slot → the symbol whose address it holds.
  public var pointerSlots: [UInt64: String] = [:]
  /// True when the App Store's FairPlay encryption covers the code (cryptid != 0).
  public var isEncrypted = false
  /// What the code signature grants; nil when the image is not signed with entitlements.
  public var entitlements: SigningEntitlements?
  /// The `__TEXT` segment's address: where the image's header is loaded.
  public var textSegmentAddress: UInt64 = 0
  /// Where functions start (`LC_FUNCTION_STARTS`), ascending; empty when the image has none.
  public var functionStarts: [UInt64] = []
  /// The image's bytes and where the image starts in them.
  let view: ByteView

  public func section(_ segment: String, _ name: String) -> MachOSection? {
    sections.first { $0.segment == segment && $0.name == name }
  }

  /// The bytes of a section (empty for zero-fill sections or ones outside the file).
  public func bytes(of section: MachOSection) -> ArraySlice<UInt8> {
    guard section.fileOffset > 0, let length = Int(exactly: section.size),
      let slice = try? view.slice(section.fileOffset, length)
    else { return [] }
    return slice
  }

  /// The start of the function holding `address`, by `LC_FUNCTION_STARTS`; nil without them.
  public func functionStart(containing address: UInt64) -> UInt64? {
    var low = 0
    var high = functionStarts.count
    while low < high {
      let middle = (low + high) / 2
      if functionStarts[middle] <= address { low = middle + 1 } else { high = middle }
    }
    return low == 0 ? nil : functionStarts[low - 1]
  }

  /// Where the byte at `address` is in the image's file; nil outside the file's sections.
  public func fileOffset(of address: UInt64) -> Int? {
    guard
      let section = sections.first(where: {
        $0.fileOffset > 0 && address >= $0.address && address - $0.address < $0.size
      })
    else { return nil }
    return section.fileOffset + Int(address - section.address)
  }

  /// The pointer-sized values of a section, with their addresses.
  public func pointers(in section: MachOSection) -> [(address: UInt64, value: UInt64)] {
    let bytes = Array(bytes(of: section))
    let size = is64Bit ? 8 : 4
    return stride(from: 0, to: bytes.count - size + 1, by: size).map { start in
      let value = (0..<size).reduce(UInt64(0)) { $0 | UInt64(bytes[start + $1]) << (UInt64($1) * 8) }
      return (section.address &+ UInt64(start), value)
    }
  }

  /// Where a pointer stored in the image points. Images that dyld fixes up through chained
  /// fixups (iOS 15 and later) store a rebase's target in the low bits, as an address or as an
  /// offset from the image's start, with the chain's bookkeeping above; `isTarget` picks the
  /// reading that lands on a place the caller expects.
  public func pointerTarget(_ value: UInt64, isTarget: (UInt64) -> Bool) -> UInt64? {
    let low36 = value & 0xF_FFFF_FFFF
    let candidates = [
      value, low36, value & 0x7FF_FFFF_FFFF, textSegmentAddress &+ low36, textSegmentAddress &+ (value & 0xFFFF_FFFF),
    ]
    return candidates.first(where: isTarget)
  }

  /// The NUL-terminated strings of a C-string section such as `__objc_methname`.
  public func strings(in section: MachOSection) -> [String] {
    bytes(of: section).split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
  }
}

/// Reads thin and universal Mach-O files (32- and 64-bit, little-endian).
public enum MachOFile {
  static let fatMagic: UInt32 = 0xCAFE_BABE
  static let fatMagic64: UInt32 = 0xCAFE_BABF
  static let magic64: UInt32 = 0xFEED_FACF
  static let magic32: UInt32 = 0xFEED_FACE

  /// Every image in the file: one for a thin file, one per architecture for a universal one.
  public static func images(_ bytes: [UInt8]) throws(BinaryFormatError) -> [MachOImage] {
    let whole = ByteView(bytes)
    let magic = try whole.u32(0, bigEndian: true, "the magic number")
    guard magic == fatMagic || magic == fatMagic64 else { return [try image(whole)] }
    let count = Int(try whole.u32(4, bigEndian: true, "the architecture count"))
    guard count > 0, count < 32 else { throw BinaryFormatError("not a universal Mach-O: \(count) architectures") }
    let entrySize = magic == fatMagic ? 20 : 32
    return try (0..<count).map { (index: Int) throws(BinaryFormatError) -> MachOImage in
      let entry = 8 + index * entrySize
      let offset: Int
      let size: Int
      if magic == fatMagic {
        offset = Int(try whole.u32(entry + 8, bigEndian: true, "an architecture's offset"))
        size = Int(try whole.u32(entry + 12, bigEndian: true, "an architecture's size"))
      } else {
        let high = try whole.u32(entry + 8, bigEndian: true)
        let low = try whole.u32(entry + 12, bigEndian: true)
        let sizeHigh = try whole.u32(entry + 16, bigEndian: true)
        let sizeLow = try whole.u32(entry + 20, bigEndian: true)
        guard high == 0, sizeHigh == 0 else { throw BinaryFormatError("architecture \(index) lies past 4 GiB") }
        offset = Int(low)
        size = Int(sizeLow)
      }
      try whole.check(offset, size, "architecture \(index)")
      return try image(ByteView(bytes, base: offset, count: size))
    }
  }

  static func image(_ view: ByteView) throws(BinaryFormatError) -> MachOImage {
    let magic = try view.u32(0, bigEndian: false, "the magic number")
    guard magic == magic64 || magic == magic32 else {
      throw BinaryFormatError("not a Mach-O file (magic 0x\(String(magic, radix: 16)))")
    }
    let is64 = magic == magic64
    let cpuType = try view.u32(4)
    let commandCount = Int(try view.u32(16))
    let commandsSize = Int(try view.u32(20))
    var offset = is64 ? 32 : 28
    try view.check(offset, commandsSize, "the load commands")
    guard commandCount <= commandsSize / 8 else { throw BinaryFormatError("\(commandCount) load commands cannot fit") }
    var image = MachOImage(architecture: architectureName(cpuType, try view.u32(8)), is64Bit: is64, view: view)
    var symbolTable: (offset: Int, count: Int, strings: Int, stringsSize: Int)?
    var indirect: (offset: Int, count: Int)?
    var textSegment: UInt64?
    var functionStarts: (offset: Int, size: Int)?
    for _ in 0..<commandCount {
      let command = try view.u32(offset)
      let size = Int(try view.u32(offset + 4))
      guard size >= 8, size % 4 == 0 else { throw BinaryFormatError("load command at byte \(offset) has size \(size)") }
      try view.check(offset, size, "a load command")
      switch command {
      case 0x19, 0x1:
        image.sections += try sections(view, at: offset, is64: command == 0x19)
        if try view.fixedName(offset + 8) == "__TEXT" {
          textSegment = command == 0x19 ? try view.u64(offset + 24) : UInt64(try view.u32(offset + 24))
        }
      case 0x26:  // LC_FUNCTION_STARTS
        functionStarts = (Int(try view.u32(offset + 8)), Int(try view.u32(offset + 12)))
      case 0x2:
        symbolTable = (
          Int(try view.u32(offset + 8)), Int(try view.u32(offset + 12)), Int(try view.u32(offset + 16)),
          Int(try view.u32(offset + 20))
        )
      case 0xB:
        indirect = (Int(try view.u32(offset + 56)), Int(try view.u32(offset + 60)))
      case 0xC, 0x8000_0018, 0x8000_001F, 0x20, 0x8000_0023:
        let nameOffset = Int(try view.u32(offset + 8))
        guard nameOffset < size, let path = view.cString(offset + nameOffset, limit: size - nameOffset) else {
          throw BinaryFormatError("library load command at byte \(offset) has no name")
        }
        let kinds: [UInt32: LinkedLibrary.Kind] = [
          0xC: .load, 0x8000_0018: .weak, 0x8000_001F: .reexport, 0x20: .lazy, 0x8000_0023: .upward,
        ]
        image.libraries.append(LinkedLibrary(path: path, kind: kinds[command]!))
      case 0x21, 0x2C:
        image.isEncrypted = try view.u32(offset + 16) != 0
      case 0x1D:  // LC_CODE_SIGNATURE
        image.entitlements = CodeSignature.entitlements(
          view, offset: Int(try view.u32(offset + 8)), size: Int(try view.u32(offset + 12)))
      default:
        break
      }
      offset += size
    }
    let symbols =
      try symbolTable.map { (table) throws(BinaryFormatError) -> [Symbol] in
        try readSymbols(view, table, is64: is64)
      } ?? []
    image.importedSymbols = Array(Set(symbols.filter(\.isImport).map(\.name))).sorted()
    if let indirect {
      try resolveIndirect(&image, view: view, table: indirect, symbols: symbols)
    }
    image.textSegmentAddress = textSegment ?? 0
    if let functionStarts, let textSegment, let bytes = try? view.slice(functionStarts.offset, functionStarts.size) {
      image.functionStarts = Self.functionStarts(bytes, from: textSegment)
    }
    return image
  }

  /// The ULEB128 deltas of `LC_FUNCTION_STARTS`, the first from the `__TEXT` segment's start.
  static func functionStarts(_ bytes: ArraySlice<UInt8>, from start: UInt64) -> [UInt64] {
    var starts: [UInt64] = []
    var address = start
    var delta: UInt64 = 0
    var shift: UInt64 = 0
    for byte in bytes {
      guard shift < 64 else { return starts }
      delta |= UInt64(byte & 0x7F) << shift
      shift += 7
      guard byte & 0x80 == 0 else { continue }
      if delta == 0 { break }
      address &+= delta
      starts.append(address)
      delta = 0
      shift = 0
    }
    return starts
  }

  struct Symbol {
    var name: String
    var isImport: Bool
  }

  static func sections(_ view: ByteView, at command: Int, is64: Bool) throws(BinaryFormatError) -> [MachOSection] {
    let count = Int(try view.u32(command + (is64 ? 64 : 48)))
    let first = command + (is64 ? 72 : 56)
    let size = is64 ? 80 : 68
    guard count < 1024 else { throw BinaryFormatError("a segment claims \(count) sections") }
    return try (0..<count).map { (index: Int) throws(BinaryFormatError) -> MachOSection in
      let at = first + index * size
      let address = is64 ? try view.u64(at + 32) : UInt64(try view.u32(at + 32))
      let length = is64 ? try view.u64(at + 40) : UInt64(try view.u32(at + 36))
      let fields = at + (is64 ? 48 : 40)
      return MachOSection(
        segment: try view.fixedName(at + 16), name: try view.fixedName(at), address: address, size: length,
        fileOffset: Int(try view.u32(fields)), type: UInt8(try view.u32(fields + 16) & 0xFF),
        reserved1: Int(try view.u32(fields + 20)), reserved2: Int(try view.u32(fields + 24)))
    }
  }

  static func readSymbols(
    _ view: ByteView, _ table: (offset: Int, count: Int, strings: Int, stringsSize: Int), is64: Bool
  ) throws(BinaryFormatError) -> [Symbol] {
    let entrySize = is64 ? 16 : 12
    try view.check(table.offset, table.count * entrySize, "the symbol table")
    try view.check(table.strings, table.stringsSize, "the string table")
    return try (0..<table.count).map { (index: Int) throws(BinaryFormatError) -> Symbol in
      let at = table.offset + index * entrySize
      let nameOffset = Int(try view.u32(at))
      let type = try view.u8(at + 4)
      let name =
        nameOffset < table.stringsSize
        ? view.cString(table.strings + nameOffset, limit: table.stringsSize - nameOffset) ?? "" : ""
      // External (N_EXT), undefined (N_UNDF), not a debugging entry (N_STAB).
      let isImport = type & 0xE0 == 0 && type & 0x0E == 0 && type & 0x01 == 1 && !name.isEmpty
      return Symbol(name: name, isImport: isImport)
    }
  }

  /// Maps stubs and pointer slots to symbols through the indirect symbol table.
  static func resolveIndirect(
    _ image: inout MachOImage, view: ByteView, table: (offset: Int, count: Int), symbols: [Symbol]
  ) throws(BinaryFormatError) {
    try view.check(table.offset, table.count * 4, "the indirect symbol table")
    func symbol(_ index: Int) -> String? {
      guard index >= 0, index < table.count, let entry = try? view.u32(table.offset + index * 4),
        entry & 0xC000_0000 == 0, Int(entry) < symbols.count
      else { return nil }
      return symbols[Int(entry)].name
    }
    let pointerSize: UInt64 = image.is64Bit ? 8 : 4
    for section in image.sections {
      let stride: UInt64
      switch section.type {
      case 0x08: stride = UInt64(section.reserved2)  // S_SYMBOL_STUBS
      case 0x06, 0x07: stride = pointerSize  // non-lazy and lazy symbol pointers
      default: continue
      }
      guard stride > 0 else { continue }
      for slot in 0..<min(section.size / stride, UInt64(table.count)) {
        guard let name = symbol(section.reserved1 + Int(slot)) else { continue }
        let address = section.address &+ slot * stride
        if section.type == 0x08 { image.stubTargets[address] = name } else { image.pointerSlots[address] = name }
      }
    }
  }

  static func architectureName(_ cpuType: UInt32, _ subtype: UInt32) -> String {
    switch cpuType {
    case 0x0100_000C: return subtype & 0xFF == 2 ? "arm64e" : "arm64"
    case 0x0100_0007: return "x86_64"
    case 0xC: return "armv7"
    case 0x7: return "i386"
    case 0x0200_000C: return "arm64_32"
    default: return "cpu-type-\(cpuType)"
    }
  }
}
