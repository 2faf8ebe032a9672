#!/usr/bin/env python3
"""Compiles every ONNX backend model for the CPU and checks its outputs.

For each model: `infer-compile model.onnx -o DIR --name m` (static shapes as
the test data has them), then `infer-run DIR/m.so --test-data ...` over every
test_data_set_N, which compares with the expected outputs at the per-dtype
tolerances of tools/common/Tolerance.h. A model passes when both succeed.
Models in the expected-failure list must fail with the recorded diagnostic;
a new failure, a changed diagnostic, or an unexpected pass fails the suite.
The closing line is `N passed, N failed`.

Usage: cpu_suite.py --infer-compile BIN --infer-run BIN --root DIR --xfail FILE
List format: <model dir> | <expected diagnostic substring> | <reason>
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile

from import_suite import classify, find_models, read_xfail


def first_problem(text):
    """What went wrong: the first error line and the lines after it (a
    diagnostic may continue on indented lines), whitespace collapsed."""
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    for i, line in enumerate(lines):
        if " error: " in line or line.startswith("error:") or "FAIL" in line:
            return " ".join(lines[i:i + 4])[:600]
    return lines[-1] if lines else "(no output)"


def run_one(args, model, work):
    src = os.path.join(args.root, model)
    out = os.path.join(work, re.sub(r"[^A-Za-z0-9_]", "_", model))
    try:
        compile_proc = subprocess.run(
            [args.infer_compile, os.path.join(src, "model.onnx"), "-o", out, "--name", "m"],
            capture_output=True, text=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return model, False, f"compile: timed out after {args.timeout}s"
    if compile_proc.returncode != 0:
        return model, False, "compile: " + first_problem(compile_proc.stderr)
    sets = sorted(d for d in os.listdir(src) if d.startswith("test_data_set_"))
    command = [args.infer_run, os.path.join(out, "m.so")]
    for s in sets:
        command += ["--test-data", os.path.join(src, s)]
    try:
        run_proc = subprocess.run(command, capture_output=True, text=True,
                                  timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return model, False, f"run: timed out after {args.timeout}s"
    finally:
        shutil.rmtree(out, ignore_errors=True)
    if run_proc.returncode != 0:
        if run_proc.returncode < 0:
            return model, False, f"run: crashed with signal {-run_proc.returncode}"
        return model, False, "run: " + first_problem(run_proc.stdout + run_proc.stderr)
    return model, True, ""


def suite_arguments(doc, timeout):
    """The options every target suite takes; the caller adds its tools."""
    parser = argparse.ArgumentParser(description=doc,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--infer-compile", required=True)
    parser.add_argument("--root", required=True)
    parser.add_argument("--xfail", required=True)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=int, default=timeout)
    parser.add_argument("--filter", default="", help="only models matching this regex")
    parser.add_argument("--write-failures", help="write the failures in list format here")
    return parser


def run_suite(args, run_one, what, summary=None):
    """Runs `run_one(args, model, work_dir)` -> (model, ok, problem) over every
    model, checks the results against the expected-failure list and prints
    the problems, `<label>: N of M models <what> (P%)` and `N passed, N failed`,
    then whatever `summary(results)` adds. Returns the exit status."""
    models = [m for m in find_models(args.root) if re.search(args.filter, m)]
    if not models:
        print(f"error: no models under {args.root}", file=sys.stderr)
        return 2
    xfail = read_xfail(args.xfail)
    with tempfile.TemporaryDirectory(prefix=f"infer-{args.label}-") as work:
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(lambda m: run_one(args, m, work), models))
    passed, failed, expected, problems = classify(
        [(model, ok, problem, True) for model, ok, problem in results], xfail)
    for problem in problems:
        print(problem)
    if args.write_failures:
        with open(args.write_failures, "w", encoding="utf-8") as f:
            for model, ok, problem in results:
                if not ok:
                    f.write(f"{model} | {problem.replace('|', '/')} | \n")
    total = len(models)
    print(f"{args.label}: {passed} of {total} models {what} "
          f"({100.0 * passed / total:.1f}%); {expected} expected failures")
    print(f"{passed} passed, {failed} failed")
    if summary:
        summary(results)
    return 0 if failed == 0 else 1


def main():
    parser = suite_arguments(__doc__, timeout=120)
    parser.add_argument("--infer-run", required=True)
    parser.add_argument("--label", default="cpu")
    args = parser.parse_args()
    return run_suite(args, run_one, "compile and match their expected outputs")


if __name__ == "__main__":
    sys.exit(main())
