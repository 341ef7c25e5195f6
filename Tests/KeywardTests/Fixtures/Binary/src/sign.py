#!/usr/bin/env python3
"""Gives a thin 64-bit Mach-O file a code signature that holds only an entitlements blob, as
codesign --entitlements writes it (a SuperBlob, magic 0xfade0cc0, with an empty requirements set
and the entitlements plist, magic 0xfade7171), so readers of entitlements can be tested without
Apple's tools. Nothing can verify it: it has no code directory.
Usage: sign.py MACHO KEY=VALUE... (a VALUE with commas becomes an array)"""
import plistlib
import struct
import sys

path, pairs = sys.argv[1], sys.argv[2:]
entitlements = {}
for pair in pairs:
    key, value = pair.split("=", 1)
    entitlements[key] = value.split(",") if "," in value or key.endswith("-groups") else value
xml = plistlib.dumps(entitlements, fmt=plistlib.FMT_XML)
requirements = struct.pack(">III", 0xFADE0C01, 12, 0)
entitlement_blob = struct.pack(">II", 0xFADE7171, 8 + len(xml)) + xml
header_size = 12 + 2 * 8
blobs = [(2, requirements), (5, entitlement_blob)]
index, body, offset = b"", b"", header_size
for kind, blob in blobs:
    index += struct.pack(">II", kind, offset)
    body += blob
    offset += len(blob)
signature = struct.pack(">III", 0xFADE0CC0, offset, len(blobs)) + index + body

data = bytearray(open(path, "rb").read())
magic, _, _, _, ncmds, sizeofcmds = struct.unpack("<IiiIII", data[:24])
assert magic == 0xFEEDFACF, "thin 64-bit Mach-O only"
cursor, linkedit, first_section = 32, None, len(data)
for _ in range(ncmds):
    cmd, size = struct.unpack("<II", data[cursor:cursor + 8])
    assert cmd != 0x1D, "already signed"
    if cmd == 0x19:
        name = data[cursor + 8:cursor + 24].rstrip(b"\0")
        if name == b"__LINKEDIT":
            linkedit = cursor
        for section in range(struct.unpack("<I", data[cursor + 64:cursor + 68])[0]):
            at = cursor + 72 + section * 80
            section_offset = struct.unpack("<I", data[at + 48:at + 52])[0]
            if section_offset:
                first_section = min(first_section, section_offset)
    cursor += size
assert linkedit is not None and cursor + 16 <= first_section, "no room for LC_CODE_SIGNATURE"
data += b"\0" * (-len(data) % 16)
data[cursor:cursor + 16] = struct.pack("<IIII", 0x1D, 16, len(data), len(signature))
data[16:24] = struct.pack("<II", ncmds + 1, sizeofcmds + 16)
data += signature
fileoff = struct.unpack("<Q", data[linkedit + 40:linkedit + 48])[0]
filesize = len(data) - fileoff
data[linkedit + 48:linkedit + 56] = struct.pack("<Q", filesize)
data[linkedit + 32:linkedit + 40] = struct.pack("<Q", (filesize + 0x3FFF) & ~0x3FFF)
open(path, "wb").write(data)
