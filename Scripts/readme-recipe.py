#!/usr/bin/env python3
"""Prints a recipe from README.md so that CI runs exactly what the README shows.

  readme-recipe.py README.md github-actions   the `run:` steps of the GitHub Actions workflow,
                                              one JSON object per line: {"run": ..., "dir": ...}
  readme-recipe.py README.md pre-commit       the pre-commit hook script
  readme-recipe.py README.md run-script       the Xcode Run Script phase
"""
import json
import re
import sys

import yaml

text = open(sys.argv[1], encoding="utf-8").read()
blocks = re.findall(r"```(\w+)\n(.*?)```", text, re.S)
which = sys.argv[2]
if which == "github-actions":
    workflow = next(yaml.safe_load(body) for lang, body in blocks if lang == "yaml" and "runs-on" in body)
    for job in workflow["jobs"].values():
        for step in job["steps"]:
            if "run" in step:
                print(json.dumps({"run": step["run"], "dir": step.get("working-directory", ".")}))
elif which == "pre-commit":
    print(next(body for lang, body in blocks if lang == "sh" and body.startswith("#!/bin/sh") and "git diff --cached" in body), end="")
elif which == "run-script":
    print(next(body for lang, body in blocks if lang == "sh" and "SRCROOT" in body), end="")
else:
    sys.exit(f"unknown recipe {which}")
