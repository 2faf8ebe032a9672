"""A structure-aware mutation campaign against infer-compile.

Takes the ONNX backend models as seeds, applies structured mutations to the
ModelProto (attribute values set to extremes, dims changed, initializers
resized, inputs dropped or renamed, op types swapped, opsets changed, bytes
truncated or flipped), compiles each mutant and classifies what happened:

  ok       compiled (exit 0)
  refused  exit 1 with a non-empty one-line error naming what is wrong
  CRASH    killed by a signal, or an abort / internal error
  HANG     ran past --timeout
  EMPTY    an error line with no message
  WRONG    another exit status

Anything in the last four is a bug; each is written to --out with the
command that reproduces it, and the exit status is 1.

Usage:
  mutate_models.py --infer-compile build/bin/infer-compile \
      [--seeds /usr/share/libonnx-testdata/data/node] [--time 60] \
      [--seed 1] [--out fuzz-findings] [--phase linalg|artifact]
"""

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import onnx
from onnx import AttributeProto, TensorProto

EXTREMES = [0, -1, -2, 1, 2, 3, 7, 2**31 - 1, -2**31, 2**40, 2**62, -2**62,
            2**63 - 1]


def pick_int(rng):
    return rng.choice(EXTREMES) if rng.random() < 0.8 else rng.randint(-100, 100)


def all_graphs(graph):
    yield graph
    for node in graph.node:
        for attr in node.attribute:
            if attr.type == AttributeProto.GRAPH:
                yield from all_graphs(attr.g)
            for sub in attr.graphs:
                yield from all_graphs(sub)


def value_infos(graph):
    return list(graph.input) + list(graph.output) + list(graph.value_info)


def mutate_attribute(model, rng):
    nodes = [n for g in all_graphs(model.graph) for n in g.node if n.attribute]
    if not nodes:
        return False
    attr = rng.choice(rng.choice(nodes).attribute)
    if attr.type == AttributeProto.INT:
        attr.i = pick_int(rng)
    elif attr.type == AttributeProto.INTS and attr.ints:
        attr.ints[rng.randrange(len(attr.ints))] = pick_int(rng)
    elif attr.type == AttributeProto.INTS:
        attr.ints.extend([pick_int(rng)])
    elif attr.type == AttributeProto.FLOAT:
        attr.f = rng.choice([0.0, -1.0, float("inf"), float("nan"), 1e38])
    elif attr.type == AttributeProto.STRING:
        attr.s = rng.choice([b"", b"bogus", b"\n", b"\xff" * 8])
    else:
        return False
    return True


def mutate_dim(model, rng):
    infos = [v for g in all_graphs(model.graph) for v in value_infos(g)
             if v.type.HasField("tensor_type")
             and v.type.tensor_type.HasField("shape")]
    if not infos:
        return False
    shape = rng.choice(infos).type.tensor_type.shape
    if shape.dim and rng.random() < 0.8:
        dim = shape.dim[rng.randrange(len(shape.dim))]
        dim.dim_value = pick_int(rng)
    elif shape.dim and rng.random() < 0.5:
        del shape.dim[rng.randrange(len(shape.dim))]
    else:
        shape.dim.add().dim_value = pick_int(rng)
    return True


def mutate_initializer(model, rng):
    inits = [t for g in all_graphs(model.graph) for t in g.initializer]
    if not inits:
        return False
    t = rng.choice(inits)
    choice = rng.randrange(4)
    if choice == 0 and t.dims:
        t.dims[rng.randrange(len(t.dims))] = pick_int(rng)
    elif choice == 1:
        t.dims.append(rng.choice([0, 2, 2**20, 2**40]))
    elif choice == 2:
        t.data_type = rng.randrange(0, 25)
    else:
        if t.raw_data:
            t.raw_data = t.raw_data[: rng.randrange(len(t.raw_data) + 1)]
        else:
            t.dims.append(3)
    return True


def mutate_wiring(model, rng):
    nodes = [n for g in all_graphs(model.graph) for n in g.node]
    if not nodes:
        return False
    node = rng.choice(nodes)
    choice = rng.randrange(5)
    if choice == 0 and node.input:
        del node.input[rng.randrange(len(node.input))]
    elif choice == 1 and node.input:
        node.input[rng.randrange(len(node.input))] = rng.choice(["", "nowhere"])
    elif choice == 2:
        node.input.append(rng.choice(list(node.input) or [""]))
    elif choice == 3:
        node.op_type = rng.choice(
            ["Conv", "LSTM", "Gather", "Reshape", "Split", "Loop", "If",
             "LayerNormalization", "DepthToSpace", "Resize", "Einsum",
             "Scan", "TopK", "Pad", "Slice", "NotAnOp"])
    else:
        node.output.append("extra_out")
    return True


