#!/usr/bin/env python3
"""What real exporters write, beyond one op at a time (CPU target).

Each model is the smallest form of a pattern that made a real exported
model fail to compile; each run is compared with onnx.reference:

- PyTorch's `expand` idiom: the target shape goes through
  Where(Equal(shape, ConstantOfShape(...) * -1), ones, shape). With
  static shapes it folds to a constant; with a dynamic batch the shape is
  read at run time (batches 1 and 3);
- a Reshape to a shape with two run-time entries (batch and sequence),
  Tile with run-time repeats and ConstantOfShape sized from the input, in
  the generic variant at two shapes;
- an LSTM and a GRU whose results the exporter declared with `?` dims:
  shape propagation refines them from the operands; compiled again with
  batch and frame count dynamic and run at two shapes;
- InstanceNormalization, Resize (nearest, linear) and Pad with a dynamic
  batch;
- a model whose output is a Flatten of a pooled intermediate, batch
  dynamic (the output is a view the generic variant must copy out);
- `quantize_dynamic`'s form: DynamicQuantizeLinear feeding ConvInteger and
  MatMulInteger, static and with a dynamic batch;
- an If on a run-time condition (a sample-rate input), each branch a
  strided Conv and an LSTM with state in and out, run with both values;
  `--bind sample_rate=8000` folds it to one branch and drops the input;
- an If whose branches give results of different shapes (the generic
  variant sizes what follows at run time), run both ways;
- an output declared with the wrong rank (as one CRNN exporter did): the
  compile warns and the computed shape is returned;
- PyTorch's export of F.batch_norm(training=True) (timm's weight
  standardization) before opset 14: a BatchNormalization with five
  outputs, the last two dead, which normalizes by the batch's statistics.
  onnx.reference reads that form differently from PyTorch and ONNX
  Runtime, so this one is compared with ONNX Runtime; a model that reads
  a saved statistic is refused naming it.

- infer-bench on BERT-style embeddings: random token-type ids overrun a
  2-row table and are refused naming the node; --int-range, --test-data
  and --input give it inputs the model accepts.

Usage: exporter_idioms.py --infer-compile BIN --infer-run BIN --infer-bench BIN
                          --work DIR
"""
import copy
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

from test_data import compile_model, expect_match, make_model, parse_args, write_set

F = TensorProto.FLOAT
RNG = np.random.default_rng(17)
node = helper.make_node
info = helper.make_tensor_value_info


def ints(name, values):
    return numpy_helper.from_array(np.array(values, np.int64), name)


def floats(name, *shape, scale=0.3):
    return numpy_helper.from_array((RNG.standard_normal(shape) * scale).astype(np.float32),
                                   name)


def expand_idiom_model():
    """mask [B, S] -> [B, 2, S, S] through PyTorch's expand shape idiom."""
    nodes = [
        node("Shape", ["mask"], ["shape"]),
        node("Gather", ["shape", "zero"], ["batch"], axis=0),
        node("Gather", ["shape", "one"], ["seq"], axis=0),
        node("Concat", ["batch", "heads", "seq", "seq"], ["target"], axis=0),
        node("Shape", ["target"], ["target_len"]),
        node("ConstantOfShape", ["target_len"], ["ones"],
             value=numpy_helper.from_array(np.array([1], np.int64))),
        node("Mul", ["ones", "minus_one"], ["negated"]),
        node("Equal", ["target", "negated"], ["is_minus_one"]),
        node("Where", ["is_minus_one", "ones", "target"], ["expand_shape"]),
        node("Unsqueeze", ["mask", "axes12"], ["mask4"]),
        node("Expand", ["mask4", "expand_shape"], ["expanded"], name="/self_attn/Expand"),
        node("Add", ["expanded", "scores"], ["y"]),
    ]
    inits = [ints("zero", [0]), ints("one", [1]), ints("heads", [2]), ints("minus_one", -1),
             ints("axes12", [1, 2])]
    graph = helper.make_graph(nodes, "expand_idiom",
                              [info("mask", F, ["B", "S"]), info("scores", F, ["B", 2, "S", "S"])],
                              [info("y", F, ["B", 2, "S", "S"])], inits)
    return make_model(graph, 14)


