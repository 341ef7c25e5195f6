#!/usr/bin/env python3
"""Check out the real-world corpus listed in manifest.tsv, each repository at its pinned commit.

    python3 Benchmarks/realworld/checkout.py --dest /work/corpus [--mirror DIR]... [--only OWNER/NAME]...

Each repository lands in DEST/OWNER+NAME/ as a plain tree of files (no .git), with a marker file
`.keyward-corpus-commit` holding the commit. A repository whose marker already names the
manifest's commit is skipped.

Where the commits come from, first found wins:
  * each --mirror DIR, a folder of git directories named `OWNER+NAME` (a bare repository, or a
    folder holding `repo/` or `repo/.git`, as a snapshot store lays them out), `OWNER+NAME.git`,
    or `OWNER/NAME.git` / `OWNER/NAME`;
  * otherwise a clone of https://github.com/OWNER/NAME, kept in DEST/.git-cache/ so that a second
    run does not download it again. This needs network access; without it the repository is
    reported as not checked out and the others go on.

The destination must be outside the Keyward repository: the corpus is other people's code and
is never committed here, and a Keyward configuration file in a parent folder would change the
scan.

Exit status: 0 when every selected repository is checked out, 1 when some are not, 2 for bad
arguments.
"""

import argparse
import csv
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parent.parent
MARKER = ".keyward-corpus-commit"
MISSING = ".keyward-corpus-missing"
SOURCE_SUFFIXES = (".swift", ".m", ".mm", ".h", ".c", ".cpp")


def read_manifest(path):
    with open(path, newline="", encoding="utf-8") as handle:
        rows = [row for row in csv.DictReader(handle, delimiter="\t") if row.get("repo", "").strip()]
    for row in rows:
        if not row.get("commit"):
            raise SystemExit(f"{path}: {row['repo']} has no commit")
    return rows


def folder_name(repo):
    return repo.replace("/", "+")


def keyward_root():
    """The Keyward repository's top folder (the git work tree holding this script)."""
    try:
        out = subprocess.run(
            ["git", "-C", str(HERE), "rev-parse", "--show-toplevel"],
            capture_output=True, text=True, check=True,
        ).stdout.strip()
        if out:
            return Path(out).resolve()
    except (OSError, subprocess.CalledProcessError):
        pass
    return REPO_ROOT


def is_inside(path, folder):
    try:
        path.relative_to(folder)
        return True
    except ValueError:
        return False


def git(git_dir, *args, **kwargs):
    return subprocess.run(["git", f"--git-dir={git_dir}", *args], **kwargs)


def is_git_dir(path):
    return path.is_dir() and (path / "HEAD").is_file() and (path / "objects").is_dir()


def git_dir_in(path):
    """The git directory at or inside `path` (a bare repository, a work tree, or a snapshot folder)."""
    for candidate in (path, path / ".git", path / "repo" / ".git", path / "repo"):
        if is_git_dir(candidate):
            return candidate
    return None


def mirror_candidates(mirror, repo):
    owner, name = repo.split("/", 1)
    flat = folder_name(repo)
    yield mirror / flat
    yield mirror / (flat + ".git")
    yield mirror / owner / (name + ".git")
    yield mirror / owner / name
    # Other spellings: any letter case, and OWNER+NAME followed by a suffix such as `.git` or
    # `@commit` (but not OWNER+NAME-other, another repository, nor a copy still under way).
    try:
        entries = sorted(mirror.iterdir())
    except OSError:
        return
    lower = flat.lower()
    for entry in entries:
        low = entry.name.lower()
        if low.endswith((".part", ".tar", ".tmp")) or not low.startswith(lower):
            continue
        rest = low[len(lower):]
        if rest == "" or not (rest[0].isalnum() or rest[0] in "-_"):
            yield entry
    owner_dir = next((e for e in entries if e.is_dir() and e.name.lower() == owner.lower()), None)
    if owner_dir is not None:
        for entry in sorted(owner_dir.iterdir()):
            if entry.name.lower() in (name.lower(), name.lower() + ".git"):
                yield entry


def has_commit(git_dir, commit):
    result = git(git_dir, "cat-file", "-e", f"{commit}^{{commit}}", capture_output=True)
    return result.returncode == 0


def find_in_mirrors(mirrors, repo, commit):
    """(git_dir, None) for a mirror holding the commit, or (None, why) when none does."""
    seen = set()
    notes = []
    for mirror in mirrors:
        for candidate in mirror_candidates(mirror, repo):
            git_dir = git_dir_in(candidate)
            if git_dir is None:
                continue
            key = git_dir.resolve()
            if key in seen:
                continue
            seen.add(key)
            if has_commit(git_dir, commit):
                return git_dir, None
            head = git(git_dir, "rev-parse", "HEAD", capture_output=True, text=True).stdout.strip()
            notes.append(f"{git_dir} lacks {commit[:12]} (its newest commit is {head[:12] or '?'})")
    return None, "; ".join(notes) or None


