#!/usr/bin/env python3
"""Op modes the ONNX test data does not cover, against onnx.reference.

TfIdfVectorizer: the backend suites only test mode TF without weights.
Here IDF and TFIDF with and without weights, a 1-D int32 input and a 2-D
int64 input, unigrams and bigrams with skips, each compiled for the CPU and
compared. (onnx.reference fails on IDF/TFIDF without weights; there the
expected values follow the spec from the reference's TF counts: IDF is 1
where the count is positive, TFIDF the count.)

Sizes from run-time values: ReduceSum without keepdims over axes given
as an input, STFT (frame step and length as inputs), MelWeightMatrix and
MaxUnpool with output_shape as an input match
onnx.reference when the scalars give the declared output shape, and a run
whose values give another shape is refused naming the node.

Softmax and LogSoftmax over rows with special values (a NaN, all NaN, all
-inf, a +inf, -0 beside -infs): their row max ignores NaNs (a vectorized
maxnum), so this checks that every such row still comes out as
onnx.reference computes it (NaN rows NaN, the rest exact).

Min/max reductions, which the CPU target runs in vector lanes (four
vectors of partial results, then the elements after the last whole step
in order): DynamicQuantizeLinear over 21,000 floats (the tail after the
whole steps holds the maximum), ReduceMax along rows of 333 (maxima in
the tail, in the first vector, a NaN row, a -inf row), ReduceMin over the
whole tensor and an int32 ReduceMax, against onnx.reference: a tail or an
accumulator left out of the result changes the answer.

Nearest Resize at whole factors over every coordinate transformation and
rounding mode (the ONNX suites have few): where x maps to x div factor the
lowering is a broadcast copy, elsewhere the general form; all must match
onnx.reference.

Convolutions whose register tiles run along output channels (transposed
tiles, for planes that fill vectors poorly): planes in chunks of whole
rows, a stride-2 window, a last tile of fewer channels, a fused Relu
stored into the next convolution's padded input (its border columns with
it) and a residual Add, against onnx.reference.

TopK as K selections per row: k = 50 of 2000 along the last axis and
k = 7 of 300 along the first (largest and smallest), values rounded so
that ties are many (equal values in index order), against
onnx.reference; and a row with NaNs, which come after every number (in
index order among themselves), against numpy's stable sort.

MaxPool 5x5 (YOLO's SPPF; a max along rows of 5, then along columns of
5 of that) and 3x3 stride 2 (one window, its taps in four max chains
joined at the end), over inputs holding NaNs, infinities and signed
zeros: every window with a NaN gives NaN (infer's MaxPool
propagates NaN, as numpy's max; onnx.reference's skips it), so the
expected values are numpy's max over each padded window.

Depthwise convolutions with 5x5 and 7x7 windows (25 and 49 taps, one
output row per panel with the taps in a loop): stride 1 and 2, rows of
56, 28, 19 and 9 columns, a Relu fused, against onnx.reference.

ConvTranspose with overlapping windows as stride-phase convolutions
(ConvTransposeLowering.cpp): 4x4 stride 2 after a convolution and into a
Relu, grouped and depthwise, 3x3 stride 2 with output_padding, 5x5
stride 3 with uneven pads and output_shape (a phase whose windows reach
past x on one side only), against ONNX Runtime (onnx.reference's
ConvTranspose fails on groups).

Usage: op_modes.py --infer-compile BIN --infer-run BIN --work DIR
"""
import os
import subprocess
import sys

import numpy as np
import onnxruntime as ort
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

from test_data import compile_model, expect_match, make_model, parse_args, run, write_set


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


