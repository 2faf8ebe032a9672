#!/usr/bin/env python3
"""Windowed ops over run-time spatial sizes on the CPU target.

Models whose inputs have dynamic height, width or length (OCR images of
any size, sentences of any length) compile without --shape to a generic
variant; each run below is compared with onnx.reference:

- an image model with batch, height and width all dynamic: Conv with
  stride and padding (im2col), MaxPool with ceil_mode and uneven pads, a
  depthwise 4x4 Conv with SAME_LOWER padding (direct), a 1x1 Conv,
  AveragePool without the pads in its counts, LpPool, a 2x2 stride-2
  ConvTranspose (one matmul per tap) and a 3x3 stride-2 one with padding
  and output_padding (gathered), GlobalAveragePool and GlobalMaxPool: run
  at 1x16x16, 2x23x17, 1x5x7 and 1x9x6;
- a sequence model with batch and length dynamic, as text CNNs and TCNs
  export: Convs of widths 3 and 5 max-pooled over time (ReduceMax), a
  dilated Conv padded on both sides with the tail sliced off (a causal
  convolution), and MaxPool over time: lengths 5, 40 and 3;
- ConvInteger (uint8 with a zero point) over dynamic height and width.

Usage: dynamic_windows.py --infer-compile BIN --infer-run BIN --work DIR
"""
import numpy as np
from onnx import TensorProto, helper, numpy_helper

from test_data import compile_model, expect_match, make_model, parse_args

F = TensorProto.FLOAT
RNG = np.random.default_rng(17)


def weight(name, *shape, scale=0.3):
    return numpy_helper.from_array((RNG.standard_normal(shape) * scale).astype(np.float32),
                                   name)


def image_model():
    info = helper.make_tensor_value_info
    node = helper.make_node
    nodes = [
        node("Conv", ["x", "w1", "b1"], ["c1"], kernel_shape=[3, 3], strides=[2, 2],
             pads=[1, 1, 1, 1], name="conv_stride2"),
        node("Relu", ["c1"], ["r1"], name="relu"),
        node("MaxPool", ["r1"], ["p1"], kernel_shape=[3, 3], strides=[2, 2],
             pads=[1, 0, 0, 1], ceil_mode=1, name="pool_ceil"),
        node("Conv", ["p1", "w2"], ["c2"], kernel_shape=[4, 4], group=8,
             auto_pad="SAME_LOWER", name="depthwise_same"),
        node("Conv", ["c2", "w3", "b3"], ["c3"], kernel_shape=[1, 1], name="pointwise"),
        node("AveragePool", ["c3"], ["a"], kernel_shape=[3, 3], pads=[1, 1, 1, 1],
             count_include_pad=0, name="avg"),
        node("LpPool", ["c3"], ["lp"], kernel_shape=[2, 2], strides=[2, 2], p=2,
             name="lp"),
        node("ConvTranspose", ["a", "w4", "b4"], ["up"], kernel_shape=[2, 2], strides=[2, 2],
             name="up_tiles"),
        node("ConvTranspose", ["a", "w5"], ["up2"], kernel_shape=[3, 3], strides=[2, 2],
             pads=[1, 1, 1, 1], output_padding=[1, 1], name="up_gather"),
        node("GlobalAveragePool", ["up2"], ["g"], name="gap"),
        node("GlobalMaxPool", ["a"], ["gm"], name="gmp"),
    ]
    inits = [weight("w1", 8, 3, 3, 3), weight("b1", 8), weight("w2", 8, 1, 4, 4),
             weight("w3", 8, 8, 1, 1), weight("b3", 8), weight("w4", 8, 4, 2, 2),
             weight("b4", 4), weight("w5", 8, 4, 3, 3)]
    dyn = ["N", 8, None, None]
    graph = helper.make_graph(
        nodes, "image", [info("x", F, ["N", 3, "H", "W"])],
        [info("a", F, dyn), info("lp", F, dyn), info("up", F, ["N", 4, None, None]),
         info("up2", F, ["N", 4, None, None]), info("g", F, ["N", 4, 1, 1]),
         info("gm", F, ["N", 8, 1, 1])], inits)
    return make_model(graph, 18)


