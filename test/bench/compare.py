#!/usr/bin/env python3
"""infer against ONNX Runtime and OpenVINO on the same models, inputs and
thread counts.

For each model: compile once with infer-compile (every input's shape fixed
with --shape), check infer's outputs against ORT's on one input (infer-run on
a test_data_set written here), then time the three runtimes interleaved: R
rounds, each round, for each thread count N, one `infer-bench --json` run
(--intra-threads N: the model's thread pool; OMP_NUM_THREADS=N too, for
models compiled with --parallel=openmp), one ORT timing run (intra_op_num_threads=N, sequential,
all graph optimizations) and one OpenVINO timing run (INFERENCE_NUM_THREADS=N,
f32 precision, LATENCY hint, model reshaped to the static shapes), all of the
same iteration count; the reported latency is the median over rounds of each
run's p50. Ratios infer/ORT and infer/OV below 1 mean infer is faster.

Throughput: FLOPs are counted on the ONNX graph after shape inference with
the static input shapes (Conv, ConvTranspose, MatMul, Gemm, LSTM, GRU; a
multiply-add is 2 FLOPs; shapes ONNX shape inference leaves unknown are taken
from OpenVINO's reshaped model; nodes whose shapes stay unknown even then are
skipped and the count is marked as a lower bound, `>=`). The machine's peak is measured here:
a small C loop of independent FMA chains (AVX-512 where the CPU has
avx512f, else AVX2/FMA) built with `cc -O2 -march=native`, one copy per
thread run at once. GFLOP/s are given per runtime and as % of that peak.

Models (--names picks a subset; a missing file or a model infer cannot
compile is reported in the table and skipped):
  resnet18, mobilenet_v2   --models DIR, input 1x3x224x224 uniform [0,1)
  transformer_encoder      --models DIR, x 1x128x384 standard normal
  lstm_gru                 --models DIR, mel 1x100x80 standard normal
  resnet18_int8,           resnet18, PP-OCRv4 rec in QDQ int8 by ORT's quantize_static
  ppocr_rec_int8           (int8_models.py), made once in --models; checked
                           exactly, or by top-1 agreement where rounding differs
  transformer_encoder_     the encoder quantized by ORT's quantize_dynamic;
  int8_dyn                 checked by SQNR against ORT's output (>= 30 dB)
  *_int8_infer             the float model quantized by infer-compile
                           --quantize=int8 on the same calibration sets (ORT
                           and OpenVINO time quantize_static's model)
  ppocr_det, ppocr_rec,    --ocr DIR: PaddleOCR models with real weights from
  ppocr_cls                the PyPI wheel rapidocr-onnxruntime 1.4.4 (fetched
                           with the venv's pip when missing); x 1x3x640x640,
                           1x3x48x320, 1x3x48x192 uniform [0,1)

Set up once (Debian's torch for the export, ORT and OpenVINO from PyPI):
  apt-get install python3-torch python3-torchvision
  /usr/bin/python3 test/bench/export_models.py bench-models
  .venv/bin/pip install onnxruntime openvino
Then run with the project venv:
  .venv/bin/python test/bench/compare.py --json bench.json
  .venv/bin/python test/bench/compare.py --names ppocr_rec --threads 1 --rounds 3

Exit status: 0 when every model that ran matches ORT (and infer-bench ran it),
else 1; a missing model or one infer cannot compile does not count (ORT and
OpenVINO are still timed on the latter).
"""
import argparse
import json
import math
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx
import onnxruntime as ort
from onnx import numpy_helper

from int8_models import (DYNAMIC, INFER_QUANTIZED, INT8_MODELS, ensure_int8, infer_quantize_args,
                         sqnr_check, top1_check)
from ocr_models import ensure_ocr

