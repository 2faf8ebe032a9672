#!/usr/bin/env python3
"""The fixed cost of one call on tiny models: infer against ONNX Runtime.

Models (made here, static shapes, batch 1):
  add16   one Add of two 16-float vectors: nothing but the call itself
  mlp3    a 3-layer MLP, 64 -> 64 -> 64 -> 10 (Gemm + Relu, Gemm + Relu,
          Gemm): about 10 kFLOP, the size of a tiny classifier head

Each round times, at each thread count N:
  infer run       infer-bench --intra-threads N (infer_model_run: the
                  outputs are allocated by each call and released)
  infer run_into  infer-bench --into --intra-threads N
                  (infer_model_run_into: outputs made once, no allocation)
  ORT             session.run_with_iobinding() from Python with the
                  inputs and outputs bound once (intra_op_num_threads=N)
  Python floor    the same Python timing loop around a no-op call

infer is timed from C (infer-bench); ORT can only be timed here through its
Python binding, so its figure includes the binding's cost of a call, which
the Python floor bounds from below. The table gives the median over rounds
of each run's p50 in microseconds.

Usage:
  .venv/bin/python test/bench/call_overhead.py [--threads 1,2] [--rounds 5]
      [--iterations 20000] [--json out.json]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import cpu_info, times_ms  # noqa: E402


def add_model(path):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [16])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [16])
    z = helper.make_tensor_value_info("z", TensorProto.FLOAT, [16])
    graph = helper.make_graph([helper.make_node("Add", ["x", "y"], ["z"])], "add16",
                              [x, y], [z])
    save(graph, path)


def mlp_model(path):
    rng = np.random.default_rng(0)
    nodes, inits = [], []
    sizes = [64, 64, 64, 10]
    previous = "x"
    for i in range(3):
        w = rng.standard_normal((sizes[i], sizes[i + 1])).astype(np.float32) * 0.1
        b = rng.standard_normal(sizes[i + 1]).astype(np.float32) * 0.1
        inits += [numpy_helper.from_array(w, f"w{i}"), numpy_helper.from_array(b, f"b{i}")]
        out = "y" if i == 2 else f"h{i}"
        nodes.append(helper.make_node("Gemm", [previous, f"w{i}", f"b{i}"],
                                      [out if i == 2 else f"g{i}"]))
        if i < 2:
            nodes.append(helper.make_node("Relu", [f"g{i}"], [out]))
        previous = out
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 64])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10])
    save(helper.make_graph(nodes, "mlp3", [x], [y], inits), path)


def save(graph, path):
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, path)


MODELS = {"add16": add_model, "mlp3": mlp_model}


def infer_p50_us(bindir, library, threads, into, iterations):
    command = [os.path.join(bindir, "infer-bench"), library, "--intra-threads", str(threads),
               "--warmup", "1000", "--iterations", str(iterations), "--json"]
    if into:
        command.append("--into")
    proc = subprocess.run(command, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"infer-bench failed:\n{proc.stdout}{proc.stderr}")
    return json.loads(proc.stdout)["latency_ms"]["p50"] * 1e3


def ort_p50_us(path, threads, iterations):
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    session = ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
    binding = session.io_binding()
    rng = np.random.default_rng(1)
    feeds = {}
    for value in session.get_inputs():
        feeds[value.name] = rng.standard_normal(value.shape).astype(np.float32)
        binding.bind_cpu_input(value.name, feeds[value.name])
    outputs = {}
    for value in session.get_outputs():
        outputs[value.name] = np.empty(value.shape, np.float32)
        binding.bind_output(value.name, "cpu", 0, np.float32, value.shape,
                            outputs[value.name].ctypes.data)
    expected = session.run(None, feeds)
    session.run_with_iobinding(binding)
    for got, want in zip(outputs.values(), expected):
        if not np.array_equal(got, want):
            sys.exit("ORT with IOBinding does not give session.run's outputs")
    times = times_ms(lambda: session.run_with_iobinding(binding), 1000, iterations)
    return statistics.median(times) * 1e3


def python_floor_us(iterations):
    def nothing():
        return None
    return statistics.median(times_ms(nothing, 1000, iterations)) * 1e3


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=20000)
    parser.add_argument("--bindir", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "build", "bin"))
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args()
    threads = [int(t) for t in args.threads.split(",")]
    info = cpu_info()
    columns = ["infer run", "infer run_into", "ORT", "Python floor"]
    samples = {}
    with tempfile.TemporaryDirectory() as tmp:
        paths, libraries = {}, {}
        for name, make in MODELS.items():
            paths[name] = os.path.join(tmp, name + ".onnx")
            make(paths[name])
            out = os.path.join(tmp, name)
            subprocess.run([os.path.join(args.bindir, "infer-compile"), paths[name], "-o", out,
                            "--name", name], check=True, capture_output=True)
            libraries[name] = os.path.join(out, name + ".so")
        for _ in range(args.rounds):
            for name in MODELS:
                for n in threads:
                    row = samples.setdefault((name, n), {c: [] for c in columns})
                    row["infer run"].append(
                        infer_p50_us(args.bindir, libraries[name], n, False, args.iterations))
                    row["infer run_into"].append(
                        infer_p50_us(args.bindir, libraries[name], n, True, args.iterations))
                    row["ORT"].append(ort_p50_us(paths[name], n, args.iterations))
                    row["Python floor"].append(python_floor_us(args.iterations))
    print(f"CPU: {info['cpu']}; vector extensions: {' '.join(info['vector_extensions'])}")
    print(f"onnxruntime {ort.__version__}; {args.rounds} interleaved rounds x "
          f"{args.iterations} calls; median over rounds of each run's p50, microseconds\n")
    print("| model | threads | " + " | ".join(columns) + " | ORT / infer run_into |")
    print("|---|---:|" + "---:|" * (len(columns) + 1))
    rows = []
    for (name, n), row in samples.items():
        medians = {c: statistics.median(v) for c, v in row.items()}
        ratio = medians["ORT"] / medians["infer run_into"]
        print(f"| {name} | {n} | " + " | ".join(f"{medians[c]:.2f}" for c in columns) +
              f" | {ratio:.1f} |")
        rows.append({"model": name, "threads": n, "p50_us": medians, "samples_us": row})
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": info, "onnxruntime": ort.__version__, "rounds": args.rounds,
                       "iterations": args.iterations, "rows": rows}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
