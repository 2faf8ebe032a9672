#!/usr/bin/env python3
"""Dynamic shapes on the CPU target: one artifact, many input shapes.

Models whose inputs have `?` dims compile without --shape to a generic
variant that sizes its tensors at run time. Each run below is compared
with onnx.reference:

- a CNN (Conv, BatchNormalization, Relu, MaxPool, depthwise Conv, Clip,
  AveragePool, GlobalAveragePool, Flatten, Gemm, Softmax, ReduceMean) with
  a dynamic batch, compiled with --shape-profile 1..6: batches 1, 2, 5 and
  6 match, batch 7 is refused naming the range;
- an attention-like block (MatMul, Add, LayerNormalization, Transpose,
  batched MatMul, Softmax) whose batch and sequence length are both
  dynamic, with no profile: (1, 1), (2, 5) and (3, 7) match;
- a PyTorch-style shape subgraph (Shape, Gather, Mul, Unsqueeze, Concat
  feeding Reshape, then Slice and Transpose) with a dynamic batch: the
  static entries fold at compile time, the batch is read at run time;
  batches 1, 3 and 8 match;
- an embedding lookup (Gather of token ids) concatenated with a second
  input and mean-pooled over the sequence, batch and length dynamic:
  (1, 1) and (2, 5) match, an out-of-range token id is refused;
- Unique, whose outputs are as long as the number of distinct values:
  declared dynamic, one artifact returns 3 and then 5 values (sorted,
  with indices, inverse indices and counts); declared with a length, a
  run with another count is refused;
- GatherElements with dynamic data and indices (batch, rows): (1, 1, 1)
  and (2, 5, 5) match, indices with more rows than the data are refused;
- an Add of two dynamic operands: equal sizes match, a size of 1 on
  either side broadcasts at run time (as ONNX allows), sizes 3 and 2 are
  refused by the run-time check naming the node.

The generated header must declare the dynamic dims and the profile, and
infer-bench must time the CNN at a --shape inside the profile and refuse
one outside it.

Usage: dynamic_shapes.py --infer-compile BIN --infer-run BIN --infer-bench BIN
                         --work DIR
"""
import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

from test_data import compile_model, expect_match, expect_refused, make_model, parse_args, run

F = TensorProto.FLOAT
RNG = np.random.default_rng(11)


def weight(name, *shape, scale=0.3):
    return numpy_helper.from_array((RNG.standard_normal(shape) * scale).astype(np.float32),
                                   name)


def cnn_model():
    info = helper.make_tensor_value_info
    node = helper.make_node
    nodes = [
        node("Conv", ["x", "w1", "b1"], ["c1"], kernel_shape=[3, 3], pads=[1, 1, 1, 1],
             name="conv1"),
        node("BatchNormalization", ["c1", "bn_scale", "bn_shift", "bn_mean", "bn_var"], ["bn"],
             name="bn"),
        node("Relu", ["bn"], ["r1"], name="relu"),
        node("MaxPool", ["r1"], ["p1"], kernel_shape=[2, 2], strides=[2, 2], name="pool"),
        node("Conv", ["p1", "w2"], ["c2"], kernel_shape=[3, 3], pads=[1, 1, 1, 1], group=8,
             name="depthwise"),
        node("Clip", ["c2", "lo", "hi"], ["k"], name="clip"),
        node("AveragePool", ["k"], ["a"], kernel_shape=[3, 3], pads=[1, 1, 1, 1],
             name="avg"),
        node("GlobalAveragePool", ["a"], ["g"], name="gap"),
        node("Flatten", ["g"], ["f"], name="flatten"),
        node("Gemm", ["f", "w3", "b3"], ["logits"], transB=1, name="fc"),
        node("Softmax", ["logits"], ["probs"], axis=-1, name="softmax"),
        node("ReduceMean", ["f"], ["mean_feature"], axes=[1], keepdims=0, name="mean"),
    ]
    inits = [weight("w1", 8, 3, 3, 3), weight("b1", 8), weight("bn_scale", 8),
             weight("bn_shift", 8), weight("bn_mean", 8),
             numpy_helper.from_array(RNG.uniform(0.5, 1.5, 8).astype(np.float32), "bn_var"),
             weight("w2", 8, 1, 3, 3), weight("w3", 10, 8), weight("b3", 10),
             numpy_helper.from_array(np.array(-0.5, np.float32), "lo"),
             numpy_helper.from_array(np.array(0.5, np.float32), "hi")]
    graph = helper.make_graph(nodes, "cnn", [info("x", F, ["N", 3, 16, 16])],
                              [info("probs", F, ["N", 10]), info("mean_feature", F, ["N"])],
                              inits)
    # Opset 14: onnx.reference's BatchNormalization-9 does not compute the
    # inference-mode formula that ONNX Runtime and the spec do.
    return make_model(graph, 14)