def runtime_shapes_model():
    """Reshape [B, S, 8] -> [B, S, 2, 4] from a run-time shape; Tile by
    run-time repeats; ConstantOfShape of the input's shape."""
    nodes = [
        node("Shape", ["x"], ["shape"]),
        node("Slice", ["shape", "zero", "two"], ["bs"]),
        node("Concat", ["bs", "split"], ["target"], axis=0),
        node("Reshape", ["x", "target"], ["heads"], name="reshape"),
        node("Transpose", ["heads"], ["y"], perm=[0, 2, 1, 3]),
        node("Concat", ["one_one", "bs"], ["repeats"], axis=0),
        node("Tile", ["small", "repeats"], ["tiled"], name="tile"),
        node("ConstantOfShape", ["bs"], ["filled"],
             value=numpy_helper.from_array(np.array([2.5], np.float32))),
        node("Mul", ["tiled", "filled"], ["z"]),
    ]
    inits = [ints("zero", [0]), ints("two", [2]), ints("split", [2, 4]),
             ints("one_one", [1, 1]), floats("small", 1, 2, 1, 1)]
    graph = helper.make_graph(nodes, "runtime_shapes", [info("x", F, ["B", "S", 8])],
                              [info("y", F, ["B", 2, "S", 4]), info("z", F, [1, 2, "B", "S"])],
                              inits)
    return make_model(graph, 13)


def recurrent_model():
    """LSTM then GRU over a mel spectrogram; the exporter declared every
    recurrent result with unknown dims."""
    hidden, features = 16, 8
    nodes = [
        node("Transpose", ["mel"], ["time_major"], perm=[1, 0, 2]),
        node("LSTM", ["time_major", "W", "R", "B"], ["Y", "Y_h", "Y_c"], hidden_size=hidden,
             name="lstm"),
        node("Squeeze", ["Y", "one"], ["lstm_out"]),
        node("GRU", ["lstm_out", "W2", "R2"], ["Y2", "Y2_h"], hidden_size=hidden,
             direction="bidirectional", name="gru"),
        node("Transpose", ["Y2"], ["out"], perm=[2, 0, 1, 3]),
    ]
    inits = [floats("W", 1, 4 * hidden, features), floats("R", 1, 4 * hidden, hidden),
             floats("B", 1, 8 * hidden), floats("W2", 2, 3 * hidden, hidden),
             floats("R2", 2, 3 * hidden, hidden), ints("one", [1])]
    value_info = [info("Y", F, ["t", "d", "b", "h"]), info("Y_h", F, ["d", "b", "h"]),
                  info("Y_c", F, ["d", "b", "h"]), info("lstm_out", F, ["t", "b", "h"]),
                  info("Y2", F, ["t2", "d2", "b2", "h2"])]
    graph = helper.make_graph(nodes, "recurrent", [info("mel", F, ["N", "T", features])],
                              [info("out", F, ["n", "t", "d", "h"])], inits,
                              value_info=value_info)
    return make_model(graph, 14)


def pooled_output_model():
    """GlobalAveragePool then Flatten as the output, batch dynamic: the
    output is a view of an intermediate."""
    nodes = [node("Relu", ["x"], ["r"]), node("GlobalAveragePool", ["r"], ["g"]),
             node("Flatten", ["g"], ["y"])]
    graph = helper.make_graph(nodes, "pooled_output", [info("x", F, ["N", 4, 5, 5])],
                              [info("y", F, ["N", 4])])
    return make_model(graph, 13)


def upsampling_head_model():
    """InstanceNormalization then a 2x Resize (nearest and linear), batch
    dynamic: a segmentation or source-separation head."""
    nodes = [node("InstanceNormalization", ["x", "gamma", "beta"], ["n"], name="norm"),
             node("Resize", ["n", "", "scales"], ["up"], mode="nearest", name="up_nearest"),
             node("Resize", ["up", "", "scales"], ["y"], mode="linear",
                  coordinate_transformation_mode="half_pixel", name="up_linear")]
    inits = [floats("gamma", 3), floats("beta", 3),
             numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), "scales")]
    graph = helper.make_graph(nodes, "upsampling_head", [info("x", F, ["N", 3, 4, 5])],
                              [info("y", F, ["N", 3, 16, 20])], inits)
    return make_model(graph, 13)


