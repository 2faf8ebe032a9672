#!/usr/bin/env python3
"""Kernel profiles end to end: infer-compile --profile, infer-bench
--profile with its Chrome trace and HTML report, the report rendered in
headless Chromium.

A small CNN (Conv+Relu, MaxPool, Conv+Relu, GlobalAveragePool, Gemm,
Softmax) is compiled with and without --profile:

- the profiled artifact still matches onnx.reference;
- each kernel's FLOPs are those of the ONNX nodes it lists, computed here
  from the layer shapes: a convolution's contraction 2*Cout*Cin*Kh*Kw*H*W,
  and with its bias (one add per output), Relu (one max) and the 2x2
  MaxPool (four maxes per pooled output) wherever they were fused;
- every Conv, the MaxPool and the Gemm are named by some kernel; classes
  are compute, memory or overhead;
- the kernels' stamps cover at least 90% of the measured latency (they
  start and end inside the call, so the rest is the runtime's own cost);
- the trace is valid JSON in Chrome's Trace Event Format, one complete
  event per run and per segment, each segment inside its run;
- the HTML report renders in Chromium (its script marks the page once
  every chart image decoded) and the screenshot is not blank;
- the CNN compiled with a batch range runs under --batch-sweep, whose
  curve infer-report draws as a fourth chart; a batch outside the range
  is refused;
- a model compiled without --profile is refused by infer-bench --profile,
  and --profile on a model with dynamic dims, or for a target without the
  x86 time-stamp counter, by infer-compile; a flag of another target
  (--gpu-arch on the CPU target) is refused naming the target that has it.
  (CUDA profiles: cuda_profile.py.)

Usage: profile.py --infer-compile BIN --infer-run BIN --infer-bench BIN
                  --chromium BIN --work DIR
"""
import json
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from PIL import Image

from test_data import compile_model, expect_match, make_model

F = TensorProto.FLOAT
RNG = np.random.default_rng(5)
H = W = 32
CIN, C1, C2, CLASSES = 8, 16, 32, 10


def weight(name, *shape):
    return numpy_helper.from_array((RNG.standard_normal(shape) * 0.2).astype(np.float32), name)


def cnn(batch=1):
    node = helper.make_node
    nodes = [
        node("Conv", ["x", "w1", "b1"], ["c1"], kernel_shape=[3, 3], pads=[1, 1, 1, 1],
             name="conv1"),
        node("Relu", ["c1"], ["r1"], name="relu1"),
        node("MaxPool", ["r1"], ["p1"], kernel_shape=[2, 2], strides=[2, 2], name="pool"),
        node("Conv", ["p1", "w2", "b2"], ["c2"], kernel_shape=[3, 3], pads=[1, 1, 1, 1],
             name="conv2"),
        node("Relu", ["c2"], ["r2"], name="relu2"),
        node("GlobalAveragePool", ["r2"], ["g"], name="gap"),
        node("Flatten", ["g"], ["f"], name="flatten"),
        node("Gemm", ["f", "wf", "bf"], ["logits"], transB=1, name="fc"),
        node("Softmax", ["logits"], ["y"], axis=1, name="softmax"),
    ]
    inits = [weight("w1", C1, CIN, 3, 3), weight("b1", C1), weight("w2", C2, C1, 3, 3),
             weight("b2", C2), weight("wf", CLASSES, C2), weight("bf", CLASSES)]
    graph = helper.make_graph(
        nodes, "cnn", [helper.make_tensor_value_info("x", F, [batch, CIN, H, W])],
        [helper.make_tensor_value_info("y", F, [batch, CLASSES])], inits)
    return make_model(graph, 17)


def check(condition, message):
    if not condition:
        sys.exit(f"FAIL: {message}")
    print(f"ok {message}")


def run(command, env=None):
    return subprocess.run(command, capture_output=True, text=True, timeout=600, env=env)


