"""Shared pieces of the e2e scripts: arguments, models, test-data folders."""
import argparse
import os
import shutil
import subprocess
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper
from onnx.reference import ReferenceEvaluator


def parse_args(doc, *extra_tools, optional=()):
    """The scripts' arguments: --infer-compile, --infer-run, each of
    `extra_tools` (e.g. "infer-bench"), each of `optional` (None when not
    given) and --work, a folder made empty."""
    parser = argparse.ArgumentParser(description=doc,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    for tool in ("infer-compile", "infer-run") + extra_tools:
        parser.add_argument(f"--{tool}", required=True)
    for flag in optional:
        parser.add_argument(f"--{flag}")
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    return args


class Checks:
    """Counts checks that print PASS or FAIL and go on; `summary(name)`
    prints the count and returns the exit status (1 if any failed)."""

    def __init__(self):
        self.total = 0
        self.failures = 0

    def __call__(self, ok, what):
        self.total += 1
        self.failures += 0 if ok else 1
        print(("PASS" if ok else "FAIL") + ": " + what, flush=True)

    def expect(self, label, ok, detail):
        """A check that says `detail` (what was found) when it fails."""
        self(ok, label if ok else f"{label}: {detail}")

    def summary(self, name):
        print(f"{name}: {self.total - self.failures} of {self.total} checks passed")
        return 1 if self.failures else 0


def make_model(graph, opset, check=True):
    """A model of `graph` at default-domain `opset`, IR version 8 (what
    Debian's libonnx reads), checked with the full checker."""
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    if check:
        onnx.checker.check_model(model, full_check=True)
    return model


def compile_model(args, model, name, *extra, symbol=None):
    """Saves `model` in `args.work`/`name` and compiles it there with
    infer-compile (the artifact's name `symbol`, default `name`, and any
    `extra` arguments); exits on failure. Returns the folder and the .so."""
    symbol = symbol or name
    work = os.path.join(args.work, name)
    os.makedirs(work)
    path = os.path.join(work, "model.onnx")
    onnx.save(model, path)
    proc = subprocess.run([args.infer_compile, path, "-o", os.path.join(work, "out"),
                           "--name", symbol, *extra], capture_output=True, text=True,
                          timeout=600)
    if proc.returncode != 0:
        sys.exit(f"FAIL: compile {name}: {proc.stderr}")
    return work, os.path.join(work, "out", f"{symbol}.so")


def write_set(directory, model, feeds, expected=None):
    """`directory`/input_K.pb for each graph input of `model` from `feeds`
    (by name), and output_K.pb for each value of `expected` (in output
    order), when given."""
    os.makedirs(directory)
    for i, graph_input in enumerate(model.graph.input):
        tensor = numpy_helper.from_array(np.asarray(feeds[graph_input.name]), graph_input.name)
        with open(os.path.join(directory, f"input_{i}.pb"), "wb") as f:
            f.write(tensor.SerializeToString())
    for i, value in enumerate(expected or []):
        tensor = numpy_helper.from_array(np.asarray(value), model.graph.output[i].name)
        with open(os.path.join(directory, f"output_{i}.pb"), "wb") as f:
            f.write(tensor.SerializeToString())


def run(command):
    return subprocess.run(command, capture_output=True, text=True, timeout=600)


def expect_match(args, work, library, model, feeds, label):
    """Runs `library` on `feeds` and compares with onnx.reference; exits on a
    mismatch."""
    expected = ReferenceEvaluator(model).run(None, feeds)
    directory = os.path.join(work, label)
    write_set(directory, model, feeds, expected)
    proc = run([args.infer_run, library, "--test-data", directory])
    if proc.returncode != 0:
        sys.exit(f"FAIL: {label}:\n{proc.stdout}{proc.stderr}")
    shapes = ", ".join("x".join(map(str, np.shape(v))) for v in expected)
    print(f"ok {label}: outputs {shapes} match onnx.reference")


def expect_refused(args, work, library, model, feeds, label, wanted):
    """Runs `library` on `feeds` and expects exit status 1 with `wanted` in
    its message."""
    directory = os.path.join(work, label)
    write_set(directory, model, feeds)
    proc = run([args.infer_run, library, "--test-data", directory])
    message = proc.stdout + proc.stderr
    if proc.returncode != 1 or wanted not in message:
        sys.exit(f"FAIL: {label}: expected exit 1 and '{wanted}', got exit "
                 f"{proc.returncode}:\n{message}")
    print(f"ok {label}: refused ({wanted})")
