#!/usr/bin/env python3
"""Compiles every ONNX backend model for the HLS target and C-simulates it.

For each model: `infer-compile model.onnx --target=hls -o DIR --name m`,
then `g++ -std=c++17 m.cpp m_tb.cpp` (the project as a user builds it, no
vendor headers), then the testbench over every test_data_set_N, whose
input_K.pb/output_K.pb this script writes as the raw .bin files the
testbench reads. The testbench compares at the per-dtype tolerances of
tools/common/Tolerance.h (the CPU target's). A model passes when all three
steps succeed. Models in the expected-failure list must fail with the
recorded diagnostic; a new failure, a changed diagnostic, or an unexpected
pass fails the suite. The closing line is `N passed, N failed`.

Usage: hls_suite.py --infer-compile BIN --root DIR --xfail FILE [--cxx g++]
List format: <model dir> | <expected diagnostic substring> | <reason>
"""
import glob
import os
import re
import shutil
import subprocess
import sys

import onnx
from onnx import numpy_helper

from cpu_suite import first_problem, run_suite, suite_arguments


def write_bins(test_set, out_dir):
    """input_K.pb / output_K.pb -> input_K.bin / output_K.bin (raw data)."""
    os.makedirs(out_dir, exist_ok=True)
    for pb in glob.glob(os.path.join(test_set, "*.pb")):
        tensor = onnx.load_tensor(pb)
        array = numpy_helper.to_array(tensor)
        name = os.path.splitext(os.path.basename(pb))[0]
        with open(os.path.join(out_dir, name + ".bin"), "wb") as f:
            f.write(array.tobytes())


def run_one(args, model, work):
    src = os.path.join(args.root, model)
    out = os.path.join(work, re.sub(r"[^A-Za-z0-9_]", "_", model))
    try:
        return check(args, src, out)
    except subprocess.TimeoutExpired as e:
        return model, False, f"{os.path.basename(e.cmd[0])}: timed out after {e.timeout}s"
    finally:
        shutil.rmtree(out, ignore_errors=True)


def check(args, src, out):
    model = os.path.relpath(src, args.root)
    proc = subprocess.run(
        [args.infer_compile, os.path.join(src, "model.onnx"), "--target=hls",
         "-o", out, "--name", "m"],
        capture_output=True, text=True, timeout=args.timeout)
    if proc.returncode != 0:
        return model, False, "compile: " + first_problem(proc.stderr)
    for f in ["m.cpp", "m.h", "m_weights.h", "m_tb.cpp", "run_hls.tcl", "report.json"]:
        if not os.path.exists(os.path.join(out, f)):
            return model, False, f"compile: the project has no {f}"
    tb = os.path.join(out, "m_tb")
    proc = subprocess.run(
        [args.cxx, "-std=c++17", "-O1", "-o", tb, os.path.join(out, "m.cpp"),
         os.path.join(out, "m_tb.cpp")],
        capture_output=True, text=True, timeout=args.timeout)
    if proc.returncode != 0:
        return model, False, "g++: " + first_problem(proc.stderr)
    sets = sorted(d for d in os.listdir(src) if d.startswith("test_data_set_"))
    if not sets:
        return model, False, "no test data"
    for s in sets:
        data = os.path.join(out, s)
        write_bins(os.path.join(src, s), data)
        proc = subprocess.run([tb, data], capture_output=True, text=True,
                              timeout=args.timeout)
        if proc.returncode != 0:
            if proc.returncode < 0:
                return model, False, f"csim: crashed with signal {-proc.returncode}"
            text = proc.stdout + proc.stderr
            mismatch = [l for l in text.splitlines() if "outside tolerance" in l
                        and not l.split(", ")[-1].startswith("0 of")]
            return model, False, "csim: " + (mismatch[0] if mismatch else first_problem(text))
    return model, True, ""


def main():
    parser = suite_arguments(__doc__, timeout=300)
    parser.add_argument("--cxx", default="g++")
    parser.add_argument("--label", default="hls")
    args = parser.parse_args()
    return run_suite(args, run_one, "compile to HLS C++ and pass C simulation")


if __name__ == "__main__":
    sys.exit(main())
