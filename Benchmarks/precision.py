#!/usr/bin/env python3
"""Precision of Keyward's findings on real open-source code, measured against hand-made labels.

    python3 Benchmarks/precision.py --corpus /work/corpus [--keyward PATH] [--profile standard]
        [--only OWNER/NAME]... [--labels Benchmarks/realworld/labels.tsv] [--jobs 2]
        [--report-dir DIR] [--write-unlabelled FILE] [--json FILE] [--check]

Scans every repository of Benchmarks/realworld/manifest.tsv that is checked out under --corpus
(see Benchmarks/realworld/checkout.py) with `keyward scan DIR --format json --fail-on none
--profile PROFILE`, joins the findings with the labels file and prints:

  (a) per rule, the findings that fail a scan (not suppressed, in app code, under no build
      condition (debug- or simulator-only, uncalled, unbuilt), severity above info): how many, how many are labelled TP, FP,
      CONTEXT or not yet, and precision = TP / (TP + FP + CONTEXT);
  (b) the same for all findings, where a CONTEXT finding counts as right;
  (c) the findings that have no label yet;
  (d) labels that no finding matches any more ("disappeared"), true positives first;
  (e) totals, and the repositories that could not be scanned.

A label matches a finding with the same repository, path and rule on the same line; failing
that, the closest label of the same repository, path and rule within 5 lines that no finding
matched exactly. Each label matches at most one finding, so two findings of one rule on one line
need two label rows. A label whose reason starts with "[strict]" is a finding only the strict
profile reports: other profiles neither match nor miss it.

Exit status: 0, or with --check 1 when a rule with at least 5 labelled failing findings has a
precision below 0.9, a true-positive label disappeared, or a repository could not be scanned;
2 for bad arguments or a missing keyward binary.
"""

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parent
MANIFEST = HERE / "realworld" / "manifest.tsv"
LABELS = HERE / "realworld" / "labels.tsv"
MARKER = ".keyward-corpus-commit"
LABEL_COLUMNS = ["repo", "path", "line", "rule", "verdict", "reason"]
VERDICTS = ("TP", "FP", "CONTEXT")
UNREVIEWED = "?"
LINE_WINDOW = 5
TARGET = 0.9
MIN_LABELLED = 5


# --- input ------------------------------------------------------------------------------------

def read_manifest(path):
    with open(path, newline="", encoding="utf-8") as handle:
        return [row for row in csv.DictReader(handle, delimiter="\t") if (row.get("repo") or "").strip()]


def folder_name(repo):
    return repo.replace("/", "+")


def normal_path(path):
    path = path.replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    return path


class Label:
    __slots__ = ("repo", "path", "line", "rule", "verdict", "reason", "source_line", "finding", "strict_only")

    def __init__(self, repo, path, line, rule, verdict, reason, source_line):
        self.repo, self.path, self.line, self.rule = repo, path, line, rule
        self.verdict, self.reason, self.source_line = verdict, reason, source_line
        self.finding = None
        # A finding only the strict profile reports (of a rule that standard runs too).
        self.strict_only = reason.startswith(STRICT_MARK)


STRICT_MARK = "[strict]"


