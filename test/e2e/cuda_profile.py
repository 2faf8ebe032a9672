#!/usr/bin/env python3
"""CUDA kernel profiles end to end under the emulator: infer-compile
--target=cuda --profile, infer-bench --profile timing every launch with
CUDA events, its Chrome trace, JSON and HTML report.

A small CNN (Conv 3x3 8->32 with bias over 32x32, Relu, MaxPool,
GlobalAveragePool, Gemm, Softmax) is compiled with and without --profile:

- the profiled artifact matches onnx.reference, and its outputs equal the
  plain artifact's bit for bit (--profile adds data, not code);
- each timed run has one segment per launch of <name>.schedule.json, the
  segments follow each other with no gap (event i ends where event i+1
  starts) and lie inside the run;
- every ONNX node that computes something is named by some kernel, and
  one kernel naming the Conv counts its contraction, 2*Cout*Cin*3*3*H*W
  FLOPs, plus at most its bias and Relu (one op per output each); the
  others (its padding, a copy, the pool its bias and Relu went to) do
  not;
- the roofline comes from the device's attributes: the emulator reports an
  H100 SXM's (132 multiprocessors of 128 f32 lanes at 1980 MHz; a
  2619 MHz, 5120-bit memory bus), so peak and bandwidth must be
  132*128*2*1.98 GFLOP/s and 2*2.619e9*640 B/s;
- infer-report draws the GPU profile, naming the device;
- the artifact compiled without --profile is refused by infer-bench
  --profile;
- test/gpu's gpu_runner (what a GPU machine runs) reports the profiled
  launches' median and the same ceilings.

Usage: cuda_profile.py --infer-compile BIN --infer-run BIN --infer-bench BIN
                       --gpu-runner BIN --emulator DIR --work DIR
"""
import json
import os
import subprocess
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

from test_data import Checks, compile_model, make_model, parse_args, write_set

H = W = 32
CIN, COUT, CLASSES = 8, 32, 10


def cnn(rng):
    def weight(name, *shape):
        return numpy_helper.from_array(
            (rng.standard_normal(shape) * 0.2).astype(np.float32), name)

    node = helper.make_node
    info = helper.make_tensor_value_info
    nodes = [
        node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1], name="conv"),
        node("Relu", ["c"], ["r"], name="relu"),
        node("MaxPool", ["r"], ["p"], kernel_shape=[2, 2], strides=[2, 2], name="pool"),
        node("GlobalAveragePool", ["p"], ["g"], name="gap"),
        node("Flatten", ["g"], ["f"], name="flatten"),
        node("Gemm", ["f", "fc", "fb"], ["l"], transB=1, name="fc"),
        node("Softmax", ["l"], ["y"], axis=1, name="softmax"),
    ]
    graph = helper.make_graph(
        nodes, "cnn", [info("x", TensorProto.FLOAT, [1, CIN, H, W])],
        [info("y", TensorProto.FLOAT, [1, CLASSES])],
        [weight("w", COUT, CIN, 3, 3), weight("b", COUT), weight("fc", CLASSES, COUT),
         weight("fb", CLASSES)])
    return make_model(graph, 17)