def scalar_models():
    """(name, model, good feeds, bad feeds, the refusal's text)."""
    info = helper.make_tensor_value_info
    F, I32, I64 = TensorProto.FLOAT, TensorProto.INT32, TensorProto.INT64
    rng = np.random.default_rng(5)
    stft = make_model(helper.make_graph(
        [helper.make_node("STFT", ["signal", "step", "", "length"], ["y"], name="stft")],
        "stft", [info("signal", F, [1, 64, 1]), info("step", I64, []), info("length", I64, [])],
        [info("y", F, [1, 7, 9, 2])]), 17)
    signal = rng.standard_normal((1, 64, 1)).astype(np.float32)
    mel = make_model(helper.make_graph(
        [helper.make_node("MelWeightMatrix", ["bins", "dft", "rate", "low", "high"], ["y"],
                          name="mel")],
        "mel", [info("bins", I32, []), info("dft", I32, []), info("rate", I32, []),
                info("low", F, []), info("high", F, [])], [info("y", F, [17, 6])]), 17)
    mel_feeds = {"bins": np.array(6, np.int32), "dft": np.array(32, np.int32),
                 "rate": np.array(16000, np.int32), "low": np.array(100, np.float32),
                 "high": np.array(7000, np.float32)}
    unpool = make_model(helper.make_graph(
        [helper.make_node("MaxUnpool", ["x", "i", "shape"], ["y"], kernel_shape=[2, 2],
                          strides=[2, 2], name="unpool")],
        "unpool", [info("x", F, [1, 1, 2, 2]), info("i", I64, [1, 1, 2, 2]),
                   info("shape", I64, [4])], [info("y", F, [1, 1, 5, 5])]), 11)
    unpool_feeds = {"x": rng.standard_normal((1, 1, 2, 2)).astype(np.float32),
                    "i": np.array([[[[0, 3], [9, 14]]]], np.int64),
                    "shape": np.array([1, 1, 5, 5], np.int64)}
    reduce = make_model(helper.make_graph(
        [helper.make_node("ReduceSum", ["x", "axes"], ["y"], keepdims=0, name="sum")],
        "reduce", [info("x", F, [3, 2, 4]), info("axes", I64, [1])], [info("y", F, [3, 4])]),
        13)
    data = rng.standard_normal((3, 2, 4)).astype(np.float32)
    return [("reduce_runtime_axes", reduce, {"x": data, "axes": np.array([-2], np.int64)},
             {"x": data, "axes": np.array([2], np.int64)},
             "node 'sum' (ReduceSum): the axes given at run time keep other dims"),
            ("stft", stft, {"signal": signal, "step": np.array(8, np.int64),
                            "length": np.array(16, np.int64)},
             {"signal": signal, "step": np.array(4, np.int64), "length": np.array(16, np.int64)},
             "node 'stft' (STFT): frame_step and frame_length give another number"),
            ("mel", mel, mel_feeds, dict(mel_feeds, bins=np.array(5, np.int32)),
             "node 'mel' (MelWeightMatrix): dft_length and num_mel_bins give another shape"),
            ("unpool", unpool, unpool_feeds,
             dict(unpool_feeds, shape=np.array([1, 1, 6, 6], np.int64)),
             "node 'unpool' (MaxUnpool): output_shape differs from the shape the model declares")]