def read_labels(path, warnings):
    labels = []
    if not path.exists():
        warnings.append(f"labels file {path} does not exist; every finding is unlabelled")
        return labels
    with open(path, newline="", encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    header_seen = False
    for number, text in enumerate(lines, 1):
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        fields = text.split("\t")
        if not header_seen:
            header_seen = True
            if [f.strip().lower() for f in fields[:6]] == LABEL_COLUMNS:
                continue
            warnings.append(f"{path}:{number}: no header row ({chr(9).join(LABEL_COLUMNS)}); reading it as a label")
        if len(fields) < 5:
            warnings.append(f"{path}:{number}: fewer than 5 tab-separated columns, ignored")
            continue
        repo, file_path, line, rule, verdict = (f.strip() for f in fields[:5])
        reason = "\t".join(fields[5:]).strip()
        try:
            line = int(line)
        except ValueError:
            warnings.append(f"{path}:{number}: line {line!r} is not a number, ignored")
            continue
        verdict = verdict.upper()
        if verdict not in VERDICTS and verdict != UNREVIEWED:
            warnings.append(f"{path}:{number}: verdict {verdict!r} is not TP, FP, CONTEXT or ?; read as ?")
            verdict = UNREVIEWED
        labels.append(Label(repo, normal_path(file_path), line, rule, verdict, reason, number))
    return labels


# --- scanning ---------------------------------------------------------------------------------

class Scan:
    def __init__(self, repo):
        self.repo = repo
        self.report = None
        self.error = None
        self.seconds = 0.0
        self.stderr = ""


def scan_repo(keyward, folder, repo, profile, report_dir, timeout):
    scan = Scan(repo)
    if report_dir:
        output = Path(report_dir) / (folder_name(repo) + ".json")
        cleanup = False
    else:
        handle, name = tempfile.mkstemp(prefix="keyward-precision-", suffix=".json")
        os.close(handle)
        output = Path(name)
        cleanup = True
    command = [
        str(keyward), "scan", str(folder), "--format", "json", "--fail-on", "none",
        "--profile", profile, "--output", str(output),
    ]
    start = time.monotonic()
    try:
        # Run from the scanned folder, so nothing about this checkout changes what is scanned.
        result = subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        scan.error = f"timed out after {timeout} s"
        result = None
    except OSError as error:
        scan.error = f"could not run {keyward}: {error}"
        result = None
    scan.seconds = time.monotonic() - start
    if result is not None:
        scan.stderr = result.stderr
        if result.returncode not in (0, 1):
            last = [l for l in result.stderr.strip().splitlines() if l.strip()][-3:]
            scan.error = f"keyward exited {result.returncode}" + (": " + " | ".join(last) if last else "")
        else:
            try:
                with open(output, encoding="utf-8") as handle:
                    scan.report = json.load(handle)
                if not isinstance(scan.report, dict) or not isinstance(scan.report.get("findings"), list):
                    scan.error = "the report has no findings array"
                    scan.report = None
            except (OSError, ValueError) as error:
                scan.error = f"unreadable JSON report: {error}"
    if cleanup:
        try:
            output.unlink()
        except OSError:
            pass
    return scan


# --- findings and labels ----------------------------------------------------------------------

class Finding:
    __slots__ = ("repo", "path", "line", "rule", "severity", "origin", "build", "suppressed", "message",
                 "label", "failing")

    def __init__(self, repo, raw):
        location = raw.get("location") or {}
        start = location.get("start") or {}
        self.repo = repo
        self.path = normal_path(str(location.get("path", "")))
        self.line = int(start.get("line") or 0)
        self.rule = str(raw.get("ruleId", "?"))
        self.severity = str(raw.get("severity", ""))
        self.origin = raw.get("origin") or "app"
        self.build = raw.get("buildCondition")
        self.suppressed = raw.get("suppression") is not None
        self.message = str(raw.get("message", ""))
        self.label = None
        self.failing = (not self.suppressed and self.origin == "app" and self.build is None
                        and self.severity != "info")

    @property
    def verdict(self):
        return self.label.verdict if self.label else None


def match(findings, labels):
    """Pairs findings with labels: same line first, then the closest within LINE_WINDOW lines."""
    groups = {}
    for finding in findings:
        groups.setdefault((finding.repo, finding.path, finding.rule), ([], []))[0].append(finding)
    for label in labels:
        key = (label.repo, label.path, label.rule)
        if key in groups:
            groups[key][1].append(label)
    for group_findings, group_labels in groups.values():
        if not group_labels:
            continue
        by_line = {}
        for label in group_labels:
            by_line.setdefault(label.line, []).append(label)
        for finding in group_findings:
            same = by_line.get(finding.line)
            if same:
                label = same.pop(0)
                label.finding, finding.label = finding, label
        free = [l for l in group_labels if l.finding is None]
        open_findings = [f for f in group_findings if f.label is None]
        if not free or not open_findings:
            continue
        pairs = sorted(
            (abs(f.line - l.line), i, j)
            for i, f in enumerate(open_findings)
            for j, l in enumerate(free)
            if abs(f.line - l.line) <= LINE_WINDOW
        )
        for _, i, j in pairs:
            finding, label = open_findings[i], free[j]
            if finding.label is None and label.finding is None:
                label.finding, finding.label = finding, label


def rule_table(findings, context_counts_as_right):
    rows = {}
    for finding in findings:
        row = rows.setdefault(finding.rule, {"findings": 0, "TP": 0, "FP": 0, "CONTEXT": 0, "unlabelled": 0})
        row["findings"] += 1
        verdict = finding.verdict
        if verdict in VERDICTS:
            row[verdict] += 1
        else:
            row["unlabelled"] += 1
    for row in rows.values():
        labelled = row["TP"] + row["FP"] + row["CONTEXT"]
        right = row["TP"] + (row["CONTEXT"] if context_counts_as_right else 0)
        row["labelled"] = labelled
        row["precision"] = round(right / labelled, 4) if labelled else None
        if labelled < MIN_LABELLED:
            row["status"] = "meets" if labelled else "no labels"
            row["fewLabels"] = True
        else:
            row["status"] = "meets" if row["precision"] >= TARGET else "below target"
            row["fewLabels"] = False
    return dict(sorted(rows.items()))


def totals_of(rows):
    total = {"findings": 0, "TP": 0, "FP": 0, "CONTEXT": 0, "unlabelled": 0}
    for row in rows.values():
        for key in total:
            total[key] += row[key]
    return total


# --- printing ---------------------------------------------------------------------------------

def print_table(title, rows, note):
    print(title)
    print(note)
    if not rows:
        print("  (no findings)\n")
        return
    width = max(len("rule"), max(len(rule) for rule in rows))
    head = f"  {'rule':<{width}}  {'findings':>8} {'TP':>5} {'FP':>5} {'CONTEXT':>7} {'unlab.':>6}  {'precision':>9}  status"
    print(head)
    print("  " + "-" * (len(head) - 2))
    for rule, row in rows.items():
        precision = f"{row['precision']:.2f}" if row["precision"] is not None else "-"
        status = row["status"] + (" (<5 labelled)" if row["fewLabels"] and row["labelled"] else "")
        print(f"  {rule:<{width}}  {row['findings']:>8} {row['TP']:>5} {row['FP']:>5} {row['CONTEXT']:>7} "
              f"{row['unlabelled']:>6}  {precision:>9}  {status}")
    total = totals_of(rows)
    labelled = total["TP"] + total["FP"] + total["CONTEXT"]
    print("  " + "-" * (len(head) - 2))
    print(f"  {'all rules':<{width}}  {total['findings']:>8} {total['TP']:>5} {total['FP']:>5} {total['CONTEXT']:>7} "
          f"{total['unlabelled']:>6}  {'':>9}  {labelled} labelled")
    print()


def shorten(text, width):
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 3] + "..."


