#!/usr/bin/env python3
"""Run-time checks on the CPU target: bad indices are errors, not answers.

A model gathers rows of its data input with a run-time index tensor
(Gather) and scatters into a copy at run-time positions (ScatterND). With
indices in range (negative ones included) infer-run must match
onnx.reference; with an index out of range it must exit 1 with the
runtime's error naming the node and the failed check, for each of the two
ops, and the generated header must list the checks. A NonZero model (whose
output length depends on the data and is compiled at the length the model
declares) must match with that many non-zero elements and refuse other
counts.

Usage: runtime_checks.py --infer-compile BIN --infer-run BIN --work DIR
"""
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

from test_data import compile_model, make_model, parse_args, write_set

F, I64 = TensorProto.FLOAT, TensorProto.INT64


def build_model():
    info = helper.make_tensor_value_info
    graph = helper.make_graph(
        [helper.make_node("Gather", ["data", "rows"], ["picked"], axis=0, name="pick"),
         helper.make_node("ScatterND", ["data", "at", "updates"], ["scattered"],
                          name="place")],
        "checks",
        [info("data", F, [5, 3]), info("rows", I64, [4]), info("at", I64, [2, 1]),
         info("updates", F, [2, 3])],
        [info("picked", F, [4, 3]), info("scattered", F, [5, 3])])
    return make_model(graph, 16)


def run(command):
    return subprocess.run(command, capture_output=True, text=True, timeout=300)


def main():
    args = parse_args(__doc__)
    model = build_model()
    path = os.path.join(args.work, "checks.onnx")
    onnx.save(model, path)
    out = os.path.join(args.work, "out")
    proc = run([args.infer_compile, path, "-o", out, "--name", "checks"])
    if proc.returncode != 0:
        sys.exit(f"FAIL: compile: {proc.stderr}")
    header = open(os.path.join(out, "checks.h")).read()
    for needle in ["int32_t checks_main(", "node 'pick' (Gather): an index is out of range",
                   "node 'place' (ScatterND): an index is out of range"]:
        if needle not in header:
            sys.exit(f"FAIL: the header does not say '{needle}':\n{header}")
    library = os.path.join(out, "checks.so")
    rng = np.random.default_rng(5)
    data = rng.standard_normal((5, 3)).astype(np.float32)
    updates = rng.standard_normal((2, 3)).astype(np.float32)
    good = {"data": data, "rows": np.array([0, 4, -1, -5], np.int64),
            "at": np.array([[1], [-2]], np.int64), "updates": updates}
    expected = ReferenceEvaluator(model).run(None, good)
    write_set(os.path.join(args.work, "good"), model, good, expected)
    proc = run([args.infer_run, library, "--test-data", os.path.join(args.work, "good")])
    if proc.returncode != 0:
        sys.exit(f"FAIL: valid indices:\n{proc.stdout}{proc.stderr}")
    print("ok valid indices (negative ones too) match onnx.reference")
    passed = 1
    cases = [("gather", {"rows": np.array([0, 5, 1, 2], np.int64)}, "node 'pick' (Gather)"),
             ("gather_negative", {"rows": np.array([0, -6, 1, 2], np.int64)},
              "node 'pick' (Gather)"),
             ("scatter", {"at": np.array([[1], [7]], np.int64)}, "node 'place' (ScatterND)")]
    for name, change, node in cases:
        feeds = dict(good, **change)
        write_set(os.path.join(args.work, name), model, feeds)
        proc = run([args.infer_run, library, "--test-data", os.path.join(args.work, name)])
        message = proc.stdout + proc.stderr
        wanted = f"the inputs failed a run-time check: {node}: an index is out of range"
        if proc.returncode != 1 or wanted not in message:
            sys.exit(f"FAIL: {name}: expected exit 1 and '{wanted}', got exit "
                     f"{proc.returncode}:\n{message}")
        print(f"ok {name}: refused, naming {node}")
        passed += 1
    passed += check_declared_length(args)
    passed += check_nms(args)
    print(f"{passed} passed, 0 failed")


def nms_model(rows):
    info = helper.make_tensor_value_info
    graph = helper.make_graph(
        [helper.make_node("NonMaxSuppression", ["boxes", "scores", "max_out", "iou", "min_score"],
                          ["selected"], name="nms")],
        "nms",
        [info("boxes", F, [2, 24, 4]), info("scores", F, [2, 3, 24])],
        [info("selected", I64, [rows, 3])],
        [numpy_helper.from_array(np.array([24], np.int64), "max_out"),
         numpy_helper.from_array(np.array([0.4], np.float32), "iou"),
         numpy_helper.from_array(np.array([0.2], np.float32), "min_score")])
    return make_model(graph, 11, check=False)


