#!/usr/bin/env python3
"""GFLOP/s of infer's f32 matmul kernels on a set of shapes, as a share of
the machine's FMA peak measured by the same run (compare.py's FMA loop).

Each shape is a one-node ONNX model, Y = X . W with W a constant (the
weights of a layer; X random), compiled by infer-compile with static
shapes and --profile, and timed by infer-bench (median latency of its
runs, one thread: --parallel=none, so no OpenMP). The table gives the
whole call and, from the profile, the contraction kernel alone: a Conv
whose input comes from the caller first copies it into a padded buffer
(in a model the previous layer's epilogue writes it there), which the
kernel's column leaves out. Shapes: square matmuls, tall-skinny ones,
the implicit GEMMs of resnet18's 3x3 convolutions (as M x K x N of the
convolution: filters x channels*9 x positions, run as the Conv itself,
compiled with --winograd=false: in a model they run as Winograd, which
computes fewer products than this counts),
and the projections of a d384 transformer encoder at sequence 128.

  .venv/bin/python test/bench/gemm.py [--json FILE] [--iterations N]
      [--target-cpu haswell]     (the AVX2 kernels, on any x86-64 with AVX2)

The peak is always the machine's own (AVX-512 where it has it): the AVX2
kernels on an AVX-512 machine are held against the AVX-512 peak, so halve
it to judge them against an AVX2 core's.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import cpu_info, measure_peak  # noqa: E402

# (name, kind, dims): matmul dims are (M, K, N) for X[M,K] . W[K,N]; conv
# dims are (channels, filters, size) for a 3x3 stride-1 pad-1 Conv.
SHAPES = [
    ("square 512", "matmul", (512, 512, 512)),
    ("square 1024", "matmul", (1024, 1024, 1024)),
    ("tall-skinny 4096x256x64", "matmul", (4096, 256, 64)),
    ("skinny 64x4096x256", "matmul", (64, 4096, 256)),
    ("resnet18 conv 64ch 56x56", "conv", (64, 64, 56)),
    ("resnet18 conv 128ch 28x28", "conv", (128, 128, 28)),
    ("resnet18 conv 256ch 14x14", "conv", (256, 256, 14)),
    ("resnet18 conv 512ch 7x7", "conv", (512, 512, 7)),
    ("encoder QKV 128x384x1152", "matmul", (128, 384, 1152)),
    ("encoder FFN up 128x384x1536", "matmul", (128, 384, 1536)),
    ("encoder FFN down 128x1536x384", "matmul", (128, 1536, 384)),
]


def make_model(kind, dims, path):
    rng = np.random.default_rng(0)
    if kind == "matmul":
        m, k, n = dims
        w = numpy_helper.from_array(rng.standard_normal((k, n)).astype(np.float32), "W")
        node = helper.make_node("MatMul", ["X", "W"], ["Y"])
        x = helper.make_tensor_value_info("X", TensorProto.FLOAT, [m, k])
        y = helper.make_tensor_value_info("Y", TensorProto.FLOAT, [m, n])
        flops = 2 * m * k * n
    else:
        c, f, s = dims
        w = numpy_helper.from_array(rng.standard_normal((f, c, 3, 3)).astype(np.float32), "W")
        node = helper.make_node("Conv", ["X", "W"], ["Y"], kernel_shape=[3, 3],
                                pads=[1, 1, 1, 1])
        x = helper.make_tensor_value_info("X", TensorProto.FLOAT, [1, c, s, s])
        y = helper.make_tensor_value_info("Y", TensorProto.FLOAT, [1, f, s, s])
        flops = 2 * f * c * 9 * s * s
    graph = helper.make_graph([node], "g", [x], [y], [w])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, path)
    return flops


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "..", "build"))
    parser.add_argument("--iterations", type=int, default=50)
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--target-cpu", help="infer-compile --target-cpu (default: this CPU)")
    args = parser.parse_args()
    bindir = os.path.join(args.build, "bin")
    info = cpu_info()
    peaks, how = measure_peak([1], info["vector_extensions"])
    peak = peaks[1]
    print(f"CPU: {info['cpu']}; vector extensions: {' '.join(info['vector_extensions'])}")
    print(f"1 thread; peak {peak:.1f} GFLOP/s ({how})" if peak else f"peak: {how}")
    print(f"kernels for --target-cpu={args.target_cpu or 'this CPU'}")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, kind, dims in SHAPES:
            path = os.path.join(tmp, "m.onnx")
            flops = make_model(kind, dims, path)
            out = os.path.join(tmp, "out")
            command = [os.path.join(bindir, "infer-compile"), path, "-o", out,
                       "--name", "m", "--parallel=none", "--profile"]
            if args.target_cpu:
                command.append("--target-cpu=" + args.target_cpu)
            if kind == "conv":
                # The implicit GEMM: Winograd computes fewer products.
                command.append("--winograd=false")
            subprocess.run(command, check=True, capture_output=True)
            profile = os.path.join(tmp, "profile.json")
            subprocess.run([os.path.join(bindir, "infer-bench"),
                            os.path.join(out, "m.so"), "--warmup", "5",
                            "--iterations", str(args.iterations), "--profile",
                            "--profile-json", profile],
                           check=True, capture_output=True, text=True)
            with open(profile) as f:
                measured = json.load(f)
            ms = measured["latency_p50_ms"]
            # The contraction: the kernel that does the multiply-adds.
            kernel_ms = max(measured["kernels"], key=lambda k: k["flops"])["time_ms"]
            gflops = flops / ms / 1e6
            kernel_gflops = flops / kernel_ms / 1e6
            row = {"shape": name, "kind": kind, "dims": list(dims), "ms": ms,
                   "gflops": gflops, "percent_of_peak": 100 * gflops / peak if peak else None,
                   "kernel_ms": kernel_ms, "kernel_gflops": kernel_gflops,
                   "kernel_percent_of_peak": 100 * kernel_gflops / peak if peak else None}
            rows.append(row)
            share = f"{row['percent_of_peak']:.0f}%" if peak else "-"
            kernel_share = f"{row['kernel_percent_of_peak']:.0f}%" if peak else "-"
            print(f"| {name:<32} | {ms:8.3f} ms | {gflops:7.1f} GFLOP/s | {share:>4} "
                  f"| kernel {kernel_ms:8.3f} ms | {kernel_gflops:7.1f} GFLOP/s "
                  f"| {kernel_share:>4} |", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": info, "peak_gflops": peak,
                       "target_cpu": args.target_cpu, "rows": rows}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