def one_line(text):
    return " ".join(str(text).split())


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Precision of Keyward's findings on the real-world corpus, against labels.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="See Benchmarks/realworld/README.md for the whole workflow.",
    )
    parser.add_argument("--corpus", required=True, help="folder of checkouts (DIR/OWNER+NAME), see checkout.py")
    parser.add_argument("--keyward", default=str(REPO_ROOT / ".build" / "release" / "keyward"),
                        help="keyward binary (default: .build/release/keyward of this repository)")
    parser.add_argument("--profile", default="standard", help="rule profile (default: %(default)s)")
    parser.add_argument("--only", action="append", default=[], metavar="OWNER/NAME",
                        help="scan only this repository (repeatable)")
    parser.add_argument("--labels", default=str(LABELS), help="labels file (default: Benchmarks/realworld/labels.tsv)")
    parser.add_argument("--manifest", default=str(MANIFEST), help="default: Benchmarks/realworld/manifest.tsv")
    parser.add_argument("--write-unlabelled", metavar="FILE",
                        help="append a label row with verdict ? for each unlabelled finding, for a reviewer to fill in")
    parser.add_argument("--json", metavar="FILE", help="write the per-rule figures as JSON")
    parser.add_argument("--report-dir", metavar="DIR", help="keep each repository's JSON report here (OWNER+NAME.json)")
    parser.add_argument("--jobs", type=int, default=1, help="repositories scanned at once (default: 1)")
    parser.add_argument("--timeout", type=float, default=3600, help="seconds allowed per repository (default: 3600)")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 when a rule is below target, a true positive disappeared, or a scan failed")
    parser.add_argument("--message-width", type=int, default=90, help="message characters shown per unlabelled finding")
    args = parser.parse_args(argv)

    keyward = Path(args.keyward).expanduser()
    if not keyward.is_file() or not os.access(keyward, os.X_OK):
        print(f"precision.py: no keyward binary at {keyward}: build with swift build -c release "
              f"(or pass --keyward PATH)", file=sys.stderr)
        return 2
    corpus = Path(args.corpus).expanduser().resolve()
    if not corpus.is_dir():
        parser.error(f"--corpus {args.corpus}: no such folder (check the corpus out with Benchmarks/realworld/checkout.py)")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    if args.report_dir:
        Path(args.report_dir).mkdir(parents=True, exist_ok=True)

    warnings = []
    manifest = read_manifest(args.manifest)
    names = {row["repo"].lower(): row["repo"] for row in manifest}
    if args.only:
        for name in args.only:
            if name.lower() not in names:
                parser.error(f"--only {name}: not in {args.manifest}")
        wanted = {name.lower() for name in args.only}
        manifest = [row for row in manifest if row["repo"].lower() in wanted]

    to_scan, missing = [], []
    for row in manifest:
        repo, commit = row["repo"], (row.get("commit") or "").strip()
        folder = corpus / folder_name(repo)
        if not folder.is_dir():
            missing.append(repo)
            continue
        try:
            actual = (folder / MARKER).read_text(encoding="utf-8").strip()
        except OSError:
            actual = None
        if actual is None:
            warnings.append(f"{repo}: {folder} has no {MARKER}; cannot tell which commit it holds")
        elif commit and actual != commit:
            warnings.append(f"{repo}: checked out at {actual[:12]}, the manifest says {commit[:12]} "
                            f"(run checkout.py again); line numbers may not match the labels")
        if (folder / ".keyward.yml").exists():
            warnings.append(f"{repo}: has its own .keyward.yml, which the scan uses")
        to_scan.append((repo, folder))

    labels = read_labels(Path(args.labels), warnings)
    for label in labels:
        if label.repo.lower() not in names:
            warnings.append(f"{args.labels}:{label.source_line}: repository {label.repo} is not in the manifest")

    started = time.monotonic()
    print(f"Scanning {len(to_scan)} repositories with {keyward} (profile {args.profile}, {args.jobs} at once)...",
          file=sys.stderr, flush=True)
    scans = {}
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {
            repo: pool.submit(scan_repo, keyward, folder, repo, args.profile, args.report_dir, args.timeout)
            for repo, folder in to_scan
        }
        for repo, future in futures.items():
            scan = future.result()
            scans[repo] = scan
            state = f"failed: {scan.error}" if scan.error else f"{len(scan.report['findings'])} findings"
            print(f"  {repo}: {state} ({scan.seconds:.1f} s)", file=sys.stderr, flush=True)
    wall = time.monotonic() - started

    findings = []
    scanned = set()
    tool = None
    scan_errors = {}
    files_scanned = 0
    # Labels of rules this profile does not run (strict-only rules in a standard run) are
    # neither matched nor counted as lost.
    rules_run = set()
    for repo, _ in to_scan:
        scan = scans[repo]
        if scan.report is None:
            continue
        scanned.add(repo)
        tool = tool or scan.report.get("tool")
        files_scanned += int((scan.report.get("summary") or {}).get("filesScanned") or 0)
        rules_run.update((scan.report.get("summary") or {}).get("rules") or [])
        if scan.report.get("errors"):
            scan_errors[repo] = scan.report["errors"]
        for raw in scan.report["findings"]:
            findings.append(Finding(repo, raw))

    relevant_labels = [
        l for l in labels
        if l.repo in scanned and (not rules_run or l.rule in rules_run)
        and (args.profile == "strict" or not l.strict_only)
    ]
    match(findings, relevant_labels)

    failing = [f for f in findings if f.failing]
    failing_rows = rule_table(failing, context_counts_as_right=False)
    all_rows = rule_table(findings, context_counts_as_right=True)

    for warning in warnings:
        print(f"warning: {warning}")
    if warnings:
        print()

    version = (tool or {}).get("version", "?")
    print(f"Keyward {version}, profile {args.profile}: {len(scanned)} of {len(manifest)} repositories scanned, "
          f"{files_scanned} files, {len(findings)} findings ({len(failing)} failing), {wall:.0f} s\n")

    print_table(
        "(a) Findings that fail a scan (not suppressed, app code, no build condition, above info)",
        failing_rows,
        f"    precision = TP / (TP + FP + CONTEXT); target {TARGET:.1f} for rules with at least {MIN_LABELLED} labelled",
    )
    print_table(
        "(b) All findings (also suppressed, tests, samples, third-party, generated, debug/simulator-only, uncalled, unbuilt, info)",
        all_rows,
        "    precision = (TP + CONTEXT) / (TP + FP + CONTEXT): is the finding right at all",
    )

    unlabelled = [f for f in findings if f.label is None or f.label.verdict == UNREVIEWED]
    print(f"(c) Unlabelled findings: {len(unlabelled)}"
          + (f" ({sum(1 for f in unlabelled if f.label is not None)} with a '?' label awaiting review)"
             if any(f.label is not None for f in unlabelled) else ""))
    for f in sorted(unlabelled, key=lambda f: (f.repo, f.path, f.line, f.rule)):
        flags = [] if f.failing else ["not failing"]
        if f.suppressed:
            flags.append("suppressed")
        if f.build:
            flags.append(f.build)
        extra = f" [{', '.join(flags)}]" if flags else ""
        print(f"  {f.repo}  {f.path}:{f.line}  {f.rule}  {f.origin}{extra}  {shorten(f.message, args.message_width)}")
    print()

    gone = [l for l in relevant_labels if l.finding is None]
    gone_tp = [l for l in gone if l.verdict == "TP"]
    gone_other = [l for l in gone if l.verdict != "TP"]
    not_checked = [l for l in labels if l.repo not in scanned]
    print(f"(d) Disappeared: {len(gone)} label(s) match no finding; true positives lost: {len(gone_tp)}")
    for title, group in (("true positives lost", gone_tp), ("other labels without a finding", gone_other)):
        if group:
            print(f"  {title}:")
            for l in sorted(group, key=lambda l: (l.repo, l.path, l.line, l.rule)):
                print(f"    {l.repo}  {l.path}:{l.line}  {l.rule}  {l.verdict}  {shorten(l.reason, 70)}")
    if not_checked:
        print(f"  ({len(not_checked)} label(s) of repositories not scanned in this run were not checked)")
    print()

    total_failing = totals_of(failing_rows)
    total_all = totals_of(all_rows)
    labelled_failing = total_failing["TP"] + total_failing["FP"] + total_failing["CONTEXT"]
    overall = f"{total_failing['TP'] / labelled_failing:.2f}" if labelled_failing else "-"
    below = [rule for rule, row in failing_rows.items() if row["status"] == "below target"]
    failed = [repo for repo in scans if scans[repo].error]
    print("(e) Totals")
    print(f"  findings: {total_all['findings']} (failing {total_failing['findings']}); "
          f"labelled {total_all['findings'] - total_all['unlabelled']}, unlabelled {total_all['unlabelled']}")
    print(f"  failing findings: TP {total_failing['TP']}, FP {total_failing['FP']}, CONTEXT {total_failing['CONTEXT']}, "
          f"unlabelled {total_failing['unlabelled']}; precision {overall}")
    print(f"  rules below target: {', '.join(below) if below else 'none'}")
    print(f"  labels: {len(labels)} ({len(relevant_labels)} in scanned repositories, {len(gone)} without a finding, "
          f"{len(gone_tp)} of them TP)")
    for repo in failed:
        print(f"  FAILED TO SCAN: {repo}: {scans[repo].error}")
    for repo in missing:
        print(f"  not checked out: {repo} (run Benchmarks/realworld/checkout.py)")
    for repo, errors in sorted(scan_errors.items()):
        kinds = {}
        for error in errors:
            kinds[error.get("kind", "?")] = kinds.get(error.get("kind", "?"), 0) + 1
        summary = ", ".join(f"{n} {k}" for k, n in sorted(kinds.items()))
        print(f"  {repo}: the scan reported {len(errors)} file error(s) ({summary})")

    if args.write_unlabelled:
        new = [f for f in unlabelled if f.label is None]
        target = Path(args.write_unlabelled)
        needs_header = not target.exists() or target.stat().st_size == 0
        needs_newline = False
        if not needs_header:
            with open(target, "rb") as handle:
                handle.seek(-1, os.SEEK_END)
                needs_newline = handle.read(1) != b"\n"
        with open(target, "a", encoding="utf-8", newline="") as handle:
            if needs_header:
                handle.write("\t".join(LABEL_COLUMNS) + "\n")
            elif needs_newline:
                handle.write("\n")
            for f in sorted(new, key=lambda f: (f.repo, f.path, f.line, f.rule)):
                handle.write("\t".join([f.repo, f.path, str(f.line), f.rule, UNREVIEWED, one_line(f.message)]) + "\n")
        print(f"\nAppended {len(new)} row(s) with verdict ? to {target}")

    if args.json:
        document = {
            "version": 1,
            "tool": tool,
            "profile": args.profile,
            "target": TARGET,
            "minimumLabelled": MIN_LABELLED,
            "repositories": {"scanned": sorted(scanned), "failed": {r: scans[r].error for r in failed},
                             "notCheckedOut": missing},
            "failing": failing_rows,
            "all": all_rows,
            "totals": {"failing": total_failing, "all": total_all, "filesScanned": files_scanned},
            "disappeared": [
                {"repo": l.repo, "path": l.path, "line": l.line, "rule": l.rule, "verdict": l.verdict,
                 "reason": l.reason}
                for l in gone
            ],
            "rulesBelowTarget": below,
        }
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(document, handle, indent=2, sort_keys=True)
            handle.write("\n")

    if args.check:
        problems = []
        if below:
            problems.append(f"below target: {', '.join(below)}")
        if gone_tp:
            problems.append(f"{len(gone_tp)} true positive(s) lost")
        if failed:
            problems.append(f"{len(failed)} repository scan(s) failed")
        if problems:
            print(f"\ncheck failed: {'; '.join(problems)}")
            return 1
        print("\ncheck passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
