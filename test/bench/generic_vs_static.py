#!/usr/bin/env python3
"""The generic (dynamic-shape) variant against the static one, with ONNX
Runtime and OpenVINO timed in the same rounds.

For each model and shape: compile once with every input's shape fixed
(--shape) and once generic (--shape-profile MIN:OPT:MAX, the shape inside
it), check both against ONNX Runtime on the same input (infer-run, rtol
1e-3, atol 1e-4 of the largest expected magnitude), then time R rounds,
each running, one after the other, infer-bench on the static library,
infer-bench on the generic one at the shape, ORT and OpenVINO (when the
venv has it; reshaped to the shape), all single-threaded with the same
iteration count. Reported: the median over rounds of each run's p50, and
the ratios generic/static, static/ORT, generic/ORT and against OpenVINO.

Models: the PaddleOCR detector, recognizer and classifier from the PyPI
wheel rapidocr-onnxruntime 1.4.4 (fetched into --ocr when missing), on
text images rendered with Pillow (test/e2e/ocr_dynamic.py's).

Usage:
  .venv/bin/python test/bench/generic_vs_static.py [--names ppocr_det]
      [--shape 1x3x640x640] [--profile 1x3x160x160:1x3x640x640:1x3x960x960]
      [--rounds 5] [--iterations 10] [--build build] [--work DIR] [--ocr DIR]
      [--json FILE]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys

import numpy as np
import onnxruntime as ort

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))
from compare import MODELS, cpu_info, ensure_ocr, p50_ms  # noqa: E402
from ocr_dynamic import CASES, text_image, write_set  # noqa: E402


def compile_model(bindir, path, out, extra):
    shutil.rmtree(out, ignore_errors=True)
    proc = subprocess.run([os.path.join(bindir, "infer-compile"), path, "-o", out,
                           "--name", "m"] + extra, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"infer-compile {' '.join(extra)} failed:\n{proc.stderr}")
    return os.path.join(out, "m.so")


def check(bindir, library, data, scale):
    proc = subprocess.run([os.path.join(bindir, "infer-run"), library, "--test-data", data,
                           "--rtol", "1e-3", "--atol", f"{1e-4 * scale + 1e-6:.3g}"],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"{library} does not match ONNX Runtime:\n{proc.stdout}{proc.stderr}")


def bench(bindir, library, npy, args):
    command = [os.path.join(bindir, "infer-bench"), library, "--input", f"x={npy}",
               "--warmup", str(args.warmup), "--iterations", str(args.iterations), "--json",
               "--intra-threads", "1"]
    proc = subprocess.run(command, capture_output=True, text=True,
                          env=dict(os.environ, OMP_NUM_THREADS="1"))
    if proc.returncode != 0:
        sys.exit(f"infer-bench failed:\n{proc.stdout}{proc.stderr}")
    return json.loads(proc.stdout)["latency_ms"]["p50"]


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--names", default="ppocr_det")
    parser.add_argument("--shape", help="the shape timed (default: the profile's OPT)")
    parser.add_argument("--profile", help="MIN:OPT:MAX (default: ocr_dynamic.py's)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--build", default=os.path.join(HERE, "..", "..", "build"))
    parser.add_argument("--work", default=os.path.join("bench-models", "generic-vs-static"))
    parser.add_argument("--ocr", default=os.path.join("bench-models", "ocr"))
    parser.add_argument("--json")
    args = parser.parse_args()
    bindir = os.path.join(args.build, "bin")
    folder = ensure_ocr(args.ocr)
    try:
        import openvino
        core = openvino.Core()
    except ImportError:
        core = None
    info = cpu_info()
    print(f"CPU: {info['cpu']} ({info['logical_cpus']} logical CPUs); extensions: "
          f"{', '.join(info['vector_extensions'])}; "
          f"1 thread everywhere; ORT {ort.__version__}"
          + (f"; OpenVINO {openvino.__version__}" if core else "; OpenVINO not installed"))
    rows = []
    for name in args.names.split(","):
        path = os.path.join(folder, MODELS[name][1])
        profile = args.profile or CASES[name][0]
        shape = [int(d) for d in (args.shape or profile.split(":")[1]).split("x")]
        work = os.path.join(args.work, name)
        static = compile_model(bindir, path, os.path.join(work, "static"),
                               ["--shape", "x=" + "x".join(map(str, shape))])
        generic = compile_model(bindir, path, os.path.join(work, "generic"),
                                ["--shape-profile", f"x={profile}"])
        x = text_image(np.random.default_rng(3), shape, name)
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        session = ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
        expected = session.run(None, {"x": x})
        data = os.path.join(work, "test_data_set_0")
        shutil.rmtree(data, ignore_errors=True)
        write_set(data, x, [np.asarray(v) for v in expected],
                  [o.name for o in session.get_outputs()])
        scale = max(float(np.max(np.abs(v))) for v in expected)
        check(bindir, static, data, scale)
        check(bindir, generic, data, scale)
        npy = os.path.join(work, "x.npy")
        np.save(npy, x)
        request = None
        if core:
            model = core.read_model(path)
            model.reshape({"x": shape})
            compiled = core.compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": 1,
                                                         "PERFORMANCE_HINT": "LATENCY",
                                                         "INFERENCE_PRECISION_HINT": "f32"})
            request = compiled.create_infer_request()
        times = {"static": [], "generic": [], "ort": [], "ov": []}
        for _ in range(args.rounds):
            times["static"].append(bench(bindir, static, npy, args))
            times["generic"].append(bench(bindir, generic, npy, args))
            times["ort"].append(p50_ms(lambda: session.run(None, {"x": x}), args.warmup,
                                       args.iterations))
            if request:
                times["ov"].append(p50_ms(lambda: request.infer({"x": x}), args.warmup,
                                          args.iterations))
        ms = {k: statistics.median(v) for k, v in times.items() if v}
        row = {"model": name, "shape": shape, "profile": profile, "ms": ms, "rounds": times,
               "generic_vs_static": ms["generic"] / ms["static"],
               "static_vs_ort": ms["static"] / ms["ort"],
               "generic_vs_ort": ms["generic"] / ms["ort"]}
        if "ov" in ms:
            row["static_vs_ov"] = ms["static"] / ms["ov"]
            row["generic_vs_ov"] = ms["generic"] / ms["ov"]
        rows.append(row)
        print(f"{name} {'x'.join(map(str, shape))} (profile {profile}): static "
              f"{ms['static']:.1f} ms, generic {ms['generic']:.1f} ms "
              f"(generic/static {row['generic_vs_static']:.2f}), ORT {ms['ort']:.1f} ms "
              f"(static/ORT {row['static_vs_ort']:.2f}, generic/ORT "
              f"{row['generic_vs_ort']:.2f})"
              + (f", OpenVINO {ms['ov']:.1f} ms (static/OV {row['static_vs_ov']:.2f})"
                 if "ov" in ms else ""), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"cpu": info, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
