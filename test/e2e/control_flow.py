#!/usr/bin/env python3
"""Loop and Scan on the CPU target, against independent expected outputs.

Each model is built here, compiled with `infer-compile`, run by `infer-run`
on inputs whose expected outputs come from onnx.reference (a separate
implementation of every op) or, for the reversed Scan that onnx.reference
does not implement, from numpy written out here; through ONNX test-data
directories. Covered:
- a Loop with a run-time trip count and a run-time condition that the body
  updates (an scf.while), run on several inputs that stop it at different
  steps, one of them before the first step;
- a Loop with a constant trip count and scan outputs (an scf.for);
- a Scan with two states, a reversed scan input along axis 1, and scan
  outputs along axis 0 and (reversed) axis 1;
- a Loop whose scan outputs have a run-time count: compiled at the length
  the model declares, it must match when the trip count gives that length
  and fail with the runtime's error naming the node when it does not.

Usage: control_flow.py --infer-compile BIN --infer-run BIN --work DIR
"""
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

from test_data import make_model, parse_args, write_set

F, I64, B = TensorProto.FLOAT, TensorProto.INT64, TensorProto.BOOL


def info(name, dtype, shape):
    return helper.make_tensor_value_info(name, dtype, shape)


def model_of(graph, opset=16):
    return make_model(graph, opset)


def while_loop():
    """v <- v * 1.5 + i while i < M and sum(v) < limit."""
    body = helper.make_graph(
        [helper.make_node("Cast", ["i"], ["fi"], to=F),
         helper.make_node("Mul", ["v", "k"], ["scaled"]),
         helper.make_node("Add", ["scaled", "fi"], ["v_next"]),
         helper.make_node("ReduceSum", ["v_next"], ["total"], keepdims=0),
         helper.make_node("Less", ["total", "limit"], ["c_next"])],
        "body",
        [info("i", I64, []), info("c", B, []), info("v", F, [3])],
        [info("c_next", B, []), info("v_next", F, [3])],
        [numpy_helper.from_array(np.array([1.5], np.float32), "k")])
    graph = helper.make_graph(
        [helper.make_node("Loop", ["m", "cond", "v0"], ["v"], body=body, name="grow")],
        "while_loop",
        [info("m", I64, []), info("cond", B, []), info("v0", F, [3]),
         info("limit", F, [])],
        [info("v", F, [3])])
    rng = np.random.default_rng(1)
    cases = []
    for m, cond, limit in [(10, True, 50.0), (4, True, 1e6), (10, False, 50.0),
                           (0, True, 50.0)]:
        cases.append({"m": np.array(m, np.int64), "cond": np.array(cond),
                      "v0": rng.uniform(0.5, 1.5, 3).astype(np.float32),
                      "limit": np.array(limit, np.float32)})
    return model_of(graph), cases


def counted_loop():
    """Five steps; each emits v and i * v as scan outputs. (The condition is
    a constant true: onnx.reference does not run a Loop without one, and its
    scan outputs of 1-d slices: it concatenates 2-d ones instead of stacking
    them.)"""
    body = helper.make_graph(
        [helper.make_node("Cast", ["i"], ["fi"], to=F),
         helper.make_node("Add", ["v", "fi"], ["v_next"]),
         helper.make_node("Identity", ["v_next"], ["v_scan"]),
         helper.make_node("Mul", ["v_next", "fi"], ["scaled"]),
         helper.make_node("Identity", ["c"], ["c_out"])],
        "body",
        [info("i", I64, []), info("c", B, []), info("v", F, [3])],
        [info("c_out", B, []), info("v_next", F, [3]), info("v_scan", F, [3]),
         info("scaled", F, [3])])
    graph = helper.make_graph(
        [helper.make_node("Loop", ["m", "true", "v0"], ["v", "vs", "ss"], body=body,
                          name="count")],
        "counted_loop",
        [info("v0", F, [3])],
        [info("v", F, [3]), info("vs", F, [5, 3]), info("ss", F, [5, 3])],
        [numpy_helper.from_array(np.array(5, np.int64), "m"),
         numpy_helper.from_array(np.array(True), "true")])
    rng = np.random.default_rng(2)
    return model_of(graph), [{"v0": rng.standard_normal(3).astype(np.float32)}]


