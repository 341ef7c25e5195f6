#!/usr/bin/env python3
"""Makes lld-16's arm64e output look as Xcode's linker writes it: the CPU subtype says arm64e
(CPU_SUBTYPE_ARM64E with the pointer-authentication ABI bit; lld-16 writes ARM64_ALL), and the
__stubs and __got sections are named __auth_stubs and __auth_got. Types, sizes and the indirect
symbol table stay as they are. Usage: arm64e.py MACHO"""
import struct
import sys

path = sys.argv[1]
data = bytearray(open(path, "rb").read())
assert struct.unpack("<I", data[4:8])[0] == 0x0100000C, "not an arm64 image"
data[8:12] = struct.pack("<I", 0x80000002)
ncmds = struct.unpack("<I", data[16:20])[0]
cursor, renamed = 32, 0
for _ in range(ncmds):
    cmd, size = struct.unpack("<II", data[cursor:cursor + 8])
    if cmd == 0x19:
        for section in range(struct.unpack("<I", data[cursor + 64:cursor + 68])[0]):
            at = cursor + 72 + section * 80
            name = bytes(data[at:at + 16]).rstrip(b"\0")
            if name in (b"__stubs", b"__got"):
                data[at:at + 16] = (b"__auth" + name[1:]).ljust(16, b"\0")
                renamed += 1
    cursor += size
assert renamed == 2, f"renamed {renamed} sections"
open(path, "wb").write(data)
