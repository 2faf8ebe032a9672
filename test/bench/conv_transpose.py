#!/usr/bin/env python3
"""ConvTranspose (transposed convolution, "deconvolution") layers of real
decoders, infer against ONNX Runtime on the same inputs and threads.

Each shape is a one-node ONNX model with constant weights and a bias,
compiled by infer-compile with static shapes. infer's output is checked
against ORT's on one random input (infer-run --test-data: the suites'
tolerances), then both are timed in interleaved rounds: per round one
`infer-bench --into --json` run (median latency of its iterations) and
the same number of ORT runs (their median): test/bench/one_layer.py. The table gives the medians over the
rounds, GFLOP/s (2 x input positions x channels x filters per group x
kernel taps), and infer/ORT.

  .venv/bin/python test/bench/conv_transpose.py [--threads N] [--rounds R]
      [--iterations I] [--json FILE] [--build DIR]

Shapes: the 4x4 stride-2 upsampling of DCGAN-style generators and U-Net
decoders, the 3x3 stride-2 one with output_padding (FPN/U-Net heads), a
depthwise 4x4 stride-2 upsampling (group = channels, bilinear-initialised
in segmentation nets), FCN's 16x16 stride-8 per-class upsampling, a
stride-1 3x3 (a convolution with flipped taps), and the 2x2 stride-2 one
of detection heads (PP-OCR det), whose windows tile the output.
"""
import os
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from one_layer import compare, finish, heading, options  # noqa: E402

# (name, channels, filters, group, kernel, stride, pad, output_padding, size)
SHAPES = [
    ("4x4 s2 p1 256->128 at 32x32", 256, 128, 1, 4, 2, 1, 0, 32),
    ("4x4 s2 p1 64->32 at 64x64", 64, 32, 1, 4, 2, 1, 0, 64),
    ("3x3 s2 p1 op1 128->64 at 56x56", 128, 64, 1, 3, 2, 1, 1, 56),
    ("depthwise 4x4 s2 p1 64ch at 56x56", 64, 64, 64, 4, 2, 1, 0, 56),
    ("16x16 s8 p4 group 21 at 28x28", 21, 21, 21, 16, 8, 4, 0, 28),
    ("3x3 s1 p1 64->64 at 56x56", 64, 64, 1, 3, 1, 1, 0, 56),
    ("2x2 s2 96->96 at 80x80", 96, 96, 1, 2, 2, 0, 0, 80),
]


def make_model(shape, path):
    _, c, f, group, k, s, p, op, size = shape
    rng = np.random.default_rng(0)
    w = (rng.standard_normal((c, f // group, k, k)) / np.sqrt(c * k * k)).astype(np.float32)
    b = rng.standard_normal(f).astype(np.float32)
    out = (size - 1) * s - 2 * p + k + op
    attrs = dict(kernel_shape=[k, k], strides=[s, s], pads=[p] * 4, group=group)
    if op:
        attrs["output_padding"] = [op, op]
    node = helper.make_node("ConvTranspose", ["X", "W", "B"], ["Y"], **attrs)
    graph = helper.make_graph(
        [node], "g", [helper.make_tensor_value_info("X", TensorProto.FLOAT, [1, c, size, size])],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [1, f, out, out])],
        [numpy_helper.from_array(w, "W"), numpy_helper.from_array(b, "B")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, path)
    return 2 * c * (f // group) * k * k * size * size, (1, c, size, size)


def main():
    args = options(__doc__, rounds=5)
    bindir = os.path.join(args.build, "bin")
    info = heading(args)
    print("| shape | infer ms | ORT ms | infer GFLOP/s | ORT GFLOP/s | infer/ORT |")
    print("|---|---:|---:|---:|---:|---:|")
    rows, failed = [], False
    with tempfile.TemporaryDirectory() as tmp:
        for shape in SHAPES:
            path = os.path.join(tmp, f"m{len(rows)}.onnx")
            flops, xshape = make_model(shape, path)
            x = np.random.default_rng(1).standard_normal(xshape).astype(np.float32)
            work = os.path.join(tmp, str(len(rows)))
            os.makedirs(work)
            ms, ort_ms, matches = compare(bindir, path, work, x, args.threads, args.rounds,
                                          args.iterations, shape[0])
            failed |= not matches
            row = {"shape": shape[0], "infer_ms": ms, "ort_ms": ort_ms,
                   "infer_gflops": flops / ms / 1e6, "ort_gflops": flops / ort_ms / 1e6,
                   "ratio": ms / ort_ms, "matches_ort": matches}
            rows.append(row)
            print(f"| {shape[0]} | {ms:.3f} | {ort_ms:.3f} | {row['infer_gflops']:.1f} "
                  f"| {row['ort_gflops']:.1f} | {row['ratio']:.2f} |", flush=True)
    return finish(args, info, rows, failed)


if __name__ == "__main__":
    sys.exit(main())