# name -> (source folder: "models" or "ocr", file, {input: (shape, kind)}).
# Kinds: "image" uniform [0,1), "normal" standard normal, "ones",
# ("tokens", vocab) int64 ids uniform in [0, vocab).
MODELS = {
    "resnet18": ("models", "resnet18.onnx", {"input": ([1, 3, 224, 224], "image")}),
    "mobilenet_v2": ("models", "mobilenet_v2.onnx", {"input": ([1, 3, 224, 224], "image")}),
    "transformer_encoder": ("models", "transformer_encoder.onnx",
                            {"x": ([1, 128, 384], "normal")}),
    "lstm_gru": ("models", "lstm_gru.onnx", {"mel": ([1, 100, 80], "normal")}),
    "ppocr_det": ("ocr", "ch_PP-OCRv4_det_infer.onnx", {"x": ([1, 3, 640, 640], "image")}),
    "ppocr_rec": ("ocr", "ch_PP-OCRv4_rec_infer.onnx", {"x": ([1, 3, 48, 320], "image")}),
    "ppocr_cls": ("ocr", "ch_ppocr_mobile_v2.0_cls_infer.onnx",
                  {"x": ([1, 3, 48, 192], "image")}),
    # Quantized here from the float model (int8_models.py); ORT and
    # OpenVINO run the same QDQ file.
    "resnet18_int8": ("int8", "resnet18_int8.onnx", {"input": ([1, 3, 224, 224], "image")}),
    "ppocr_rec_int8": ("int8", "ppocr_rec_int8.onnx", {"x": ([1, 3, 48, 320], "image")}),
    # infer quantizes the float model itself (--quantize=int8, the same
    # calibration sets); ORT and OpenVINO run quantize_static's file.
    "resnet18_int8_infer": ("int8", "resnet18_int8.onnx", {"input": ([1, 3, 224, 224], "image")}),
    "ppocr_rec_int8_infer": ("int8", "ppocr_rec_int8.onnx", {"x": ([1, 3, 48, 320], "image")}),
    # quantize_dynamic's form (DynamicQuantizeLinear + MatMulInteger).
    "transformer_encoder_int8_dyn": ("int8", "transformer_encoder_int8_dyn.onnx",
                                     {"x": ([1, 128, 384], "normal")}),
}

VECTOR_FLAGS = ["avx2", "fma", "avx512f", "avx512_vnni", "avx_vnni",
                "amx_tile", "amx_int8", "amx_bf16"]

NUMPY_DTYPES = {"tensor(float)": np.float32, "tensor(double)": np.float64,
                "tensor(float16)": np.float16, "tensor(int64)": np.int64,
                "tensor(int32)": np.int32, "tensor(bool)": np.bool_}


# ---------------------------------------------------------------- machine

def cpu_info():
    flags, model_name = set(), None
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                key = key.strip()
                if key == "flags" and not flags:
                    flags = set(value.split())
                elif key == "model name" and model_name is None:
                    model_name = value.strip()
    except OSError:
        pass
    try:
        lscpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        match = re.search(r"^Model name:\s*(.+)$", lscpu, re.M)
        if match:
            model_name = match.group(1).strip()
    except OSError:
        pass
    return {"cpu": model_name or platform.processor() or platform.machine(),
            "logical_cpus": os.cpu_count(),
            "vector_extensions": [f for f in VECTOR_FLAGS if f in flags]}


def peak_source(avx512):
    """C source: CHAINS independent FMA chains (different start values, so
    the compiler cannot merge them), best of 3 timed repetitions, prints
    GFLOP/s and a checksum that keeps the loop alive."""
    if avx512:
        vec, lanes, chains, fma, splat, reduce = ("__m512", 16, 16, "_mm512_fmadd_ps",
                                                  "_mm512_set1_ps", "_mm512_reduce_add_ps")
    else:
        vec, lanes, chains, fma, splat, reduce = ("__m256", 8, 12, "_mm256_fmadd_ps",
                                                  "_mm256_set1_ps", None)
    init = "\n".join(f"    {vec} c{i} = {splat}(0.{i + 1}f + rep);" for i in range(chains))
    body = "\n".join(f"      c{i} = {fma}(c{i}, a, b);" for i in range(chains))
    if reduce:
        total = " + ".join(f"{reduce}(c{i})" for i in range(chains))
    else:
        total = " + ".join(f"sum8(c{i})" for i in range(chains))
    return f"""#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void) {{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}}
static float sum8(__m256 v) {{
  float f[8];
  _mm256_storeu_ps(f, v);
  return f[0] + f[1] + f[2] + f[3] + f[4] + f[5] + f[6] + f[7];
}}
int main(int argc, char **argv) {{
  long iterations = argc > 1 ? atol(argv[1]) : 40000000L;
  {vec} a = {splat}(0.999999f), b = {splat}(1e-6f);
  double best = 0;
  float sink = 0;
  for (int rep = 0; rep < 3; ++rep) {{
{init}
    double start = now();
    for (long i = 0; i < iterations; ++i) {{
{body}
    }}
    double seconds = now() - start;
    double gflops = 2.0 * {lanes} * {chains} * iterations / seconds / 1e9;
    if (gflops > best) best = gflops;
    sink += {total};
  }}
  (void)sum8;
  printf("%.1f %g\\n", best, sink);
  return 0;
}}
"""


