#!/usr/bin/env python3
"""Accuracy of the CPU target's f32 math functions over the float range.

The CPU target computes exp, tanh, erf, log and log1p as inline polynomials
(`infer-approximate-math`, the default `--math=polynomial`) instead of libm
calls. This script states and checks their error: one model applies Exp,
Tanh, Erf, Log, Sigmoid and Softplus to 2^18 random bit patterns (every
finite float is as likely as any other: all binades, both signs, subnormals)
plus a dense sample of [-10, 10] and the special values. The expected values
are the exact functions in float64 (numpy, math.erf) rounded to float32.

Bounds, in units in the last place of the float32 result (ulp) where the
result is a normal float, and as an absolute error where it is subnormal
(below 2^-126, where a result flushed to 0 is off by less than 2^-126):
  - polynomial: exp 5, tanh 5, erf 5, log 2, sigmoid 3, softplus 3 (the
    maxima measured here: 4, 4, 4, 1, 2, 2; exp's 4 is next to overflow,
    x > 88.6); the special values (0, -0, +-inf, NaN, overflow,
    underflow) exact.
  - libm (`--math=libm`, checked too): 2 ulp for each.
The measured maxima are printed. A compiler that leaves the functions to
libm, or approximates them more coarsely, fails here.

Usage: math_accuracy.py --infer-compile BIN --infer-run BIN --work DIR
"""
import math
import os
import subprocess
import sys

import numpy as np
from onnx import TensorProto, helper

from test_data import compile_model, make_model, parse_args

FUNCTIONS = ["Exp", "Tanh", "Erf", "Log", "Sigmoid", "Softplus"]
POLYNOMIAL_ULP = {"Exp": 5, "Tanh": 5, "Erf": 5, "Log": 2, "Sigmoid": 3, "Softplus": 3}
LIBM_ULP = 2
SUBNORMAL = np.float32(2.0 ** -126)


def inputs():
    rng = np.random.default_rng(11)
    bits = rng.integers(0, 2 ** 32, size=1 << 18, dtype=np.uint64).astype(np.uint32)
    random = bits.view(np.float32)
    random = random[np.isfinite(random)]
    dense = rng.uniform(-10, 10, size=1 << 16).astype(np.float32)
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 88.0, 89.0,
                         -87.0, -104.0, -110.0, 1e-45, -1e-45, 1e-38, 3.4e38, -3.4e38],
                        np.float32)
    return np.concatenate([specials, dense, random])


def exact(name, x):
    """The function at float64 precision, rounded to float32."""
    d = x.astype(np.float64)
    with np.errstate(all="ignore"):
        if name == "Exp":
            y = np.exp(d)
        elif name == "Tanh":
            y = np.tanh(d)
        elif name == "Erf":
            y = np.array([math.erf(v) if not math.isnan(v) else math.nan for v in d])
        elif name == "Log":
            y = np.log(d)
        elif name == "Sigmoid":
            y = 1.0 / (1.0 + np.exp(-d))
        else:
            y = np.maximum(d, 0.0) + np.log1p(np.exp(-np.abs(d)))
    return y.astype(np.float32)


def errors(got, want):
    """(max ulp error over normal results, max absolute error over
    subnormal ones, count of special values that differ)."""
    special = ~np.isfinite(want) | ~np.isfinite(got)
    same = (got == want) | (np.isnan(got) & np.isnan(want))
    bad_special = int(np.count_nonzero(special & ~same))
    finite = ~special
    normal = finite & (np.abs(want) >= SUBNORMAL)
    ulp = np.spacing(np.abs(want[normal]))
    err = np.abs(got[normal].astype(np.float64) - want[normal].astype(np.float64))
    max_ulp = float(np.max(err / ulp)) if err.size else 0.0
    tiny = finite & ~normal
    max_abs = float(np.max(np.abs(got[tiny].astype(np.float64) - want[tiny]))) \
        if np.any(tiny) else 0.0
    return max_ulp, max_abs, bad_special


def main():
    args = parse_args(__doc__)
    x = inputs()
    info = helper.make_tensor_value_info
    nodes = [helper.make_node(f, ["x"], [f.lower()], name=f.lower()) for f in FUNCTIONS]
    graph = helper.make_graph(nodes, "math", [info("x", TensorProto.FLOAT, [x.size])],
                              [info(f.lower(), TensorProto.FLOAT, [x.size]) for f in FUNCTIONS])
    model = make_model(graph, 17)
    np.save(os.path.join(args.work, "x.npy"), x)
    expected = {f: exact(f, x) for f in FUNCTIONS}
    failures = []
    for math_mode, bounds in (("polynomial", POLYNOMIAL_ULP),
                              ("libm", {f: LIBM_ULP for f in FUNCTIONS})):
        work, library = compile_model(args, model, f"math_{math_mode}", f"--math={math_mode}")
        out = os.path.join(work, "outputs")
        proc = subprocess.run([args.infer_run, library, "--input",
                               f"x={os.path.join(args.work, 'x.npy')}", "--save-outputs", out],
                              capture_output=True, text=True, timeout=600)
        if proc.returncode != 0:
            sys.exit(f"FAIL: run --math={math_mode}:\n{proc.stdout}{proc.stderr}")
        for f in FUNCTIONS:
            got = np.load(os.path.join(out, f"{f.lower()}.npy"))
            max_ulp, max_abs, bad_special = errors(got, expected[f])
            ok = max_ulp <= bounds[f] and max_abs < SUBNORMAL and bad_special == 0
            print(f"{'ok' if ok else 'FAIL'} --math={math_mode} {f}: max {max_ulp:.2f} ulp "
                  f"(bound {bounds[f]}), subnormal results off by at most {max_abs:.3g}, "
                  f"{bad_special} special values differ ({x.size} inputs)")
            if not ok:
                failures.append(f"{math_mode} {f}")
    if failures:
        sys.exit(f"FAIL: {', '.join(failures)}")


if __name__ == "__main__":
    main()
