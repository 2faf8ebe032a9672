#!/usr/bin/env python3
"""Latency with and without a competing busy process: infer on its runtime
thread pool (the default --parallel=runtime, which drops threads while the
machine is busy), the same with --fixed-threads (every thread, always),
infer on OpenMP (--parallel=openmp) and ONNX Runtime, at each thread count.

The busy process is a shell loop (`while :; do :; done`) that keeps one core
busy, as another service on the same machine would. Rounds are interleaved:
each round runs, for each condition (idle, busy) and thread count N, one
`infer-bench --json` of each infer build and pool setting (--intra-threads N; OMP_NUM_THREADS=N
for the OpenMP build) and one ORT timing run (intra_op_num_threads=N). The
table gives the median over rounds of each run's p50 and p90 in ms.

Usage:
  test/bench/under_load.py --model /tmp/bench-models/resnet18.onnx \\
      --shape input=1x3x224x224 [--threads 1,2] [--rounds 5] [--json out.json]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import cpu_info, ort_session, times_ms  # noqa: E402


def ort_times(session, feeds, warmup, iterations):
    times = times_ms(lambda: session.run(None, feeds), warmup, iterations)
    return times[len(times) // 2], times[min(len(times) - 1, int(0.9 * len(times)))]


def infer_times(bindir, library, npy, name, threads, args, openmp, extra=()):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    command = [os.path.join(bindir, "infer-bench"), library, "--input", f"{name}={npy}",
               "--intra-threads", str(threads), "--warmup", str(args.warmup),
               "--iterations", str(args.iterations), "--json", *extra]
    proc = subprocess.run(command, capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        sys.exit(f"infer-bench failed ({'openmp' if openmp else 'pool'}):\n"
                 f"{proc.stdout}{proc.stderr}")
    latency = json.loads(proc.stdout)["latency_ms"]
    return latency["p50"], latency["p90"]


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", required=True, help="an ONNX model with one input")
    parser.add_argument("--shape", required=True, help="NAME=D0xD1x... of that input")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=30)
    parser.add_argument("--bindir", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "build", "bin"))
    parser.add_argument("--work", help="folder for the compiled models (default: a temp dir)")
    parser.add_argument("--json", help="write the results here too")
    args = parser.parse_args()
    threads = [int(t) for t in args.threads.split(",")]
    name, _, dims = args.shape.partition("=")
    shape = [int(d) for d in dims.split("x")]
    work = args.work or tempfile.mkdtemp(prefix="infer-under-load-")
    os.makedirs(work, exist_ok=True)

    libraries = {}
    for build, extra in (("pool", []), ("openmp", ["--parallel=openmp"])):
        out = os.path.join(work, build)
        subprocess.run([os.path.join(args.bindir, "infer-compile"), args.model,
                        "--shape", args.shape, "--name", "m", "-o", out] + extra,
                       check=True, capture_output=True)
        libraries[build] = os.path.join(out, "m.so")
    x = np.random.default_rng(1).random(shape, dtype=np.float32)
    npy = os.path.join(work, "x.npy")
    np.save(npy, x)
    sessions = {n: ort_session(args.model, n) for n in threads}
    feeds = {name: x}

    runners = ["infer (pool)", "infer (pool, --fixed-threads)", "infer (OpenMP)", "ORT"]
    times = {(c, n, r): [] for c in ("idle", "busy") for n in threads for r in runners}
    for _ in range(args.rounds):
        for condition in ("idle", "busy"):
            busy = None
            if condition == "busy":
                busy = subprocess.Popen(["sh", "-c", "while :; do :; done"])
                time.sleep(0.5)
            try:
                for n in threads:
                    times[(condition, n, runners[0])].append(
                        infer_times(args.bindir, libraries["pool"], npy, name, n, args, False))
                    times[(condition, n, runners[1])].append(
                        infer_times(args.bindir, libraries["pool"], npy, name, n, args, False,
                                    ["--fixed-threads"]))
                    times[(condition, n, runners[2])].append(
                        infer_times(args.bindir, libraries["openmp"], npy, name, n, args, True))
                    times[(condition, n, runners[3])].append(
                        ort_times(sessions[n], feeds, args.warmup, args.iterations))
            finally:
                if busy:
                    busy.kill()
                    busy.wait()

    info = cpu_info()
    print(f"CPU: {info['cpu']}, {info['logical_cpus']} logical CPUs, "
          f"vector extensions: {' '.join(info['vector_extensions'])}")
    print(f"model: {os.path.basename(args.model)} {args.shape}; {args.rounds} rounds x "
          f"{args.iterations} runs; medians of p50 / p90 in ms\n")
    header = "| runtime | " + " | ".join(
        f"{n} thread{'s' if n > 1 else ''}{', busy' if c == 'busy' else ''}"
        for c in ("idle", "busy") for n in threads) + " |"
    print(header)
    print("|---|" + "---:|" * (2 * len(threads)))
    rows = []
    for r in runners:
        cells = []
        for c in ("idle", "busy"):
            for n in threads:
                p50 = statistics.median(t[0] for t in times[(c, n, r)])
                p90 = statistics.median(t[1] for t in times[(c, n, r)])
                cells.append(f"{p50:.1f} / {p90:.1f}")
                rows.append({"runtime": r, "condition": c, "threads": n,
                             "p50_ms": p50, "p90_ms": p90})
        print(f"| {r} | " + " | ".join(cells) + " |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": info, "model": args.model, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
