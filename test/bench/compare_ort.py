#!/usr/bin/env python3
"""infer against ONNX Runtime on the same models, inputs and thread count.

For each model: compile with infer-compile (batch fixed), check infer's
output against ORT's on one input (infer-run on a test_data_set written
here), then time both interleaved: R rounds, each one `infer-bench --json`
run and one ORT timing run of the same iteration count, medians of the
per-round p50s. Prints a table with the ratio infer/ORT (below 1: infer is
faster) and writes it as JSON with --json. With --dynamic it also compiles
the generic variant (no --batch: the batch stays dynamic, with
--shape-profile 1..64 and opt = the batch), checks it the same way, and
times it in the same rounds.

Set up once (Debian's torch for the export, ONNX Runtime from PyPI):
  apt-get install python3-torch python3-torchvision
  /usr/bin/python3 test/bench/export_models.py bench-models
  .venv/bin/pip install onnxruntime
Then run with the project venv:
  .venv/bin/python test/bench/compare_ort.py --models bench-models --threads 1
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time

import numpy as np
import onnx
import onnxruntime as ort
from onnx import numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import ort_session, p50_ms  # noqa: E402


def ort_p50(session, feeds, warmup, iterations):
    return p50_ms(lambda: session.run(None, feeds), warmup, iterations)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", required=True, help="folder with <name>.onnx")
    parser.add_argument("--names", default="resnet18,mobilenet_v2")
    parser.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "..", "build"))
    parser.add_argument("--batch", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--dynamic", action="store_true",
                        help="also time the dynamic-batch generic variant")
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args()
    bindir = os.path.join(args.build, "bin")
    work = os.path.join(args.models, "infer-out")
    rows = []
    for name in args.names.split(","):
        model = os.path.join(args.models, name + ".onnx")
        out = os.path.join(work, name)
        t0 = time.time()
        subprocess.run([os.path.join(bindir, "infer-compile"), model, "--batch", str(args.batch),
                        "-o", out, "--name", name], check=True)
        compile_s = time.time() - t0
        session = ort_session(model, args.threads)
        inp = session.get_inputs()[0]
        x = np.random.default_rng(0).standard_normal(
            [args.batch] + list(inp.shape[1:])).astype(np.float32)
        feeds = {inp.name: x}
        expected = session.run(None, feeds)
        data = os.path.join(out, "test_data_set_0")
        os.makedirs(data, exist_ok=True)
        with open(os.path.join(data, "input_0.pb"), "wb") as f:
            f.write(numpy_helper.from_array(x, inp.name).SerializeToString())
        for i, (o, value) in enumerate(zip(session.get_outputs(), expected)):
            with open(os.path.join(data, f"output_{i}.pb"), "wb") as f:
                f.write(numpy_helper.from_array(value, o.name).SerializeToString())
        check = subprocess.run([os.path.join(bindir, "infer-run"), os.path.join(out, name + ".so"),
                                "--test-data", data], capture_output=True, text=True)
        libraries = [os.path.join(out, name + ".so")]
        if args.dynamic:
            dims = "x".join(str(d) for d in inp.shape[1:])
            profile = f"{inp.name}=1x{dims}:{args.batch}x{dims}:{max(64, args.batch)}x{dims}"
            dyn_out = out + "_dynamic"
            subprocess.run([os.path.join(bindir, "infer-compile"), model, "--shape-profile",
                            profile, "-o", dyn_out, "--name", name], check=True)
            libraries.append(os.path.join(dyn_out, name + ".so"))
            dyn_check = subprocess.run([os.path.join(bindir, "infer-run"), libraries[1],
                                        "--test-data", data], capture_output=True, text=True)
            if dyn_check.returncode != 0:
                check = dyn_check
        ours, theirs, dynamic = [], [], []
        # One run at a time on both sides; inside a run, infer's kernels use
        # the model's pool of --intra-threads threads (OMP_NUM_THREADS for
        # --parallel=openmp models), ORT its intra-op pool.
        env = dict(os.environ, OMP_NUM_THREADS=str(args.threads))
        for _ in range(args.rounds):
            for library, times in zip(libraries, [ours, dynamic]):
                bench = subprocess.run(
                    [os.path.join(bindir, "infer-bench"), library,
                     "--threads", "1", "--intra-threads", str(args.threads),
                     "--warmup", str(args.warmup),
                     "--iterations", str(args.iterations), "--json"],
                    capture_output=True, text=True, check=True, env=env)
                times.append(json.loads(bench.stdout)["latency_ms"]["p50"])
            theirs.append(ort_p50(session, feeds, args.warmup, args.iterations))
        row = {"model": name, "batch": args.batch, "threads": args.threads,
               "compile_s": round(compile_s, 1), "matches_ort": check.returncode == 0,
               "infer_p50_ms": statistics.median(ours), "ort_p50_ms": statistics.median(theirs)}
        row["ratio"] = row["infer_p50_ms"] / row["ort_p50_ms"]
        if dynamic:
            row["dynamic_p50_ms"] = statistics.median(dynamic)
            row["dynamic_ratio"] = row["dynamic_p50_ms"] / row["ort_p50_ms"]
        rows.append(row)
        if check.returncode != 0:
            print(check.stdout + check.stderr, file=sys.stderr)
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs; "
          f"onnxruntime {ort.__version__}; threads {args.threads}; "
          f"{args.rounds} interleaved rounds x {args.iterations} iterations, medians")
    print(f"{'model':<14}{'batch':>6}{'infer ms':>12}{'ORT ms':>10}{'ratio':>9}  matches ORT")
    for r in rows:
        print(f"{r['model']:<14}{r['batch']:>6}{r['infer_p50_ms']:>12.2f}{r['ort_p50_ms']:>10.2f}"
              f"{r['ratio']:>9.2f}  {'yes' if r['matches_ort'] else 'NO'}")
        if "dynamic_p50_ms" in r:
            print(f"{'  dynamic':<14}{r['batch']:>6}{r['dynamic_p50_ms']:>12.2f}"
                  f"{r['ort_p50_ms']:>10.2f}{r['dynamic_ratio']:>9.2f}  (generic variant, "
                  f"{r['dynamic_p50_ms'] / r['infer_p50_ms']:.2f}x the static one)")
    ratios = [r["ratio"] for r in rows]
    print(f"geometric mean ratio: {statistics.geometric_mean(ratios):.2f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=2)
    return 0 if all(r["matches_ort"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
