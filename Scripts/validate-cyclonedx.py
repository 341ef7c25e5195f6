#!/usr/bin/env python3
"""Validates CycloneDX JSON documents against the official CycloneDX 1.6 JSON schema.

Usage: validate-cyclonedx.py [FILE...]
With no FILE, runs `keyward inventory Examples/VaultApp --format cyclonedx` (the keyward on
$KEYWARD, else `swift run --skip-build keyward`) from the repository root and validates that.
Exits 1 and prints the violation when a document does not conform.

The schema (with the spdx and jsf schemas it references) is the one cyclonedx-python-lib
ships: pip install 'cyclonedx-python-lib[json-validation]'. Besides the schema, checks that
every bom-ref is unique, as the specification requires.
"""
import json
import os
import shlex
import subprocess
import sys

from cyclonedx.schema import SchemaVersion
from cyclonedx.validation.json import JsonStrictValidator


def duplicate_refs(document) -> list:
    seen, duplicates = set(), []

    def walk(value):
        if isinstance(value, dict):
            ref = value.get("bom-ref")
            if isinstance(ref, str):
                if ref in seen:
                    duplicates.append(ref)
                seen.add(ref)
            for child in value.values():
                walk(child)
        elif isinstance(value, list):
            for child in value:
                walk(child)

    walk(document)
    return duplicates


def validate(name: str, text: str, validator) -> bool:
    error = validator.validate_str(text)
    if error is not None:
        print(f"{name}: not valid CycloneDX 1.6:\n{error}", file=sys.stderr)
        return False
    document = json.loads(text)
    duplicates = duplicate_refs(document)
    if duplicates:
        print(f"{name}: bom-ref used more than once: {', '.join(duplicates)}", file=sys.stderr)
        return False
    components = document.get("components", [])
    assets = sum(1 for component in components if component.get("type") == "cryptographic-asset")
    print(f"{name}: valid CycloneDX 1.6 ({len(components)} components, {assets} cryptographic assets)")
    return True


def main() -> int:
    validator = JsonStrictValidator(SchemaVersion.V1_6)
    if len(sys.argv) > 1:
        documents = []
        for path in sys.argv[1:]:
            with open(path, encoding="utf-8") as handle:
                documents.append((path, handle.read()))
    else:
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        keyward = shlex.split(os.environ.get("KEYWARD", "swift run --skip-build keyward"))
        command = keyward + ["inventory", "Examples/VaultApp", "--format", "cyclonedx"]
        run = subprocess.run(command, cwd=root, capture_output=True, text=True)
        if run.returncode != 0:
            print(f"{' '.join(command)} exited {run.returncode}:\n{run.stderr}", file=sys.stderr)
            return 1
        documents = [("Examples/VaultApp inventory", run.stdout)]
    valid = [validate(name, text, validator) for name, text in documents]
    return 0 if all(valid) else 1


if __name__ == "__main__":
    sys.exit(main())