def main():
    import argparse
    import shutil

    parser = argparse.ArgumentParser(description=__doc__)
    for tool in ("infer-compile", "infer-run", "infer-bench", "chromium"):
        parser.add_argument(f"--{tool}", required=True)
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    if not shutil.which(args.chromium):
        sys.exit(f"FAIL: no Chromium at '{args.chromium}': install Debian's chromium "
                 "(.ci/install-deps does)")
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)

    model = cnn()
    work, profiled = compile_model(args, model, "profiled", "--profile")
    _, plain = compile_model(args, model, "plain")
    feeds = {"x": RNG.standard_normal((1, CIN, H, W)).astype(np.float32)}
    expect_match(args, work, profiled, model, feeds, "profiled-matches-reference")

    files = {k: os.path.join(args.work, f"profile.{k}") for k in ("json", "trace", "html")}
    # infer-report runs on the PATH's python3: this one, with matplotlib.
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep +
               os.environ.get("PATH", ""))
    proc = run([args.infer_bench, profiled, "--profile", "--intra-threads", "1",
                "--iterations", "200", "--machine-file", os.path.join(args.work, "machine.txt"),
                "--profile-json", files["json"], "--trace", files["trace"],
                "--report", files["html"]], env=env)
    if proc.returncode != 0:
        sys.exit(f"FAIL: infer-bench --profile:\n{proc.stdout}{proc.stderr}")
    print(proc.stdout)
    with open(files["json"]) as f:
        profile = json.load(f)
    kernels = profile["kernels"]
    check(len(kernels) >= 4, f"{len(kernels)} kernels profiled")
    check(all(k["class"] in ("compute", "memory", "overhead") for k in kernels),
          "every kernel has a class")
    named = {node for k in kernels for node in k["nodes"]}
    check({"conv1", "conv2", "pool", "fc"} <= named,
          f"the Convs, the MaxPool and the Gemm are named ({sorted(named)})")

    def kernels_of(*nodes):
        return [k for k in kernels if set(nodes) & set(k["nodes"])]

    # conv1's multiply-adds, its bias and Relu (one op per output each) and
    # the 2x2 MaxPool (four maxes per pooled output), wherever fused. A
    # convolution's kernel counts 2 per multiply-add plus, for each output,
    # the elementwise ops fused into it (its bias, an activation: the CPU
    # keeps conv1's Relu as its epilogue, not in the pool's windows).
    for name, cout, cin, size in (("conv1", C1, CIN, H), ("conv2", C2, C1, H // 2)):
        [contraction] = [k for k in kernels_of(name)
                         if k["op_types"].split("+")[0] == "Conv" and k["flops"]]
        macs = cout * cin * 9 * size * size
        extra, outputs = contraction["flops"] - 2 * macs, cout * size * size
        check(extra in (0, outputs, 2 * outputs),
              f"{name}'s kernel ({contraction['op_types']}) counts "
              f"{contraction['flops']:.0f} FLOPs (2 x {macs} MACs + {extra // outputs} per output)")
    group = sum(k["flops"] for k in kernels_of("conv1", "relu1", "pool"))
    expected = 2 * C1 * CIN * 9 * H * W + 3 * C1 * H * W
    check(group == expected,
          f"conv1, relu1 and pool's kernels count {group:.0f} FLOPs (expected {expected})")
    coverage = profile["kernels_p50_ms"] / profile["latency_p50_ms"]
    check(0.9 <= coverage <= 1.0,
          f"the kernels cover {100 * coverage:.1f}% of the latency "
          f"({profile['kernels_p50_ms']:.4f} of {profile['latency_p50_ms']:.4f} ms)")

    with open(files["trace"]) as f:
        trace = json.load(f)
    events = trace["traceEvents"]
    runs = [e for e in events if e["cat"] == "run"]
    segments = [e for e in events if e["cat"] == "kernel"]
    check(len(runs) == 200 and len(segments) % 200 == 0 and
          all(e["ph"] == "X" and e["dur"] >= 0 for e in events),
          f"the trace holds {len(runs)} runs and {len(segments)} segments")
    per_run = len(segments) // len(runs)
    inside = all(runs[i // per_run]["ts"] <= s["ts"] and
                 s["ts"] + s["dur"] <= runs[i // per_run]["ts"] + runs[i // per_run]["dur"] + 0.01
                 for i, s in enumerate(segments))
    check(inside, "each segment lies inside its run")

    page = files["html"]
    dom = run([args.chromium, "--headless", "--no-sandbox", "--disable-gpu",
               "--dump-dom", f"file://{os.path.abspath(page)}"])
    check('data-rendered="yes"' in dom.stdout and 'data-charts="3"' in dom.stdout,
          "the report's three charts decoded in Chromium")
    shot = os.path.join(args.work, "report.png")
    run([args.chromium, "--headless", "--no-sandbox", "--disable-gpu",
         "--window-size=1200,1600", f"--screenshot={shot}",
         f"file://{os.path.abspath(page)}"])
    colors = Image.open(shot).convert("RGB").getcolors(maxcolors=1 << 20) or []
    check(len(colors) > 50, f"the screenshot shows the report ({len(colors)} colours)")

    # The batch sweep of the same CNN compiled with a dynamic batch dim,
    # drawn as a fourth chart.
    dynamic = os.path.join(args.work, "dynamic.onnx")
    onnx.save(cnn(batch="N"), dynamic)
    proc = run([args.infer_compile, dynamic, "--name", "batched", "-o",
                os.path.join(args.work, "batched"),
                "--shape-profile", f"x=1x{CIN}x{H}x{W}:2x{CIN}x{H}x{W}:4x{CIN}x{H}x{W}"])
    check(proc.returncode == 0, "the CNN compiles with a batch range 1..4")
    proc = run([args.infer_bench, os.path.join(args.work, "batched", "batched.so"),
                "--batch-sweep", "1,2,4", "--iterations", "20", "--json"])
    sweep = json.loads(proc.stdout) if proc.returncode == 0 else {}
    rows = sweep.get("batch_sweep", [])
    check([r["batch"] for r in rows] == [1, 2, 4] and
          all(r["latency_p50_ms"] > 0 and r["throughput_per_s"] > 0 for r in rows),
          f"the batch sweep times batches 1, 2 and 4 ({proc.stderr.strip()})")
    sweep_file = os.path.join(args.work, "sweep.json")
    with open(sweep_file, "w") as f:
        json.dump(sweep, f)
    both = os.path.join(args.work, "with-sweep.html")
    proc = run([os.path.join(os.path.dirname(args.infer_bench), "infer-report"), files["json"],
                "--sweep", sweep_file, "-o", both], env=env)
    dom = run([args.chromium, "--headless", "--no-sandbox", "--disable-gpu",
               "--dump-dom", f"file://{os.path.abspath(both)}"])
    check(proc.returncode == 0 and 'data-rendered="yes"' in dom.stdout and
          'data-charts="4"' in dom.stdout, "the report with the sweep renders four charts")
    proc = run([args.infer_bench, os.path.join(args.work, "batched", "batched.so"),
                "--batch-sweep", "1,8"])
    check(proc.returncode == 1 and "outside input 'x''s range [1, 4]" in proc.stderr,
          "a batch outside the compiled range is refused")

    # A link at an output path is replaced, never written through.
    kept = os.path.join(args.work, "kept.txt")
    with open(kept, "w") as f:
        f.write("the user's file")
    linked = os.path.join(args.work, "linked.json")
    os.symlink(kept, linked)
    proc = run([args.infer_bench, profiled, "--profile", "--iterations", "2",
                "--machine-file", os.path.join(args.work, "machine.txt"), "--trace", linked])
    check(proc.returncode == 0 and open(kept).read() == "the user's file" and
          not os.path.islink(linked) and json.load(open(linked))["traceEvents"],
          "a trace written over a symlink replaces the link, not its target")

    # The machine's limits, cached in a file named without a folder.
    proc = subprocess.run([os.path.abspath(args.infer_bench), "--measure-machine",
                           "--intra-threads", "1", "--machine-file", "bare.txt"],
                          capture_output=True, text=True, timeout=600, cwd=args.work)
    cached = os.path.join(args.work, "bare.txt")
    check(proc.returncode == 0 and "GFLOP/s" in proc.stdout and os.path.isfile(cached) and
          open(cached).read().startswith("1\t"),
          "--measure-machine caches its figures in a bare file name")

    proc = run([args.infer_bench, plain, "--profile",
                "--machine-file", os.path.join(args.work, "machine.txt")])
    check(proc.returncode == 1 and "compile it with infer-compile --profile" in proc.stderr,
          "infer-bench --profile refuses a model compiled without it")
    proc = run([args.infer_compile, dynamic, "--profile", "-o",
                os.path.join(args.work, "dynamic")])
    check(proc.returncode == 1 and "--profile needs static shapes" in proc.stderr,
          "infer-compile --profile refuses dynamic dims")
    proc = run([args.infer_compile, os.path.join(work, "model.onnx"), "--profile",
                "--target-triple=aarch64-linux-gnu", "-o", os.path.join(args.work, "arm")])
    check(proc.returncode == 1 and "x86 time-stamp counter" in proc.stderr,
          "infer-compile --profile refuses a target without the counter")
    proc = run([args.infer_compile, os.path.join(work, "model.onnx"), "--profile",
                "--gpu-arch=sm_90", "-o", os.path.join(args.work, "gpu-arch")])
    check(proc.returncode == 1 and "--gpu-arch applies to --target=cuda" in proc.stderr,
          "a flag of another target is refused, naming the target that has it")


if __name__ == "__main__":
    main()
