#!/usr/bin/env python3
"""Whole quantized networks give one integer answer on every target.

Three networks, quantized by ONNX Runtime's own tools at test time:
- torchvision's resnet18 (random weights, exported by Debian's PyTorch
  through test/zoo/export.py) quantized by quantize_static (QDQ,
  per-channel s8 weights, u8 activations, 4 calibration images);
- a transformer encoder layer (single-head attention, LayerNorm, a ReLU
  feed-forward; built here with onnx.helper) quantized the same way: its
  quantized MatMuls sit between float Softmax and LayerNormalization;
- a residual CNN quantized by quantize_dynamic with Conv and MatMul taken
  (DynamicQuantizeLinear feeding ConvInteger and MatMulInteger).

Each is compiled for this CPU, for AVX2 (x86-64-v3), for AVX-VNNI
(alderlake) where this CPU runs it, for the CUDA target under the emulator
(--emulator) and for HLS, C-simulated with g++ (--cxx). Checks:
- every target's output equals this CPU's, bit for bit (the QDQ
  convolutions, Gemm and global average pool run in integers, so no
  target's order of summation shows);
- the dynamic CNN equals ONNX Runtime's output exactly;
- resnet18 and the encoder are as close to the float model as ONNX
  Runtime's run of the same QDQ model (SQNR within 1 dB), resnet18 with the
  same top-1 class: ONNX Runtime runs resnet18's convolutions whose bias
  the exporter shares through Identity nodes in float, and the encoder's
  Softmax and LayerNorm are its own, so a quantized intermediate may round
  a step apart from ours.

Usage: quantized_networks.py --infer-compile BIN --infer-run BIN --work DIR
                             [--emulator DIR] [--cxx BIN]
"""
import os
import subprocess
import sys

import numpy as np
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.quantization import (CalibrationDataReader, QuantFormat, QuantType,
                                      quantize_dynamic, quantize_static)

from quantized_models import cpu_flags
from test_data import Checks, make_model, parse_args

HERE = os.path.dirname(os.path.abspath(__file__))
ZOO = os.path.join(HERE, "..", "zoo")
sys.path.insert(0, ZOO)
from run_zoo import TORCH_PYTHON  # noqa: E402

F = TensorProto.FLOAT


def encoder(rng, d=32, t=16, ff=64):
    inits, nodes = [], []

    def const(name, a):
        inits.append(numpy_helper.from_array(np.asarray(a, np.float32), name))
        return name

    def linear(name, x, i, o):
        nodes.append(helper.make_node("MatMul", [x, const(name + ".w", rng.normal(
            0, 1 / np.sqrt(i), (i, o)))], [name + ".mm"], name=name))
        nodes.append(helper.make_node("Add", [name + ".mm", const(name + ".b", rng.normal(
            0, 0.05, o))], [name]))
        return name

    def norm(name, x):
        nodes.append(helper.make_node("LayerNormalization", [x, const(name + ".g", np.ones(d)),
                                                             const(name + ".b", np.zeros(d))],
                                      [name], axis=-1, epsilon=1e-5))
        return name

    q, k, v = linear("q", "x", d, d), linear("k", "x", d, d), linear("v", "x", d, d)
    nodes += [helper.make_node("Transpose", [k], ["kt"], perm=[0, 2, 1]),
              helper.make_node("MatMul", [q, "kt"], ["s"], name="scores"),
              helper.make_node("Mul", ["s", const("scale", np.float32(1 / np.sqrt(d)))],
                               ["scaled"]),
              helper.make_node("Softmax", ["scaled"], ["p"], axis=-1),
              helper.make_node("MatMul", ["p", v], ["att"], name="context")]
    o = linear("o", "att", d, d)
    nodes.append(helper.make_node("Add", ["x", o], ["r1"]))
    h = norm("ln1", "r1")
    f = linear("f1", h, d, ff)
    nodes.append(helper.make_node("Relu", [f], ["fr"]))
    nodes.append(helper.make_node("Add", [h, linear("f2", "fr", ff, d)], ["r2"]))
    graph = helper.make_graph(nodes, "encoder", [helper.make_tensor_value_info("x", F, [1, t, d])],
                              [helper.make_tensor_value_info(norm("y", "r2"), F, [1, t, d])],
                              inits)
    return make_model(graph, 17)


