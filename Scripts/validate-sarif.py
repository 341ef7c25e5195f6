#!/usr/bin/env python3
"""Validates SARIF files against the official SARIF 2.1.0 JSON schema.

Usage: validate-sarif.py SCHEMA FILE...
Exits 1 and prints every violation when a file does not conform.
"""
import json
import sys

import jsonschema


def main() -> int:
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1], encoding="utf-8") as handle:
        schema = json.load(handle)
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    validator = validator_class(schema)
    failed = False
    for path in sys.argv[2:]:
        with open(path, encoding="utf-8") as handle:
            document = json.load(handle)
        errors = sorted(validator.iter_errors(document), key=lambda error: list(error.absolute_path))
        for error in errors:
            location = "/".join(str(part) for part in error.absolute_path) or "(root)"
            print(f"{path}: {location}: {error.message}", file=sys.stderr)
        results = sum(len(run.get("results", [])) for run in document.get("runs", []))
        if errors:
            failed = True
        else:
            print(f"{path}: valid SARIF 2.1.0 ({results} results)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
