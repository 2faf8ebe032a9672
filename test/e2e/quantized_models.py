#!/usr/bin/env python3
"""int8 convolutions end to end, against ONNX Runtime and onnx.reference.

Each model quantizes a float input, runs a chain of int8 convolutions and
returns the last one's u8 output, so every element is compared exactly
(three more run int8 linear layers over packed lanes along K: QLinearMatMul,
QDQ MatMul, and DynamicQuantizeLinear + MatMulInteger, whose i32 product is
compared; and one a dynamically quantized convolution, ConvInteger's i32):
- QLinearConv chains whose weights are constant symmetric s8 (the form
  post-training quantizers emit): they lower over packed 8-bit lanes and
  run in the byte-dot kernels (vpdpbusd where the CPU has VNNI). Odd
  channel counts (3, 6), strides 1 and 2, 1x1 and 3x3 windows, padding
  (filled with the input's zero point), per-channel and per-tensor weight
  scales, with and without bias;
- the same convolutions with asymmetric weights and in groups, which keep
  the generic integer lowering;
- the QDQ form (DequantizeLinear -> Conv -> QuantizeLinear), which
  infer-graph-fold-qdq folds into QLinearConv, a QDQ MaxPool, folded to
  a MaxPool on u8 values (which must compare unsigned), and a QDQ HardSwish
  (Add, Clip, Mul, Div, each requantized), made a 256-entry table.

Each model is compiled for this CPU, for AVX2 without VNNI
(--target-cpu=x86-64-v3) and, where this CPU has AVX-VNNI, for a CPU with
it alone (--target-cpu=alderlake: vpdpbusd on ymm). With --emulator (the
CUDA emulator's libcuda folder) each also runs on the CUDA target
(--gpu-emulation: the kernels built from the PTX's IR), and with --cxx on
the HLS target (the project's C simulation, built as a user would): one
integer answer on every target.

The expected values are ONNX Runtime's (its MLAS int8 kernels) and must be
equal to the last bit; onnx.reference (numpy) must agree with them too,
else the model itself is suspect.

Usage: quantized_models.py --infer-compile BIN --infer-run BIN --work DIR
                           [--emulator DIR] [--cxx BIN]
"""
import os
import subprocess
import sys

import numpy as np
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

from test_data import compile_model, make_model, parse_args, run, write_set

F, U8, I8, I32 = TensorProto.FLOAT, TensorProto.UINT8, TensorProto.INT8, TensorProto.INT32


