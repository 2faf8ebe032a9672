#!/usr/bin/env python3
"""infer-compile --quantize=int8 end to end, against ONNX Runtime.

A small float CNN (Conv+BatchNorm+Relu, Conv+Relu, a depthwise Conv, a
residual Add, a 1x1 Conv, MaxPool, GlobalAveragePool, a MatMul+Add+Relu
layer and a Gemm head) is
quantized by infer with calibration sets in both accepted layouts (ONNX
test_data_set folders and folders of NAME.npy), and checked:
- the report: every Conv and MatMul listed, in int8 or with why not (the
  depthwise one: no int8 kernel; the one named in --quantize-exclude),
  with ranges and an SQNR for each int8 one, and the model output's;
- the graph: one QLinearConv per int8 Conv, one MatMulInteger per int8
  MatMul (its result stays float) and no float Conv left for them
  (--compile-to=graph with the same flags);
- accuracy on held-apart inputs, against the float model run by ONNX
  Runtime, for four draws of the weights: infer's int8 output must be at
  least as close (mean SQNR) as ONNX Runtime's quantize_static calibrated
  on the same sets, and agree with it on the top-1 class as often;
- --calibration-method=percentile and =entropy run, say so in the report,
  and clip: ranges within the min-max ones, some narrower;
- --quantize-max-error keeps the layers above it float, and says so;
- refusals with a clear message: no --calibration, an empty calibration
  folder, a set with the wrong shape, an unknown --quantize-exclude node, a
  dynamic input without --shape, an unknown --quantize value, calibration
  flags without --quantize.

Usage: quantize_int8.py --infer-compile BIN --infer-run BIN --work DIR
"""
import json
import os
import subprocess
import sys

import numpy as np
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

from test_data import Checks, make_model, parse_args

F = TensorProto.FLOAT
SHAPE = [1, 3, 32, 32]