def main():
    args = parse_args(__doc__, "infer-bench", "gpu-runner", "emulator")
    rng = np.random.default_rng(11)
    check = Checks()

    model = cnn(rng)
    x = rng.standard_normal([1, CIN, H, W]).astype(np.float32)
    expected = ReferenceEvaluator(model).run(None, {"x": x})
    data = os.path.join(args.work, "data")
    write_set(data, model, {"x": x}, expected)
    so = {}
    for kind, extra in (("profiled", ["--profile"]), ("plain", [])):
        _, so[kind] = compile_model(args, model, kind, "--target=cuda", "--gpu-emulation",
                                    *extra, symbol="cnn")
    out_dir = os.path.dirname(so["profiled"])
    # infer-report runs on the PATH's python3: this one, with matplotlib.
    env = dict(os.environ, LD_LIBRARY_PATH=args.emulator,
               PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))

    def run(command, kind="profiled"):
        env["INFER_EMU_KERNELS"] = os.path.join(os.path.dirname(so[kind]), "cnn.emu.so")
        return subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)

    outputs = {}
    for kind in ("profiled", "plain"):
        raw = os.path.join(args.work, f"{kind}_out")
        proc = run([args.infer_run, so[kind], "--test-data", data, "--save-outputs", raw], kind)
        check(proc.returncode == 0 and "1 of 1 compared outputs passed" in proc.stdout,
              f"{kind} artifact matches onnx.reference"
              + ("" if proc.returncode == 0 else ": " + (proc.stdout + proc.stderr)[-400:]))
        files = sorted(os.listdir(raw)) if os.path.isdir(raw) else []
        outputs[kind] = [open(os.path.join(raw, f), "rb").read() for f in files]
    check(outputs["profiled"] and outputs["profiled"] == outputs["plain"],
          "--profile leaves the outputs bit for bit unchanged")

    files = {k: os.path.join(args.work, f"profile.{k}") for k in ("json", "trace", "html")}
    proc = run([args.infer_bench, so["profiled"], "--profile", "--iterations", "5",
                "--warmup", "1", "--profile-json", files["json"], "--trace", files["trace"],
                "--report", files["html"]])
    print(proc.stdout)
    if proc.returncode != 0:
        sys.exit(f"FAIL: infer-bench --profile: {proc.stderr}")
    check("device      infer CUDA emulator (sm_90)" in proc.stdout,
          "infer-bench names the device and its architecture")
    with open(files["json"]) as f:
        profile = json.load(f)
    with open(files["trace"]) as f:
        trace = json.load(f)
    with open(os.path.join(out_dir, "cnn.schedule.json")) as f:
        launches = len(json.load(f)["launches"])

    machine = profile["machine"]
    check(machine["kind"] == "gpu" and abs(machine["peak_gflops"] - 132 * 128 * 2 * 1.98) < 0.01
          and abs(machine["bandwidth_gbs"] - 2 * 2.619 * 640) < 0.01,
          f"roofline from the device's attributes: {machine['peak_gflops']:.2f} GFLOP/s, "
          f"{machine['bandwidth_gbs']:.2f} GB/s")

    runs = [e for e in trace["traceEvents"] if e["cat"] == "run"]
    segments = [e for e in trace["traceEvents"] if e["cat"] == "kernel"]
    check(len(runs) == 5 and len(segments) == 5 * launches,
          f"{len(segments)} segments over {len(runs)} runs, one per launch ({launches})")
    ordered = True
    for r, event in enumerate(runs):
        mine = segments[r * launches:(r + 1) * launches]
        end = event["ts"] + event["dur"]
        ordered &= all(abs(a["ts"] + a["dur"] - b["ts"]) < 1e-2 for a, b in zip(mine, mine[1:]))
        ordered &= all(event["ts"] - 1e-2 <= s["ts"] and s["ts"] + s["dur"] <= end + 1e-2
                       for s in mine)
    check(ordered, "each run's segments follow each other and lie inside the run")
    check(profile["kernels_p50_ms"] <= profile["latency_p50_ms"],
          f"launches {profile['kernels_p50_ms']:.4f} ms within the call's "
          f"{profile['latency_p50_ms']:.4f} ms")

    named = {n for k in profile["kernels"] for n in k["nodes"]}
    wanted = {"conv", "relu", "pool", "gap", "fc", "softmax"}
    check(wanted <= named, f"kernels name every computing node (missing: {wanted - named})")
    contraction = 2 * COUT * CIN * 9 * H * W
    conv = [k["flops"] for k in profile["kernels"] if "conv" in k["nodes"]]
    check(len([f for f in conv if contraction <= f <= contraction + 2 * COUT * H * W]) == 1,
          f"one kernel counts the Conv's contraction ({contraction} FLOPs; the kernels "
          f"naming it count {conv})")

    with open(files["html"]) as f:
        page = f.read()
    check("infer CUDA emulator" in page and page.count('class="chart"') >= 3,
          "infer-report draws the GPU profile and names the device")

    proc = run([args.infer_bench, so["plain"], "--profile"], "plain")
    check(proc.returncode != 0 and "compile it with infer-compile --profile" in proc.stderr,
          "a CUDA artifact without --profile is refused by infer-bench --profile")
    raw = os.path.join(args.work, "raw")
    os.makedirs(raw)
    x.tofile(os.path.join(raw, "input_0.bin"))
    proc = run([args.gpu_runner, so["profiled"], "cnn", raw, "3"])
    result = json.loads(proc.stdout.strip().splitlines()[-1]) if proc.returncode == 0 else {}
    check(result.get("profiled_launches_ms", -1) > 0
          and abs(result.get("device_peak_gflops", 0) - machine["peak_gflops"]) < 0.1,
          f"gpu_runner reports the profiled launches and the ceilings: {result or proc.stderr}")
    return check.summary("cuda-kernel-profile")


if __name__ == "__main__":
    sys.exit(main())