def padded_pool_model():
    """An explicit Pad before AveragePool (how PyTorch exports
    count_include_pad), batch dynamic."""
    nodes = [node("Pad", ["x", "pads"], ["p"], name="pad"),
             node("AveragePool", ["p"], ["y"], kernel_shape=[3, 3], strides=[1, 1])]
    graph = helper.make_graph(nodes, "padded_pool", [info("x", F, ["N", 2, 5, 5])],
                              [info("y", F, ["N", 2, 5, 5])],
                              [ints("pads", [0, 0, 1, 1, 0, 0, 1, 1])])
    return make_model(graph, 13)


def dynamic_quant_model():
    """onnxruntime's quantize_dynamic form of Conv -> Flatten -> MatMul."""
    nodes = [
        node("DynamicQuantizeLinear", ["x"], ["xq", "xs", "xz"]),
        node("ConvInteger", ["xq", "wq", "xz", "wz"], ["acc"], kernel_shape=[3, 3],
             pads=[1, 1, 1, 1], name="conv_quant"),
        node("Cast", ["acc"], ["acc_f"], to=F),
        node("Mul", ["xs", "ws"], ["scale"]),
        node("Mul", ["acc_f", "scale"], ["conv"]),
        node("Relu", ["conv"], ["relu"]),
        node("Flatten", ["relu"], ["flat"]),
        node("DynamicQuantizeLinear", ["flat"], ["fq", "fs", "fz"]),
        node("MatMulInteger", ["fq", "w2q", "fz", "w2z"], ["acc2"], name="fc_quant"),
        node("Cast", ["acc2"], ["acc2_f"], to=F),
        node("Mul", ["fs", "w2s"], ["scale2"]),
        node("Mul", ["acc2_f", "scale2"], ["y"]),
    ]
    inits = [numpy_helper.from_array(RNG.integers(-100, 100, (4, 3, 3, 3)).astype(np.int8),
                                     "wq"),
             numpy_helper.from_array(np.array(0, np.int8), "wz"),
             numpy_helper.from_array(np.array(0.01, np.float32), "ws"),
             numpy_helper.from_array(RNG.integers(-100, 100, (4 * 6 * 6, 10)).astype(np.int8),
                                     "w2q"),
             numpy_helper.from_array(np.array(3, np.int8), "w2z"),
             numpy_helper.from_array(np.array(0.02, np.float32), "w2s")]
    graph = helper.make_graph(nodes, "dynamic_quant", [info("x", F, ["N", 3, 6, 6])],
                              [info("y", F, ["N", 10])], inits)
    return make_model(graph, 13)


def streaming_if_model():
    """A streaming audio block: the sample rate (a model input) picks one of
    two front ends, each a strided Conv and an LSTM that takes its state
    from the model's inputs and returns the new state."""
    hidden, channels = 8, 4

    def branch(name, kernel, stride, w, r):
        nodes = [
            node("Conv", ["audio", f"{name}_conv"], [f"{name}_feat"], kernel_shape=[kernel],
                 strides=[stride], name=f"{name}_conv"),
            node("Relu", [f"{name}_feat"], [f"{name}_relu"]),
            node("Transpose", [f"{name}_relu"], [f"{name}_seq"], perm=[2, 0, 1]),
            node("LSTM", [f"{name}_seq", w, r, "", "", "h0", "c0"],
                 [f"{name}_y", f"{name}_h", f"{name}_c"], hidden_size=hidden,
                 name=f"{name}_lstm"),
            node("ReduceMean", [f"{name}_y"], [f"{name}_out"], axes=[0, 1], keepdims=0),
        ]
        outs = [info(f"{name}_out", F, None), info(f"{name}_h", F, None),
                info(f"{name}_c", F, None)]
        return helper.make_graph(nodes, name, [], outs)

    nodes = [
        node("Equal", ["sample_rate", "rate_16k"], ["is_16k"]),
        node("If", ["is_16k"], ["y", "h1", "c1"], name="pick_front_end",
             then_branch=branch("wide", 8, 4, "W16", "R16"),
             else_branch=branch("narrow", 4, 2, "W8", "R8")),
    ]
    inits = [ints("rate_16k", 16000), floats("wide_conv", channels, 1, 8),
             floats("narrow_conv", channels, 1, 4),
             floats("W16", 1, 4 * hidden, channels), floats("R16", 1, 4 * hidden, hidden),
             floats("W8", 1, 4 * hidden, channels), floats("R8", 1, 4 * hidden, hidden)]
    graph = helper.make_graph(
        nodes, "streaming_if",
        [info("audio", F, [1, 1, 64]), info("sample_rate", TensorProto.INT64, []),
         info("h0", F, [1, 1, hidden]), info("c0", F, [1, 1, hidden])],
        [info("y", F, ["n", "h"]), info("h1", F, ["a", "b", "c"]), info("c1", F, ["a", "b", "c"])],
        inits)
    return make_model(graph, 13)