def git_error(stderr, fallback):
    """The first `fatal:`/`error:` line of git's error output (the last lines are often advice)."""
    lines = [line.strip() for line in stderr.strip().splitlines() if line.strip()]
    for line in lines:
        if line.startswith(("fatal:", "error:")):
            return line
    return lines[0] if lines else fallback


def clone(repo, commit, cache):
    """A bare clone of github.com/OWNER/NAME holding `commit`, or (None, why)."""
    git_dir = cache / (folder_name(repo) + ".git")
    env = dict(os.environ, GIT_TERMINAL_PROMPT="0")
    url = f"https://github.com/{repo}"
    if not is_git_dir(git_dir):
        cache.mkdir(parents=True, exist_ok=True)
        partial = git_dir.with_name(git_dir.name + ".part")
        shutil.rmtree(partial, ignore_errors=True)
        result = subprocess.run(
            ["git", "clone", "--bare", "--quiet", url, str(partial)], capture_output=True, text=True, env=env
        )
        if result.returncode != 0:
            shutil.rmtree(partial, ignore_errors=True)
            try:
                cache.rmdir()  # only if empty
            except OSError:
                pass
            why = git_error(result.stderr, "git clone failed")
            return None, f"git clone {url} failed (offline?): {why}"
        partial.rename(git_dir)
    if not has_commit(git_dir, commit):
        # The commit may be on no branch the clone brought; ask for it by name.
        result = git(git_dir, "fetch", "--quiet", url, commit, capture_output=True, text=True, env=env)
        if result.returncode != 0 or not has_commit(git_dir, commit):
            why = git_error(result.stderr, "not found")
            return None, f"{url} has no commit {commit[:12]}: {why}"
    return git_dir, None


def tree_entries(git_dir, commit):
    """(mode, object id, path) of every file, symlink and submodule in the commit's tree."""
    result = git(git_dir, "ls-tree", "-r", "-z", "--full-tree", commit, capture_output=True)
    if result.returncode != 0:
        raise RuntimeError("git ls-tree failed: " + result.stderr.decode(errors="replace").strip())
    for record in result.stdout.split(b"\0"):
        if not record:
            continue
        meta, _, path = record.partition(b"\t")
        mode, _kind, oid = meta.split(b" ")
        yield mode.decode(), oid.decode(), os.fsdecode(path)


def safe_relative(path):
    parts = path.split("/")
    return path and not path.startswith("/") and all(p not in ("", ".", "..", ".git") for p in parts)


