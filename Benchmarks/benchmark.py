#!/usr/bin/env python3
"""Keyward benchmarks: prints the figures Benchmarks/README.md records, all measured in one run.

Usage: python3 Benchmarks/benchmark.py [--skip-build] [--runs N] [--dense-mb M] [--corpus DIR] [--only-real]

1. Sparse real code: swift-syntax, swift-nio, vapor and GRDB at fixed tags, cloned from the
   machine's package mirror, scanned with the standard profile, against `grep -rlE` for the
   union of all rules' prefilter tokens over the same files (the floor).
2. Dense code: a generated corpus in which every file holds keychain and LocalAuthentication
   code, against swift-syntax parsing alone (`keyward-bench parse-only`).
3. Parallelism and scaling: 1 worker against all cores, and the dense corpus doubled.
4. Memory: peak resident set size on the dense corpus and on the doubled one, in JSON and in
   every other report format.
5. Start-up: one small file, end to end.
6. Incremental: --cache, cold against warm, a changed file is scanned again, and memory with
   the cache on the dense and doubled corpora.
7. semgrep (with Benchmarks/semgrep-keychain.yml) and mobsfscan on the sparse corpus, if installed.
8. Real iOS apps: the larger projects of the development corpus (Benchmarks/realworld, checked
   out outside the repository with realworld/checkout.py; --corpus DIR, default /work/corpus)
   and the whole corpus, each against the grep floor of item 1 over the files Keyward reads,
   and against grep followed by `keyward-bench parse-only` of the files grep matched.
   --only-real runs this item alone.
Wall times are the median of --runs runs (default 3); machines here are noisy.
"""
import argparse
import json
import os
import random
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(ROOT, ".build", "benchmark")
RELEASE = os.path.join(ROOT, ".build", "release")
SPARSE = [
    ("https://github.com/swiftlang/swift-syntax", "603.0.1"),
    ("https://github.com/apple/swift-nio", "2.101.2"),
    ("https://github.com/vapor/vapor", "4.122.3"),
    ("https://github.com/groue/GRDB.swift", "7.10.0"),
]
# Item 8: the larger apps of Benchmarks/realworld/manifest.tsv, as checkout.py names their folders.
REAL_APPS = [
    "threema-ch+threema-ios",
    "Dashlane+apple-apps",
    "corona-warn-app+cwa-app-ios",
    "perawallet+pera-wallet",
    "passbolt+mobile-passbolt-ios",
    "mullvad+mullvadvpn-app",
    "safe-global+safe-ios",
]
DEFAULT_CORPUS = "/work/corpus"
# What Keyward's file discovery reads and skips (FileDiscovery.sourceExtensions, .skippedFolders,
# .resourceFolderSuffixes); grep is given the same folders to skip.
SOURCE_EXTENSIONS = ("swift", "m", "mm", "h")
SKIPPED_FOLDERS = (".build", "DerivedData", "Pods", "Carthage", ".git")
RESOURCE_FOLDER_SUFFIXES = (".xcassets", ".xcstickers")


def timed(command, runs, cpu=None):
    """Median wall time and the largest peak RSS over `runs` runs; `cpu` collects CPU seconds."""
    walls, peaks = [], []
    for _ in range(runs):
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
        walls.append(time.perf_counter() - start)
        peaks.append(usage.ru_maxrss / 1024)
        if cpu is not None:
            cpu.append(usage.ru_utime + usage.ru_stime)
    return statistics.median(walls), max(peaks)


def alternated(commands, runs):
    """The commands timed in turn (A B C A B C ...), so that drift in the machine's speed hits
    all alike: (median wall, peak, median CPU seconds) of each, then for each command after the
    first the median over runs of the ratio first / that command of wall times taken back to back."""
    results = [([], [], []) for _ in commands]
    for _ in range(runs):
        for command, (walls, peaks, cpus) in zip(commands, results):
            wall, peak = timed(command, 1, cpus)
            walls.append(wall)
            peaks.append(peak)
    ratios = [statistics.median(a / b for a, b in zip(results[0][0], other[0])) for other in results[1:]]
    return [(statistics.median(w), max(p), statistics.median(c)) for w, p, c in results] + ratios


