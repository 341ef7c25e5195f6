#!/usr/bin/env python3
"""Joins thin Mach-O files into a universal (fat) one, as lipo -create does.
Usage: universal.py OUTPUT THIN..."""
import struct
import sys

ALIGN = 14  # slices start on 16 KiB boundaries
output, thins = sys.argv[1], sys.argv[2:]
slices = [open(path, "rb").read() for path in thins]
header = struct.pack(">II", 0xCAFEBABE, len(slices))
offset = 1 << ALIGN
entries, body = b"", b""
for data in slices:
    cputype, cpusubtype = struct.unpack("<ii", data[4:12])
    entries += struct.pack(">iiIII", cputype, cpusubtype, offset, len(data), ALIGN)
    padded = data + b"\0" * (-len(data) % (1 << ALIGN))
    body += padded
    offset += len(padded)
with open(output, "wb") as handle:
    first = header + entries
    handle.write(first + b"\0" * ((1 << ALIGN) - len(first)) + body)