def residual_cnn(rng):
    inits, nodes = [], []

    def const(name, a):
        inits.append(numpy_helper.from_array(np.asarray(a, np.float32), name))
        return name

    def conv(name, x, cin, cout, k, stride=1, relu=True):
        w = const(name + ".w", rng.normal(0, np.sqrt(2 / (cin * k * k)), (cout, cin, k, k)))
        nodes.append(helper.make_node("Conv", [x, w, const(name + ".b", rng.normal(0, 0.05, cout))],
                                      [name], name=name, pads=[k // 2] * 4,
                                      strides=[stride, stride]))
        if not relu:
            return name
        nodes.append(helper.make_node("Relu", [name], [name + ".r"]))
        return name + ".r"

    a = conv("stem", "x", 3, 16, 3)
    b = conv("c2", conv("c1", a, 16, 16, 3), 16, 16, 3, relu=False)
    nodes += [helper.make_node("Add", [a, b], ["sum"]), helper.make_node("Relu", ["sum"], ["s"])]
    c = conv("down", "s", 16, 8, 3, stride=2)
    # Flatten, not a global average: a float reduction between integer
    # layers rounds with each target's order of summation, and
    # DynamicQuantizeLinear would carry that into the integers.
    nodes += [helper.make_node("MaxPool", [c], ["pool"], kernel_shape=[2, 2], strides=[2, 2]),
              helper.make_node("Flatten", ["pool"], ["flat"]),
              helper.make_node("MatMul", ["flat", const("fc.w", rng.normal(0, 0.1, (288, 10)))],
                               ["logits"], name="fc")]
    graph = helper.make_graph(nodes, "cnn", [helper.make_tensor_value_info("x", F, [1, 3, 24, 24])],
                              [helper.make_tensor_value_info("logits", F, [1, 10])], inits)
    return make_model(graph, 13)


def static_qdq(source, out, inputs):
    class Reader(CalibrationDataReader):
        def __init__(self):
            self.sets = iter(inputs)

        def get_next(self):
            return next(self.sets, None)

    quantize_static(source, out, Reader(), quant_format=QuantFormat.QDQ, per_channel=True,
                    activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8)


def sqnr(got, expected):
    got, expected = np.asarray(got, np.float64), np.asarray(expected, np.float64)
    return 10 * np.log10(np.sum(expected ** 2) / max(np.sum((got - expected) ** 2), 1e-30))


def main():
    args = parse_args(__doc__, optional=("emulator", "cxx"))
    checks = Checks()
    expect = checks.expect
    work = args.work
    rng = np.random.default_rng(5)

    # The networks: (name, float model file, QDQ/dynamic file, input name,
    # input, exact against ORT).
    export = os.path.join(work, "export")
    proc = subprocess.run([TORCH_PYTHON, os.path.join(ZOO, "export.py"), "--out", export,
                           "--only", "resnet18", "--opsets", "13"],
                          capture_output=True, text=True, timeout=1800)
    resnet = os.path.join(export, "resnet18", "opset13_static.onnx")
    if proc.returncode != 0 or not os.path.exists(resnet):
        sys.exit(f"FAIL: exporting resnet18: {proc.stdout}{proc.stderr}")
    images = [{"x": np.random.default_rng(k).random((1, 3, 224, 224), dtype=np.float32)}
              for k in range(5)]
    static_qdq(resnet, os.path.join(work, "resnet18_qdq.onnx"), images[:4])
    encoder_path = os.path.join(work, "encoder.onnx")
    with open(encoder_path, "wb") as f:
        f.write(encoder(rng).SerializeToString())
    tokens = [{"x": np.random.default_rng(10 + k).normal(0, 1, (1, 16, 32)).astype(np.float32)}
              for k in range(9)]
    static_qdq(encoder_path, os.path.join(work, "encoder_qdq.onnx"), tokens[:8])
    cnn_path = os.path.join(work, "cnn.onnx")
    with open(cnn_path, "wb") as f:
        f.write(residual_cnn(rng).SerializeToString())
    quantize_dynamic(cnn_path, os.path.join(work, "cnn_dynamic.onnx"),
                     op_types_to_quantize=["Conv", "MatMul"], weight_type=QuantType.QUInt8)
    cnn_input = {"x": np.random.default_rng(3).random((1, 3, 24, 24), dtype=np.float32)}
    networks = [("resnet18_qdq", resnet, images[4], False),
                ("encoder_qdq", encoder_path, tokens[8], False),
                ("cnn_dynamic", cnn_path, cnn_input, True)]

    variants = [("native", []), ("avx2", ["--target-cpu=x86-64-v3"])]
    if "avx_vnni" in cpu_flags():
        variants.append(("avxvnni", ["--target-cpu=alderlake"]))
    if args.emulator:
        variants.append(("cuda", ["--target=cuda", "--gpu-emulation"]))
    for name, float_path, feeds, exact in networks:
        path = os.path.join(work, name + ".onnx")
        x = feeds["x"]
        npy = os.path.join(work, name + "_x.npy")
        np.save(npy, x)
        session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
        output = session.get_outputs()[0].name
        expected = session.run(None, feeds)[0]
        outputs = {}
        for label, flags in variants:
            out = os.path.join(work, f"{name}_{label}")
            built = subprocess.run([args.infer_compile, path, "--name", "m", "-o", out, *flags],
                                   capture_output=True, text=True, timeout=600)
            env = None
            if label == "cuda":
                env = dict(os.environ, LD_LIBRARY_PATH=args.emulator,
                           INFER_EMU_KERNELS=os.path.join(out, "m.emu.so"))
            ran = built.returncode == 0 and subprocess.run(
                [args.infer_run, os.path.join(out, "m.so"), "--input", f"x={npy}",
                 "--save-outputs", os.path.join(out, "outputs")], capture_output=True,
                env=env, timeout=600).returncode == 0
            if not ran:
                expect(f"{name} on {label}: compiles and runs", False, built.stderr[-400:])
                continue
            outputs[label] = np.load(os.path.join(out, "outputs", output + ".npy"))
        if "native" not in outputs:
            continue
        ours = outputs["native"]
        for label, got in outputs.items():
            if label != "native":
                expect(f"{name}: {label} equals this CPU bit for bit", np.array_equal(got, ours),
                       int(np.count_nonzero(got != ours)))
        if args.cxx:
            out = os.path.join(work, f"{name}_hls")
            raw = os.path.join(out, "set")
            built = subprocess.run([args.infer_compile, path, "--name", "m", "-o", out,
                                    "--target=hls"], capture_output=True, text=True, timeout=600)
            tb = os.path.join(out, "tb")
            ok = built.returncode == 0 and subprocess.run(
                [args.cxx, "-std=c++17", "-O1", "-o", tb, os.path.join(out, "m.cpp"),
                 os.path.join(out, "m_tb.cpp")], capture_output=True, timeout=900).returncode == 0
            if ok:
                os.makedirs(raw)
                x.tofile(os.path.join(raw, "input_0.bin"))
                ours.tofile(os.path.join(raw, "output_0.bin"))
                ok = subprocess.run([tb, raw, "0", "0"], capture_output=True,
                                    timeout=900).returncode == 0
            expect(f"{name}: HLS C simulation equals this CPU bit for bit", ok, "")
        if exact:
            expect(f"{name}: equals ONNX Runtime", np.array_equal(ours, expected),
                   f"{int(np.count_nonzero(ours != expected))} of {ours.size} differ, max "
                   f"{float(np.abs(ours - expected).max())}")
        else:
            reference = ort.InferenceSession(float_path, providers=["CPUExecutionProvider"])
            floats = reference.run(None, feeds)[0]
            ours_db, ort_db = sqnr(ours, floats), sqnr(expected, floats)
            print(f"{name}: SQNR against the float model: infer {ours_db:.1f} dB, "
                  f"ONNX Runtime {ort_db:.1f} dB")
            expect(f"{name}: as close to the float model as ONNX Runtime (within 1 dB)",
                   ours_db >= ort_db - 1, (ours_db, ort_db))
            if name.startswith("resnet"):
                expect(f"{name}: the same top-1 class as ONNX Runtime",
                       np.argmax(ours) == np.argmax(expected),
                       (np.argmax(ours), np.argmax(expected)))
    print(f"targets: native, {', '.join(v for v, _ in variants[1:])}"
          f"{', hls' if args.cxx else ''}")
    return checks.summary("quantized-networks")


if __name__ == "__main__":
    sys.exit(main())