def attention_model():
    info = helper.make_tensor_value_info
    node = helper.make_node
    nodes = [
        node("MatMul", ["x", "wq"], ["q0"], name="project"),
        node("Add", ["q0", "bq"], ["q1"], name="bias"),
        node("LayerNormalization", ["q1", "gamma", "beta"], ["q"], axis=-1, name="norm"),
        node("Transpose", ["x"], ["xt"], perm=[0, 2, 1], name="transpose"),
        node("MatMul", ["q", "xt"], ["scores"], name="scores"),
        node("Softmax", ["scores"], ["weights"], axis=-1, name="softmax"),
        node("MatMul", ["weights", "x"], ["y"], name="mix"),
    ]
    inits = [weight("wq", 8, 8), weight("bq", 8), weight("gamma", 8), weight("beta", 8)]
    graph = helper.make_graph(nodes, "attention", [info("x", F, ["B", "S", 8])],
                              [info("y", F, ["B", "S", 8])], inits)
    return make_model(graph, 17)


def reshape_chain_model():
    """x [N, 4, 6] -> Reshape(x, [N * 2, Shape(x)[2] * 2]) -> Slice cols
    3..9 -> Transpose: as torch.onnx exports x.view(x.size(0) * 2, -1)."""
    info = helper.make_tensor_value_info
    node = helper.make_node
    const = lambda name, v: numpy_helper.from_array(np.array(v, np.int64), name)
    nodes = [
        node("Shape", ["x"], ["s"], name="shape"),
        node("Gather", ["s", "i0"], ["n"], axis=0, name="batch"),
        node("Gather", ["s", "i2"], ["c"], axis=0, name="cols"),
        node("Mul", ["n", "two"], ["rows"], name="rows"),
        node("Mul", ["c", "two"], ["width"], name="width"),
        node("Unsqueeze", ["rows", "axis0"], ["rows1"], name="rows1"),
        node("Unsqueeze", ["width", "axis0"], ["width1"], name="width1"),
        node("Concat", ["rows1", "width1"], ["target"], axis=0, name="target"),
        node("Reshape", ["x", "target"], ["r"], name="reshape"),
        node("Slice", ["r", "start", "end", "axis1"], ["sl"], name="slice"),
        node("Transpose", ["sl"], ["y"], perm=[1, 0], name="transpose"),
    ]
    inits = [const("i0", 0), const("i2", 2), const("two", 2), const("axis0", [0]),
             const("start", [3]), const("end", [9]), const("axis1", [1])]
    graph = helper.make_graph(nodes, "reshape_chain", [info("x", F, ["N", 4, 6])],
                              [info("y", F, [6, None])], inits)
    return make_model(graph, 13)


