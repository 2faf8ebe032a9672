#!/usr/bin/env python3
"""infer-compile --precision=bf16 against our f32, ONNX Runtime and OpenVINO.

For each model (resnet18, mobilenet_v2, the transformer encoder of
export_models.py): compile it twice with infer (f32 and --precision=bf16),
then in interleaved rounds time, at each thread count, infer f32, infer
bf16 (infer-bench p50), ONNX Runtime f32 and OpenVINO with
INFERENCE_PRECISION_HINT f32 and bf16 (p50 of timed calls); the table gives
the medians over rounds. Accuracy: infer's bf16 output against ONNX
Runtime's f32 on the same input (SQNR in dB, max |error|, and whether the
top-1 class agrees), and OpenVINO bf16's the same way.

The machine line gives the f32 FMA peak and, where the CPU has
AVX512-BF16, the vdpbf16ps peak measured the same way (independent
chains, one copy per thread): on CPUs where vdpbf16ps issues at half the
FMA rate, bf16 convolutions cannot beat f32 ones, whatever the kernel.

Usage: bf16.py --models DIR [--threads 1,2] [--rounds 5] [--json FILE]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

import numpy as np

from compare import (MODELS, cpu_info, first_line, make_input, measure_peak, ort_session,
                     p50_ms)

NAMES = ["resnet18", "mobilenet_v2", "transformer_encoder"]

DOT_SOURCE = r"""#include <immintrin.h>
#include <stdio.h>
#include <time.h>
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}
int main(void) {
  __m512bh a = (__m512bh)_mm512_set1_epi32(0x3f803f80);
  __m512bh b = (__m512bh)_mm512_set1_epi32(0x38003800);
  double best = 0;
  float sink = 0;
  for (int rep = 0; rep < 3; ++rep) {
    __m512 c[16];
    for (int i = 0; i < 16; ++i) c[i] = _mm512_set1_ps(0.1f * i + rep);
    long iterations = 10000000L;
    double start = now();
    for (long n = 0; n < iterations; ++n) {
      for (int i = 0; i < 16; ++i) c[i] = _mm512_dpbf16_ps(c[i], a, b);
      __asm__ volatile("" : "+v"(a));
    }
    double seconds = now() - start;
    /* 16 lanes x 2 products x 2 flops per instruction */
    double gflops = 64.0 * 16 * iterations / seconds / 1e9;
    if (gflops > best) best = gflops;
    for (int i = 0; i < 16; ++i) sink += _mm512_reduce_add_ps(c[i]);
  }
  printf("%.1f %g\n", best, sink);
  return 0;
}
"""


def has_avx512_bf16():
    with open("/proc/cpuinfo") as f:
        return any(line.startswith("flags") and "avx512_bf16" in line.split() for line in f)


def measure_bf16_peak(thread_counts):
    """vdpbf16ps GFLOP/s (4 flops per pair) per thread count, or None."""
    if not has_avx512_bf16():
        return {n: None for n in thread_counts}
    cc = shutil.which("cc") or shutil.which("gcc")
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = os.path.join(tmp, "dot.c"), os.path.join(tmp, "dot")
        with open(src, "w") as f:
            f.write(DOT_SOURCE)
        if not cc or subprocess.run([cc, "-O2", "-march=native", src, "-o", exe],
                                    capture_output=True).returncode != 0:
            return {n: None for n in thread_counts}
        peaks = {}
        for n in thread_counts:
            copies = [subprocess.Popen([exe], stdout=subprocess.PIPE, text=True)
                      for _ in range(n)]
            peaks[n] = sum(float(c.communicate()[0].split()[0]) for c in copies)
    return peaks


def accuracy(got, expected):
    got, expected = np.asarray(got, np.float64), np.asarray(expected, np.float64)
    noise = np.sum((got - expected) ** 2)
    return {"sqnr_db": float(10 * np.log10(np.sum(expected ** 2) / noise)) if noise else None,
            "max_abs_error": float(np.max(np.abs(got - expected))),
            "top1_agrees": bool(np.argmax(got) == np.argmax(expected))}


def bench(name, path, spec, args, bindir, core):
    out = os.path.join(args.work, name)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    (input_name, (shape, kind)), = spec.items()
    x = make_input(np.random.default_rng(0), shape, kind, np.float32)
    npy = os.path.join(out, "x.npy")
    np.save(npy, x)
    feeds = {input_name: x}
    libraries = {}
    for precision in ("f32", "bf16"):
        folder = os.path.join(out, precision)
        built = subprocess.run([os.path.join(bindir, "infer-compile"), path, "-o", folder,
                                "--name", "m", "--precision=" + precision, "--shape",
                                f"{input_name}=" + "x".join(map(str, shape))],
                               capture_output=True, text=True)
        if built.returncode != 0:
            sys.exit(f"{name}: infer-compile --precision={precision} failed: "
                     f"{first_line(built.stderr)}")
        libraries[precision] = os.path.join(folder, "m.so")
    expected = ort_session(path, 1).run(None, feeds)[0]
    saved = os.path.join(out, "bf16_outputs")
    subprocess.run([os.path.join(bindir, "infer-run"), libraries["bf16"], "--input",
                    f"{input_name}={npy}", "--save-outputs", saved], check=True,
                   capture_output=True)
    output_name = ort_session(path, 1).get_outputs()[0].name
    ours = np.load(os.path.join(saved, output_name + ".npy"))
    row_accuracy = {"infer_bf16": accuracy(ours, expected)}
    model = core.read_model(path)
    model.reshape({input_name: shape})
    requests = {}
    for n in args.threads:
        for hint in ("f32", "bf16"):
            compiled = core.compile_model(model, "CPU", {"INFERENCE_NUM_THREADS": n,
                                                         "INFERENCE_PRECISION_HINT": hint,
                                                         "PERFORMANCE_HINT": "LATENCY"})
            requests[n, hint] = compiled.create_infer_request()
    got = list(requests[args.threads[0], "bf16"].infer(feeds).values())[0]
    row_accuracy["ov_bf16"] = accuracy(got, expected)
    sessions = {n: ort_session(path, n) for n in args.threads}
    kinds = ["infer_f32", "infer_bf16", "ort_f32", "ov_f32", "ov_bf16"]
    times = {n: {k: [] for k in kinds} for n in args.threads}
    for _ in range(args.rounds):
        for n in args.threads:
            for precision in ("f32", "bf16"):
                run = subprocess.run(
                    [os.path.join(bindir, "infer-bench"), libraries[precision], "--threads", "1",
                     "--intra-threads", str(n), "--warmup", str(args.warmup), "--iterations",
                     str(args.iterations), "--json", "--input", f"{input_name}={npy}"],
                    capture_output=True, text=True, check=True)
                times[n]["infer_" + precision].append(json.loads(run.stdout)["latency_ms"]["p50"])
            session = sessions[n]
            times[n]["ort_f32"].append(
                p50_ms(lambda: session.run(None, feeds), args.warmup, args.iterations))
            for hint in ("f32", "bf16"):
                request = requests[n, hint]
                times[n]["ov_" + hint].append(
                    p50_ms(lambda: request.infer(feeds), args.warmup, args.iterations))
    rows = []
    for n in args.threads:
        row = {"model": name, "threads": n, "accuracy": row_accuracy}
        row.update({k + "_ms": statistics.median(v) for k, v in times[n].items()})
        row["bf16_vs_f32"] = row["infer_bf16_ms"] / row["infer_f32_ms"]
        rows.append(row)
    return rows


def main():
    import openvino as ov
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", default="bench-models",
                        help="folder with export_models.py's <name>.onnx")
    parser.add_argument("--names", default=",".join(NAMES))
    parser.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "..",
                                                        "build"))
    parser.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "infer-bf16"))
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--json", help="write the machine info and all rows here")
    args = parser.parse_args()
    args.threads = [int(t) for t in args.threads.split(",") if t.strip()]
    bindir = os.path.join(args.build, "bin")
    machine = cpu_info()
    fma, how = measure_peak(args.threads, machine["vector_extensions"])
    dot = measure_bf16_peak(args.threads)
    if has_avx512_bf16():
        machine["vector_extensions"].append("avx512_bf16")
    machine.update({"fma_peak_gflops": fma, "peak_method": how, "vdpbf16ps_peak_gflops": dot,
                    "openvino": ov.__version__, "rounds": args.rounds})
    print(f"CPU: {machine}", file=sys.stderr)
    core = ov.Core()
    rows = []
    for name in args.names.split(","):
        _, filename, spec = MODELS[name]
        print(f"{name}...", file=sys.stderr, flush=True)
        rows += bench(name, os.path.join(args.models, filename), spec, args, bindir, core)
    print(f"CPU: {machine['cpu']}; vector extensions: "
          f"{', '.join(machine['vector_extensions'])}")
    for n in args.threads:
        print(f"{n} thread(s): f32 FMA peak {fma.get(n) or '—'} GFLOP/s, vdpbf16ps peak "
              f"{dot.get(n) or '—'} GFLOP/s")
    print(f"medians of {args.rounds} interleaved rounds of p50 over {args.iterations} runs (ms)\n")
    print("| model | threads | infer f32 | infer bf16 | bf16/f32 | ORT f32 | OV f32 | OV bf16 "
          "| infer bf16 SQNR vs ORT f32 | top-1 | OV bf16 SQNR |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|")
    for r in rows:
        a, o = r["accuracy"]["infer_bf16"], r["accuracy"]["ov_bf16"]
        print(f"| {r['model']} | {r['threads']} | {r['infer_f32_ms']:.2f} | "
              f"{r['infer_bf16_ms']:.2f} | {r['bf16_vs_f32']:.2f} | {r['ort_f32_ms']:.2f} | "
              f"{r['ov_f32_ms']:.2f} | {r['ov_bf16_ms']:.2f} | {a['sqnr_db']:.1f} dB | "
              f"{'same' if a['top1_agrees'] else 'differs'} | {o['sqnr_db'] or 0:.1f} dB |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": machine, "rows": rows}, f, indent=2)


if __name__ == "__main__":
    main()
