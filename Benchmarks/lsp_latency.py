#!/usr/bin/env python3
"""Editor latency: the time from a `textDocument/didChange` to the `publishDiagnostics` that
answers it, through `keyward lsp` on the example app (Examples/VaultApp).

Usage: python3 Benchmarks/lsp_latency.py [--binary PATH] [--runs N] [--file PATH] [--every-file]

The server is started with the app as its workspace, one of its files is opened, and each run
sends that file's text with a comment line added (so the text changes every time) and waits
for the diagnostics of that version. It is measured twice: with the server's debounce set to 0
(initializationOptions.debounceMilliseconds), which is the scan itself plus the protocol, and
with the default debounce (150 ms), which is what an editor sees after the last keystroke.
Prints the median and the 90th percentile of each, in milliseconds. --every-file measures every
source file of the app with the debounce at 0 instead, one line each.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
APP = os.path.join(ROOT, "Examples", "VaultApp")
DEFAULT_FILE = os.path.join(APP, "Sources", "Keychain", "KeychainStore.swift")


class Client:
    """A minimal LSP client over the server's pipes."""

    def __init__(self, binary):
        self.process = subprocess.Popen([binary, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.next_id = 1

    def send(self, message):
        body = json.dumps(dict(message, jsonrpc="2.0")).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def receive(self):
        length = None
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("the server closed its output")
            line = line.strip()
            if not line:
                break
            name, _, value = line.partition(b":")
            if name.lower() == b"content-length":
                length = int(value)
        return json.loads(self.process.stdout.read(length))

    def request(self, method, params):
        ident = self.next_id
        self.next_id += 1
        self.send({"id": ident, "method": method, "params": params})
        while True:
            message = self.receive()
            if message.get("id") == ident:
                return message

    def diagnostics(self, uri, version):
        while True:
            message = self.receive()
            params = message.get("params", {})
            if message.get("method") == "textDocument/publishDiagnostics" and params.get("uri") == uri:
                if params.get("version") == version:
                    return params["diagnostics"]

    def close(self):
        self.request("shutdown", None)
        self.send({"method": "exit"})
        return self.process.wait(timeout=10)


def measure(binary, path, runs, debounce):
    client = Client(binary)
    options = {} if debounce is None else {"debounceMilliseconds": debounce}
    client.request(
        "initialize",
        {"processId": os.getpid(), "rootUri": "file://" + APP, "capabilities": {}, "initializationOptions": options},
    )
    client.send({"method": "initialized", "params": {}})
    uri = "file://" + path
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    client.send({"method": "textDocument/didOpen", "params": {
        "textDocument": {"uri": uri, "languageId": "swift", "version": 1, "text": text}}})
    opened = client.diagnostics(uri, 1)
    times = []
    for run in range(runs):
        version = run + 2
        changed = text + f"// edit {run}\n"
        start = time.perf_counter()
        client.send({"method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": changed}]}})
        found = client.diagnostics(uri, version)
        times.append((time.perf_counter() - start) * 1000)
        if len(found) != len(opened):
            sys.exit(f"version {version}: {len(found)} diagnostics, {len(opened)} when opened")
    status = client.close()
    if status != 0:
        sys.exit(f"the server exited with {status}")
    return times, len(opened)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "keyward"))
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--file", default=DEFAULT_FILE)
    parser.add_argument("--every-file", action="store_true")
    args = parser.parse_args()
    if args.every_file:
        for folder, _, names in sorted(os.walk(APP)):
            for name in sorted(names):
                if name.endswith((".swift", ".m", ".mm", ".h")):
                    report(args.binary, os.path.join(folder, name), args.runs, "debounce 0", 0)
        return
    path = os.path.abspath(args.file)
    for label, debounce in (("scan (debounce 0)", 0), ("after the default 150 ms debounce", None)):
        report(args.binary, path, args.runs, label, debounce)


def report(binary, path, runs, label, debounce):
    times, findings = measure(binary, path, runs, debounce)
    times.sort()
    p90 = times[min(len(times) - 1, int(len(times) * 0.9))]
    print(f"didChange -> publishDiagnostics, {os.path.relpath(path, ROOT)} ({findings} diagnostics), "
          f"{label}: median {statistics.median(times):.1f} ms, p90 {p90:.1f} ms, n={len(times)}")


if __name__ == "__main__":
    main()