def measure_peak(thread_counts, extensions):
    """Peak f32 GFLOP/s for each thread count (None where it cannot be
    measured), and a line saying how it was measured."""
    if "avx512f" in extensions:
        avx512, what = True, "AVX-512 FMA"
    elif "avx2" in extensions and "fma" in extensions:
        avx512, what = False, "AVX2 FMA"
    else:
        return {n: None for n in thread_counts}, "not measured (no AVX2/FMA)"
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = os.path.join(tmp, "peak.c"), os.path.join(tmp, "peak")
        with open(src, "w") as f:
            f.write(peak_source(avx512))
        cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
        if not cc:
            return {n: None for n in thread_counts}, "not measured (no C compiler)"
        build = subprocess.run([cc, "-O2", "-march=native", src, "-o", exe],
                               capture_output=True, text=True)
        if build.returncode != 0:
            return ({n: None for n in thread_counts},
                    "not measured (cc failed: " + first_line(build.stderr) + ")")
        peaks = {}
        for n in thread_counts:
            copies = [subprocess.Popen([exe], stdout=subprocess.PIPE, text=True)
                      for _ in range(n)]
            values = [float(c.communicate()[0].split()[0]) for c in copies]
            peaks[n] = sum(values)
    return peaks, f"{what} loop, cc -O2 -march=native, one copy per thread"


# ---------------------------------------------------------------- FLOPs

def static_dims(value_info):
    t = value_info.type.tensor_type
    if not t.HasField("shape"):
        return None
    dims = [d.dim_value if d.HasField("dim_value") else 0 for d in t.shape.dim]
    return dims if all(d > 0 for d in dims) or not dims else None


def ov_shapes(ov_model):
    """Static shapes of the named tensors of a reshaped OpenVINO model."""
    shapes = {}
    for op in ov_model.get_ops():
        for output in op.outputs():
            shape = output.get_partial_shape()
            if shape.is_static:
                for name in output.get_names():
                    shapes[name] = [int(d) for d in shape.to_shape()]
    return shapes


def count_flops(path, shapes, fallback=None):
    """FLOPs of one run with these input shapes, and the op types of the
    nodes that could not be counted (their shapes stayed unknown). Shapes
    come from ONNX shape inference; those it leaves unknown from `fallback`
    (name -> dims) when given."""
    model = onnx.load(path)
    for inp in model.graph.input:
        if inp.name in shapes:
            dims = inp.type.tensor_type.shape.dim
            del dims[:]
            for d in shapes[inp.name]:
                dims.add().dim_value = d
    try:
        model = onnx.shape_inference.infer_shapes(model, data_prop=True)
    except Exception:
        try:
            model = onnx.shape_inference.infer_shapes(model)
        except Exception:
            pass
    graph = model.graph
    known = {t.name: list(t.dims) for t in graph.initializer}
    for vi in list(graph.input) + list(graph.value_info) + list(graph.output):
        dims = static_dims(vi)
        if dims is not None:
            known[vi.name] = dims
    for node in graph.node:
        if node.op_type == "Constant":
            for a in node.attribute:
                if a.name == "value":
                    known[node.output[0]] = list(a.t.dims)
    for name, dims in (fallback or {}).items():
        known.setdefault(name, dims)
    counted = {"Conv", "ConvTranspose", "MatMul", "Gemm", "LSTM", "GRU"}
    flops, skipped = 0, []

    def attr(node, name, default):
        for a in node.attribute:
            if a.name == name:
                return onnx.helper.get_attribute_value(a)
        return default

    def has_counted(g):
        for n in g.node:
            if n.op_type in counted:
                return True
            for a in n.attribute:
                subgraphs = list(a.graphs) + ([a.g] if a.HasField("g") else [])
                if any(has_counted(s) for s in subgraphs):
                    return True
        return False

    for node in graph.node:
        op = node.op_type
        subgraphs = [a.g for a in node.attribute if a.HasField("g")]
        subgraphs += [g for a in node.attribute for g in a.graphs]
        if any(has_counted(g) for g in subgraphs):
            skipped.append(op)  # control flow: not counted
            continue
        if op not in counted or node.domain not in ("", "ai.onnx"):
            continue
        try:
            if op == "Conv":
                # 2 * N*Cout*out_spatial * (Cin/group)*kernel
                flops += 2 * math.prod(known[node.output[0]]) * math.prod(known[node.input[1]][1:])
            elif op == "ConvTranspose":
                # 2 * N*Cin*in_spatial * (Cout/group)*kernel
                flops += 2 * math.prod(known[node.input[0]]) * math.prod(known[node.input[1]][1:])
            elif op == "MatMul":
                if node.input[0] in known:
                    k = known[node.input[0]][-1]
                else:  # K from B: [..., K, N] or [K]
                    b = known[node.input[1]]
                    k = b[-2] if len(b) > 1 else b[0]
                flops += 2 * math.prod(known[node.output[0]]) * k
            elif op == "Gemm":
                a = known[node.input[0]]
                k = a[0] if attr(node, "transA", 0) else a[1]
                flops += 2 * math.prod(known[node.output[0]]) * k
            else:  # LSTM, GRU
                x = known[node.input[0]]
                w = known[node.input[1]]  # [directions, gates*hidden, input]
                gates = 4 if op == "LSTM" else 3
                hidden = attr(node, "hidden_size", w[1] // gates)
                steps, batch = (x[1], x[0]) if attr(node, "layout", 0) else (x[0], x[1])
                flops += 2 * steps * batch * gates * hidden * (x[2] + hidden) * w[0]
        except (KeyError, IndexError):
            skipped.append(op)
    return flops, skipped


# ---------------------------------------------------------------- runtimes

def ort_session(path, threads):
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    return ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])