def embedding_model():
    info = helper.make_tensor_value_info
    node = helper.make_node
    nodes = [node("Gather", ["table", "ids"], ["embedded"], axis=0, name="embed"),
             node("Concat", ["embedded", "extra"], ["features"], axis=2, name="concat"),
             node("ReduceMean", ["features"], ["pooled"], axes=[1], keepdims=0, name="pool")]
    graph = helper.make_graph(
        nodes, "embedding",
        [info("ids", TensorProto.INT64, ["B", "S"]), info("extra", F, ["B", "S", 4])],
        [info("features", F, ["B", "S", 12]), info("pooled", F, ["B", 12])],
        [weight("table", 16, 8)])
    return make_model(graph, 13)


def unique_model(length):
    info = helper.make_tensor_value_info
    i64 = TensorProto.INT64
    node = helper.make_node("Unique", ["x"], ["y", "indices", "inverse", "counts"],
                            sorted=1, name="unique")
    graph = helper.make_graph([node], "unique", [info("x", F, [8])],
                              [info("y", F, [length]), info("indices", i64, [length]),
                               info("inverse", i64, [8]), info("counts", i64, [length])])
    return make_model(graph, 13)


def gather_elements_model():
    info = helper.make_tensor_value_info
    graph = helper.make_graph(
        [helper.make_node("GatherElements", ["x", "i"], ["y"], axis=2, name="pick")],
        "gather_elements",
        [info("x", F, ["B", "S", 6]), info("i", TensorProto.INT64, ["B", "T", 3])],
        [info("y", F, ["B", "T", 3])])
    return make_model(graph, 13)


def add_model():
    info = helper.make_tensor_value_info
    graph = helper.make_graph([helper.make_node("Add", ["a", "b"], ["c"], name="add")], "add",
                              [info("a", F, ["N", 4]), info("b", F, ["M", 4])],
                              [info("c", F, ["N", 4])])
    return make_model(graph, 13, check=False)


