#!/usr/bin/env python3
"""CUDA models end to end under the emulator, against onnx.reference.

No GPU is lent to CI, so test/cuda-emulator's libcuda.so.1 stands in for
the driver: the runtime's CUDA backend runs unchanged (module loading,
device buffers, the launch schedule, graph capture and replay, device
tensors) while the kernels, built for the CPU from the same IR as the PTX
(infer-compile --gpu-emulation), run one fiber per GPU thread.

Three models, sized so that the default thresholds choose each kernel
shape (the script checks the schedule says so):
  - cnn: Conv 3x3 8->32 channels over 32x32 (a shared-memory tiled
    implicit GEMM), Relu, GlobalAveragePool and Gemm at batch 1 (one warp
    per output), Softmax;
  - attention: projections, QK^T and PV (2048 outputs each: a warp per
    output), Softmax over 64 and LayerNormalization over 32 (a warp per
    row);
  - wide_matmul: 512x32 by 32x1024 (64x64 tiles, 4x4 outputs a thread).
Each runs with CUDA graphs and without, and compiled with
--gpu-kernels=simple; every output must match onnx.reference. gpu_runner
(test/gpu) then runs the cnn on device tensors: its outputs must equal the
host run's bit for bit. Last, a Gather whose index is out of range must
fail the run with the check's message naming the node (the device status
word), and valid indices must match.

Usage: cuda_emulated.py --infer-compile BIN --infer-run BIN --gpu-runner BIN
                        --emulator DIR --work DIR
"""
import json
import os
import subprocess
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

from test_data import Checks, compile_model, make_model, parse_args, write_set

TILED = [16, 16, 1]


def weight(name, shape, rng):
    return numpy_helper.from_array(rng.standard_normal(shape).astype(np.float32) * 0.2, name)


def cnn(rng):
    info = helper.make_tensor_value_info
    nodes = [
        helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["r"]),
        helper.make_node("GlobalAveragePool", ["r"], ["g"]),
        helper.make_node("Flatten", ["g"], ["f"]),
        helper.make_node("Gemm", ["f", "fc", "b"], ["l"], transB=1),
        helper.make_node("Softmax", ["l"], ["y"], axis=1),
    ]
    graph = helper.make_graph(
        nodes, "cnn", [info("x", TensorProto.FLOAT, [1, 8, 32, 32])],
        [info("y", TensorProto.FLOAT, [1, 10])],
        [weight("w", [32, 8, 3, 3], rng), weight("fc", [10, 32], rng), weight("b", [10], rng)])
    # Which kernel shape each part should get with the default thresholds.
    return make_model(graph, 17), {"tiled": 1, "warp": 2}


def attention(rng):
    info = helper.make_tensor_value_info
    nodes = [
        helper.make_node("MatMul", ["x", "wq"], ["q"]),
        helper.make_node("MatMul", ["x", "wk"], ["k"]),
        helper.make_node("MatMul", ["x", "wv"], ["v"]),
        helper.make_node("Transpose", ["k"], ["kt"], perm=[1, 0]),
        helper.make_node("MatMul", ["q", "kt"], ["s"]),
        helper.make_node("Softmax", ["s"], ["p"], axis=-1),
        helper.make_node("MatMul", ["p", "v"], ["a"]),
        helper.make_node("LayerNormalization", ["a", "gamma", "beta"], ["y"], axis=-1),
    ]
    graph = helper.make_graph(
        nodes, "attention", [info("x", TensorProto.FLOAT, [64, 32])],
        [info("y", TensorProto.FLOAT, [64, 32])],
        [weight("wq", [32, 32], rng), weight("wk", [32, 32], rng), weight("wv", [32, 32], rng),
         weight("gamma", [32], rng), weight("beta", [32], rng)])
    # Five products of 2048 outputs (k = 32 or 64), softmax's max and sum
    # and LayerNorm's mean and variance over 64 rows: nine warp kernels.
    return make_model(graph, 17), {"tiled": 0, "warp": 9}


def wide_matmul(rng):
    info = helper.make_tensor_value_info
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"])], "wide_matmul",
        [info("x", TensorProto.FLOAT, [512, 32])], [info("y", TensorProto.FLOAT, [512, 1024])],
        [weight("w", [32, 1024], rng)])
    return make_model(graph, 17), {"tiled": 1, "warp": 0, "tile": 64}


def gather(rng):
    """An embedding lookup: an index out of range must fail the run, naming
    the node (the device status word), and the next run must succeed."""
    info = helper.make_tensor_value_info
    graph = helper.make_graph(
        [helper.make_node("Gather", ["table", "x"], ["y"], name="lookup")], "gather",
        [info("x", TensorProto.INT64, [6])], [info("y", TensorProto.FLOAT, [6, 4])],
        [weight("table", [10, 4], rng)])
    return make_model(graph, 17)