def ov_request(core, model, threads):
    compiled = core.compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": threads,
                                                 "INFERENCE_PRECISION_HINT": "f32",
                                                 "PERFORMANCE_HINT": "LATENCY"})
    return compiled.create_infer_request()


def times_ms(run, warmup, iterations):
    """Each of `iterations` timed calls of run() in ms, sorted."""
    for _ in range(warmup):
        run()
    times = []
    for _ in range(iterations):
        start = time.perf_counter_ns()
        run()
        times.append((time.perf_counter_ns() - start) / 1e6)
    return sorted(times)


def p50_ms(run, warmup, iterations):
    return statistics.median(times_ms(run, warmup, iterations))


def first_line(text):
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return "(no message)"


def make_input(rng, shape, kind, dtype):
    if kind == "image":
        return rng.random(shape, dtype=np.float64).astype(dtype)
    if kind == "ones":
        return np.ones(shape, dtype)
    if isinstance(kind, tuple) and kind[0] == "tokens":
        return rng.integers(0, kind[1], size=shape).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


# ---------------------------------------------------------------- one model

def bench_model(name, path, spec, args, bindir, work, peaks, core):
    """Rows (one per thread count) for one model."""
    rows = [{"model": name, "threads": n, "status": "ok", "matches_ort": None} for n in args.threads]

    def fail(status):
        for r in rows:
            r["status"] = status
        return rows

    if not os.path.exists(path):
        return fail(f"missing: {path}")
    probe = ort_session(path, 1)
    inputs = probe.get_inputs()
    missing = [i.name for i in inputs if i.name not in spec]
    if missing:
        return fail(f"inputs {missing} not in the table (model re-exported?)")
    shapes = {i.name: spec[i.name][0] for i in inputs}
    ov_model, ov_error = None, None
    try:
        ov_model = core.read_model(path)
        ov_model.reshape({i.name: shapes[i.name] for i in inputs})
    except Exception as e:  # OpenVINO cannot take the model: time the others
        ov_error = first_line(str(e))
        print(f"{name}: OpenVINO failed: {e}", file=sys.stderr)
    flops, skipped = count_flops(path, shapes, ov_shapes(ov_model) if ov_model else None)
    for r in rows:
        r["gflop"] = flops / 1e9
        r["gflop_lower_bound"] = bool(skipped)
        if skipped:
            r["gflop_skipped_ops"] = sorted(set(skipped))

    out = os.path.join(work, name)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    rng = np.random.default_rng(0)
    feeds = {}
    for i in inputs:
        shape, kind = spec[i.name]
        feeds[i.name] = make_input(rng, shape, kind, NUMPY_DTYPES.get(i.type, np.float32))

    # Compile with static shapes.
    source, extra = infer_quantize_args(name, args.folders) or (path, [])
    cmd = [os.path.join(bindir, "infer-compile"), source, "-o", out, "--name", name] + extra
    for i in inputs:
        cmd += ["--shape", f"{i.name}=" + "x".join(str(d) for d in shapes[i.name])]
    t0 = time.time()
    compiled = subprocess.run(cmd, capture_output=True, text=True)
    compile_s = time.time() - t0
    library = os.path.join(out, name + ".so")
    if compiled.returncode != 0 or not os.path.exists(library):
        # Report it and still time ORT and OpenVINO, for reference.
        print(f"{name}: infer-compile failed:\n{compiled.stdout}{compiled.stderr}", file=sys.stderr)
        fail("compile failed: " + first_line(compiled.stderr + compiled.stdout))
        library = None
    else:
        for r in rows:
            r["compile_s"] = compile_s

    # Reference outputs (ORT) and the check.
    expected = probe.run(None, feeds)
    data = os.path.join(out, "test_data_set_0")
    os.makedirs(data)
    bench_inputs = []
    for k, i in enumerate(inputs):
        with open(os.path.join(data, f"input_{k}.pb"), "wb") as f:
            f.write(numpy_helper.from_array(feeds[i.name], i.name).SerializeToString())
        npy = os.path.join(out, f"input_{k}.npy")
        np.save(npy, feeds[i.name])
        bench_inputs += ["--input", f"{i.name}={npy}"]
    for k, (o, value) in enumerate(zip(probe.get_outputs(), expected)):
        with open(os.path.join(data, f"output_{k}.pb"), "wb") as f:
            f.write(numpy_helper.from_array(np.asarray(value), o.name).SerializeToString())
    del probe
    if library:
        check = subprocess.run([os.path.join(bindir, "infer-run"), library, "--name", name,
                                "--test-data", data], capture_output=True, text=True)
        matches = check.returncode == 0
        if not matches and (name in INT8_MODELS or name in INFER_QUANTIZED):
            check_by = sqnr_check if name in DYNAMIC else top1_check
            matches, how = check_by(os.path.join(bindir, "infer-run"), library, name, data,
                                    expected, os.path.join(out, "outputs"))
            print(f"{name}: not equal to ORT's int8 outputs; {how}", file=sys.stderr)
            for r in rows:
                r["check"] = how
        elif not matches:
            print(f"{name}: infer-run --test-data does not match ORT:\n"
                  f"{check.stdout}{check.stderr}", file=sys.stderr)
        for r in rows:
            r["matches_ort"] = matches

    # ORT sessions and OpenVINO requests, one per thread count.
    sessions = {n: ort_session(path, n) for n in args.threads}
    requests = {}
    try:
        if ov_model is not None:
            requests = {n: ov_request(core, ov_model, n) for n in args.threads}
            got = requests[args.threads[0]].infer(feeds)
            diffs = [float(np.max(np.abs(np.asarray(g, np.float64) - np.asarray(e, np.float64))))
                     for g, e in zip(got.values(), expected) if np.asarray(e).size]
            for r in rows:
                r["ov_max_abs_diff_vs_ort"] = max(diffs) if diffs else 0.0
    except Exception as e:  # OpenVINO cannot run the model: time the others
        ov_error = first_line(str(e))
        print(f"{name}: OpenVINO failed: {e}", file=sys.stderr)
        requests = {}

    times = {n: {"infer": [], "ort": [], "ov": []} for n in args.threads}
    bench_error = None
    for _ in range(args.rounds):
        for n in args.threads:
            env = dict(os.environ, OMP_NUM_THREADS=str(n))
            if library and bench_error is None:
                bench = subprocess.run(
                    [os.path.join(bindir, "infer-bench"), library, "--name", name,
                     "--threads", "1", "--intra-threads", str(n),
                     "--warmup", str(args.warmup),
                     "--iterations", str(args.iterations), "--json"] + bench_inputs,
                    capture_output=True, text=True, env=env)
                if bench.returncode != 0:
                    bench_error = first_line(bench.stderr + bench.stdout)
                    print(f"{name}: infer-bench failed:\n{bench.stdout}{bench.stderr}",
                          file=sys.stderr)
                else:
                    times[n]["infer"].append(json.loads(bench.stdout)["latency_ms"]["p50"])
            session = sessions[n]
            times[n]["ort"].append(
                p50_ms(lambda: session.run(None, feeds), args.warmup, args.iterations))
            if n in requests:
                request = requests[n]
                times[n]["ov"].append(
                    p50_ms(lambda: request.infer(feeds), args.warmup, args.iterations))
    for r in rows:
        t = times[r["threads"]]
        r["infer_ms"] = statistics.median(t["infer"]) if t["infer"] and not bench_error else None
        r["ort_ms"] = statistics.median(t["ort"])
        r["ov_ms"] = statistics.median(t["ov"]) if t["ov"] else None
        if bench_error:
            r["status"] = "infer-bench failed: " + bench_error
        if ov_error:
            r["ov_error"] = ov_error
        r["infer_vs_ort"] = r["infer_ms"] / r["ort_ms"] if r["infer_ms"] else None
        r["infer_vs_ov"] = r["infer_ms"] / r["ov_ms"] if r["infer_ms"] and r["ov_ms"] else None
        peak = peaks.get(r["threads"])
        for runtime in ["infer", "ort", "ov"]:
            ms = r[runtime + "_ms"]
            gflops = flops / ms / 1e6 if ms and flops else None
            r[runtime + "_gflops"] = gflops
            r[runtime + "_pct_peak"] = 100 * gflops / peak if gflops and peak else None
    return rows