def embedding_model():
    """BERT's embeddings: word ids index a 50-row table, token-type ids a
    2-row one."""
    nodes = [node("Gather", ["words", "input_ids"], ["w"], name="word_embeddings"),
             node("Gather", ["types", "token_type_ids"], ["t"], name="token_type_embeddings"),
             node("Add", ["w", "t"], ["y"])]
    graph = helper.make_graph(
        nodes, "embeddings",
        [info("input_ids", TensorProto.INT64, [1, 16]),
         info("token_type_ids", TensorProto.INT64, [1, 16])],
        [info("y", F, [1, 16, 8])], [floats("words", 50, 8), floats("types", 2, 8)])
    return make_model(graph, 13)


def if_shapes_model():
    """An If whose branches give different lengths (3 or 5 columns of x);
    what follows is sized at run time."""
    def branch(name, end):
        nodes = [node("Slice", ["x", "start", f"{name}_end", "axis1"], [f"{name}_y"])]
        return helper.make_graph(nodes, name, [], [info(f"{name}_y", F, None)],
                                 [ints(f"{name}_end", [end])])
    nodes = [node("If", ["take_three"], ["y"], then_branch=branch("three", 3),
                  else_branch=branch("five", 5), name="pick"),
             node("ReduceSum", ["y", "axis1"], ["total"], keepdims=0),
             node("Relu", ["y"], ["rectified"])]
    graph = helper.make_graph(
        nodes, "if_shapes",
        [info("take_three", TensorProto.BOOL, []), info("x", F, [2, 6])],
        [info("total", F, [2]), info("rectified", F, [2, "k"])],
        [ints("start", [0]), ints("axis1", [1])])
    return make_model(graph, 13)


def wrong_output_model():
    """Reduces [1, T, 8] to [1, T]... and declares the output [1]."""
    nodes = [node("ReduceMax", ["x"], ["y"], axes=[2], keepdims=0, name="reduce")]
    graph = helper.make_graph(nodes, "wrong_output", [info("x", F, [1, "T", 8])],
                              [info("y", F, [1])])
    return make_model(graph, 13, check=False)


def legacy_batchnorm_model(read_saved=False):
    """Conv whose weights are standardized by a training-mode
    BatchNormalization-9 (Y, running mean and variance, saved mean and
    variance), as PyTorch 1.13 exports it at opset 13."""
    outputs = ["w_std", "running_mean", "running_var", "saved_mean", "saved_var"]
    nodes = [node("Reshape", ["w", "flat"], ["w_rows"]),
             node("BatchNormalization", ["w_rows", "ones", "zeros", "zeros", "ones"], outputs,
                  epsilon=1e-5, momentum=1.0, name="standardize"),
             node("Reshape", ["w_std", "wshape"], ["w_conv"]),
             node("Conv", ["x", "w_conv"], ["y"], pads=[1, 1, 1, 1], name="conv")]
    graph_outputs = [info("y", F, [1, 4, 6, 6])]
    if read_saved:
        nodes.append(node("Identity", ["saved_mean"], ["mean_out"]))
        graph_outputs.append(info("mean_out", F, [4]))
    init = [floats("w", 4, 3, 3, 3, scale=1.0), ints("flat", [1, 4, -1]),
            ints("wshape", [4, 3, 3, 3]),
            numpy_helper.from_array(np.ones(4, np.float32), "ones"),
            numpy_helper.from_array(np.zeros(4, np.float32), "zeros")]
    graph = helper.make_graph(nodes, "legacy_batchnorm", [info("x", F, [1, 3, 6, 6])],
                              graph_outputs, init)
    return make_model(graph, 13)


