#!/usr/bin/env python3
"""3x3 stride-1 convolutions the CPU target computes as Winograd F(2x2, 3x3)
(targets/cpu/Winograd.cpp, WinogradKernels.cpp), against onnx.reference.

- A residual block at 56x56 over 64 channels: 28 tiles a row (a vector of
  16 tiles and a masked 12 on AVX-512; 3 of 8 and a masked 4 on AVX2), the
  first convolution's bias and Relu stored into the second's padded input,
  the second's bias, residual Add and Relu applied in the output
  transform, and a third convolution (48 filters) whose output is the
  model's (no epilogue: the transform writes it).
- Batch 2 at 14x14 (7 tiles a row: every vector masked), 32 -> 40
  channels, a bias and a Sigmoid.
- Odd planes, whose last tile row and column are computed on a row and
  column of zeros past the padded input and dropped: 15x15 over 32
  channels, and 7x7 over 64 (a Relu after it); beside them a convolution
  Winograd leaves to the direct kernels (8 input channels, fewer than 16)
  and one it takes (16x16).

Each model is compiled for the host and for x86-64-v3 (AVX2 vectors of 8),
and with --winograd=false; every build must match onnx.reference.
"""

import numpy as np
from onnx import TensorProto, helper

from test_data import compile_model, expect_match, make_model, parse_args

F = TensorProto.FLOAT
info = helper.make_tensor_value_info


class Graph:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.inits, self.nodes = [], []

    def conv(self, name, x, filters, channels):
        w = self.rng.standard_normal((filters, channels, 3, 3)) / np.sqrt(channels * 9)
        b = self.rng.standard_normal(filters) * 0.1
        self.inits += [helper.make_tensor(f"{name}_w", F, w.shape, w.astype(np.float32).ravel()),
                       helper.make_tensor(f"{name}_b", F, [filters], b.astype(np.float32))]
        self.nodes.append(helper.make_node("Conv", [x, f"{name}_w", f"{name}_b"], [name],
                                           pads=[1] * 4, kernel_shape=[3, 3]))
        return name

    def op(self, kind, inputs, name):
        self.nodes.append(helper.make_node(kind, inputs, [name]))
        return name

    def model(self, label, inputs, outputs):
        graph = helper.make_graph(self.nodes, label, inputs, outputs, self.inits)
        return make_model(graph, 17)


def residual_block():
    g = Graph(21)
    r1 = g.op("Relu", [g.conv("c1", "x", 64, 64)], "r1")
    a2 = g.op("Add", [g.conv("c2", r1, 64, 64), "x"], "a2")
    r2 = g.op("Relu", [a2], "r2")
    g.conv("y", r2, 48, 64)
    return g.model("winograd_block", [info("x", F, [1, 64, 56, 56])],
                   [info("y", F, [1, 48, 56, 56])]), (1, 64, 56, 56)


def batch_sigmoid():
    g = Graph(22)
    g.op("Sigmoid", [g.conv("c", "x", 40, 32)], "y")
    return g.model("winograd_batch", [info("x", F, [2, 32, 14, 14])],
                   [info("y", F, [2, 40, 14, 14])]), (2, 32, 14, 14)


def odd_planes():
    g = Graph(23)
    g.conv("odd", "x", 32, 32)
    g.op("Relu", [g.conv("c7", "s", 64, 64)], "seven")
    g.conv("few", "z", 16, 8)
    g.conv("even", "z16", 32, 32)
    return g.model("winograd_odd_planes",
                   [info("x", F, [1, 32, 15, 15]), info("s", F, [1, 64, 7, 7]),
                    info("z", F, [1, 8, 16, 16]), info("z16", F, [1, 32, 16, 16])],
                   [info("odd", F, [1, 32, 15, 15]), info("seven", F, [1, 64, 7, 7]),
                    info("few", F, [1, 16, 16, 16]), info("even", F, [1, 32, 16, 16])]), None


def main():
    args = parse_args(__doc__)
    rng = np.random.default_rng(7)
    passed = 0
    for make in (residual_block, batch_sigmoid, odd_planes):
        model, shape = make()
        feeds = {}
        for value in model.graph.input:
            dims = [d.dim_value for d in value.type.tensor_type.shape.dim]
            feeds[value.name] = rng.uniform(-1, 1, dims).astype(np.float32)
        for variant, extra in (("host", []), ("avx2", ["--target-cpu=x86-64-v3"]),
                               ("direct", ["--winograd=false"])):
            label = f"{model.graph.name}_{variant}"
            work, library = compile_model(args, model, label, *extra, symbol="m")
            expect_match(args, work, library, model, feeds, label)
            passed += 1
    print(f"{passed} passed, 0 failed")


if __name__ == "__main__":
    main()