def extract(git_dir, commit, target):
    """Write the tree of `commit` into `target` (replacing it), then the marker file.

    Returns (error or None, paths whose contents the git directory lacks). Blobs are read one by
    one (`git cat-file --batch`), as committed: no `export-ignore`, filters or line-ending
    conversion. A snapshot store may leave out a repository's largest files; those are reported,
    listed in `.keyward-corpus-missing`, and left out of the checkout."""
    staging = target.with_name(f".{target.name}.partial-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    try:
        entries = [e for e in tree_entries(git_dir, commit)]
    except RuntimeError as error:
        shutil.rmtree(staging, ignore_errors=True)
        return str(error), []
    blobs = [e for e in entries if e[0] != "160000" and safe_relative(e[2])]
    for mode, _, path in entries:
        if mode == "160000" and safe_relative(path):  # a submodule: an empty folder, as git leaves it
            (staging / path).mkdir(parents=True, exist_ok=True)
    missing = []
    batch = subprocess.Popen(
        ["git", f"--git-dir={git_dir}", "cat-file", "--batch"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )

    def feed():
        try:
            for _, oid, _ in blobs:
                batch.stdin.write(oid.encode() + b"\n")
            batch.stdin.close()
        except BrokenPipeError:
            pass

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    error = None
    made = set()
    try:
        for mode, oid, path in blobs:
            header = batch.stdout.readline()
            fields = header.split()
            if len(fields) == 2 and fields[1] == b"missing":
                missing.append(path)
                continue
            if len(fields) != 3:
                error = f"git cat-file answered {header!r} for {path}"
                break
            data = batch.stdout.read(int(fields[2]))
            batch.stdout.read(1)  # the newline after the contents
            destination = staging / path
            parent = destination.parent
            if parent not in made:
                parent.mkdir(parents=True, exist_ok=True)
                made.add(parent)
            if mode == "120000":
                os.symlink(os.fsdecode(data), destination)
            else:
                destination.write_bytes(data)
                if mode == "100755":
                    destination.chmod(0o755)
    finally:
        writer.join()
        batch.stdout.close()
        batch.wait()
    if error:
        shutil.rmtree(staging, ignore_errors=True)
        return error, missing
    (staging / MARKER).write_text(commit + "\n", encoding="utf-8")
    if missing:
        (staging / MISSING).write_text("".join(p + "\n" for p in missing), encoding="utf-8")
    if target.exists():
        shutil.rmtree(target)
    staging.rename(target)
    return None, missing


def checked_out_commit(target):
    try:
        return (target / MARKER).read_text(encoding="utf-8").strip()
    except OSError:
        return None


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Check out the real-world corpus (manifest.tsv) at its pinned commits.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Example: python3 Benchmarks/realworld/checkout.py --dest /work/corpus --mirror /work/.mirror",
    )
    parser.add_argument("--dest", required=True, help="folder to check out into (outside the Keyward repository)")
    parser.add_argument("--mirror", action="append", default=[], metavar="DIR",
                        help="folder of git directories (OWNER+NAME..., or OWNER/NAME.git); repeatable")
    parser.add_argument("--only", action="append", default=[], metavar="OWNER/NAME",
                        help="check out only this repository (repeatable)")
    parser.add_argument("--manifest", default=str(HERE / "manifest.tsv"), help="default: %(default)s")
    parser.add_argument("--no-clone", action="store_true", help="use the mirrors only, never the network")
    parser.add_argument("--force", action="store_true",
                        help="replace a destination folder that has no marker file (one this script did not write)")
    args = parser.parse_args(argv)

    dest = Path(args.dest).expanduser().resolve()
    root = keyward_root()
    if is_inside(dest, root) or is_inside(dest, REPO_ROOT):
        parser.error(f"--dest {dest} is inside the Keyward repository ({root}); choose a folder outside it")
    mirrors = []
    for mirror in args.mirror:
        path = Path(mirror).expanduser().resolve()
        if not path.is_dir():
            parser.error(f"--mirror {mirror}: no such folder")
        mirrors.append(path)

    rows = read_manifest(args.manifest)
    if args.only:
        wanted = {name.lower() for name in args.only}
        known = {row["repo"].lower() for row in rows}
        for name in args.only:
            if name.lower() not in known:
                parser.error(f"--only {name}: not in {args.manifest}")
        rows = [row for row in rows if row["repo"].lower() in wanted]

    dest.mkdir(parents=True, exist_ok=True)
    failures = []
    counts = {"checked out": 0, "already there": 0}
    for row in rows:
        repo, commit = row["repo"], row["commit"].strip()
        target = dest / folder_name(repo)
        current = checked_out_commit(target)
        if current == commit:
            counts["already there"] += 1
            print(f"{repo}: already at {commit[:12]}")
            continue
        if target.exists() and current is None and any(target.iterdir()) and not args.force:
            failures.append(repo)
            print(f"{repo}: NOT CHECKED OUT: {target} exists without {MARKER}; move it away or use --force")
            continue
        git_dir, why = find_in_mirrors(mirrors, repo, commit)
        source = f"mirror {git_dir}" if git_dir else None
        if git_dir is None:
            if args.no_clone:
                why = why or "in no mirror"
                failures.append(repo)
                print(f"{repo}: NOT CHECKED OUT: {why} (and --no-clone)")
                continue
            mirror_why = why
            git_dir, why = clone(repo, commit, dest / ".git-cache")
            if git_dir is None:
                failures.append(repo)
                detail = f"{mirror_why}; " if mirror_why else ""
                print(f"{repo}: NOT CHECKED OUT: {detail}{why}")
                continue
            source = f"clone {git_dir}"
        error, missing = extract(git_dir, commit, target)
        if error:
            failures.append(repo)
            print(f"{repo}: NOT CHECKED OUT: {error}")
            continue
        counts["checked out"] += 1
        was = f" (was {current[:12]})" if current else ""
        print(f"{repo}: checked out {commit[:12]} from {source}{was}")
        if missing:
            sources = [p for p in missing if p.lower().endswith(SOURCE_SUFFIXES)]
            note = f", {len(sources)} of them source files: {', '.join(sources[:5])}" if sources else ""
            print(f"  {len(missing)} file(s) absent from the git directory, left out (see {MISSING}){note}")

    print(
        f"\n{len(rows)} repositories: {counts['checked out']} checked out, "
        f"{counts['already there']} already there, {len(failures)} not checked out"
    )
    for repo in failures:
        print(f"  not checked out: {repo}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