def cnn(batch=1, seed=3):
    """The float model with weights drawn from `seed`; `batch` may be a dim
    name (dynamic)."""
    rng = np.random.default_rng(seed)
    inits, nodes = [], []

    def const(name, array):
        inits.append(numpy_helper.from_array(np.asarray(array, np.float32), name))
        return name

    def conv(name, x, cin, cout, k, group=1, bn=False, relu=True):
        fan_in = cin // group * k * k
        w = const(name + ".w", rng.normal(0, np.sqrt(2 / fan_in), (cout, cin // group, k, k)))
        b = const(name + ".b", rng.normal(0, 0.1, cout))
        y = name + ".y"
        nodes.append(helper.make_node("Conv", [x, w, b], [y], name=name, group=group,
                                      pads=[k // 2] * 4))
        if bn:
            params = [const(name + ".bn." + p, v) for p, v in [
                ("scale", rng.uniform(0.5, 1.5, cout)), ("bias", rng.normal(0, 0.1, cout)),
                ("mean", rng.normal(0, 0.1, cout)), ("var", rng.uniform(0.5, 1.5, cout))]]
            nodes.append(helper.make_node("BatchNormalization", [y] + params, [y + ".bn"],
                                          name=name + ".bn"))
            y += ".bn"
        if relu:
            nodes.append(helper.make_node("Relu", [y], [y + ".relu"], name=name + ".relu"))
            y += ".relu"
        return y

    a = conv("conv1", "x", 3, 16, 3, bn=True)
    b = conv("conv2", a, 16, 16, 3)
    c = conv("dw", b, 16, 16, 3, group=16)
    nodes.append(helper.make_node("Add", [a, c], ["sum"], name="residual"))
    d = conv("expand", "sum", 16, 32, 1, relu=False)
    e = conv("last", d, 32, 32, 3)
    nodes += [helper.make_node("MaxPool", [e], ["pool"], kernel_shape=[2, 2], strides=[2, 2]),
              helper.make_node("GlobalAveragePool", ["pool"], ["gap"]),
              helper.make_node("Flatten", ["gap"], ["flat"])]
    nodes += [helper.make_node("MatMul", ["flat", const("fc1.w", rng.normal(0, 0.25, (32, 24)))],
                               ["fc1.y"], name="fc1"),
              helper.make_node("Add", ["fc1.y", const("fc1.b", rng.normal(0, 0.1, 24))],
                               ["fc1.biased"]),
              helper.make_node("Relu", ["fc1.biased"], ["fc1.relu"])]
    nodes.append(helper.make_node("Gemm", ["fc1.relu", const("fc.w", rng.normal(0, 0.2, (10, 24))),
                                           const("fc.b", np.zeros(10))], ["logits"], transB=1))
    graph = helper.make_graph(
        nodes, "cnn", [helper.make_tensor_value_info("x", F, [batch] + SHAPE[1:])],
        [helper.make_tensor_value_info("logits", F, [batch, 10])], inits)
    return make_model(graph, 13)


def write_calibration(folder, inputs):
    """Half the sets as test_data_set_K/input_0.pb, half as set_K/x.npy."""
    for k, x in enumerate(inputs):
        if k % 2 == 0:
            d = os.path.join(folder, f"test_data_set_{k}")
            os.makedirs(d)
            with open(os.path.join(d, "input_0.pb"), "wb") as f:
                f.write(numpy_helper.from_array(x, "x").SerializeToString())
        else:
            d = os.path.join(folder, f"set_{k}")
            os.makedirs(d)
            np.save(os.path.join(d, "x.npy"), x)


def sqnr(got, expected):
    got, expected = np.asarray(got, np.float64), np.asarray(expected, np.float64)
    return 10 * np.log10(np.sum(expected ** 2) / max(np.sum((got - expected) ** 2), 1e-30))


def ort_quantized(path, calibration, out):
    from onnxruntime.quantization import (CalibrationDataReader, QuantFormat, QuantType,
                                          quantize_static)

    class Reader(CalibrationDataReader):
        def __init__(self):
            self.sets = iter([{"x": x} for x in calibration])

        def get_next(self):
            return next(self.sets, None)

    quantize_static(path, out, Reader(), quant_format=QuantFormat.QDQ, per_channel=True,
                    activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8)
    return ort.InferenceSession(out, providers=["CPUExecutionProvider"])


def main():
    args = parse_args(__doc__)
    checks = Checks()

    def expect(label, ok, detail):
        checks(ok, label if ok else f"{label}: {detail}")
    work = args.work
    model_path = os.path.join(work, "cnn.onnx")
    with open(model_path, "wb") as f:
        f.write(cnn().SerializeToString())
    rng = np.random.default_rng(7)
    calibration = [rng.random(SHAPE, dtype=np.float32) for _ in range(16)]
    cal_dir = os.path.join(work, "calibration")
    write_calibration(cal_dir, calibration)
    rng = np.random.default_rng(11)
    held_apart = [rng.random(SHAPE, dtype=np.float32) for _ in range(8)]

    def compile_(*flags, out="out"):
        return subprocess.run([args.infer_compile, model_path, "--name", "q",
                               "-o", os.path.join(work, out), *flags],
                              capture_output=True, text=True, timeout=600)

    report_path = os.path.join(work, "report.json")
    quantize = ["--quantize=int8", "--calibration=" + cal_dir, "--quantize-exclude=last"]
    proc = compile_(*quantize, "--quantize-report=" + report_path)
    if proc.returncode != 0:
        sys.exit(f"FAIL: infer-compile --quantize=int8: {proc.stderr}")

    # The report.
    with open(report_path) as f:
        report = json.load(f)
    layers = {layer["name"]: layer for layer in report["layers"]}
    expect("report lists the 5 Convs and the MatMul",
                  sorted(layers) == ["conv1", "conv2", "dw", "expand", "fc1", "last"],
                  sorted(layers))
    expect("report: conv1, conv2, expand, fc1 in int8",
                  all(layers[n]["int8"] for n in ["conv1", "conv2", "expand", "fc1"])
                  and layers["fc1"]["op"] == "MatMul", layers)
    expect("report: the depthwise conv stays float, saying why",
                  not layers["dw"]["int8"] and "depthwise" in layers["dw"]["reason"],
                  layers["dw"])
    expect("report: the excluded conv stays float, saying why",
                  not layers["last"]["int8"] and "exclude" in layers["last"]["reason"],
                  layers["last"])
    expect("report: int8 layers have ranges and an SQNR above 20 dB",
                  all(layers[n]["sqnr_db"] > 20 and layers[n]["input_range"][1] > 0
                      for n in ["conv1", "conv2", "expand", "fc1"]), layers)
    expect("report: conv1's range is non-negative (its Relu)",
                  layers["conv1"]["output_range"][0] == 0.0, layers["conv1"])
    expect("report: the model output's SQNR", report["outputs"][0]["name"] == "logits"
                  and report["outputs"][0]["sqnr_db"] > 15, report["outputs"])
    expect("the table is printed", "4 of 6 layers (Conv, MatMul) in int8" in proc.stdout,
                  proc.stdout)

    # The graph: three integer convolutions and an integer matmul (its result
    # float), two float convolutions.
    graph = compile_(*quantize, "--compile-to=graph", out="graph.mlir")
    with open(os.path.join(work, "graph.mlir")) as f:
        text = f.read()
    expect("graph: 3 QLinearConv, 1 MatMulInteger, 2 float Conv, no BatchNormalization",
                  text.count("graph.q_linear_conv") == 3 and text.count("graph.conv ") == 2
                  and text.count("graph.mat_mul_integer") == 1
                  and "batch_normalization" not in text,
                  (graph.stderr, text.count("graph.q_linear_conv"), text.count("graph.conv ")))

    # Accuracy on held-apart inputs, against ORT's quantizer, over four
    # draws of the weights (one model alone is a coin toss within a dB or
    # two: infer ahead on some, ORT on others).
    ours_db, ort_db, ours_top1, ort_top1 = [], [], 0, 0
    for seed in (3, 4, 5, 6):
        path = os.path.join(work, f"cnn_{seed}.onnx")
        with open(path, "wb") as f:
            f.write(cnn(seed=seed).SerializeToString())
        built = subprocess.run([args.infer_compile, path, "--name", "q", "-o",
                                os.path.join(work, f"acc_{seed}"), *quantize[:2]],
                               capture_output=True, text=True, timeout=600)
        if built.returncode != 0:
            sys.exit(f"FAIL: infer-compile --quantize=int8 (seed {seed}): {built.stderr}")
        reference = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
        by_ort = ort_quantized(path, calibration, os.path.join(work, f"ort_q_{seed}.onnx"))
        expected, ort_q, ours = [], [], []
        for k, x in enumerate(held_apart):
            expected.append(reference.run(None, {"x": x})[0])
            ort_q.append(by_ort.run(None, {"x": x})[0])
            npy, out = os.path.join(work, f"x{k}.npy"), os.path.join(work, f"run{seed}_{k}")
            np.save(npy, x)
            subprocess.run([args.infer_run, os.path.join(work, f"acc_{seed}", "q.so"), "--input",
                            f"x={npy}", "--save-outputs", out], check=True, capture_output=True)
            ours.append(np.load(os.path.join(out, "logits.npy")))
        ours_db.append(sqnr(ours, expected))
        ort_db.append(sqnr(ort_q, expected))
        ours_top1 += sum(int(np.argmax(o) == np.argmax(e)) for o, e in zip(ours, expected))
        ort_top1 += sum(int(np.argmax(o) == np.argmax(e)) for o, e in zip(ort_q, expected))
        print(f"weights {seed}: held-apart SQNR infer {ours_db[-1]:.1f} dB, "
              f"ORT quantize_static {ort_db[-1]:.1f} dB")
    expect("infer's int8 is as close to float as quantize_static's (mean SQNR)",
           np.mean(ours_db) >= np.mean(ort_db), (ours_db, ort_db))
    print(f"top-1 agreement with float: infer {ours_top1}, ORT {ort_top1} of "
          f"{4 * len(held_apart)}")
    expect("infer's int8 agrees with float on the top-1 class as often as ORT's",
           ours_top1 >= ort_top1, (ours_top1, ort_top1))

    proc = compile_(*quantize[:2], "--quantize-report=" + os.path.join(work, "minmax.json"),
                    out="minmax")
    with open(os.path.join(work, "minmax.json")) as f:
        report_minmax = json.load(f)

    # Percentile and entropy calibration: each runs, says so in the report,
    # and clips: its ranges within minmax's, some of them narrower.
    widest = {l["name"]: l for l in report_minmax["layers"] if l["int8"]}
    for method, extra in [("percentile", ["--calibration-percentile=99.9"]), ("entropy", [])]:
        path = os.path.join(work, method + ".json")
        proc = compile_(*quantize[:2], "--calibration-method=" + method, *extra,
                        "--quantize-report=" + path, out=method)
        ok = proc.returncode == 0
        if ok:
            with open(path) as f:
                got = json.load(f)
            clipped = [l for l in got["layers"] if l["int8"]
                       and l["output_range"][1] < widest[l["name"]]["output_range"][1]]
            ok = (got["method"] == method and bool(clipped)
                  and all(widest[l["name"]]["output_range"][0] <= l["output_range"][0]
                          and l["output_range"][1] <= widest[l["name"]]["output_range"][1]
                          for l in got["layers"] if l["int8"]))
        expect(f"{method} calibration clips within the min-max ranges", ok, proc.stderr)

    # The accuracy guard: layers whose relative RMS error exceeds 0.01 (40
    # dB) stay float; the report says which, and what is left is within it.
    proc = compile_(*quantize[:2], "--quantize-max-error=0.01",
                    "--quantize-report=" + os.path.join(work, "guard.json"), out="guard")
    ok = proc.returncode == 0
    if ok:
        with open(os.path.join(work, "guard.json")) as f:
            guarded = json.load(f)["layers"]
        kept = [l for l in guarded if "above --quantize-max-error" in l.get("reason", "")]
        ok = bool(kept) and all(l["relative_rms_error"] <= 0.01
                                for l in guarded if l["int8"])
    expect("--quantize-max-error keeps the worst layers float", ok,
           proc.stderr + (str(guarded) if proc.returncode == 0 else ""))

    # Refusals.
    empty = os.path.join(work, "empty")
    os.makedirs(empty)
    wrong = os.path.join(work, "wrong", "set_0")
    os.makedirs(wrong)
    np.save(os.path.join(wrong, "x.npy"), np.zeros([1, 3, 16, 16], np.float32))
    dynamic = os.path.join(work, "dynamic.onnx")
    with open(dynamic, "wb") as f:
        f.write(cnn("N").SerializeToString())
    for label, flags, wanted in [
            ("no --calibration", ["--quantize=int8"], "needs --calibration"),
            ("empty calibration folder", ["--quantize=int8", "--calibration=" + empty],
             "holds no input set"),
            ("a set of the wrong shape",
             ["--quantize=int8", "--calibration=" + os.path.dirname(wrong)], "[1,3,16,16]"),
            ("unknown excluded node", quantize[:2] + ["--quantize-exclude=nope"],
             "no Conv or MatMul node named 'nope'"),
            ("unknown --quantize", ["--quantize=int4"], "'none' or 'int8'"),
            ("calibration flags alone", ["--calibration=" + cal_dir], "apply with --quantize"),
            ("a negative --quantize-max-error", quantize[:2] + ["--quantize-max-error=-1"],
             "--quantize-max-error must be"),
    ]:
        proc = compile_(*flags, out="refused")
        expect(f"refused: {label}", proc.returncode == 1 and wanted in proc.stderr,
                      proc.stderr)
    proc = subprocess.run([args.infer_compile, dynamic, "-o", os.path.join(work, "dyn"),
                           *quantize[:2]], capture_output=True, text=True, timeout=600)
    expect("refused: a dynamic input without --shape",
                  proc.returncode == 1 and "needs static input shapes" in proc.stderr,
                  proc.stderr)
    return checks.summary("quantize-int8")


if __name__ == "__main__":
    sys.exit(main())
