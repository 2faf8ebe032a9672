#!/usr/bin/env python3
"""Op modes the ONNX test data does not cover, against onnx.reference.

TfIdfVectorizer: the backend suites only test mode TF without weights.
Here IDF and TFIDF with and without weights, a 1-D int32 input and a 2-D
int64 input, unigrams and bigrams with skips, each compiled for the CPU and
compared. (onnx.reference fails on IDF/TFIDF without weights; there the
expected values follow the spec from the reference's TF counts: IDF is 1
where the count is positive, TFIDF the count.)

Usage: op_modes.py --infer-compile BIN --infer-run BIN --work DIR
"""
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

from test_data import make_model, parse_args, write_set


def tfidf_model(mode, dtype, shape, weights):
    info = helper.make_tensor_value_info
    attrs = dict(mode=mode, min_gram_length=1, max_gram_length=2, max_skip_count=2,
                 ngram_counts=[0, 3], ngram_indexes=[2, 0, 4, 1, 3],
                 pool_int64s=[2, 3, 5, 3, 5, 7, 7])
    if weights:
        attrs["weights"] = weights
    node = helper.make_node("TfIdfVectorizer", ["x"], ["y"], name="tfidf", **attrs)
    out_shape = [shape[0], 5] if len(shape) == 2 else [5]
    graph = helper.make_graph([node], "tfidf", [info("x", dtype, shape)],
                              [info("y", TensorProto.FLOAT, out_shape)])
    return make_model(graph, 13)


def main():
    args = parse_args(__doc__)
    rng = np.random.default_rng(3)
    passed = 0
    cases = [("TF", TensorProto.INT32, [12], None),
             ("IDF", TensorProto.INT64, [3, 10], [0.5, 1.5, 2.0, 0.25, 3.0]),
             ("IDF", TensorProto.INT32, [10], None),
             ("TFIDF", TensorProto.INT64, [2, 12], [0.5, 1.5, 2.0, 0.25, 3.0]),
             ("TFIDF", TensorProto.INT32, [2, 9], None)]
    for mode, dtype, shape, weights in cases:
        label = f"tfidf_{mode}_{'x'.join(map(str, shape))}{'_weighted' if weights else ''}"
        model = tfidf_model(mode, dtype, shape, weights)
        work = os.path.join(args.work, label)
        os.makedirs(work)
        path = os.path.join(work, "model.onnx")
        onnx.save(model, path)
        proc = subprocess.run([args.infer_compile, path, "-o", os.path.join(work, "out"),
                               "--name", "m"], capture_output=True, text=True)
        if proc.returncode != 0:
            sys.exit(f"FAIL: compile {label}: {proc.stderr}")
        np_type = np.int32 if dtype == TensorProto.INT32 else np.int64
        x = rng.integers(1, 9, shape).astype(np_type)
        if weights or mode == "TF":
            expected = ReferenceEvaluator(model).run(None, {"x": x})
        else:
            counts = ReferenceEvaluator(tfidf_model("TF", dtype, shape, None)).run(
                None, {"x": x})[0]
            expected = [(counts > 0).astype(np.float32) if mode == "IDF" else counts]
        if not np.any(expected[0]):
            sys.exit(f"FAIL: {label}: the input matches no n-gram (change the seed)")
        write_set(os.path.join(work, "data"), model, {"x": x}, expected)
        proc = subprocess.run([args.infer_run, os.path.join(work, "out", "m.so"),
                               "--test-data", os.path.join(work, "data")],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            sys.exit(f"FAIL: {label}:\n{proc.stdout}{proc.stderr}")
        print(f"ok {label} matches onnx.reference")
        passed += 1
    print(f"{passed} passed, 0 failed")


if __name__ == "__main__":
    main()
