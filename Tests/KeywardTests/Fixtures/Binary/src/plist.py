#!/usr/bin/env python3
"""Writes an app's Info.plist. Usage: plist.py OUTPUT xml|binary NAME [FACE_ID_REASON]"""
import plistlib
import sys

output, form, name = sys.argv[1:4]
info = {
    "CFBundleExecutable": name,
    "CFBundleIdentifier": f"com.example.{name.lower()}",
    "CFBundlePackageType": "APPL",
    "MinimumOSVersion": "15.0",
}
if len(sys.argv) > 4:
    info["NSFaceIDUsageDescription"] = sys.argv[4]
with open(output, "wb") as handle:
    plistlib.dump(info, handle, fmt=plistlib.FMT_BINARY if form == "binary" else plistlib.FMT_XML)
