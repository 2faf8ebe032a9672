#!/usr/bin/env python3
"""infer-compile --precision=bf16 end to end, against ONNX Runtime.

The float CNN of quantize_int8.py (Conv+BatchNorm+Relu, Convs, a depthwise
Conv, a residual Add, a 1x1 Conv, a MatMul+Add+Relu layer and a Gemm head
with B transposed) is compiled with --precision=bf16 for this CPU and for
AVX2 (x86-64-v3, no AVX512-BF16: two FMAs on the widened lanes), and
checked:
- the report: every Conv, MatMul and Gemm listed, the depthwise Conv and
  the one named in --precision-exclude kept f32 with why, and the model
  output's SQNR against the f32 model: close (above 40 dB) but not equal
  (the layers really ran in bf16);
- the rounding: on held-apart inputs, infer's bf16 output is far closer to
  ONNX Runtime running the float model with the same bf16 steps written
  out (each bf16 layer's input cast to bfloat16 and back, its weights
  rounded to nearest even in numpy) than to the float model itself, and
  within 40 dB of the float model;
- both CPU variants give the same output (the FMA route rounds as
  vdpbf16ps does), and where this CPU has AVX512-BF16 its object uses
  vdpbf16ps (else the object for Cooper Lake does, compiled only);
- the weights are stored as bf16 pairs: the object's read-only data is
  about 2 bytes per weight of the bf16 layers smaller than the f32 one's;
- refusals with a clear message: an unknown --precision, --precision-report
  without --calibration, an unknown --precision-exclude node,
  --precision-exclude without --precision=bf16.

With --emulator (the CUDA emulator's libcuda folder) the model also runs on
the CUDA target (--gpu-emulation) with the same checks, and with --cxx in
HLS C simulation, whose testbench must accept the bf16 steps' output within
1e-4 and refuse the float model's.

Usage: precision_bf16.py --infer-compile BIN --infer-run BIN --work DIR
                         [--emulator DIR] [--cxx BIN]
"""
import json
import os
import subprocess
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

from quantize_int8 import SHAPE, cnn, sqnr, write_calibration
from test_data import Checks, parse_args

EXCLUDED = "conv2"


def bf16_round(a):
    """`a` rounded to bfloat16 (nearest even) and back to f32, in numpy."""
    bits = np.asarray(a, np.float32).view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    return bits.astype(np.uint32).view(np.float32)


def bf16_steps(model, bf16_layers):
    """The float `model` with the bf16 steps of `bf16_layers` (node names)
    written out: each one's activation input cast to bfloat16 and back, its
    weights rounded."""
    model = onnx.ModelProto.FromString(model.SerializeToString())
    inits = {i.name: i for i in model.graph.initializer}
    nodes = []
    for node in model.graph.node:
        if node.name in bf16_layers:
            x = node.input[0]
            nodes += [helper.make_node("Cast", [x], [x + ".bf16"], to=TensorProto.BFLOAT16),
                      helper.make_node("Cast", [x + ".bf16"], [x + ".rounded"],
                                       to=TensorProto.FLOAT)]
            node.input[0] = x + ".rounded"
            w = inits[node.input[1]]
            w.CopyFrom(numpy_helper.from_array(bf16_round(numpy_helper.to_array(w)), w.name))
        nodes.append(node)
    del model.graph.node[:]
    model.graph.node.extend(nodes)
    return model