def main():
    args = parse_args(__doc__, "infer-bench")
    passed = 0

    cnn = cnn_model()
    work, library = compile_model(args, cnn, "cnn", "--shape-profile",
                                  "x=1x3x16x16:2x3x16x16:6x3x16x16")
    header = open(os.path.join(work, "out", "cnn.h")).read()
    for needle in ["#define CNN_DYNAMIC 1", "float32 [-1,3,16,16]",
                   "from [1,3,16,16] to [6,3,16,16], opt [2,3,16,16]",
                   "output 0 'probs': float32 [-1,10]", "int32_t cnn_main(void *const *inputs"]:
        if needle not in header:
            sys.exit(f"FAIL: the header does not say '{needle}':\n{header}")
    print("ok the header declares the dynamic dims and the profile")
    passed += 1
    for batch in [1, 2, 5, 6]:
        x = RNG.standard_normal((batch, 3, 16, 16)).astype(np.float32)
        expect_match(args, work, library, cnn, {"x": x}, f"cnn_batch{batch}")
        passed += 1
    x = RNG.standard_normal((7, 3, 16, 16)).astype(np.float32)
    expect_refused(args, work, library, cnn, {"x": x}, "cnn_batch7",
                   "input 'x': dim 0 is 7, outside the range [1, 6]")
    passed += 1
    proc = run([args.infer_bench, library, "--shape", "x=6x3x16x16", "--iterations", "3",
                "--json"])
    if proc.returncode != 0 or '"latency_ms"' not in proc.stdout:
        sys.exit(f"FAIL: infer-bench --shape x=6x3x16x16:\n{proc.stdout}{proc.stderr}")
    proc = run([args.infer_bench, library, "--shape", "x=7x3x16x16", "--iterations", "3"])
    if proc.returncode != 1 or "outside the range [1, 6]" not in proc.stderr:
        sys.exit(f"FAIL: infer-bench --shape x=7x3x16x16 should be refused:\n"
                 f"{proc.stdout}{proc.stderr}")
    print("ok infer-bench times batch 6 and refuses batch 7")
    passed += 1

    attention = attention_model()
    work, library = compile_model(args, attention, "attention")
    for batch, length in [(1, 1), (2, 5), (3, 7)]:
        x = RNG.standard_normal((batch, length, 8)).astype(np.float32)
        expect_match(args, work, library, attention, {"x": x},
                     f"attention_{batch}x{length}")
        passed += 1

    chain = reshape_chain_model()
    work, library = compile_model(args, chain, "chain")
    for batch in [1, 3, 8]:
        x = RNG.standard_normal((batch, 4, 6)).astype(np.float32)
        expect_match(args, work, library, chain, {"x": x}, f"chain_batch{batch}")
        passed += 1

    embedding = embedding_model()
    work, library = compile_model(args, embedding, "embedding")
    for batch, length in [(1, 1), (2, 5)]:
        feeds = {"ids": RNG.integers(-16, 16, (batch, length)).astype(np.int64),
                 "extra": RNG.standard_normal((batch, length, 4)).astype(np.float32)}
        expect_match(args, work, library, embedding, feeds, f"embedding_{batch}x{length}")
        passed += 1
    feeds = {"ids": np.array([[3, 16]], np.int64),
             "extra": RNG.standard_normal((1, 2, 4)).astype(np.float32)}
    expect_refused(args, work, library, embedding, feeds, "embedding_bad_id",
                   "node 'embed' (Gather): an index is out of range")
    passed += 1

    unique = unique_model("K")
    work, library = compile_model(args, unique, "unique")
    for label, values in [("unique_three", [2, 7, 2, 2, 7, -1, -1, 2]),
                          ("unique_five", [4, 3, 3, 9, 0, 4, 1, 0])]:
        expect_match(args, work, library, unique, {"x": np.array(values, np.float32)}, label)
        passed += 1
    fixed = unique_model(3)
    work, library = compile_model(args, fixed, "unique_fixed")
    expect_match(args, work, library, fixed,
                 {"x": np.array([2, 7, 2, 2, 7, -1, -1, 2], np.float32)}, "unique_declared")
    expect_refused(args, work, library, fixed,
                   {"x": np.array([4, 3, 3, 9, 0, 4, 1, 0], np.float32)}, "unique_other_count",
                   "node 'unique' (Unique): the number of unique elements differs from the "
                   "length the model declares for its outputs (3)")
    passed += 2

    gather = gather_elements_model()
    work, library = compile_model(args, gather, "gather_elements")
    for batch, length, rows in [(1, 1, 1), (2, 5, 5)]:
        feeds = {"x": RNG.standard_normal((batch, length, 6)).astype(np.float32),
                 "i": RNG.integers(-6, 6, (batch, rows, 3)).astype(np.int64)}
        expect_match(args, work, library, gather, feeds, f"gather_elements_{batch}x{length}")
        passed += 1
    feeds = {"x": RNG.standard_normal((1, 2, 6)).astype(np.float32),
             "i": np.zeros((1, 4, 3), np.int64)}
    expect_refused(args, work, library, gather, feeds, "gather_elements_too_many_rows",
                   "node 'pick' (GatherElements): dimension 1 of the indices exceeds the data's")
    passed += 1

    add = add_model()
    work, library = compile_model(args, add, "add")
    a = RNG.standard_normal((3, 4)).astype(np.float32)
    expect_match(args, work, library, add, {"a": a, "b": a * 2}, "add_same")
    # A dynamic dim of 1 broadcasts at run time, on either side.
    row = RNG.standard_normal((1, 4)).astype(np.float32)
    expect_match(args, work, library, add, {"a": a, "b": row}, "add_broadcast_b")
    expect_match(args, work, library, add, {"a": row, "b": a}, "add_broadcast_a")
    expect_refused(args, work, library, add,
                   {"a": a, "b": RNG.standard_normal((2, 4)).astype(np.float32)},
                   "add_mismatch",
                   "node 'add' (Add): dimension 0 of operand 1 neither matches nor broadcasts")
    passed += 4
    print(f"{passed} passed, 0 failed")


if __name__ == "__main__":
    main()