class Builder:
    """Nodes and initializers of a quantized chain."""

    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.nodes, self.inits = [], []

    def const(self, name, array):
        self.inits.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def node(self, op, inputs, output, **attrs):
        self.nodes.append(helper.make_node(op, inputs, [output], name=output, **attrs))
        return output

    def weights(self, name, filters, channels, kernel, per_channel, symmetric):
        w = self.rng.integers(-127, 128, (filters, channels, kernel, kernel)).astype(np.int8)
        count = filters if per_channel else 1
        scale = (self.rng.uniform(0.5, 2.0, count) / (40 * channels * kernel * kernel)).astype(np.float32)
        zp = (self.rng.integers(-3, 4, count) if not symmetric else np.zeros(count)).astype(np.int8)
        if not per_channel:
            scale, zp = scale.reshape(()), zp.reshape(())
        return w, scale, zp

    def qlinear_conv(self, x, x_scale, x_zp, name, filters, channels, kernel, stride=1,
                     per_channel=True, symmetric=True, bias=True, group=1):
        w, w_scale, w_zp = self.weights(name, filters, channels // group, kernel, per_channel,
                                        symmetric)
        inputs = [x, x_scale, x_zp, self.const(name + "_w", w),
                  self.const(name + "_ws", w_scale), self.const(name + "_wzp", w_zp)]
        y_scale = self.const(name + "_ys", np.float32(0.02 + 0.01 * len(self.nodes)))
        y_zp = self.const(name + "_yzp", np.uint8(100 + 7 * len(self.nodes)))
        inputs += [y_scale, y_zp]
        if bias:
            inputs.append(self.const(name + "_b", self.rng.integers(-3000, 3000, filters)
                                     .astype(np.int32)))
        self.node("QLinearConv", inputs, name, kernel_shape=[kernel, kernel],
                  pads=[kernel // 2] * 4, strides=[stride, stride], group=group)
        return name, y_scale, y_zp

    def qdq_conv(self, x, x_scale, x_zp, name, filters, channels, kernel, stride=1):
        """DequantizeLinear -> Conv -> QuantizeLinear, as quantize_static
        writes a convolution (bias in i32 at scale x_scale * w_scale)."""
        w, w_scale, w_zp = self.weights(name, filters, channels, kernel, True, True)
        xs = self.inits_value(x_scale)
        b = self.rng.integers(-3000, 3000, filters).astype(np.int32)
        dx = self.node("DequantizeLinear", [x, x_scale, x_zp], name + "_dx")
        dw = self.node("DequantizeLinear", [self.const(name + "_w", w),
                                            self.const(name + "_ws", w_scale),
                                            self.const(name + "_wzp", w_zp)], name + "_dw", axis=0)
        db = self.node("DequantizeLinear", [self.const(name + "_b", b),
                                            self.const(name + "_bs", (xs * w_scale).astype(np.float32)),
                                            self.const(name + "_bzp", np.zeros(filters, np.int32))],
                       name + "_db", axis=0)
        conv = self.node("Conv", [dx, dw, db], name + "_conv", kernel_shape=[kernel, kernel],
                         pads=[kernel // 2] * 4, strides=[stride, stride])
        y_scale = self.const(name + "_ys", np.float32(0.02 + 0.01 * len(self.nodes)))
        y_zp = self.const(name + "_yzp", np.uint8(90 + 3 * len(self.nodes)))
        self.node("QuantizeLinear", [conv, y_scale, y_zp], name)
        return name, y_scale, y_zp

    def matmul(self, x, x_scale, x_zp, name, depth, columns, per_column=True, qdq=False):
        """A linear layer in int8: QLinearMatMul, or (qdq) DequantizeLinear
        -> MatMul <- DequantizeLinear(B, axis 1) -> QuantizeLinear, with a
        constant symmetric s8 B of `depth` x `columns`."""
        b = self.rng.integers(-127, 128, (depth, columns)).astype(np.int8)
        count = columns if per_column else 1
        b_scale = (self.rng.uniform(0.5, 2.0, count) / (30 * depth)).astype(np.float32)
        b_zp = np.zeros(count, np.int8)
        if not per_column:
            b_scale, b_zp = b_scale.reshape(()), b_zp.reshape(())
        weights = [self.const(name + "_b", b), self.const(name + "_bs", b_scale),
                   self.const(name + "_bzp", b_zp)]
        y_scale = self.const(name + "_ys", np.float32(0.02 + 0.01 * len(self.nodes)))
        y_zp = self.const(name + "_yzp", np.uint8(110 + 3 * len(self.nodes)))
        if qdq:
            da = self.node("DequantizeLinear", [x, x_scale, x_zp], name + "_da")
            db = self.node("DequantizeLinear", weights, name + "_db", axis=1)
            product = self.node("MatMul", [da, db], name + "_mm")
            self.node("QuantizeLinear", [product, y_scale, y_zp], name)
        else:
            self.node("QLinearMatMul", [x, x_scale, x_zp] + weights + [y_scale, y_zp], name)
        return name, y_scale, y_zp

    def qdq_max_pool(self, x, x_scale, x_zp, name):
        """DequantizeLinear -> MaxPool 3x3 stride 2 -> QuantizeLinear at the
        same scale and zero point (resnet's stem pool), which folds to a
        MaxPool on the u8 values."""
        d = self.node("DequantizeLinear", [x, x_scale, x_zp], name + "_d")
        p = self.node("MaxPool", [d], name + "_pool", kernel_shape=[3, 3], pads=[1, 1, 1, 1],
                      strides=[2, 2])
        self.node("QuantizeLinear", [p, x_scale, x_zp], name)
        return name, x_scale, x_zp

    def qdq_hard_swish(self, x, x_scale, x_zp, name):
        """HardSwish written as QDQ ops, as PaddleOCR's quantized models
        have it: x * clip(x + 3, 0, 6) / 6, every step between a
        DequantizeLinear and a QuantizeLinear (infer-graph-fold-qdq makes
        the chain one 256-entry table)."""
        def requant(value, label, scale, zp):
            s = self.const(label + "_s", np.float32(scale))
            z = self.const(label + "_z", np.uint8(zp))
            q = self.node("QuantizeLinear", [value, s, z], label + "_q")
            return self.node("DequantizeLinear", [q, s, z], label + "_dq"), s, z
        dx = self.node("DequantizeLinear", [x, x_scale, x_zp], name + "_dx")
        three = self.const(name + "_three", np.float32(3))
        plus, _, _ = requant(self.node("Add", [dx, three], name + "_add"), name + "_a", 0.04, 30)
        low, high = self.const(name + "_lo", np.float32(0)), self.const(name + "_hi", np.float32(6))
        clipped, _, _ = requant(self.node("Clip", [plus, low, high], name + "_clip"),
                                name + "_c", 0.025, 0)
        prod, _, _ = requant(self.node("Mul", [dx, clipped], name + "_mul"), name + "_m", 0.1, 60)
        six = self.const(name + "_six", np.float32(6))
        y_scale = self.const(name + "_ys", np.float32(0.03))
        y_zp = self.const(name + "_yzp", np.uint8(40))
        self.node("QuantizeLinear", [self.node("Div", [prod, six], name + "_div"), y_scale, y_zp],
                  name)
        return name, y_scale, y_zp

    def inits_value(self, name):
        return next(numpy_helper.to_array(t) for t in self.inits if t.name == name)

    def model(self, name, shape, last, out_shape):
        graph = helper.make_graph(self.nodes, name,
                                  [helper.make_tensor_value_info("x", F, shape)],
                                  [helper.make_tensor_value_info(last, U8, out_shape)],
                                  self.inits)
        return make_model(graph, 17)


def chain(name, convs, shape=(1, 3, 20, 20), qdq=False, seed=0):
    """x -> QuantizeLinear -> each conv of `convs` (filters, kernel, stride,
    options) -> the last u8 output."""
    b = Builder(seed)
    value = b.node("QuantizeLinear", ["x", b.const("xs", np.float32(0.05)),
                                      b.const("xzp", np.uint8(128))], "xq")
    scale, zp = "xs", "xzp"
    channels, size = shape[1], shape[2]
    for i, (filters, kernel, stride, options) in enumerate(convs):
        if filters == "pool":
            value, scale, zp = b.qdq_max_pool(value, scale, zp, f"p{i}")
            size = (size + 1) // 2
            continue
        if filters == "hardswish":
            value, scale, zp = b.qdq_hard_swish(value, scale, zp, f"h{i}")
            continue
        build = b.qdq_conv if qdq else b.qlinear_conv
        value, scale, zp = build(value, scale, zp, f"c{i}", filters, channels, kernel,
                                 stride, **options)
        channels, size = filters, (size + stride - 1) // stride
    return b.model(name, list(shape), value, [shape[0], channels, size, size])


def linear_chain(name, layers, shape=(1, 5, 21), qdq=False, seed=3):
    """x -> QuantizeLinear -> int8 matmuls of `layers` (columns,
    per_column) over the last dimension -> the last u8 output."""
    b = Builder(seed)
    value = b.node("QuantizeLinear", ["x", b.const("xs", np.float32(0.05)),
                                      b.const("xzp", np.uint8(128))], "xq")
    scale, zp, depth = "xs", "xzp", shape[-1]
    for i, (columns, per_column) in enumerate(layers):
        value, scale, zp = b.matmul(value, scale, zp, f"m{i}", depth, columns, per_column, qdq)
        depth = columns
    return b.model(name, list(shape), value, list(shape[:-1]) + [depth])


def dynamic_matmul(name, shape=(1, 6, 37), columns=20, seed=5):
    """quantize_dynamic's linear layer: DynamicQuantizeLinear (u8, the zero
    point computed at run time) -> MatMulInteger with a constant symmetric
    s8 B; the i32 product is the output."""
    b = Builder(seed)
    b.nodes.append(helper.make_node("DynamicQuantizeLinear", ["x"], ["xq", "xs", "xzp"]))
    weights = b.rng.integers(-127, 128, (shape[-1], columns)).astype(np.int8)
    b.node("MatMulInteger", ["xq", b.const("w", weights), "xzp",
                             b.const("wzp", np.int8(0))], "y")
    graph = helper.make_graph(b.nodes, name, [helper.make_tensor_value_info("x", F, shape)],
                              [helper.make_tensor_value_info("y", I32, list(shape[:-1]) + [columns])],
                              b.inits)
    return make_model(graph, 17)


def dynamic_conv(name, shape=(1, 5, 9, 9), filters=7, seed=6):
    """quantize_dynamic's convolution: DynamicQuantizeLinear -> ConvInteger
    (3x3, padded with the run-time zero point) with constant s8 weights;
    the i32 result is the output."""
    b = Builder(seed)
    b.nodes.append(helper.make_node("DynamicQuantizeLinear", ["x"], ["xq", "xs", "xzp"]))
    weights = b.rng.integers(-127, 128, (filters, shape[1], 3, 3)).astype(np.int8)
    b.node("ConvInteger", ["xq", b.const("w", weights), "xzp", b.const("wzp", np.int8(0))],
           "y", pads=[1, 1, 1, 1])
    graph = helper.make_graph(
        b.nodes, name, [helper.make_tensor_value_info("x", F, shape)],
        [helper.make_tensor_value_info("y", I32, [shape[0], filters] + list(shape[2:]))],
        b.inits)
    return make_model(graph, 17)


MODELS = [
    # Symmetric s8 weights: the packed byte-dot lowering.
    ("qlinear_packed", chain("qlinear_packed", [
        (8, 3, 1, {}), (16, 3, 2, dict(bias=False)), (6, 1, 1, dict(per_channel=False)),
        (12, 3, 1, {})])),
    ("qlinear_wide", chain("qlinear_wide", [
        (40, 3, 2, {}), (64, 3, 1, {}), (36, 1, 1, {})], shape=(1, 3, 33, 33), seed=1)),
    # Asymmetric weights and groups: the generic integer lowering.
    ("qlinear_generic", chain("qlinear_generic", [
        (8, 3, 1, dict(symmetric=False)), (8, 3, 1, dict(group=2)), (4, 1, 1, {})])),
    # QDQ convolutions, folded to QLinearConv, and a QDQ max pool, folded to
    # a MaxPool on u8 values.
    ("qdq_convs", chain("qdq_convs", [
        (8, 3, 1, {}), ("pool", 0, 0, {}), (16, 3, 2, {}), ("hardswish", 0, 0, {}),
        (10, 1, 1, {})], qdq=True, seed=2)),
    # int8 linear layers over a sequence: K of 21 and 30 (padded to
    # multiples of 4), per-column and per-tensor scales, QLinearMatMul and
    # the QDQ form (folded to it).
    ("qlinear_matmul", linear_chain("qlinear_matmul", [(30, True), (17, False), (40, True)])),
    ("qdq_matmul", linear_chain("qdq_matmul", [(30, True), (24, True)], qdq=True, seed=4)),
    # Dynamic quantization: A's zero point known only at run time.
    ("dynamic_matmul", dynamic_matmul("dynamic_matmul")),
    ("dynamic_conv", dynamic_conv("dynamic_conv")),
]


def cpu_flags():
    with open("/proc/cpuinfo") as info:
        for line in info:
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    return set()


def variants(args):
    """(suffix, extra infer-compile arguments): this CPU (vpdpbusd on zmm
    where it has AVX-512 VNNI), AVX2 without VNNI (the lanes' products one
    by one), AVX-VNNI's ymm form where this CPU can run it, the emulated
    CUDA target and the HLS target when their tools are given."""
    result = [("", []), ("_avx2", ["--target-cpu=x86-64-v3"])]
    if "avx_vnni" in cpu_flags():
        result.append(("_avxvnni", ["--target-cpu=alderlake"]))
    if args.emulator:
        result.append(("_cuda", ["--target=cuda", "--gpu-emulation"]))
    if args.cxx:
        result.append(("_hls", ["--target=hls"]))
    return result


def run_variant(args, name, suffix, work, library, directory, x, expected):
    """Runs one compiled variant on a test_data_set; (ok, last line)."""
    if suffix == "_hls":
        # The project's testbench reads raw input_K.bin / output_K.bin and
        # requires integer outputs to be equal.
        out = os.path.dirname(library)
        tb = os.path.join(out, name + "_tb")
        if not os.path.exists(tb):
            built = run([args.cxx, "-std=c++17", "-O1", "-o", tb,
                         os.path.join(out, name + ".cpp"), os.path.join(out, name + "_tb.cpp")])
            if built.returncode != 0:
                return False, built
        raw = directory + "_raw"
        os.makedirs(raw)
        x.tofile(os.path.join(raw, "input_0.bin"))
        expected.tofile(os.path.join(raw, "output_0.bin"))
        proc = subprocess.run([tb, raw], capture_output=True, text=True, timeout=600)
        return proc.returncode == 0 and "PASS" in proc.stdout, proc
    env = None
    if suffix == "_cuda":
        env = dict(os.environ, LD_LIBRARY_PATH=args.emulator,
                   INFER_EMU_KERNELS=os.path.join(os.path.dirname(library), name + ".emu.so"))
    proc = subprocess.run([args.infer_run, library, "--test-data", directory],
                          capture_output=True, text=True, env=env, timeout=600)
    return proc.returncode == 0, proc


def main():
    args = parse_args(__doc__, optional=("emulator", "cxx"))
    failures = 0
    for (name, model), (suffix, extra) in ((m, v) for m in MODELS for v in variants(args)):
        work, library = compile_model(args, model, name + suffix, *extra, symbol=name)
        for seed in range(2):
            x = np.random.default_rng(10 + seed).uniform(-6, 6, (1,) + tuple(
                d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim[1:])
            ).astype(np.float32)
            feeds = {"x": x}
            session = ort.InferenceSession(model.SerializeToString(),
                                           providers=["CPUExecutionProvider"])
            expected = session.run(None, feeds)[0]
            try:
                reference = ReferenceEvaluator(model).run(None, feeds)[0]
            except RuntimeError:
                # (onnx.reference has no DequantizeLinear-13: QDQ models are
                # checked against ONNX Runtime alone.)
                reference = expected
            if not np.array_equal(expected, reference):
                differ = int(np.count_nonzero(expected != reference))
                print(f"{name}: ONNX Runtime and onnx.reference differ in {differ} "
                      f"elements; the model is suspect")
                failures += 1
                continue
            directory = os.path.join(work, f"set{seed}")
            write_set(directory, model, feeds, [expected])
            ok, proc = run_variant(args, name, suffix, work, library, directory, x, expected)
            print(f"{name}{suffix} (seed {seed}): {proc.stdout.strip().splitlines()[-1:]}")
            if not ok:
                print(proc.stdout + proc.stderr)
                failures += 1
    if failures:
        print(f"{failures} failure(s)")
        return 1
    print(f"all {len(MODELS)} models x {len(variants(args))} targets "
          f"({', '.join(s[1:] or 'native' for s, _ in variants(args))}) match ONNX Runtime "
          "exactly")
    return 0


if __name__ == "__main__":
    sys.exit(main())