def main():
    args = parse_args(__doc__, optional=("emulator", "cxx"))
    checks = Checks()
    expect = checks.expect
    work = args.work
    model = cnn()
    # The Gemm head gets a name, so the report and --precision-exclude can
    # name it.
    for node in model.graph.node:
        if node.op_type == "Gemm":
            node.name = "head"
    model_path = os.path.join(work, "cnn.onnx")
    with open(model_path, "wb") as f:
        f.write(model.SerializeToString())
    rng = np.random.default_rng(7)
    cal_dir = os.path.join(work, "sets")
    write_calibration(cal_dir, [rng.random(SHAPE, dtype=np.float32) for _ in range(4)])
    rng = np.random.default_rng(11)
    held_apart = [rng.random(SHAPE, dtype=np.float32) for _ in range(6)]

    def compile_(*flags, out="out"):
        return subprocess.run([args.infer_compile, model_path, "--name", "m",
                               "-o", os.path.join(work, out), *flags],
                              capture_output=True, text=True, timeout=600)

    def run(out, env=None):
        outputs = []
        for k, x in enumerate(held_apart):
            npy, saved = os.path.join(work, f"x{k}.npy"), os.path.join(work, f"{out}_{k}")
            np.save(npy, x)
            subprocess.run([args.infer_run, os.path.join(work, out, "m.so"), "--input",
                            f"x={npy}", "--save-outputs", saved], check=True,
                           capture_output=True, env=env)
            outputs.append(np.load(os.path.join(saved, "logits.npy")))
        return np.array(outputs)

    # The report.
    report_path = os.path.join(work, "report.json")
    bf16 = ["--precision=bf16", "--precision-exclude=" + EXCLUDED]
    proc = compile_(*bf16, "--precision-report=" + report_path, "--calibration=" + cal_dir)
    if proc.returncode != 0:
        sys.exit(f"FAIL: infer-compile --precision=bf16: {proc.stderr}")
    with open(report_path) as f:
        report = json.load(f)
    layers = {layer["name"]: layer for layer in report["layers"]}
    expect("report lists the 6 Convs, the MatMul and the Gemm",
           sorted(layers) == ["conv1", "conv2", "dw", "expand", "fc1", "head", "last"],
           sorted(layers))
    in_bf16 = sorted(n for n, layer in layers.items() if layer["bf16"])
    expect("report: conv1, expand, last, fc1 and the Gemm in bf16",
           in_bf16 == ["conv1", "expand", "fc1", "head", "last"], in_bf16)
    expect("report: the depthwise and the excluded Conv kept f32, saying why",
           "grouped" in layers["dw"].get("reason", "")
           and "exclude" in layers[EXCLUDED].get("reason", ""), layers)
    output = report["outputs"][0]
    expect("report: the output against f32 is close but not equal (40 to 90 dB)",
           report["input_sets"] == 4 and output["name"] == "logits"
           and output["sqnr_db"] is not None and 40 < output["sqnr_db"] < 90, report["outputs"])
    expect("the table is printed",
           "5 of 7 layers (Conv, MatMul, Gemm) in bf16" in proc.stdout, proc.stdout)

    # The rounding, on held-apart inputs, for this CPU and for AVX2.
    float_session = ort.InferenceSession(model_path, providers=["CPUExecutionProvider"])
    stepped = bf16_steps(model, set(in_bf16))
    stepped_session = ort.InferenceSession(stepped.SerializeToString(),
                                           providers=["CPUExecutionProvider"])
    expected = np.array([float_session.run(None, {"x": x})[0] for x in held_apart])
    emulated = np.array([stepped_session.run(None, {"x": x})[0] for x in held_apart])
    outputs = {}
    variants = [("native", []), ("x86-64-v3", ["--target-cpu=x86-64-v3"])]
    if args.emulator:
        variants.append(("cuda", ["--target=cuda", "--gpu-emulation"]))
    for label, flags in variants:
        built = compile_(*bf16, *flags, out=label)
        if built.returncode != 0:
            sys.exit(f"FAIL: infer-compile --precision=bf16 {flags}: {built.stderr}")
        env = None
        if label == "cuda":
            env = dict(os.environ, LD_LIBRARY_PATH=args.emulator,
                       INFER_EMU_KERNELS=os.path.join(work, label, "m.emu.so"))
        ours = outputs[label] = run(label, env)
        to_float, to_steps = sqnr(ours, expected), sqnr(ours, emulated)
        print(f"{label}: SQNR against ORT f32 {to_float:.1f} dB, against ORT with the "
              f"bf16 steps {to_steps:.1f} dB")
        expect(f"{label}: within 40 dB of the float model", to_float > 40, to_float)
        expect(f"{label}: the bf16 steps written out explain the difference "
               f"(30 dB closer to them than to f32)", to_steps > to_float + 30,
               (to_steps, to_float))
    expect("this CPU and AVX2 give the same output",
           np.array_equal(outputs["native"], outputs["x86-64-v3"]),
           np.abs(outputs["native"] - outputs["x86-64-v3"]).max())
    if args.cxx:
        # HLS C simulation: the testbench compares with the bf16 steps'
        # output within 1e-4 (relative), and refuses the float model's.
        built = compile_(*bf16, "--target=hls", out="hls")
        tb = os.path.join(work, "hls", "tb")
        built = built.returncode == 0 and subprocess.run(
            [args.cxx, "-std=c++17", "-O1", "-o", tb, os.path.join(work, "hls", "m.cpp"),
             os.path.join(work, "hls", "m_tb.cpp")], capture_output=True).returncode == 0
        verdicts = []
        for want in (emulated, expected):
            ok = built
            for k, x in enumerate(held_apart):
                raw = os.path.join(work, "hls", f"set{k}")
                os.makedirs(raw, exist_ok=True)
                x.tofile(os.path.join(raw, "input_0.bin"))
                want[k].tofile(os.path.join(raw, "output_0.bin"))
                ok = ok and subprocess.run([tb, raw, "1e-4", "1e-5"], capture_output=True,
                                           timeout=600).returncode == 0
            verdicts.append(ok)
        expect("HLS C simulation: equal to the bf16 steps within 1e-4, not to f32",
               verdicts == [True, False], verdicts)

    # vdpbf16ps where the CPU has it; the Cooper Lake object otherwise.
    with open("/proc/cpuinfo") as f:
        host_bf16 = "avx512_bf16" in f.read()
    if host_bf16:
        obj = os.path.join(work, "native", "m.o")
    else:
        built = compile_(*bf16, "--target-cpu=cooperlake", out="cooperlake")
        obj = os.path.join(work, "cooperlake", "m.o")
        expect("compiles for Cooper Lake", built.returncode == 0, built.stderr)
    text = subprocess.run(["objdump", "-d", obj], capture_output=True, text=True).stdout
    expect(f"the object ({'this CPU' if host_bf16 else 'Cooper Lake'}) uses vdpbf16ps",
           "vdpbf16ps" in text, "no vdpbf16ps")
    v3 = subprocess.run(["objdump", "-d", os.path.join(work, "x86-64-v3", "m.o")],
                        capture_output=True, text=True).stdout
    expect("the AVX2 object does not", "vdpbf16ps" not in v3 and "vfmadd" in v3, "")

    # Weights stored as bf16 pairs: the read-only data shrinks by about 2
    # bytes per weight of the bf16 layers.
    built = compile_(out="f32")

    def rodata(out):
        sections = subprocess.run(["objdump", "-h", os.path.join(work, out, "m.o")],
                                  capture_output=True, text=True).stdout.split("\n")
        return sum(int(line.split()[2], 16) for line in sections
                   if len(line.split()) > 2 and line.split()[1] == ".rodata")
    inits = {i.name: i for i in model.graph.initializer}
    weights = sum(int(np.prod(inits[n.input[1]].dims)) for n in model.graph.node
                  if n.name in in_bf16)
    saved = rodata("f32") - rodata("native")
    expect(f"weights stored in bf16: {saved} bytes saved for {weights} weights",
           built.returncode == 0 and saved >= 0.9 * 2 * weights, (saved, weights))

    # Refusals.
    for flags, wanted in [
            (["--precision=fp16"], "--precision must be 'f32' or 'bf16', got 'fp16'"),
            (["--precision=bf16", "--precision-report=" + os.path.join(work, "r.json")],
             "--precision-report needs --calibration=DIR"),
            (["--precision=bf16", "--precision-exclude=nosuch"],
             "no Conv, MatMul or Gemm node named 'nosuch'"),
            (["--precision-exclude=conv1"], "apply with --precision=bf16")]:
        proc = compile_(*flags, out="refused")
        expect(f"refused: {' '.join(flags)}",
               proc.returncode != 0 and wanted in proc.stderr, proc.stderr)
    return checks.summary("precision-bf16")


if __name__ == "__main__":
    sys.exit(main())
