#!/usr/bin/env python3
"""One layer of each op class real models use, infer against ONNX Runtime
on the same input and threads: where an op class is far from ORT's speed
a model made of it is too, whatever the seven benchmark models say.

Each case is a one-node (or few-node) ONNX model, weights constant,
compiled by infer-compile with static shapes. infer's output is checked
against ORT's (infer-run --test-data, the suites' tolerances), then both
are timed in interleaved rounds: per round one `infer-bench --into --json`
run (the median of its iterations; --into writes into outputs made once,
as ORT's arena does) and as many ORT runs (their median). The table gives
the medians over the rounds and infer/ORT.

  .venv/bin/python test/bench/op_classes.py [--threads N] [--rounds R]
      [--iterations I] [--filter TEXT] [--json FILE] [--build DIR]
"""
import os
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from one_layer import compare, finish, heading, options  # noqa: E402

RNG = np.random.default_rng(0)


def weights(name, shape, fan_in):
    return numpy_helper.from_array(
        (RNG.standard_normal(shape) / np.sqrt(fan_in)).astype(np.float32), name)


def conv(c, f, k, size, stride=1, dilation=1, group=1, one_d=False):
    kernel = [k] if one_d else [k, k]
    node = helper.make_node("Conv", ["X", "W"], ["Y"], kernel_shape=kernel,
                            strides=[stride] * len(kernel), dilations=[dilation] * len(kernel),
                            group=group, pads=[(k // 2) * dilation] * 2 * len(kernel))
    shape = [1, c, size] if one_d else [1, c, size, size]
    return [node], [weights("W", [f, c // group] + kernel, c // group * k * k)], shape


def single(op, shape, inits=(), inputs=("X",), **attrs):
    return [helper.make_node(op, list(inputs), ["Y"], **attrs)], list(inits), shape


def constant(name, values, dtype=np.float32):
    return numpy_helper.from_array(np.array(values, dtype), name)


def gelu(shape):
    nodes = [helper.make_node("Div", ["X", "r2"], ["a"]), helper.make_node("Erf", ["a"], ["b"]),
             helper.make_node("Add", ["b", "one"], ["c"]), helper.make_node("Mul", ["X", "c"], ["d"]),
             helper.make_node("Mul", ["d", "half"], ["Y"])]
    inits = [constant("r2", 1.4142135), constant("one", 1.0), constant("half", 0.5)]
    return nodes, inits, shape


def sppf():
    """YOLOv5/v8's SPPF block: a 1x1 conv, three chained 5x5 max pools,
    their concatenation and a 1x1 conv."""
    nodes = [helper.make_node("Conv", ["X", "w1"], ["a"]),
             helper.make_node("MaxPool", ["a"], ["p1"], kernel_shape=[5, 5], pads=[2] * 4),
             helper.make_node("MaxPool", ["p1"], ["p2"], kernel_shape=[5, 5], pads=[2] * 4),
             helper.make_node("MaxPool", ["p2"], ["p3"], kernel_shape=[5, 5], pads=[2] * 4),
             helper.make_node("Concat", ["a", "p1", "p2", "p3"], ["c"], axis=1),
             helper.make_node("Conv", ["c", "w2"], ["Y"])]
    return nodes, [weights("w1", [128, 256, 1, 1], 256), weights("w2", [256, 512, 1, 1], 512)], \
        [1, 256, 20, 20]


CASES = [
    ("conv 3x3 dilation 2, 64ch 56x56", lambda: conv(64, 64, 3, 56, dilation=2)),
    ("grouped conv 3x3 g32 (ResNeXt), 128ch 56x56", lambda: conv(128, 128, 3, 56, group=32)),
    ("depthwise 3x3, 96ch 56x56", lambda: conv(96, 96, 3, 56, group=96)),
    ("depthwise 5x5 stride 2, 96ch 56x56", lambda: conv(96, 96, 5, 56, stride=2, group=96)),
    ("depthwise 7x7 (ConvNeXt), 96ch 56x56", lambda: conv(96, 96, 7, 56, group=96)),
    ("conv1d k3, 256ch T1000", lambda: conv(256, 256, 3, 1000, one_d=True)),
    ("conv1d k5 dilation 4, 128ch T2000", lambda: conv(128, 128, 5, 2000, dilation=4, one_d=True)),
    ("conv 5x5, 64ch 56x56", lambda: conv(64, 64, 5, 56)),
    ("conv 3x3 few filters 96->24ch 160x160 (detection head)", lambda: conv(96, 24, 3, 160)),
    ("max pool 5x5 (SPPF), 128ch 20x20",
     lambda: single("MaxPool", [1, 128, 20, 20], kernel_shape=[5, 5], pads=[2] * 4)),
    ("SPPF block (conv, 3 max pools, concat, conv)", sppf),
    ("average pool 3x3, 64ch 56x56",
     lambda: single("AveragePool", [1, 64, 56, 56], kernel_shape=[3, 3], pads=[1] * 4)),
    ("resize linear x2, 64ch 56x56",
     lambda: single("Resize", [1, 64, 56, 56], [constant("S", [1, 1, 2, 2])],
                    inputs=("X", "", "S"), mode="linear")),
    ("resize nearest x2, 64ch 56x56",
     lambda: single("Resize", [1, 64, 56, 56], [constant("S", [1, 1, 2, 2])],
                    inputs=("X", "", "S"), mode="nearest")),
    ("softmax 12x128x128", lambda: single("Softmax", [12, 128, 128], axis=-1)),
    ("layer norm 128x768",
     lambda: single("LayerNormalization", [1, 128, 768],
                    [constant("G", np.ones(768)), constant("B", np.zeros(768))],
                    inputs=("X", "G", "B"), axis=-1)),
    ("gelu (erf) 128x3072", lambda: gelu([1, 128, 3072])),
    ("instance norm, 64ch 56x56",
     lambda: single("InstanceNormalization", [1, 64, 56, 56],
                    [constant("G", np.ones(64)), constant("B", np.zeros(64))],
                    inputs=("X", "G", "B"))),
    ("batched matmul 12x128x64 . 12x64x128",
     lambda: single("MatMul", [12, 128, 64], [weights("W", [12, 64, 128], 64)],
                    inputs=("X", "W"))),
    ("transpose 0213, 1x128x12x64", lambda: single("Transpose", [1, 128, 12, 64], perm=[0, 2, 1, 3])),
    ("reduce mean over HW, 256ch 28x28",
     lambda: single("ReduceMean", [1, 256, 28, 28], axes=[2, 3])),
]


def main():
    args = options(__doc__, rounds=3, extra=lambda parser: parser.add_argument(
        "--filter", default="", help="only cases whose name contains this"))
    bindir = os.path.join(args.build, "bin")
    info = heading(args)
    print("| op class | infer ms | ORT ms | infer/ORT |")
    print("|---|---:|---:|---:|")
    rows, failed = [], False
    with tempfile.TemporaryDirectory() as tmp:
        for name, build in CASES:
            if args.filter not in name:
                continue
            nodes, inits, shape = build()
            graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info(
                "X", TensorProto.FLOAT, shape)], [helper.make_tensor_value_info(
                    "Y", TensorProto.FLOAT, None)], inits)
            model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
            model.ir_version = 8
            model = onnx.shape_inference.infer_shapes(model, strict_mode=True)
            work = os.path.join(tmp, str(len(rows)))
            os.makedirs(work)
            path = os.path.join(work, "m.onnx")
            onnx.save(model, path)
            x = RNG.standard_normal(shape).astype(np.float32)
            ms, ort_ms, matches = compare(bindir, path, work, x, args.threads, args.rounds,
                                          args.iterations, name)
            failed |= not matches
            rows.append({"case": name, "infer_ms": ms, "ort_ms": ort_ms, "ratio": ms / ort_ms,
                         "matches_ort": matches})
            print(f"| {name} | {ms:.3f} | {ort_ms:.3f} | {ms / ort_ms:.2f} |", flush=True)
    return finish(args, info, rows, failed)


if __name__ == "__main__":
    sys.exit(main())