# ---------------------------------------------------------------- report

def fmt(value, spec, missing="—"):
    return missing if value is None else format(value, spec)


def gflops_cell(r, runtime):
    g = r.get(runtime + "_gflops")
    if g is None:
        return "—"
    pct = r.get(runtime + "_pct_peak")
    return f"{g:.1f}" + (f" ({pct:.0f}%)" if pct is not None else "")


def print_tables(rows, threads):
    for n in threads:
        print(f"\n### {n} thread{'s' if n > 1 else ''}\n")
        print("| model | infer ms | ORT ms | OpenVINO ms | infer/ORT | infer/OV "
              "| infer GFLOP/s (% of peak) | matches ORT | compile s |")
        print("|---|---:|---:|---:|---:|---:|---:|---|---:|")
        mine = [r for r in rows if r["threads"] == n]
        for r in mine:
            if r.get("ort_ms") is None:
                print(f"| {r['model']} | — | — | — | — | — | — | {r['status']} | "
                      f"{fmt(r.get('compile_s'), '.1f')} |")
                continue
            if r["matches_ort"] is None:  # infer did not run
                matches = r["status"]
            else:
                how = "SQNR" if r["model"] in DYNAMIC else "top-1"
                matches = (how if "check" in r else "yes") if r["matches_ort"] else "**NO**"
                if r["status"] != "ok":
                    matches += f" ({r['status']})"
            print(f"| {r['model']} | {fmt(r['infer_ms'], '.2f')} | {r['ort_ms']:.2f} "
                  f"| {fmt(r['ov_ms'], '.2f')} | {fmt(r['infer_vs_ort'], '.2f')} "
                  f"| {fmt(r['infer_vs_ov'], '.2f')} | {gflops_cell(r, 'infer')} "
                  f"| {matches} | {fmt(r.get('compile_s'), '.1f')} |")
        print("\nGFLOP/s per runtime (% of the measured peak):\n")
        print("| model | GFLOP per run | infer | ORT | OpenVINO |")
        print("|---|---:|---:|---:|---:|")
        for r in mine:
            if r.get("gflop") is None:
                continue
            gflop = (">=" if r.get("gflop_lower_bound") else "") + f"{r['gflop']:.3f}"
            print(f"| {r['model']} | {gflop} | {gflops_cell(r, 'infer')} "
                  f"| {gflops_cell(r, 'ort')} | {gflops_cell(r, 'ov')} |")
        ran = [r for r in mine if r.get("infer_vs_ort")]
        with_ov = [r for r in mine if r.get("infer_vs_ov")]
        print()
        if ran:
            print(f"geometric mean infer/ORT: {statistics.geometric_mean(r['infer_vs_ort'] for r in ran):.2f}"
                  f" over {len(ran)} model(s)")
        if with_ov:
            print(f"geometric mean infer/OV:  {statistics.geometric_mean(r['infer_vs_ov'] for r in with_ov):.2f}"
                  f" over {len(with_ov)} model(s)")
        lower = [r["model"] for r in mine if r.get("gflop_lower_bound")]
        if lower:
            print("GFLOP counts are lower bounds (shapes unknown after shape inference) for: "
                  + ", ".join(lower))