def scan():
    """States (sum, max) over the columns of x, read right to left."""
    body = helper.make_graph(
        [helper.make_node("Add", ["s", "col"], ["s_next"]),
         helper.make_node("Max", ["mx", "col"], ["mx_next"]),
         helper.make_node("Mul", ["col", "col"], ["sq"]),
         helper.make_node("Identity", ["s_next"], ["s_out"])],
        "body",
        [info("s", F, [4]), info("mx", F, [4]), info("col", F, [4])],
        [info("s_next", F, [4]), info("mx_next", F, [4]), info("s_out", F, [4]),
         info("sq", F, [4])])
    graph = helper.make_graph(
        [helper.make_node("Scan", ["s0", "m0", "x"], ["s", "m", "sums", "squares"],
                          body=body, num_scan_inputs=1, scan_input_axes=[1],
                          scan_input_directions=[1], scan_output_axes=[0, 1],
                          scan_output_directions=[0, 1], name="columns")],
        "scan",
        [info("s0", F, [4]), info("m0", F, [4]), info("x", F, [4, 6])],
        [info("s", F, [4]), info("m", F, [4]), info("sums", F, [6, 4]),
         info("squares", F, [4, 6])])
    rng = np.random.default_rng(3)
    return model_of(graph), [{"s0": rng.standard_normal(4).astype(np.float32),
                              "m0": np.full(4, -10, np.float32),
                              "x": rng.standard_normal((4, 6)).astype(np.float32)}]


def scan_expected(feeds):
    """The scan above in numpy (onnx.reference implements only forward
    directions): step t reads column 5 - t; `sums` stacks the running sum
    forward along axis 0, `squares` the squared columns backward along
    axis 1, so step t's slice lands at column 5 - t."""
    s, mx, x = feeds["s0"].copy(), feeds["m0"].copy(), feeds["x"]
    sums, squares = np.zeros((6, 4), np.float32), np.zeros((4, 6), np.float32)
    for t in range(6):
        col = x[:, 5 - t]
        s = s + col
        mx = np.maximum(mx, col)
        sums[t] = s
        squares[:, 5 - t] = col * col
    return [s, mx, sums, squares]


def runtime_count_loop():
    """Scan outputs (the step numbers) with a run-time trip count."""
    body = helper.make_graph(
        [helper.make_node("Identity", ["c"], ["c_out"]),
         helper.make_node("Cast", ["i"], ["fi"], to=F)],
        "body", [info("i", I64, []), info("c", B, [])],
        [info("c_out", B, []), info("fi", F, [])])
    graph = helper.make_graph(
        [helper.make_node("Loop", ["m", "true"], ["steps"], body=body, name="steps")],
        "runtime_count", [info("m", I64, [])], [info("steps", F, [3])],
        [numpy_helper.from_array(np.array(True), "true")])
    return model_of(graph)


def run(command, expect_ok=True):
    proc = subprocess.run(command, capture_output=True, text=True, timeout=300)
    if (proc.returncode == 0) != expect_ok:
        sys.exit(f"FAIL: {' '.join(command)} exited {proc.returncode}\n"
                 f"{proc.stdout}{proc.stderr}")
    return proc.stdout + proc.stderr


def check(args, name, model, cases, expected_of=None):
    work = os.path.join(args.work, name)
    os.makedirs(work)
    path = os.path.join(work, "model.onnx")
    onnx.save(model, path)
    run([args.infer_compile, path, "-o", os.path.join(work, "out"), "--name", name])
    if expected_of is None:
        expected_of = lambda feeds: ReferenceEvaluator(model).run(None, feeds)
    command = [args.infer_run, os.path.join(work, "out", name + ".so")]
    for k, feeds in enumerate(cases):
        expected = expected_of(feeds)
        data = os.path.join(work, f"test_data_set_{k}")
        write_set(data, model, feeds, expected)
        command += ["--test-data", data]
    print(run(command), end="")
    print(f"ok {name}: {len(cases)} input set(s) match the expected outputs")


def main():
    args = parse_args(__doc__)
    for name, build, expected_of in [("while_loop", while_loop, None),
                                     ("counted_loop", counted_loop, None),
                                     ("scan", scan, scan_expected)]:
        model, cases = build()
        check(args, name, model, cases, expected_of)
    # Scan outputs with a run-time count: compiled at the declared length
    # (3), which a run must reach exactly.
    # (onnx.reference stacks scalar slices as [3, 1]: the steps are 0, 1, 2.)
    model = runtime_count_loop()
    check(args, "runtime_count", model, [{"m": np.array(3, np.int64)}],
          lambda feeds: [np.arange(3, dtype=np.float32)])
    work = os.path.join(args.work, "runtime_count")
    for m in (2, 4):
        data = os.path.join(work, f"m{m}")
        write_set(data, model, {"m": np.array(m, np.int64)})
        message = run([args.infer_run, os.path.join(work, "out", "runtime_count.so"),
                       "--test-data", data], expect_ok=False)
        wanted = ("node 'steps' (Loop): the loop runs a number of iterations other than "
                  "the length the model declares for its scan outputs (3)")
        if wanted not in message:
            sys.exit(f"FAIL: runtime_count with M={m}: expected '{wanted}':\n{message}")
    print("ok runtime_count: M=2 and M=4 refused, naming the node")
    print("4 passed, 0 failed")


if __name__ == "__main__":
    main()
