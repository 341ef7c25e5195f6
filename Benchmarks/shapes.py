#!/usr/bin/env python3
"""Times Keyward on single files of a pathological shape: one pattern repeated N times in one
file (thousands of evaluations sharing one context, thousands of functions declaring the same
variable name, ...). Real files are not like this; the point is that the semantic layer's cost
grows with the file, not with its square, so that no file of an app nears the per-file time
limit. Prints seconds, size and findings per shape.

    python3 Benchmarks/shapes.py [--repeat N] [--skip-build] [--keyward EXECUTABLE]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER = "import LocalAuthentication\nimport Security\n"
EVALUATE = 'evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "x")'


def shapes(n):
    """Shape name -> file text."""
    return {
        "evaluations handing off": "".join(
            f"func f{i}(c: LAContext) {{ store.use{i}(context: c) }}\n"
            f"func g{i}() {{ let ctx = LAContext(); ctx.{EVALUATE} {{ ok, _ in f{i}(c: ctx) }} }}\n"
            for i in range(n)),
        "one shared context": "final class S {\n  let context = LAContext()\n" + "".join(
            f"  func e{i}() {{ context.{EVALUATE} {{ ok, _ in }} }}\n"
            f"  func q{i}() -> OSStatus {{ let q: [CFString: Any] = [kSecUseAuthenticationContext: context, "
            f"kSecAttrAccessible: kSecAttrAccessibleAlways]; return SecItemCopyMatching(q as CFDictionary, nil) }}\n"
            for i in range(n)) + "}\n",
        "same local name": "".join(
            f"func a{i}() -> SecAccessControl? {{ var flags: SecAccessControlCreateFlags = .biometryAny\n"
            f" if x {{ flags = [.biometryAny, .or, .devicePasscode] }}\n"
            f" return SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, flags, nil) }}\n"
            for i in range(n)),
        "one query, many writes": "func f(flag: Bool) {\n var query: [String: Any] = [:]\n" + "".join(
            f' query[kSecAttrAccount as String] = "a{i}"\n'
            f" if flag {{ query[kSecAttrAccessible as String] = kSecAttrAccessibleAlways }}\n"
            for i in range(n)) + " SecItemAdd(query as CFDictionary, nil)\n}\n",
        "context parameters": "".join(
            f"func p{i}(context: LAContext) -> OSStatus {{ let q: [CFString: Any] = "
            f"[kSecUseAuthenticationContext: context, kSecReturnData: true]; return SecItemCopyMatching(q as CFDictionary, nil) }}\n"
            for i in range(n)),
        "context relay": "".join(f"func r{i}(_ c: LAContext) {{ r{i + 1}(c) }}\n" for i in range(n))
        + f"func r{n}(_ c: LAContext) {{ let q: [CFString: Any] = [kSecUseAuthenticationContext: c]; "
        f"SecItemCopyMatching(q as CFDictionary, nil) }}\n"
        f"func go() {{ let ctx = LAContext(); ctx.{EVALUATE} {{ ok, _ in r0(ctx) }} }}\n",
        "constant chain": "let c0 = kSecAttrAccessibleAlways\n" + "".join(f"let c{i + 1} = c{i}\n" for i in range(n))
        + f"let q = [kSecAttrAccessible: c{n}]\nSecItemAdd(q as CFDictionary, nil)\n",
        "fail-open branches": "".join(
            f"func u{i}(ctx: LAContext) {{ ctx.{EVALUATE} {{ ok, error in "
            f"if let error {{ self.unlock() }} else if ok {{ self.unlock() }} }} }}\n" for i in range(n)),
        "keychain wrapper": "import KeychainAccess\nlet keychain = Keychain(service: \"s\")\n" + "".join(
            f"func w{i}() {{ let ctx = LAContext(); ctx.{EVALUATE} {{ ok, _ in "
            f'_ = try? keychain.authenticationContext(ctx).get("k{i}") }} }}\n' for i in range(n)),
        "one property, many writers": "final class K {\n var flags: SecAccessControlCreateFlags = .biometryAny\n" + "".join(
            f" func m{i}() {{ self.flags = .userPresence; "
            f"_ = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, self.flags, nil) }}\n"
            for i in range(n)) + "}\n",
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3000, help="repetitions of the pattern in each file")
    parser.add_argument("--skip-build", action="store_true")
    parser.add_argument("--keyward", help="time this executable instead of the release build (to compare builds)")
    args = parser.parse_args()
    if not args.skip_build and not args.keyward:
        subprocess.run(["swift", "build", "-c", "release", "--product", "keyward"], cwd=ROOT, check=True)
    keyward = args.keyward or os.path.join(ROOT, ".build/release/keyward")
    print(f"{'shape':<28} {'KB':>6} {'seconds':>8} {'findings':>9}")
    with tempfile.TemporaryDirectory() as folder:
        for name, text in shapes(args.repeat).items():
            path = os.path.join(folder, name.replace(" ", "-").replace(",", "") + ".swift")
            with open(path, "w") as out:
                out.write(HEADER + text)
            start = time.monotonic()
            result = subprocess.run(
                [keyward, "scan", path, "--format", "json", "--fail-on", "none", "--jobs", "1"],
                capture_output=True, text=True)
            seconds = time.monotonic() - start
            report = json.loads(result.stdout)
            errors = f"  ({len(report['errors'])} scan error)" if report["errors"] else ""
            print(f"{name:<28} {os.path.getsize(path) // 1024:>6} {seconds:>8.2f} {len(report['findings']):>9}{errors}")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
