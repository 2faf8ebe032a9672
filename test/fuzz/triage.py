#!/usr/bin/env python3
"""Groups a fuzzing run's findings by signature.

Runs the harness on each input (`HARNESS FILE` reproduces one finding),
takes the kind of failure (the sanitizer's error, an abort message, a
timeout) and the first stack frame in infer's own code, and prints one
line per signature with its count and smallest input. Optionally converts
each smallest input to ONNX text (`--text`, needs the onnx package), the
start of a regression test.

Usage: triage.py HARNESS FILE... [--text]
"""
import argparse
import collections
import os
import re
import subprocess
import sys

OWN_CODE = re.compile(r" in (\S.*?) /\S*/(compiler|dialects|passes|targets|tools|runtime|test)/(\S+?):(\d+)")
KIND = [
    re.compile(r"ERROR: AddressSanitizer: ([\w-]+)"),
    re.compile(r"runtime error: (.{0,80})"),
    re.compile(r"(infer-fuzz: .{0,100})"),
    re.compile(r"ERROR: libFuzzer: (timeout|out-of-memory \([^)]*\)|deadly signal)"),
    re.compile(r"LLVM ERROR: (.{0,80})"),
    re.compile(r"terminate called after throwing an instance of '([^']+)'"),
]


def signature(harness, path):
    try:
        proc = subprocess.run([harness, path, "-timeout=30", "-rss_limit_mb=4096",
                               "-malloc_limit_mb=2048"],
                              capture_output=True, text=True, timeout=120)
        text = proc.stdout + proc.stderr
        if proc.returncode == 0:
            return "no longer fails", ""
    except subprocess.TimeoutExpired:
        return "hang (over 120 s)", ""
    kind = "unknown failure"
    for pattern in KIND:
        m = pattern.search(text)
        if m:
            kind = m.group(1)
            break
    frame = ""
    ub = re.search(r"(\S+):(\d+):\d+: runtime error", text)
    if ub:
        frame = f"{re.sub(r'^.*?/(?=(compiler|dialects|passes|targets|tools|runtime|test|usr)/)', '', ub.group(1))}:{ub.group(2)}"
    for m in ([] if frame else OWN_CODE.finditer(text)):
        if "/test/fuzz/" in m.group(0) and "fuzz_" in m.group(3):
            continue
        function = re.sub(r"\(.*", "", m.group(1))[-80:]
        frame = f"{function} {m.group(2)}/{m.group(3)}:{m.group(4)}"
        break
    top = re.search(r"#0 0x[0-9a-f]+ in (\S+)", text)
    if top and not frame.startswith(top.group(1)[:20]):
        frame = f"{top.group(1)[:60]} <- {frame}"
    return kind, frame


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("harness")
    parser.add_argument("files", nargs="+")
    parser.add_argument("--text", action="store_true",
                        help="print each group's smallest input as ONNX text")
    args = parser.parse_args()
    groups = collections.defaultdict(list)
    for path in args.files:
        groups[signature(args.harness, path)].append(path)
    for (kind, frame), paths in sorted(groups.items(), key=lambda g: -len(g[1])):
        smallest = min(paths, key=os.path.getsize)
        print(f"{len(paths):4d}  {kind}  @ {frame or '(no frame in infer)'}\n      {smallest}")
        if args.text:
            import onnx
            import onnx.printer
            try:
                model = onnx.load(smallest)
                print("      " + onnx.printer.to_text(model).replace("\n", "\n      "))
            except Exception as e:  # noqa: BLE001 - a mutant may not parse
                print(f"      (not printable: {e})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