def paired(first, second, runs):
    """Both commands timed alternately: (median wall, peak, median CPU seconds) of each, then the
    median over runs of the ratio first / second of wall times taken back to back."""
    return alternated([first, second], runs)


def release_build_flags():
    """The flags `make install` builds with (Scripts/release-build-flags.sh)."""
    script = os.path.join(ROOT, "Scripts", "release-build-flags.sh")
    return subprocess.run([script], capture_output=True, text=True, check=True).stdout.split()


def prefilter_tokens(bench):
    """The union of the standard rules' prefilter tokens, as `keyward-bench tokens` prints it.
    The list does not depend on the build configuration, so a debug build of keyward-bench
    serves when there is no release one. Returns (tokens, where they came from)."""
    for candidate in (bench, os.path.join(ROOT, ".build", "debug", "keyward-bench")):
        if os.access(candidate, os.X_OK):
            output = subprocess.run([candidate, "tokens"], capture_output=True, text=True, check=True).stdout
            return output.split(), os.path.relpath(candidate, ROOT)
    sys.exit("no keyward-bench (release or debug) to print the prefilter tokens: swift build --product keyward-bench")


def clone_sparse():
    folder = os.path.join(WORK, "sparse")
    os.makedirs(folder, exist_ok=True)
    for url, tag in SPARSE:
        target = os.path.join(folder, url.rstrip("/").split("/")[-1])
        if not os.path.isdir(target):
            subprocess.run(["git", "clone", "-q", "--depth", "1", "--branch", tag, url, target], check=True)
    return folder


def swift_files(folder):
    found = []
    for base, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if d not in (".build", ".git", "Pods", "Carthage", "DerivedData")]
        found += [os.path.join(base, f) for f in files if f.endswith(".swift")]
    return found


TEMPLATES = [
    """
final class {name}Store {{
    private let service = "com.example.{name}"
    static let level = kSecAttrAccessible{accessibility}

    func save(_ token: Data, account: String) -> OSStatus {{
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
            kSecValueData as String: token,
        ]
        query[kSecAttrAccessible as String] = Self.level
        SecItemDelete(query as CFDictionary)
        return SecItemAdd(query as CFDictionary, nil)
    }}

    func makeAccess(strict: Bool) -> SecAccessControl? {{
        var flags: SecAccessControlCreateFlags = [.privateKeyUsage]
        flags.insert(strict ? .biometryCurrentSet : .{flag})
        return SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, nil)
    }}
}}
""",
    """
final class {name}Gate {{
    private let context = LAContext()
    var unlocked = false

    func unlock(completion: @escaping (Bool) -> Void) {{
        var error: NSError?
        guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) else {{
            completion({fallback})
            return
        }}
        context.evaluatePolicy(.{policy}, localizedReason: "Unlock {name}") {{ success, _ in
            self.unlocked = success
            completion(success)
        }}
    }}

    func read(_ account: String) -> Data? {{
        let query: [CFString: Any] = [
            kSecClass: kSecClassGenericPassword, kSecAttrAccount: account, kSecReturnData: true,
            kSecUseAuthenticationContext: context,
        ]
        var result: AnyObject?
        guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess else {{ return nil }}
        return result as? Data
    }}
}}
""",
]


def generate_dense(folder, megabytes, seed=7):
    """Files of ~8 KiB, each holding several keychain and LocalAuthentication types."""
    if os.path.isdir(folder):
        shutil.rmtree(folder)
    os.makedirs(folder)
    rng = random.Random(seed)
    total, index = 0, 0
    while total < megabytes * 1024 * 1024:
        parts = ["import Foundation\nimport LocalAuthentication\nimport Security\n"]
        while sum(len(p) for p in parts) < 8 * 1024:
            template = rng.choice(TEMPLATES)
            parts.append(template.format(
                name=f"Item{index}x{len(parts)}",
                accessibility=rng.choice(["Always", "WhenUnlocked", "AfterFirstUnlockThisDeviceOnly"]),
                flag=rng.choice(["biometryAny", "biometryCurrentSet", "userPresence"]),
                fallback=rng.choice(["true", "false"]),
                policy=rng.choice(["deviceOwnerAuthentication", "deviceOwnerAuthenticationWithBiometrics"]),
            ))
        text = "".join(parts)
        sub = os.path.join(folder, f"Module{index // 200}")
        os.makedirs(sub, exist_ok=True)
        with open(os.path.join(sub, f"File{index}.swift"), "w") as handle:
            handle.write(text)
        total += len(text)
        index += 1
    return index, total


