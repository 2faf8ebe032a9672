#!/usr/bin/env python3
"""Prepares a GPU run on this machine (which has the compiler, no GPU).

For each model and batch: `infer-compile --target=cuda --gpu-arch sm_90
--profile` (the profile is data; the kernels are the same) into
OUT/<model>_b<batch>/, a random input (input_0.bin) and its expected
output from ONNX Runtime on the CPU (expected_0.bin), and a manifest.json
that run_on_gpu.sh reads on the GPU machine. Carry OUT there (the device
tool's `carry`, 64 MiB at most: resnet18 is 45 MB of weights, so it goes
at batch 1 only and in a run of its own: --only resnet18).

Usage (the project venv has onnxruntime; models from test/bench/export_models.py):
  .venv/bin/python test/gpu/prepare_gpu_run.py --infer-compile build/bin/infer-compile \
      --models DIR --out build/gpu-run
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import onnxruntime as ort

# (model file, torch architecture for the timing comparison, batches)
PLAN = [
    ("tiny_cnn.onnxtxt", "tiny_cnn", [1, 64]),
    ("transformer_encoder.onnx", "transformer_encoder", [1, 64]),
    ("resnet18.onnx", "resnet18", [1]),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--infer-compile", required=True)
    parser.add_argument("--models", required=True,
                        help="folder with resnet18.onnx and transformer_encoder.onnx")
    parser.add_argument("--examples", default=os.path.join(
        os.path.dirname(__file__), "..", "..", "examples", "models"))
    parser.add_argument("--out", required=True)
    parser.add_argument("--only", default="",
                        help="comma-separated architectures (tiny_cnn, transformer_encoder, "
                             "resnet18): resnet18 alone is ~48 MiB of the 64 MiB carry")
    args = parser.parse_args()
    only = set(filter(None, args.only.split(",")))
    shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(args.out)
    manifest = []
    rng = np.random.default_rng(0)
    for file, arch, batches in PLAN:
        if only and arch not in only:
            continue
        src = os.path.join(args.examples if file.endswith("onnxtxt") else args.models, file)
        if not os.path.exists(src):
            print(f"skipping {file}: not found in {os.path.dirname(src)}", file=sys.stderr)
            continue
        onnx_path = src
        if file.endswith("onnxtxt"):
            import onnx
            onnx_path = os.path.join(args.out, file.replace(".onnxtxt", ".onnx"))
            onnx.save(onnx.parser.parse_model(open(src).read()), onnx_path)
        for batch in batches:
            name = f"{arch}_b{batch}"
            out = os.path.join(args.out, name)
            subprocess.run([args.infer_compile, src, "--target=cuda", "--gpu-arch", "sm_90",
                            "--batch", str(batch), "--profile", "-o", out, "--name", "m"],
                           check=True)
            session = ort.InferenceSession(onnx_path, providers=["CPUExecutionProvider"])
            feed = {}
            for i, info in enumerate(session.get_inputs()):
                shape = [batch if not isinstance(d, int) else d for d in info.shape]
                x = rng.standard_normal(shape).astype(np.float32)
                x.tofile(os.path.join(out, f"input_{i}.bin"))
                feed[info.name] = x
            for i, y in enumerate(session.run(None, feed)):
                y.astype(np.float32).tofile(os.path.join(out, f"expected_{i}.bin"))
            for f in os.listdir(out):  # keep what the GPU machine needs
                if os.path.splitext(f)[1] in (".o", ".ptx", ".h"):
                    os.remove(os.path.join(out, f))
            manifest.append({"dir": name, "arch": arch, "batch": batch,
                             "outputs": len(session.get_outputs())})
            print("prepared", name)
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=2)
    total = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(args.out) for f in fs)
    print(f"{args.out}: {total / 2**20:.1f} MiB")


if __name__ == "__main__":
    main()