def kernel_shapes(out_dir, name):
    with open(os.path.join(out_dir, f"{name}.schedule.json")) as f:
        launches = json.load(f)["launches"]
    tiled = [l for l in launches if l["block"] == TILED]
    warp = [l for l in launches if l["block"][0] == 32 and l["block"][1] > 1]
    return tiled, warp


def main():
    args = parse_args(__doc__, "gpu-runner", "emulator")
    rng = np.random.default_rng(7)
    check = Checks()

    for make in (cnn, attention, wide_matmul):
        model, expect = make(rng)
        name = model.graph.name
        x = rng.standard_normal(
            [d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim]
        ).astype(np.float32)
        expected = ReferenceEvaluator(model).run(None, {"x": x})
        data = os.path.join(args.work, name + "_data")
        write_set(data, model, {"x": x}, expected)
        for kernels in ("tuned", "simple"):
            work, so = compile_model(args, model, f"{name}_{kernels}", "--target=cuda",
                                     "--gpu-emulation", f"--gpu-kernels={kernels}",
                                     symbol=name)
            out_dir = os.path.dirname(so)
            if kernels == "tuned":
                tiled, warp = kernel_shapes(out_dir, name)
                check(len(tiled) == expect["tiled"] and len(warp) == expect["warp"],
                      f"{name}: {len(tiled)} tiled and {len(warp)} warp-per-output kernels "
                      f"(expected {expect['tiled']} and {expect['warp']})")
                if "tile" in expect:
                    shared = [l for l in tiled if l["grid"][0] * expect["tile"] >= 1024]
                    check(len(shared) == len(tiled),
                          f"{name}: {expect['tile']}x{expect['tile']} tiles")
            env = dict(os.environ, INFER_EMU_KERNELS=os.path.join(out_dir, f"{name}.emu.so"),
                       LD_LIBRARY_PATH=args.emulator)
            for graphs in ("1", "0"):
                env["INFER_CUDA_GRAPHS"] = graphs
                proc = subprocess.run([args.infer_run, so, "--test-data", data],
                                      capture_output=True, text=True, env=env, timeout=600)
                check(proc.returncode == 0 and "1 of 1 compared outputs passed" in proc.stdout,
                      f"{name} ({kernels} kernels, CUDA graphs {'on' if graphs == '1' else 'off'}) "
                      f"matches onnx.reference"
                      + ("" if proc.returncode == 0 else ": " + (proc.stdout + proc.stderr)[-400:]))
            if name == "cnn" and kernels == "tuned":
                raw = os.path.join(work, "raw")
                os.makedirs(raw)
                x.tofile(os.path.join(raw, "input_0.bin"))
                env["INFER_CUDA_GRAPHS"] = "1"
                proc = subprocess.run([args.gpu_runner, so, name, raw, "3"],
                                      capture_output=True, text=True, env=env, timeout=600)
                result = json.loads(proc.stdout.strip().splitlines()[-1]) if proc.returncode == 0 else {}
                got = np.fromfile(os.path.join(raw, "result_0.bin"), np.float32) \
                    if proc.returncode == 0 else None
                check(proc.returncode == 0 and result.get("device_tensors_match") is True
                      and np.allclose(got, expected[0].ravel(), rtol=1e-3, atol=1e-5),
                      "cnn on device tensors (gpu_runner) equals the host run and the reference"
                      + ("" if proc.returncode == 0 else ": " + proc.stderr[-400:]))
    model = gather(rng)
    good = np.array([0, 9, -1, 3, -10, 5], np.int64)
    bad = np.array([0, 9, 10, 3, 1, 2], np.int64)
    expected = ReferenceEvaluator(model).run(None, {"x": good})
    sets = [os.path.join(args.work, "gather_bad"), os.path.join(args.work, "gather_good")]
    write_set(sets[0], model, {"x": bad})
    write_set(sets[1], model, {"x": good}, expected)
    _, so = compile_model(args, model, "gather", "--target=cuda", "--gpu-emulation")
    env = dict(os.environ, LD_LIBRARY_PATH=args.emulator,
               INFER_EMU_KERNELS=os.path.join(os.path.dirname(so), "gather.emu.so"))
    for s in sets:
        proc = subprocess.run([args.infer_run, so, "--test-data", s], capture_output=True,
                              text=True, env=env, timeout=600)
        text = proc.stdout + proc.stderr
        if s == sets[0]:
            check(proc.returncode != 0 and "node 'lookup' (Gather)" in text
                  and "out of range" in text,
                  "gather: an index out of range fails the run naming the node"
                  + ("" if proc.returncode != 0 else ": the run succeeded"))
        else:
            check(proc.returncode == 0 and "1 of 1 compared outputs passed" in proc.stdout,
                  "gather: valid indices (negative ones included) match onnx.reference"
                  + ("" if proc.returncode == 0 else ": " + text[-300:]))
    return check.summary("cuda-emulated-models")


if __name__ == "__main__":
    sys.exit(main())