def check_legacy_batchnorm(args):
    import onnxruntime as ort

    model = legacy_batchnorm_model()
    work, library = compile_model(args, model, "legacy_batchnorm")
    feeds = {"x": RNG.standard_normal((1, 3, 6, 6)).astype(np.float32)}
    session = ort.InferenceSession(model.SerializeToString(),
                                   providers=["CPUExecutionProvider"])
    directory = f"{work}/ort"
    write_set(directory, model, feeds, session.run(None, feeds))
    proc = subprocess.run([args.infer_run, library, "--test-data", directory],
                          capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        sys.exit(f"FAIL: legacy_batchnorm:\n{proc.stdout}{proc.stderr}")
    print("ok legacy_batchnorm: BatchNormalization-9 in training mode matches ONNX Runtime")
    path = f"{args.work}/legacy_batchnorm_read.onnx"
    onnx.save(legacy_batchnorm_model(read_saved=True), path)
    proc = subprocess.run([args.infer_compile, path, "-o", f"{args.work}/legacy_batchnorm_read"],
                          capture_output=True, text=True, timeout=600)
    wanted = "output 3 ('saved_mean') is read"
    if proc.returncode == 0 or wanted not in proc.stderr:
        sys.exit(f"FAIL: expected the error '{wanted}', got exit {proc.returncode}:\n"
                 f"{proc.stderr}")
    print("ok legacy_batchnorm_read: a read saved statistic is refused")


def main():
    args = parse_args(__doc__, "infer-bench")
    passed = 0

    def check(model, name, shapes, feeds_for, *extra):
        nonlocal passed
        work, library = compile_model(args, model, name, *extra)
        for shape in shapes:
            label = f"{name}_" + "_".join("x".join(map(str, s)) for s in shape.values())
            expect_match(args, work, library, model, feeds_for(shape), label)
            passed += 1
        return work

    expand = expand_idiom_model()

    def expand_feeds(shape):
        return {name: RNG.standard_normal(dims).astype(np.float32) for name, dims in shape.items()}
    static = {"mask": (2, 5), "scores": (2, 2, 5, 5)}
    check(expand, "expand_static", [static], expand_feeds,
          "--shape", "mask=2x5", "--shape", "scores=2x2x5x5")
    check(expand, "expand_dynamic",
          [{"mask": (1, 4), "scores": (1, 2, 4, 4)}, {"mask": (3, 6), "scores": (3, 2, 6, 6)}],
          expand_feeds)

    check(runtime_shapes_model(), "runtime_shapes", [{"x": (1, 3, 8)}, {"x": (2, 5, 8)}],
          expand_feeds)

    recurrent = recurrent_model()
    check(recurrent, "recurrent", [{"mel": (1, 10, 8)}], expand_feeds, "--shape", "mel=1x10x8")
    # The generic variant: batch and frame count at run time.
    check(recurrent, "recurrent_dynamic", [{"mel": (1, 10, 8)}, {"mel": (3, 4, 8)}],
          expand_feeds)

    check(upsampling_head_model(), "upsampling_head", [{"x": (1, 3, 4, 5)}, {"x": (3, 3, 4, 5)}],
          expand_feeds)

    check(padded_pool_model(), "padded_pool", [{"x": (1, 2, 5, 5)}, {"x": (4, 2, 5, 5)}],
          expand_feeds)

    pooled = pooled_output_model()
    check(pooled, "pooled_output", [{"x": (1, 4, 5, 5)}, {"x": (3, 4, 5, 5)}], expand_feeds)

    quant = dynamic_quant_model()
    check(quant, "dynamic_quant_static", [{"x": (1, 3, 6, 6)}], expand_feeds,
          "--shape", "x=1x3x6x6")
    check(quant, "dynamic_quant_batch", [{"x": (1, 3, 6, 6)}, {"x": (4, 3, 6, 6)}],
          expand_feeds)

    streaming = streaming_if_model()

    def streaming_feeds(rate):
        return {"audio": RNG.standard_normal((1, 1, 64)).astype(np.float32),
                "sample_rate": np.array(rate, np.int64),
                "h0": RNG.standard_normal((1, 1, 8)).astype(np.float32),
                "c0": RNG.standard_normal((1, 1, 8)).astype(np.float32)}
    work, library = compile_model(args, streaming, "streaming_if")
    for rate in [16000, 8000]:
        expect_match(args, work, library, streaming, streaming_feeds(rate),
                     f"streaming_if_{rate}")
        passed += 1
    shapes = if_shapes_model()
    work, library = compile_model(args, shapes, "if_shapes")
    for flag in [True, False]:
        feeds = {"take_three": np.array(flag),
                 "x": RNG.standard_normal((2, 6)).astype(np.float32)}
        expect_match(args, work, library, shapes, feeds, f"if_shapes_{flag}")
        passed += 1

    # --bind folds the If away and drops the input from the entry point.
    work, library = compile_model(args, streaming, "streaming_bound", "--bind",
                                  "sample_rate=8000")
    proc = subprocess.run([args.infer_compile, f"{work}/model.onnx", "--bind",
                           "sample_rate=8000", "--compile-to=graph"],
                          capture_output=True, text=True, timeout=600)
    if proc.returncode != 0 or "graph.if" in proc.stdout or "sample_rate" in proc.stdout:
        sys.exit(f"FAIL: --bind left the If or the input:\n{proc.stdout}{proc.stderr}")
    feeds = streaming_feeds(8000)
    expected = ReferenceEvaluator(streaming).run(None, feeds)
    bound = copy.deepcopy(streaming)
    bound.graph.input.remove(bound.graph.input[1])
    directory = f"{work}/bound_8000"
    write_set(directory, bound, feeds, expected)
    proc = subprocess.run([args.infer_run, library, "--test-data", directory],
                          capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        sys.exit(f"FAIL: streaming_bound:\n{proc.stdout}{proc.stderr}")
    print("ok streaming_bound: --bind sample_rate=8000 folds the If and matches")
    passed += 1

    # infer-bench with inputs a model accepts: random ids in 0..9 overrun
    # the 2-row token-type table (the run-time check names the node);
    # --int-range and real inputs fix it.
    embedding = embedding_model()
    work, library = compile_model(args, embedding, "embedding")
    feeds = {"input_ids": RNG.integers(0, 50, (1, 16)).astype(np.int64),
             "token_type_ids": RNG.integers(0, 2, (1, 16)).astype(np.int64)}
    expect_match(args, work, library, embedding, feeds, "embedding")
    bench = [args.infer_bench, library, "--warmup", "1", "--iterations", "3"]
    for extra, rc, wanted in [
            ([], 1, "node 'token_type_embeddings' (Gather): an index is out of range"),
            (["--int-range", "0:1"], 0, "latency ms"),
            (["--test-data", f"{work}/embedding"], 0, "latency ms"),
            (["--input", f"input_ids={work}/embedding/input_0.pb",
              "--input", f"token_type_ids={work}/embedding/input_1.pb"], 0, "latency ms"),
            (["--int-range", "3"], 1, "expected LO:HI")]:
        proc = subprocess.run(bench + extra, capture_output=True, text=True, timeout=600)
        if proc.returncode != rc or wanted not in proc.stdout + proc.stderr:
            sys.exit(f"FAIL: infer-bench {' '.join(extra)}: expected exit {rc} and "
                     f"'{wanted}':\n{proc.stdout}{proc.stderr}")
        print(f"ok infer-bench {' '.join(extra) or '(random inputs)'}: exit {rc}")
        passed += 1

    wrong = wrong_output_model()
    work = check(wrong, "wrong_output", [{"x": (1, 7, 8)}], expand_feeds, "--shape", "x=1x7x8")
    # The compile warned, naming the node and both types.
    proc = subprocess.run([args.infer_compile, f"{work}/model.onnx", "--shape", "x=1x7x8",
                           "--compile-to=graph"], capture_output=True, text=True, timeout=600)
    wanted = ("node 'reduce' (ReduceMax): result #0: the model declares 'tensor<1xf32>', "
              "but the operands give 'tensor<1x7xf32>'; using the latter")
    if proc.returncode != 0 or wanted not in proc.stderr:
        sys.exit(f"FAIL: expected the warning '{wanted}', got:\n{proc.stderr}")
    print("ok wrong_output: the compile warns about the declared shape")
    passed += 1
    check_legacy_batchnorm(args)
    passed += 2
    print(f"{passed} passed, 0 failed")


if __name__ == "__main__":
    main()