def source_files(folder):
    """The files Keyward's discovery reads under `folder` (symbolic links not followed)."""
    found = []
    for base, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if d not in SKIPPED_FOLDERS and not d.endswith(RESOURCE_FOLDER_SUFFIXES)]
        found += [os.path.join(base, f) for f in files
                  if f.rsplit(".", 1)[-1] in SOURCE_EXTENSIONS and "." in f[1:] and os.path.isfile(os.path.join(base, f))]
    return found


def link_tree(files, source, target):
    """`files` (under `source`) hard-linked, or copied, into `target` at the same relative paths."""
    if os.path.isdir(target):
        shutil.rmtree(target)
    for path in files:
        destination = os.path.join(target, os.path.relpath(path, source))
        os.makedirs(os.path.dirname(destination), exist_ok=True)
        try:
            os.link(path, destination)
        except OSError:
            shutil.copyfile(path, destination)


def real_apps(keyward, bench, corpus, runs, record):
    """Item 8: keyward against the grep floor, and against grep then parse-only of the matched
    files, on the larger real apps of the development corpus and on the whole corpus."""
    if not corpus or not os.path.isdir(corpus):
        print(f"8. real iOS apps: no corpus at {corpus or DEFAULT_CORPUS}, not measured "
              "(python3 Benchmarks/realworld/checkout.py --dest DIR, then --corpus DIR)")
        return
    tokens, source = prefilter_tokens(bench)
    pattern = "|".join(re.escape(t) for t in tokens)
    parse = os.access(bench, os.X_OK)
    runs = max(runs, 5)
    print(f"8. real iOS apps ({corpus}): {len(tokens)} prefilter tokens from `{source} tokens`; "
          f"{runs} alternated runs per app; keyward --jobs 2"
          + ("" if parse else "; no release keyward-bench, so grep then parse-only is not measured"))
    targets = [(name, os.path.join(corpus, name)) for name in REAL_APPS]
    targets.append(("whole corpus", corpus))
    for name, folder in targets:
        if not os.path.isdir(folder):
            print(f"    {name}: not checked out, skipped")
            continue
        # A checkout cache inside the corpus folder is no project: neither tool reads it.
        cache = [d for d in (".git-cache",) if os.path.isdir(os.path.join(folder, d))]
        excludes = [option for d in cache for option in ("--exclude", f"{d}/**")]
        files = source_files(folder)
        files = [f for f in files if not any(f.startswith(os.path.join(folder, d) + os.sep) for d in cache)]
        size = sum(os.path.getsize(f) for f in files)
        grep = (["grep", "-rlE", pattern] + [f"--include=*.{e}" for e in SOURCE_EXTENSIONS]
                + [f"--exclude-dir={d}" for d in SKIPPED_FOLDERS + tuple(cache)]
                + [f"--exclude-dir=*{suffix}" for suffix in RESOURCE_FOLDER_SUFFIXES] + [folder])
        base = [keyward, "scan", folder, "--profile", "standard", "--jobs", "2", "--fail-on", "none", "--format", "json"]
        scan = base + excludes + ["--output", os.devnull]
        # One run untimed: what each tool found, and a warm file cache for both.
        matched = subprocess.run(grep, capture_output=True, text=True).stdout.splitlines()
        summary = json.loads(subprocess.run(base + excludes, capture_output=True, text=True).stdout)["summary"]
        commands = [scan, grep]
        if parse:
            swift = [f for f in matched if f.endswith(".swift")]
            tree = os.path.join(WORK, "real-matched", name.replace(" ", "-"))
            link_tree(swift, folder, tree)
            commands.append(["sh", "-c", f"{shlex.join(grep)} >/dev/null; exec {shlex.join([bench, 'parse-only', tree, '--jobs', '2'])}"])
        measured = alternated(commands, runs)
        (scan_time, scan_peak, scan_cpu), (grep_time, _, grep_cpu) = measured[:2]
        ratio = measured[len(commands)]
        print(f"    {name}: {len(files)} files, {size / 1e6:.1f} MB; grep matched {len(matched)}, "
              f"keyward read {summary['filesScanned']} and parsed {summary['filesParsed']}, {summary['findings']} findings")
        record(f"8. {name}: keyward / grep floor",
               f"{scan_time:.2f}s / {grep_time:.2f}s = {ratio:.2f}x", "<= 1.5x", ratio <= 1.5)
        line = f"       CPU: keyward {scan_cpu:.2f}s, grep {grep_cpu:.2f}s; keyward peak RSS {scan_peak:.0f} MiB"
        if parse:
            (parse_time, _, parse_cpu), over_parse = measured[2], measured[len(commands) + 1]
            line += (f"; grep then parse-only of the {len(swift)} matched Swift files {parse_time:.2f}s "
                     f"(CPU {parse_cpu:.2f}s): keyward / that = {over_parse:.2f}x")
        print(line, flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--skip-build", action="store_true")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--dense-mb", type=int, default=20)
    parser.add_argument("--corpus", default=DEFAULT_CORPUS if os.path.isdir(DEFAULT_CORPUS) else None,
                        help="the real-apps corpus (Benchmarks/realworld/checkout.py --dest DIR)")
    parser.add_argument("--only-real", action="store_true", help="run item 8 (real iOS apps) alone")
    parser.add_argument("--installed", action="store_true",
                        help="measure keyward as `make install` builds it (Scripts/release-build-flags.sh), "
                             "from its own build folder, .build/installed")
    options = parser.parse_args()
    os.makedirs(WORK, exist_ok=True)
    installed = os.path.join(ROOT, ".build", "installed")
    if not options.skip_build:
        # Both products with the same flags: a change of flags rebuilds everything.
        where = ["--scratch-path", installed] if options.installed else []
        flags = release_build_flags() if options.installed else []
        for product in ("keyward", "keyward-bench"):
            subprocess.run(["swift", "build", "-c", "release", "--product", product] + where + flags,
                           cwd=ROOT, check=True)
    products = os.path.join(installed, "release") if options.installed else RELEASE
    keyward = os.path.join(products, "keyward")
    bench = os.path.join(products, "keyward-bench")
    runs = options.runs
    results = []

    def record(name, value, target, ok):
        results.append((name, value, target, "met" if ok else "NOT met"))
        print(f"{name:<58} {value:<24} target {target:<12} {'met' if ok else 'NOT met'}", flush=True)

    print(f"machine: {os.cpu_count()} cores; {sys.platform}; runs per figure: {runs}\n")
    if options.only_real:
        real_apps(keyward, bench, options.corpus, runs, record)
        return

    # 1. Sparse real code against the grep floor.
    sparse = clone_sparse()
    files = swift_files(sparse)
    size = sum(os.path.getsize(f) for f in files)
    tokens, _ = prefilter_tokens(bench)
    pattern = "|".join(re.escape(t) for t in tokens)
    grep = ["grep", "-rlE", pattern, "--include=*.swift", sparse]
    grep_time, _ = timed(grep, runs)
    scan = [keyward, "scan", sparse, "--format", "json", "--output", os.devnull, "--fail-on", "none"]
    sparse_time, _ = timed(scan, runs)
    print(f"sparse corpus: {len(files)} files, {size / 1e6:.1f} MB")
    record("1. sparse: keyward / grep floor (wall)", f"{sparse_time:.2f}s / {grep_time:.2f}s = {sparse_time / grep_time:.2f}x", "<= 1.5x", sparse_time / grep_time <= 1.5)

    # 2. Dense code against parsing alone.
    dense = os.path.join(WORK, "dense")
    count, total = generate_dense(dense, options.dense_mb)
    print(f"dense corpus: {count} files, {total / 1e6:.1f} MB")
    dense_scan = [keyward, "scan", dense, "--format", "json", "--output", os.devnull, "--fail-on", "none"]
    (scan_time, dense_peak, scan_cpu), (parse_time, _, parse_cpu), scan_over_parse = paired(dense_scan, [bench, "parse-only", dense], runs)
    ratio = 1 / scan_over_parse
    record("2. dense: throughput vs parse-only (alternating)", f"{total / 1e6 / scan_time:.1f} vs {total / 1e6 / parse_time:.1f} MB/s = {ratio:.2f}x", ">= 0.7x", ratio >= 0.7)
    print(f"    CPU time: parse-only {parse_cpu:.2f}s / keyward {scan_cpu:.2f}s = {parse_cpu / scan_cpu:.2f}x")
    # The least any analysis that reads the whole tree costs: parse, then visit every node once.
    walk_cpus = []
    walk_time, _ = timed([bench, "parse-walk", dense], runs, walk_cpus)
    walk_cpu = statistics.median(walk_cpus)
    print(f"    parse + an empty visitor over every node: {walk_time:.2f}s wall, {walk_cpu:.2f}s CPU;"
          f" a visitor-based analysis can reach at most {parse_cpu / walk_cpu:.2f}x (CPU) before any rule runs")
    # The same walk over the raw tree, making no `Syntax` value: what an index built from raw
    # syntax would pay for reading every node.
    raw_cpus = []
    raw_time, _ = timed([bench, "parse-rawwalk", dense], runs, raw_cpus)
    raw_cpu = statistics.median(raw_cpus)
    print(f"    parse + a walk of the raw tree over every node: {raw_time:.2f}s wall, {raw_cpu:.2f}s CPU"
          f" ({parse_cpu / raw_cpu:.2f}x of parse-only, CPU)")

    # 3. Parallelism and scaling.
    (one_time, _, one_cpu), (all_time, _, all_cpu), speedup = paired(dense_scan + ["--jobs", "1"], dense_scan, runs)
    record("3a. dense: 1 worker / all cores (alternating)", f"{one_time:.2f}s / {all_time:.2f}s = {speedup:.2f}x", ">= 1.7x", speedup >= 1.7)
    print(f"    CPU time (user + system): {one_cpu:.2f}s / {all_cpu:.2f}s")
    doubled = os.path.join(WORK, "dense-doubled")
    if os.path.isdir(doubled):
        shutil.rmtree(doubled)
    os.makedirs(doubled)
    shutil.copytree(dense, os.path.join(doubled, "a"))
    shutil.copytree(dense, os.path.join(doubled, "b"))
    doubled_scan = [keyward, "scan", doubled, "--format", "json", "--output", os.devnull, "--fail-on", "none"]
    (doubled_time, doubled_peak, doubled_cpu), (single_time, single_peak, single_cpu), growth = paired(doubled_scan, dense_scan, runs)
    record("3b. dense doubled / dense (wall, alternating)", f"{doubled_time:.2f}s / {single_time:.2f}s = {growth:.2f}x", "<= 2.1x", growth <= 2.1)
    print(f"    CPU time (user + system): {doubled_cpu:.2f}s / {single_cpu:.2f}s = {doubled_cpu / single_cpu:.2f}x")

    # 4. Memory.
    record("4a. peak RSS, dense corpus", f"{dense_peak:.0f} MiB", "<= 250 MiB", dense_peak <= 250)
    record("4b. peak RSS, doubled / dense", f"{doubled_peak:.0f} / {dense_peak:.0f} MiB = {doubled_peak / dense_peak:.2f}x", "~1x (<= 1.3x)", doubled_peak / dense_peak <= 1.3)
    # Every other report format prints findings file by file too; the largest peak of any.
    format_peaks = {}
    for report_format in ["text", "sarif", "xcode", "github", "markdown", "html", "csv"]:
        with_format = lambda corpus: [keyward, "scan", corpus, "--format", report_format, "--output", os.devnull, "--fail-on", "none"]
        format_peaks[report_format] = (timed(with_format(dense), 1)[1], timed(with_format(doubled), 1)[1])
    worst = max(format_peaks, key=lambda name: format_peaks[name][1] / format_peaks[name][0])
    worst_dense, worst_doubled = format_peaks[worst]
    largest = max(peak for pair in format_peaks.values() for peak in pair)
    record("4c. other formats: largest doubled / dense peak RSS", f"{worst}: {worst_doubled:.0f} / {worst_dense:.0f} MiB = {worst_doubled / worst_dense:.2f}x", "<= 1.3x", worst_doubled / worst_dense <= 1.3 and largest <= 250)
    print("    peak RSS dense / doubled: " + ", ".join(f"{name} {a:.0f}/{b:.0f} MiB" for name, (a, b) in format_peaks.items()))

    # 5. Start-up.
    small = os.path.join(WORK, "Small.swift")
    with open(small, "w") as handle:
        handle.write("let q = [kSecAttrAccessible: kSecAttrAccessibleAlways]\n")
    startup, _ = timed([keyward, "scan", small, "--fail-on", "none"], max(runs, 10))
    record("5. one small file, end to end", f"{startup * 1000:.0f} ms", "< 50 ms", startup < 0.05)

    # 6. Incremental.
    cache = tempfile.mkdtemp(prefix="keyward-cache-")
    cold_times, warm_times, cold_peaks = [], [], []
    for _ in range(runs):
        shutil.rmtree(cache)
        os.makedirs(cache)
        cold_time, cold_peak = timed(dense_scan + ["--cache", cache], 1)
        cold_times.append(cold_time)
        cold_peaks.append(cold_peak)
        warm_times.append(timed(dense_scan + ["--cache", cache], 1)[0])
    cold, warm = statistics.median(cold_times), statistics.median(warm_times)
    record("6a. --cache: warm / cold", f"{warm:.2f}s / {cold:.2f}s = {warm / cold:.2f}x", "<= 0.3x", warm / cold <= 0.3)
    # Memory with the cache: its entries must not pile up in memory either.
    doubled_cache = tempfile.mkdtemp(prefix="keyward-cache-")
    _, doubled_cold_peak = timed(doubled_scan + ["--cache", doubled_cache], 1)
    shutil.rmtree(doubled_cache)
    dense_cold_peak = max(cold_peaks)
    record(
        "6c. --cache (cold): peak RSS, doubled / dense",
        f"{doubled_cold_peak:.0f} / {dense_cold_peak:.0f} MiB = {doubled_cold_peak / dense_cold_peak:.2f}x",
        "~1x (<= 1.3x)",
        doubled_cold_peak / dense_cold_peak <= 1.3,
    )
    changed = os.path.join(dense, "Module0", "File0.swift")
    with open(changed, "a") as handle:
        handle.write("\nlet extra = [kSecAttrAccessible: kSecAttrAccessibleAlwaysThisDeviceOnly]\n")
    before = subprocess.run(dense_scan[:3] + ["--format", "csv", "--cache", cache, "--fail-on", "none"], capture_output=True, text=True).stdout
    fresh = subprocess.run(dense_scan[:3] + ["--format", "csv", "--fail-on", "none"], capture_output=True, text=True).stdout
    record("6b. --cache: a changed file is scanned again", "same findings as without cache" if before == fresh else "DIFFERENT", "identical", before == fresh)
    shutil.rmtree(cache)

    # 7. Other tools, if installed.
    # semgrep's registry packs need the network: it runs Benchmarks/semgrep-keychain.yml, a
    # syntactic approximation of Keyward's core rules. mobsfscan runs its own built-in rules.
    semgrep_rules = os.path.join(ROOT, "Benchmarks", "semgrep-keychain.yml")
    for tool, command in [("semgrep", ["semgrep", "scan", "--config", semgrep_rules, "--metrics", "off",
                                       "--disable-version-check", "-q", sparse]),
                          ("mobsfscan", ["mobsfscan", sparse])]:
        if shutil.which(tool):
            other, peak = timed(command, 1)  # minutes per run for mobsfscan: one run
            print(f"7. {tool} on the sparse corpus: {other:.2f}s, peak {peak:.0f} MiB "
                  f"({other / sparse_time:.1f}x keyward's {sparse_time:.2f}s)", flush=True)
        else:
            print(f"7. {tool}: not installed, not measured (pip install {tool})")

    # 8. Real iOS apps.
    real_apps(keyward, bench, options.corpus, runs, record)


if __name__ == "__main__":
    main()
