#!/usr/bin/env python3
"""Imports every ONNX backend model with infer-compile and checks the result.

Each model must either import and verify (`--compile-to=graph` exits 0), or
fail with the diagnostic recorded for it in the expected-failure list. A new
failure, a changed diagnostic, or an unexpected pass fails the suite. The
closing line is `N passed, N failed` (expected failures are counted apart).

Usage: import_suite.py --infer-compile BIN --root DIR --xfail FILE [--jobs N]
List format, one model per line:  <model dir relative to root> | <expected
diagnostic substring> | <reason>
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys


def find_models(root):
    models = []
    for dirpath, _dirnames, filenames in os.walk(root):
        if "model.onnx" in filenames:
            models.append(os.path.relpath(dirpath, root))
    return sorted(models)


def read_xfail(path):
    entries = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = [p.strip() for p in line.split("|")]
            if len(parts) != 3 or not all(parts):
                sys.exit(f"{path}:{number}: expected 'model | diagnostic | reason'")
            entries[parts[0]] = (parts[1], parts[2])
    return entries


def classify(results, xfail):
    """Checks (model, ok, problem, expectable) results against the list.

    A listed model must fail with its recorded diagnostic (and `expectable`,
    false for crashes); an unlisted one must pass. Returns passed, failed,
    expected-failure counts and the problems to report."""
    passed = failed = expected = 0
    problems = []
    for model, ok, problem, expectable in results:
        if model in xfail:
            diagnostic, reason = xfail[model]
            if ok:
                failed += 1
                problems.append(f"UNEXPECTED PASS {model} (listed: {reason}); remove it from the list")
            elif diagnostic not in problem or not expectable:
                failed += 1
                problems.append(f"CHANGED FAILURE {model}: expected '{diagnostic}', got: {problem}")
            else:
                expected += 1
        elif ok:
            passed += 1
        else:
            failed += 1
            problems.append(f"FAIL {model}: {problem}")
    return passed, failed, expected, problems


def run_one(binary, root, model, timeout):
    path = os.path.join(root, model, "model.onnx")
    try:
        proc = subprocess.run(
            [binary, path, "--compile-to=graph", "-o", os.devnull],
            capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return model, -1, f"timed out after {timeout}s"
    return model, proc.returncode, proc.stderr


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--infer-compile", required=True)
    parser.add_argument("--root", required=True)
    parser.add_argument("--xfail", required=True)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=int, default=120)
    parser.add_argument("--label", default="import")
    args = parser.parse_args()

    if not os.path.isdir(args.root):
        print(f"error: no models under {args.root}", file=sys.stderr)
        return 2
    models = find_models(args.root)
    if not models:
        print(f"error: no models under {args.root}", file=sys.stderr)
        return 2
    xfail = read_xfail(args.xfail)
    stale = sorted(set(xfail) - set(models))

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(run_one, args.infer_compile, args.root, m, args.timeout)
                   for m in models]
        results = []
        for future in futures:
            model, code, stderr = future.result()
            # Exit 1 is a reported error; anything else is a crash. The
            # error comes after the warnings: keep the end.
            results.append((model, code == 0, f"(exit {code}):\n{stderr.strip()[-1500:]}",
                            code == 1))
    passed, failed, expected, problems = classify(results, xfail)

    for problem in problems:
        print(problem)
    for model in stale:
        print(f"note: listed model {model} is not under {args.root}")
    total = len(models)
    print(f"{args.label}: {passed + expected} of {total} models behave as expected: "
          f"{passed} imported ({100.0 * passed / total:.1f}%), {expected} expected failures")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