def check_scalar_sizes(args):
    passed = 0
    for name, model, good, bad, refusal in scalar_models():
        work, library = compile_model(args, model, name, symbol="m")
        write_set(os.path.join(work, "good"), model, good,
                  ReferenceEvaluator(model).run(None, good))
        write_set(os.path.join(work, "bad"), model, bad)
        proc = subprocess.run([args.infer_run, library, "--test-data", os.path.join(work, "good")],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            sys.exit(f"FAIL: {name}:\n{proc.stdout}{proc.stderr}")
        proc = subprocess.run([args.infer_run, library, "--test-data", os.path.join(work, "bad")],
                              capture_output=True, text=True)
        if proc.returncode != 1 or refusal not in proc.stdout + proc.stderr:
            sys.exit(f"FAIL: {name} with other sizes: expected exit 1 and '{refusal}':\n"
                     f"{proc.stdout}{proc.stderr}")
        print(f"ok {name}: matches onnx.reference, and other sizes are refused")
        passed += 2
    return passed


def check_softmax_special_values(args):
    info = helper.make_tensor_value_info
    F = TensorProto.FLOAT
    model = make_model(helper.make_graph(
        [helper.make_node("Softmax", ["x"], ["y"], axis=-1, name="softmax"),
         helper.make_node("LogSoftmax", ["x"], ["z"], axis=-1, name="logsoftmax")],
        "softmax", [info("x", F, [6, 40])], [info("y", F, [6, 40]), info("z", F, [6, 40])]),
        13)
    x = np.random.default_rng(7).standard_normal((6, 40)).astype(np.float32) * 10
    x[1, 7] = np.nan
    x[2, :] = -np.inf
    x[3, 5] = np.inf
    x[4, :] = np.nan
    x[5, :3] = -np.inf
    x[5, 3] = -0.0
    work, library = compile_model(args, model, "softmax_special", symbol="m")
    with np.errstate(invalid="ignore", divide="ignore"):
        expect_match(args, work, library, model, {"x": x}, "softmax_special_values")
    return 1


def check_min_max_reductions(args):
    info = helper.make_tensor_value_info
    F, U8, I32 = TensorProto.FLOAT, TensorProto.UINT8, TensorProto.INT32
    model = make_model(helper.make_graph(
        [helper.make_node("DynamicQuantizeLinear", ["q"], ["y", "s", "z"], name="dql"),
         helper.make_node("ReduceMax", ["r"], ["rmax"], axes=[1], keepdims=1,
                          name="rowmax"),
         helper.make_node("ReduceMin", ["r"], ["rmin"], keepdims=0, name="allmin"),
         helper.make_node("ReduceMax", ["i"], ["imax"], axes=[1], keepdims=0,
                          name="intmax")],
        "minmax",
        [info("q", F, [3, 1000, 7]), info("r", F, [5, 333]), info("i", I32, [4, 201])],
        [info("y", U8, [3, 1000, 7]), info("s", F, []), info("z", U8, []),
         info("rmax", F, [5, 1]), info("rmin", F, []), info("imax", I32, [4])]),
        13)
    rng = np.random.default_rng(11)
    q = rng.standard_normal((3, 1000, 7)).astype(np.float32)
    q.reshape(-1)[-1] = 9.5        # after the last whole step of 64
    q.reshape(-1)[5] = -7.25       # in the first vector
    r = rng.standard_normal((5, 333)).astype(np.float32)
    r[0, 330] = 50.0               # row 0: its maximum in the tail
    r[1, 3] = 60.0                 # row 1: in the first vector
    r[2, 200] = np.nan             # row 2: NaN wins
    r[3, :] = -np.inf
    r[4, 332] = -80.0              # the minimum of all, the last element
    i = rng.integers(-1000, 1000, (4, 201)).astype(np.int32)
    i[0, 200] = 5000
    i[3, 64] = 4000
    work, library = compile_model(args, model, "min_max", symbol="m")
    expect_match(args, work, library, model, {"q": q, "r": r, "i": i},
                 "min_max_reductions")
    return 1


def check_resize_nearest(args):
    """Nearest Resize over every coordinate transformation and rounding
    mode at whole factors (2, 3, 4 and mixed; those that send x to x div
    factor are lowered as a broadcast copy, the rest in the general form)
    and at 1.5, in one model with an output per case."""
    info = helper.make_tensor_value_info
    F = TensorProto.FLOAT
    shape = [1, 2, 5, 7]
    nodes, inits, outputs = [], [], []
    for s, factors in enumerate([(2, 2), (3, 1), (4, 3), (1.5, 2)]):
        scales = np.array([1, 1, *factors], np.float32)
        inits.append(helper.make_tensor(f"s{s}", F, [4], scales))
        out = [1, 2, int(5 * factors[0]), int(7 * factors[1])]
        # (onnx.reference refuses tf_half_pixel_for_nn, ONNX's opset 11.)
        for ctm in ["asymmetric", "half_pixel", "pytorch_half_pixel", "align_corners"]:
            for rounding in ["floor", "ceil", "round_prefer_floor", "round_prefer_ceil"]:
                name = f"y_{s}_{ctm}_{rounding}"
                nodes.append(helper.make_node(
                    "Resize", ["x", "", f"s{s}"], [name], mode="nearest", name=name,
                    coordinate_transformation_mode=ctm, nearest_mode=rounding))
                outputs.append(info(name, F, out))
    sizes = helper.make_tensor("sizes", TensorProto.INT64, [4], [1, 2, 10, 21])
    nodes.append(helper.make_node("Resize", ["x", "", "", "sizes"], ["y_sizes"],
                                  mode="nearest", name="y_sizes"))
    outputs.append(info("y_sizes", F, [1, 2, 10, 21]))
    model = make_model(helper.make_graph(nodes, "resize", [info("x", F, shape)], outputs,
                                         inits + [sizes]), 13)
    x = np.random.default_rng(11).standard_normal(shape).astype(np.float32)
    work, library = compile_model(args, model, "resize_nearest", symbol="m")
    expect_match(args, work, library, model, {"x": x}, "resize_nearest_modes")
    return 1


def check_conv_tiles(args):
    """A chain of convolutions the CPU kernels compute with transposed
    tiles (TransposedTiles.cpp): 96 channels over a 28x28 plane (chunks of
    8 rows, the last of 4), at stride 2 into 14x14, Relus stored into the
    next convolutions' padded inputs (over buffers that held other values:
    the border columns must be written), residual Adds (one of them
    reading the next convolution's padded input, r2 and z: the Add reads
    the padded buffer's interior in runs of a row, 7 columns at 7x7), and
    80 channels (a last tile of 16) over a 7x7 plane at stride 2. A max
    pool writes the first convolution's padded input (its -inf fill and
    its windows both into the interior), which a residual Add also reads;
    a 1x1 stride-2 downsample reads y1 from the interior of y2's padded
    input (through a reshape of the grouped form)."""
    info = helper.make_tensor_value_info
    F = TensorProto.FLOAT
    rng = np.random.default_rng(5)
    inits = []

    def conv(name, x, channels, inputs, stride):
        w = rng.standard_normal((channels, inputs, 3, 3)) / np.sqrt(inputs * 9)
        inits.append(helper.make_tensor(f"{name}_w", F, w.shape, w.astype(np.float32).ravel()))
        inits.append(helper.make_tensor(f"{name}_b", F, [channels],
                                        rng.standard_normal(channels).astype(np.float32) * 0.1))
        return helper.make_node("Conv", [x, f"{name}_w", f"{name}_b"], [name], pads=[1] * 4,
                                kernel_shape=[3, 3], strides=[stride] * 2)

    # (A wide first pair of layers whose buffers die early: later buffers
    # reuse their memory, so nothing is zero by chance.)
    def downsample(name, x, channels, inputs):
        w = rng.standard_normal((channels, inputs, 1, 1)) / np.sqrt(inputs)
        inits.append(helper.make_tensor(f"{name}_w", F, w.shape, w.astype(np.float32).ravel()))
        return helper.make_node("Conv", [x, f"{name}_w"], [name], strides=[2, 2])

    nodes = [helper.make_node("MaxPool", ["x"], ["m"], kernel_shape=[3, 3], pads=[1] * 4),
             conv("w1", "m", 192, 64, 1), helper.make_node("Relu", ["w1"], ["v1"]),
             conv("w2", "v1", 64, 192, 1), helper.make_node("Add", ["w2", "m"], ["v2"]),
             conv("c1", "v2", 96, 64, 1), helper.make_node("Relu", ["c1"], ["r1"]),
             conv("c2", "r1", 96, 96, 2), helper.make_node("Relu", ["c2"], ["r2"]),
             conv("c3", "r2", 96, 96, 1), helper.make_node("Relu", ["c3"], ["r3"]),
             conv("c4", "r3", 96, 96, 1), helper.make_node("Add", ["c4", "c3"], ["a4"]),
             helper.make_node("Add", ["a4", "r2"], ["y1"]),
             conv("y2c", "y1", 80, 96, 2), downsample("d", "y1", 80, 96),
             helper.make_node("Add", ["y2c", "d"], ["y2"]),
             helper.make_node("Relu", ["y2"], ["z"]),
             conv("c5", "z", 80, 80, 1), helper.make_node("Add", ["c5", "z"], ["y3"])]
    # (y1 is no output: a model output keeps its own buffer.)
    outputs = [info("y2", F, [1, 80, 7, 7]), info("y3", F, [1, 80, 7, 7])]
    model = make_model(helper.make_graph(nodes, "tiles", [info("x", F, [1, 64, 28, 28])],
                                         outputs, inits), 13)
    x = rng.uniform(-1, 1, (1, 64, 28, 28)).astype(np.float32)
    work, library = compile_model(args, model, "conv_tiles", symbol="m")
    expect_match(args, work, library, model, {"x": x}, "conv_transposed_tiles")
    return 1


def check_top_k(args):
    """TopK over long rows with ties, both directions, two axes; NaNs last."""
    info = helper.make_tensor_value_info
    F, I64 = TensorProto.FLOAT, TensorProto.INT64
    rng = np.random.default_rng(19)
    cases = [("top_k_50_of_2000", [3, 2000], 50, -1, 1),
             ("top_k_7_of_300_smallest_axis0", [300, 4], 7, 0, 0)]
    for label, shape, k, axis, largest in cases:
        out = list(shape)
        out[axis] = k
        node = helper.make_node("TopK", ["x", "k"], ["v", "i"], axis=axis, largest=largest)
        graph = helper.make_graph([node], label, [info("x", F, shape)],
                                  [info("v", F, out), info("i", I64, out)],
                                  [helper.make_tensor("k", I64, [1], [k])])
        model = make_model(graph, 17)
        x = np.round(rng.standard_normal(shape) * 4).astype(np.float32) / 4
        work, library = compile_model(args, model, label, symbol="m")
        expect_match(args, work, library, model, {"x": x}, label)
    # NaNs after every number, in index order.
    label = "top_k_nan_last"
    node = helper.make_node("TopK", ["x", "k"], ["v", "i"], axis=-1, largest=1)
    graph = helper.make_graph([node], label, [info("x", F, [1, 40])],
                              [info("v", F, [1, 38]), info("i", I64, [1, 38])],
                              [helper.make_tensor("k", I64, [1], [38])])
    model = make_model(graph, 17)
    x = rng.standard_normal((1, 40)).astype(np.float32)
    x[0, [3, 17, 25, 31, 38]] = np.nan
    key = np.where(np.isnan(x), np.inf, -x)
    order = np.argsort(key, axis=-1, kind="stable")[:, :38]
    expected = [np.take_along_axis(x, order, -1), order.astype(np.int64)]
    work, library = compile_model(args, model, label, symbol="m")
    data = os.path.join(work, "data")
    write_set(data, model, {"x": x}, expected)
    proc = run([args.infer_run, library, "--test-data", data])
    if proc.returncode != 0:
        sys.exit(f"FAIL: {label}:\n{proc.stdout}{proc.stderr}")
    print(f"ok {label}: 35 numbers in order, then 3 of the 5 NaNs by index")
    return len(cases) + 1


def check_max_pool_chains(args):
    """Max pools whose windows the CPU kernel splits into several chains
    of taps (any order gives the same max, NaN included)."""
    info = helper.make_tensor_value_info
    F = TensorProto.FLOAT
    rng = np.random.default_rng(17)
    cases = [("max_pool_5x5_sppf", 16, 20, 5, 1), ("max_pool_3x3_s2", 8, 23, 3, 2)]
    for label, c, size, k, stride in cases:
        out = (size + 2 * (k // 2) - k) // stride + 1
        node = helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[k, k],
                                strides=[stride] * 2, pads=[k // 2] * 4)
        graph = helper.make_graph([node], label, [info("x", F, [1, c, size, size])],
                                  [info("y", F, [1, c, out, out])])
        model = make_model(graph, 17)
        x = rng.uniform(-1, 1, (1, c, size, size)).astype(np.float32)
        flat = x.reshape(-1)
        picks = rng.choice(flat.size, 40, replace=False)
        flat[picks[:10]] = np.nan
        flat[picks[10:20]] = np.inf
        flat[picks[20:30]] = -np.inf
        flat[picks[30:]] = -0.0
        padded = np.pad(x, [(0, 0), (0, 0)] + [(k // 2, k // 2)] * 2, constant_values=-np.inf)
        windows = np.lib.stride_tricks.sliding_window_view(padded, (k, k), axis=(2, 3))
        expected = windows[:, :, ::stride, ::stride].max(axis=(4, 5))
        if not np.isnan(expected).any() or np.isnan(expected).all():
            sys.exit(f"FAIL: {label}: the windows hold no NaN, or only NaNs (change the seed)")
        work, library = compile_model(args, model, label, symbol="m")
        data = os.path.join(work, "data")
        write_set(data, model, {"x": x}, [expected])
        proc = run([args.infer_run, library, "--test-data", data])
        if proc.returncode != 0:
            sys.exit(f"FAIL: {label}:\n{proc.stdout}{proc.stderr}")
        print(f"ok {label}: {int(np.isnan(expected).sum())} NaN windows of {expected.size}, "
              "the rest match numpy's max")
    return len(cases)


def check_depthwise_windows(args):
    """Depthwise convolutions whose windows have more taps than the kernels
    unroll: each output row a panel, the taps a loop over the offset table."""
    info = helper.make_tensor_value_info
    F = TensorProto.FLOAT
    rng = np.random.default_rng(13)
    # (channels, kernel, stride, size): output rows of 56, 28, 19 and 9.
    cases = [(48, 7, 1, 56), (40, 5, 2, 56), (24, 7, 2, 37), (32, 5, 1, 9)]
    for c, k, stride, size in cases:
        label = f"depthwise_{k}x{k}_s{stride}_{size}"
        w = rng.standard_normal((c, 1, k, k)) / k
        b = rng.standard_normal(c) * 0.1
        inits = [helper.make_tensor("w", F, w.shape, w.astype(np.float32).ravel()),
                 helper.make_tensor("b", F, [c], b.astype(np.float32))]
        out = (size + 2 * (k // 2) - k) // stride + 1
        nodes = [helper.make_node("Conv", ["x", "w", "b"], ["d"], group=c, kernel_shape=[k, k],
                                  strides=[stride] * 2, pads=[k // 2] * 4),
                 helper.make_node("Relu", ["d"], ["y"])]
        graph = helper.make_graph(nodes, label, [info("x", F, [1, c, size, size])],
                                  [info("y", F, [1, c, out, out])], inits)
        model = make_model(graph, 17)
        x = rng.uniform(-1, 1, (1, c, size, size)).astype(np.float32)
        work, library = compile_model(args, model, label, symbol="m")
        expect_match(args, work, library, model, {"x": x}, label)
    return len(cases)


def check_conv_transpose_phases(args):
    """ConvTranspose layers whose windows overlap, each as one convolution
    per stride phase writing every stride-th output: sizes that take the
    CPU's register-tiled kernels, with a producer convolution (whose
    epilogue writes the phases' shared padded input) and a fused Relu."""
    info = helper.make_tensor_value_info
    F = TensorProto.FLOAT
    rng = np.random.default_rng(11)
    # (label, channels, filters, group, kernel, stride, pads, extra attrs, size)
    cases = [("k4s2", 64, 32, 1, 4, 2, [1, 1, 1, 1], {}, 16),
             ("k4s2_group4", 64, 32, 4, 4, 2, [1, 1, 1, 1], {}, 12),
             ("k4s2_depthwise", 32, 32, 32, 4, 2, [1, 1, 1, 1], {}, 14),
             ("k3s2_output_padding", 48, 24, 1, 3, 2, [1, 1, 1, 1],
              {"output_padding": [1, 1]}, 14),
             ("k5s3_output_shape", 40, 16, 1, 5, 3, None,
              {"output_shape": [20, 22]}, 7)]
    for label, c, f, group, k, stride, pads, extra, size in cases:
        w = rng.standard_normal((c, f // group, k, k)) / np.sqrt(c * k * k / stride / stride)
        w0 = rng.standard_normal((c, c, 3, 3)) / np.sqrt(c * 9)
        inits = [helper.make_tensor("w0", F, w0.shape, w0.astype(np.float32).ravel()),
                 helper.make_tensor("w", F, w.shape, w.astype(np.float32).ravel()),
                 helper.make_tensor("b", F, [f], rng.standard_normal(f).astype(np.float32))]
        attrs = dict(kernel_shape=[k, k], strides=[stride, stride], group=group, **extra)
        if pads:
            attrs["pads"] = pads
        nodes = [helper.make_node("Conv", ["x", "w0"], ["c"], pads=[1] * 4),
                 helper.make_node("Relu", ["c"], ["r"]),
                 helper.make_node("ConvTranspose", ["r", "w", "b"], ["t"], **attrs),
                 helper.make_node("Relu", ["t"], ["y"])]
        if "output_shape" in extra:
            out = list(extra["output_shape"])
        else:
            grown = stride * (size - 1) + k + extra.get("output_padding", [0])[0]
            out = [grown - pads[0] - pads[2], grown - pads[1] - pads[3]]
        graph = helper.make_graph(nodes, label, [info("x", F, [1, c, size, size])],
                                  [info("y", F, [1, f] + out)], inits)
        model = make_model(graph, 17)
        x = rng.uniform(-1, 1, (1, c, size, size)).astype(np.float32)
        work, library = compile_model(args, model, f"conv_transpose_{label}", symbol="m")
        session = ort.InferenceSession(model.SerializeToString(),
                                       providers=["CPUExecutionProvider"])
        data = os.path.join(work, "data")
        write_set(data, model, {"x": x}, session.run(None, {"x": x}))
        proc = run([args.infer_run, library, "--test-data", data])
        if proc.returncode != 0:
            sys.exit(f"FAIL: conv_transpose_{label}:\n{proc.stdout}{proc.stderr}")
        print(f"ok conv_transpose_{label}: 1x{f}x{out[0]}x{out[1]} matches ONNX Runtime")
    return len(cases)


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
        work, library = compile_model(args, model, label, symbol="m")
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
    passed += check_scalar_sizes(args)
    passed += check_softmax_special_values(args)
    passed += check_min_max_reductions(args)
    passed += check_resize_nearest(args)
    passed += check_conv_tiles(args)
    passed += check_top_k(args)
    passed += check_max_pool_chains(args)
    passed += check_depthwise_windows(args)
    passed += check_conv_transpose_phases(args)
    print(f"{passed} passed, 0 failed")


if __name__ == "__main__":
    main()