def sequence_model():
    info = helper.make_tensor_value_info
    node = helper.make_node
    const = lambda name, v: numpy_helper.from_array(np.array(v, np.int64), name)
    nodes = [
        node("Conv", ["x", "wa", "ba"], ["ca"], kernel_shape=[3], name="conv3"),
        node("Relu", ["ca"], ["ra"], name="relu3"),
        node("ReduceMax", ["ra"], ["ma"], axes=[2], keepdims=0, name="max3"),
        node("Conv", ["x", "wb"], ["cb"], kernel_shape=[5], pads=[2, 2], name="conv5"),
        node("ReduceMax", ["cb"], ["mb"], axes=[2], keepdims=0, name="max5"),
        node("Conv", ["x", "wc", "bc"], ["cc"], kernel_shape=[3], dilations=[2],
             pads=[4, 4], name="dilated"),
        node("Slice", ["cc", "zero", "minus4", "two"], ["causal"], name="chomp"),
        node("MaxPool", ["causal"], ["pooled"], kernel_shape=[2], strides=[2], name="pool"),
    ]
    inits = [weight("wa", 6, 4, 3), weight("ba", 6), weight("wb", 6, 4, 5),
             weight("wc", 6, 4, 3), weight("bc", 6), const("zero", [0]),
             const("minus4", [-4]), const("two", [2])]
    graph = helper.make_graph(
        nodes, "sequence", [info("x", F, ["B", 4, "T"])],
        [info("ma", F, ["B", 6]), info("mb", F, ["B", 6]), info("causal", F, ["B", 6, "T"]),
         info("pooled", F, ["B", 6, None])], inits)
    return make_model(graph, 13)


def conv_integer_model():
    info = helper.make_tensor_value_info
    u8 = TensorProto.UINT8
    w = numpy_helper.from_array(RNG.integers(0, 255, (3, 2, 3, 3)).astype(np.uint8), "w")
    zp = numpy_helper.from_array(np.array(128, np.uint8), "x_zero_point")
    node = helper.make_node("ConvInteger", ["x", "w", "x_zero_point"], ["y"],
                            kernel_shape=[3, 3], pads=[1, 0, 1, 0], name="conv_integer")
    graph = helper.make_graph([node], "conv_integer", [info("x", u8, [1, 2, "H", "W"])],
                              [info("y", TensorProto.INT32, [1, 3, None, None])], [w, zp])
    return make_model(graph, 13)


def main():
    args = parse_args(__doc__)
    passed = 0

    image = image_model()
    work, library = compile_model(args, image, "image")
    for n, h, w in [(1, 16, 16), (2, 23, 17), (1, 5, 7), (1, 9, 6)]:
        x = RNG.standard_normal((n, 3, h, w)).astype(np.float32)
        expect_match(args, work, library, image, {"x": x}, f"image_{n}x{h}x{w}")
        passed += 1

    sequence = sequence_model()
    work, library = compile_model(args, sequence, "sequence")
    for b, t in [(1, 5), (3, 40), (2, 3)]:
        x = RNG.standard_normal((b, 4, t)).astype(np.float32)
        expect_match(args, work, library, sequence, {"x": x}, f"sequence_{b}x{t}")
        passed += 1

    integer = conv_integer_model()
    work, library = compile_model(args, integer, "conv_integer")
    for h, w in [(6, 5), (9, 4)]:
        x = RNG.integers(0, 255, (1, 2, h, w)).astype(np.uint8)
        expect_match(args, work, library, integer, {"x": x}, f"conv_integer_{h}x{w}")
        passed += 1
    print(f"{passed} passed, 0 failed")


if __name__ == "__main__":
    main()
