#!/usr/bin/env python3
"""Writes a bundle's Info.plist.
Usage: plist.py OUTPUT xml|binary NAME [FACE_ID_REASON] [--id ID] [--version VERSION] [--type APPL|FMWK|XPC!]"""
import argparse
import plistlib

parser = argparse.ArgumentParser()
parser.add_argument("output")
parser.add_argument("form", choices=["xml", "binary"])
parser.add_argument("name")
parser.add_argument("face_id_reason", nargs="?")
parser.add_argument("--id")
parser.add_argument("--version")
parser.add_argument("--type", default="APPL")
arguments = parser.parse_args()
info = {
    "CFBundleExecutable": arguments.name,
    "CFBundleIdentifier": arguments.id or f"com.example.{arguments.name.lower()}",
    "CFBundlePackageType": arguments.type,
    "MinimumOSVersion": "15.0",
}
if arguments.version:
    info["CFBundleShortVersionString"] = arguments.version
    info["CFBundleVersion"] = arguments.version.replace(".", "")
if arguments.face_id_reason:
    info["NSFaceIDUsageDescription"] = arguments.face_id_reason
with open(arguments.output, "wb") as handle:
    plistlib.dump(info, handle, fmt=plistlib.FMT_BINARY if arguments.form == "binary" else plistlib.FMT_XML)