def main():
    import openvino as ov  # only the comparison itself needs it
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", default="bench-models",
                        help="folder with export_models.py's <name>.onnx (default bench-models)")
    parser.add_argument("--ocr", default=os.path.join("bench-models", "ocr"),
                        help="folder with the PaddleOCR .onnx files, fetched there when "
                             "missing (default bench-models/ocr)")
    parser.add_argument("--names", default=",".join(MODELS),
                        help="comma-separated subset of: " + ", ".join(MODELS))
    parser.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "..", "build"))
    parser.add_argument("--work", help="where compiled models go (default MODELS/infer-out)")
    parser.add_argument("--threads", default="1,2", help="thread counts (default 1,2)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--peak", help="skip the peak measurement and use these GFLOP/s, "
                        "e.g. 1=200,2=400 (THREADS=GFLOPS per thread count)")
    parser.add_argument("--json", help="write the machine info and all rows here")
    args = parser.parse_args()
    args.threads = [int(t) for t in args.threads.split(",") if t.strip()]
    names = [n.strip() for n in args.names.split(",") if n.strip()]
    unknown = [n for n in names if n not in MODELS]
    if unknown:
        parser.error(f"unknown model(s) {unknown}; known: {', '.join(MODELS)}")
    bindir = os.path.join(args.build, "bin")
    work = args.work or os.path.join(args.models, "infer-out")
    folders = {"models": args.models}
    if any(MODELS[n][0] == "ocr" for n in names):
        folders["ocr"] = ensure_ocr(args.ocr)
    folders["int8"] = args.models
    for n in names:
        if MODELS[n][0] == "int8":
            if INT8_MODELS[INFER_QUANTIZED.get(n, n)][0] == "ocr" and "ocr" not in folders:
                folders["ocr"] = ensure_ocr(args.ocr)
            ensure_int8(INFER_QUANTIZED.get(n, n), folders)
    args.folders = folders

    machine = cpu_info()
    if args.peak:
        given = dict(item.split("=") for item in args.peak.split(","))
        peaks = {n: float(given[str(n)]) if str(n) in given else None for n in args.threads}
        peak_how = "given with --peak"
    else:
        peaks, peak_how = measure_peak(args.threads, machine["vector_extensions"])
    machine.update({"onnxruntime": ort.__version__, "openvino": ov.__version__,
                    "threads": args.threads, "peak_gflops": peaks, "peak_method": peak_how,
                    "rounds": args.rounds, "iterations": args.iterations,
                    "warmup": args.warmup})

    core = ov.Core()
    rows = []
    for name in names:
        folder, filename, spec = MODELS[name]
        path = os.path.join(folders[folder], filename)
        print(f"{name}...", file=sys.stderr, flush=True)
        try:
            rows += bench_model(name, path, spec, args, bindir, work, peaks, core)
        except Exception as e:  # report the model, go on with the others
            print(f"{name}: failed: {e!r}", file=sys.stderr)
            rows += [{"model": name, "threads": n, "status": "error: " + first_line(str(e)),
                      "matches_ort": None} for n in args.threads]

    print(f"CPU: {machine['cpu']} ({machine['logical_cpus']} logical CPUs)")
    print(f"vector extensions: {' '.join(machine['vector_extensions']) or 'none of ' + ', '.join(VECTOR_FLAGS)}")
    print(f"threads: {', '.join(map(str, args.threads))}; onnxruntime {ort.__version__}; "
          f"OpenVINO {ov.__version__}")
    print("peak: " + ", ".join(f"{n} thread{'s' if n > 1 else ''} {fmt(p, '.1f', 'n/a')} GFLOP/s"
                               for n, p in peaks.items()) + f" ({peak_how})")
    one = peaks.get(1)
    busy = [n for n, p in peaks.items() if n > 1 and one and p and p < 0.75 * n * one]
    if busy and not args.peak:
        print(f"note: the peak of {', '.join(map(str, busy))} threads is well below that many "
              "times the 1-thread one: other work is running on these cores (or they share "
              "FMA units); the % of peak uses the measured values (see --peak)")
    print(f"{args.rounds} interleaved rounds x {args.iterations} iterations "
          f"({args.warmup} warm-up); median over rounds of each run's p50")
    print_tables(rows, args.threads)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": machine, "rows": rows}, f, indent=2)
    ran = [r for r in rows if r["matches_ort"] is not None]
    ok = all(r["matches_ort"] and r["status"] == "ok" for r in ran)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