def mutate_header(model, rng):
    if rng.random() < 0.5 and model.opset_import:
        model.opset_import[0].version = rng.choice([1, 6, 9, 12, 18, 23, 28, 29])
    else:
        model.ir_version = rng.choice([1, 3, 7, 10, 14, 15])
    return True


MUTATORS = [mutate_attribute, mutate_attribute, mutate_dim, mutate_dim,
            mutate_initializer, mutate_wiring, mutate_header]


def byte_mutant(data, rng):
    data = bytearray(data)
    if rng.random() < 0.5:
        return bytes(data[: rng.randrange(len(data) + 1)])
    for _ in range(rng.randint(1, 8)):
        data[rng.randrange(len(data))] = rng.randrange(256)
    return bytes(data)


def classify(proc, timed_out):
    if timed_out:
        return "HANG"
    err = proc.stderr.decode(errors="replace")
    if proc.returncode < 0 or proc.returncode >= 128:
        return "CRASH"
    if "Stack dump" in err or "LLVM ERROR" in err or "internal error" in err:
        return "CRASH"
    if proc.returncode == 0:
        return "ok"
    if proc.returncode != 1:
        return "WRONG"
    for line in err.splitlines():
        if line.rstrip().endswith(": error:"):
            return "EMPTY"
    return "refused" if "error:" in err else "EMPTY"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--infer-compile", required=True)
    parser.add_argument("--seeds", default="/usr/share/libonnx-testdata/data/node")
    parser.add_argument("--time", type=float, default=60, help="seconds to run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--phase", default="linalg",
                        choices=["import", "graph", "linalg", "artifact"])
    parser.add_argument("--out", default=None,
                        help="folder for the findings (default: a temp dir)")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    seeds = sorted(os.path.join(args.seeds, d, "model.onnx")
                   for d in os.listdir(args.seeds)
                   if os.path.exists(os.path.join(args.seeds, d, "model.onnx")))
    out = args.out or tempfile.mkdtemp(prefix="infer-fuzz-")
    os.makedirs(out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="infer-fuzz-work-")
    counts, findings = {}, 0
    start = time.monotonic()
    runs = 0
    try:
        while time.monotonic() - start < args.time:
            seed_path = rng.choice(seeds)
            raw = open(seed_path, "rb").read()
            if rng.random() < 0.15:
                data = byte_mutant(raw, rng)
            else:
                model = onnx.load_from_string(raw)
                for _ in range(rng.randint(1, 3)):
                    rng.choice(MUTATORS)(model, rng)
                data = model.SerializeToString()
            path = os.path.join(work, "mutant.onnx")
            with open(path, "wb") as f:
                f.write(data)
            cmd = [args.infer_compile, path, "--parallel=none"]
            if args.phase == "artifact":
                cmd += ["-o", os.path.join(work, "out")]
            else:
                cmd += ["--compile-to=" + args.phase, "-o", os.devnull]
            timed_out = False
            try:
                proc = subprocess.run(cmd, capture_output=True,
                                      timeout=args.timeout)
            except subprocess.TimeoutExpired as e:
                timed_out = True
                proc = subprocess.CompletedProcess(cmd, -signal.SIGKILL,
                                                   e.stdout or b"", e.stderr or b"")
            runs += 1
            kind = classify(proc, timed_out)
            counts[kind] = counts.get(kind, 0) + 1
            if kind not in ("ok", "refused"):
                findings += 1
                name = f"{kind.lower()}-{findings}"
                shutil.copy(path, os.path.join(out, name + ".onnx"))
                tail = proc.stderr.decode(errors="replace").strip()[-2000:]
                with open(os.path.join(out, name + ".txt"), "w") as f:
                    f.write(f"seed model: {seed_path}\nexit: {proc.returncode}\n"
                            f"command: {' '.join(cmd[:1] + [name + '.onnx'] + cmd[2:])}\n"
                            f"{tail}\n")
                print(f"{kind}: {seed_path} -> {out}/{name}.onnx: "
                      f"{tail.splitlines()[-1] if tail else ''}", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    summary = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
    print(f"{runs} mutants in {time.monotonic() - start:.0f} s: {summary}")
    print(f"{runs - findings} passed, {findings} failed")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
