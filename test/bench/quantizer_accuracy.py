"""Accuracy of infer's int8 quantizer against ONNX Runtime's quantize_static.

For each model, both quantizers get the same calibration sets
(int8_models.calibration_inputs: 16 uniform [0,1) images, seed 7):
  - ORT's quantize_static (QDQ, per-channel s8 weights, u8 activations,
    min-max), run by ONNX Runtime;
  - infer-compile --quantize=int8 (minmax), run by infer-run.
Both are compared with the float model run by ONNX Runtime on held-apart
inputs (uniform [0,1), seed 11): top-1 agreement along the last axis (per
image for resnet18, per sequence position for PP-OCRv4 rec), SQNR in dB and
max |error| of the outputs.

  .venv/bin/python test/bench/quantizer_accuracy.py --models /tmp/bench-models \
      --ocr /tmp/ocr --json accuracy.json

Exit status 0 when infer's quantizer matches or beats quantize_static on
top-1 agreement for every model, else 1.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnxruntime as ort

from int8_models import INFER_QUANTIZED, INT8_MODELS, ensure_int8, infer_quantize_args
from ocr_models import ensure_ocr


def metrics(got, expected):
    got, expected = np.asarray(got, np.float64), np.asarray(expected, np.float64)
    noise = float(np.sum((got - expected) ** 2))
    return {"top1": float(np.mean(got.argmax(-1) == expected.argmax(-1))),
            "sqnr_db": 10 * np.log10(float(np.sum(expected ** 2)) / noise) if noise else None,
            "max_abs_error": float(np.max(np.abs(got - expected)))}


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", default="bench-models")
    parser.add_argument("--ocr", default=os.path.join("bench-models", "ocr"))
    parser.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "..", "build"))
    parser.add_argument("--inputs", type=int, default=8, help="held-apart inputs per model")
    parser.add_argument("--json")
    args = parser.parse_args()
    bindir = os.path.join(args.build, "bin")
    folders = {"models": args.models, "ocr": ensure_ocr(args.ocr)}
    results, ok = [], True
    for name, ort_name in INFER_QUANTIZED.items():
        ensure_int8(ort_name, folders)
        folder, source, input_name, shape = INT8_MODELS[ort_name]
        float_path, flags = infer_quantize_args(name, folders)
        rng = np.random.default_rng(11)
        inputs = [rng.random(shape, dtype=np.float32) for _ in range(args.inputs)]
        reference = ort.InferenceSession(float_path, providers=["CPUExecutionProvider"])
        quantized = ort.InferenceSession(os.path.join(args.models, ort_name + ".onnx"),
                                         providers=["CPUExecutionProvider"])
        expected = [reference.run(None, {input_name: x})[0] for x in inputs]
        by_ort = [quantized.run(None, {input_name: x})[0] for x in inputs]
        with tempfile.TemporaryDirectory() as work:
            shape_flag = f"--shape={input_name}=" + "x".join(map(str, shape))
            compiled = subprocess.run([os.path.join(bindir, "infer-compile"), float_path,
                                       shape_flag, "-o", work, "--name", "q"] + flags,
                                      capture_output=True, text=True)
            if compiled.returncode != 0:
                sys.exit(f"{name}: infer-compile failed:\n{compiled.stderr}")
            by_infer = []
            for k, x in enumerate(inputs):
                npy, out = os.path.join(work, f"x{k}.npy"), os.path.join(work, f"out{k}")
                np.save(npy, x)
                subprocess.run([os.path.join(bindir, "infer-run"), os.path.join(work, "q.so"),
                                "--input", f"{input_name}={npy}", "--save-outputs", out],
                               check=True, capture_output=True)
                files = sorted(f for f in os.listdir(out) if f.endswith(".npy"))
                by_infer.append(np.load(os.path.join(out, files[0])))
        row = {"model": name, "float_model": os.path.basename(float_path),
               "inputs": args.inputs,
               "ort_quantize_static": metrics(np.stack(by_ort), np.stack(expected)),
               "infer_quantize": metrics(np.stack(by_infer), np.stack(expected))}
        ok &= row["infer_quantize"]["top1"] >= row["ort_quantize_static"]["top1"]
        results.append(row)

    print(f"{args.inputs} held-apart inputs per model; both quantizers calibrated on the "
          "same 16 inputs; errors against the float model run by ONNX Runtime")
    print("| model | quantizer | top-1 agreement | SQNR dB | max abs error |")
    print("|---|---|---:|---:|---:|")
    for row in results:
        for key, label in [("ort_quantize_static", "ORT quantize_static"),
                           ("infer_quantize", "infer --quantize=int8")]:
            m = row[key]
            db = "exact" if m["sqnr_db"] is None else f"{m['sqnr_db']:.1f}"
            print(f"| {row['float_model']} | {label} | {m['top1']:.1%} | {db} | "
                  f"{m['max_abs_error']:.3g} |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
