"""What test/bench/conv_transpose.py and op_classes.py share: one layer
(an ONNX model with input X and output Y) compiled by infer-compile,
checked against ONNX Runtime's output on one input, then timed against
ORT in interleaved rounds at the same thread count."""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np
import onnxruntime as ort
from onnx import numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import cpu_info  # noqa: E402


def options(doc, rounds, extra=None):
    """The scripts' options: --build, --threads, --rounds (default
    `rounds`), --iterations, --json, and whatever `extra(parser)` adds."""
    parser = argparse.ArgumentParser(description=doc,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "..", "build"))
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=rounds)
    parser.add_argument("--iterations", type=int, default=30)
    parser.add_argument("--json", help="write the results here")
    if extra:
        extra(parser)
    return parser.parse_args()


def heading(args):
    """Prints the machine, the threads and the runtimes' versions; returns
    the machine's description for the JSON."""
    info = cpu_info()
    print(f"CPU: {info['cpu']}; vector extensions: {' '.join(info['vector_extensions'])}; "
          f"{args.threads} thread(s); ONNX Runtime {ort.__version__}; "
          f"medians of {args.rounds} interleaved rounds")
    return info


def compare(bindir, path, work, x, threads, rounds, iterations, label):
    """Compiles `path` into `work`, checks it against ORT on input `x`, and
    returns (infer ms, ORT ms, whether the outputs match): the medians over
    `rounds` of one `infer-bench --into` run (the median of `iterations`
    calls) and as many ORT calls (their median)."""
    out = os.path.join(work, "out")
    subprocess.run([os.path.join(bindir, "infer-compile"), path, "-o", out, "--name", "m"],
                   check=True, capture_output=True)
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    session = ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
    data = os.path.join(work, "test_data_set_0")
    os.makedirs(data)
    with open(os.path.join(data, "input_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(x, "X").SerializeToString())
    with open(os.path.join(data, "output_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(session.run(None, {"X": x})[0], "Y").SerializeToString())
    library = os.path.join(out, "m.so")
    check = subprocess.run([os.path.join(bindir, "infer-run"), library, "--name", "m",
                            "--test-data", data], capture_output=True, text=True)
    matches = check.returncode == 0
    if not matches:
        print(f"{label}: infer's output differs from ORT's:\n{check.stdout}{check.stderr}",
              file=sys.stderr)
    npy = os.path.join(work, "x.npy")
    np.save(npy, x)
    ours, theirs = [], []
    for _ in range(rounds):
        bench = subprocess.run(
            [os.path.join(bindir, "infer-bench"), library, "--intra-threads", str(threads),
             "--warmup", "3", "--into", "--iterations", str(iterations), "--input", f"X={npy}",
             "--json"], check=True, capture_output=True, text=True)
        ours.append(json.loads(bench.stdout)["latency_ms"]["p50"])
        times = []
        for _ in range(iterations + 3):
            t0 = time.perf_counter()
            session.run(None, {"X": x})
            times.append((time.perf_counter() - t0) * 1e3)
        theirs.append(statistics.median(times[3:]))
    return statistics.median(ours), statistics.median(theirs), matches


def finish(args, info, rows, failed):
    """Writes the rows to --json, if given; the exit status: 1 when an
    output differed from ORT's."""
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": info, "threads": args.threads, "rows": rows}, f, indent=2)
    return 1 if failed else 0