def check_nms(args):
    """NonMaxSuppression on random overlapping boxes (2 batches, 3 classes,
    24 boxes, corners in either order, repeated scores), against
    onnx.reference; the model declares the count the reference selects, and
    other scores that select another count are refused."""
    rng = np.random.default_rng(9)
    corner = rng.uniform(0, 3, (2, 24, 2)).astype(np.float32)
    size = rng.uniform(1, 3, (2, 24, 2)).astype(np.float32)
    boxes = np.concatenate([corner, corner + size], axis=2)
    boxes[:, ::3] = boxes[:, ::3][..., [2, 3, 0, 1]]  # flipped corners
    scores = np.round(rng.uniform(0, 1, (2, 3, 24)), 1).astype(np.float32)
    feeds = {"boxes": boxes, "scores": scores}
    expected = ReferenceEvaluator(nms_model(0)).run(None, feeds)[0]
    model = nms_model(len(expected))
    work, library = compile_model(args, model, "nms")
    write_set(os.path.join(work, "same"), model, feeds, [expected])
    proc = run([args.infer_run, library, "--test-data", os.path.join(work, "same")])
    if proc.returncode != 0:
        sys.exit(f"FAIL: NonMaxSuppression:\n{proc.stdout}{proc.stderr}")
    print(f"ok NonMaxSuppression selects the {len(expected)} boxes onnx.reference selects")
    fewer = dict(feeds, scores=np.where(scores > 0.85, scores, 0).astype(np.float32))
    if len(ReferenceEvaluator(model).run(None, fewer)[0]) == len(expected):
        sys.exit("FAIL: the test's second input selects as many boxes (change the seed)")
    write_set(os.path.join(work, "fewer"), model, fewer)
    proc = run([args.infer_run, library, "--test-data", os.path.join(work, "fewer")])
    wanted = ("node 'nms' (NonMaxSuppression): the number of selected boxes differs from "
              f"the length the model declares for the output ({len(expected)})")
    if proc.returncode != 1 or wanted not in proc.stdout + proc.stderr:
        sys.exit(f"FAIL: NonMaxSuppression with other scores: expected '{wanted}':\n"
                 f"{proc.stdout}{proc.stderr}")
    print("ok NonMaxSuppression selecting another count is refused")
    return 2


def check_declared_length(args):
    """NonZero's output length is data dependent: the compiled model has the
    length the model declares, and a run whose data gives another is an
    error. Returns the number of checks passed."""
    info = helper.make_tensor_value_info
    graph = helper.make_graph(
        [helper.make_node("NonZero", ["x"], ["where"], name="find")], "nonzero",
        [info("x", F, [2, 3])], [info("where", I64, [2, 3])])
    model = make_model(graph, 13, check=False)
    work, library = compile_model(args, model, "nonzero", symbol="nz")
    passed = 0
    for name, x, ok in [("three", [[0, 2, 0], [1, 0, -3]], True),
                        ("two", [[0, 2, 0], [0, 0, -3]], False),
                        ("four", [[5, 2, 0], [1, 0, -3]], False)]:
        feeds = {"x": np.array(x, np.float32)}
        expected = ReferenceEvaluator(model).run(None, feeds) if ok else None
        write_set(os.path.join(work, name), model, feeds, expected)
        proc = run([args.infer_run, library, "--test-data", os.path.join(work, name)])
        message = proc.stdout + proc.stderr
        wanted = ("node 'find' (NonZero): the number of non-zero elements differs from "
                  "the length the model declares for the output (3)")
        if ok and proc.returncode != 0:
            sys.exit(f"FAIL: NonZero {name}:\n{message}")
        if not ok and (proc.returncode != 1 or wanted not in message):
            sys.exit(f"FAIL: NonZero {name}: expected exit 1 and '{wanted}', got exit "
                     f"{proc.returncode}:\n{message}")
        print(f"ok NonZero with {name} non-zero elements: "
              f"{'matches onnx.reference' if ok else 'refused'}")
        passed += 1
    return passed


if __name__ == "__main__":
    main()
