#!/usr/bin/env python3
"""Compiles every ONNX backend model for the CUDA target and checks the PTX.

For each model: `infer-compile model.onnx --target=cuda --emit=ptx --gpu-arch
sm_80 --gpu-arch sm_90 -o DIR --name m`, which writes m.sm_80.ptx and m.sm_90.ptx
and runs ptxas on each (-arch=sm_80, -arch=sm_90): a model passes when both
PTX images exist, ptxas accepted both (m.<arch>.cubin written), and every
launch of the schedule names a kernel of the PTX and passes as many
arguments, of the types, as the kernel declares (pointers for tensors and
weights, 64-bit integers, f32/f64). No GPU is needed. Without ptxas the suite cannot
validate anything and exits 77, which ctest reports as skipped.

With --infer-run (the `gpu` ctest label), each model that compiles also runs
on the GPU through the runtime's CUDA backend: `infer-run m.so --test-data`
over every test_data_set_N, compared at the CPU target's tolerances. Where
the runtime finds no CUDA driver or no device, that suite exits 77
(skipped), never passed.

With --emulator DIR (a build's test/cuda-emulator/lib), each model is also
compiled with --gpu-emulation and run through the runtime's CUDA backend
against test/cuda-emulator's libcuda.so.1, which runs the kernels on the CPU
(one fiber per GPU thread), compared with the test data as above. The
tuning thresholds are lowered so that every contraction gets the
shared-memory tiled kernel and every reduction a warp per output: the
suite checks those kernels on models far smaller than they are meant for.

The closing lines also count the models of the CPU suite's passing set
(every model not in --cpu-xfail) that compile here: the CUDA issue's bar is
85% of them. Expected failures are listed as for the CPU suite.

Usage: cuda_suite.py --infer-compile BIN --root DIR --xfail FILE --cpu-xfail FILE
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from cpu_suite import first_problem, run_suite, suite_arguments
from import_suite import find_models, read_xfail

ARCHS = ["sm_80", "sm_90"]


def find_ptxas():
    for home in [os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"]:
        if home and os.access(os.path.join(home, "bin", "ptxas"), os.X_OK):
            return os.path.join(home, "bin", "ptxas")
    return shutil.which("ptxas")


ENTRY = re.compile(r"\.visible \.entry (\w+)\(([^)]*)\)")


def check_launches(ptx_text, schedule):
    """Every launch names a kernel of the PTX and passes what its parameter
    list declares: pointers for tensors, 64-bit integers, f32/f64 floats.
    Returns a problem or ''."""
    entries = {m.group(1): [p.split()[1] for p in m.group(2).split(",") if p.strip()]
               for m in ENTRY.finditer(ptx_text)}
    pointer = {"u64", "b64"}
    integer = {"u8", "u16", "u32", "u64", "b8", "b16", "b32", "b64", "s8", "s16", "s32", "s64"}
    expected = {"input": pointer, "output": pointer, "workspace": pointer, "weight": pointer,
                "status": pointer,
                "int64": integer, "f32_bits": {"f32"}, "f64_bits": {"f64"}}
    for launch in schedule["launches"]:
        params = entries.get(launch["kernel"])
        if params is None:
            return f"launch of {launch['kernel']}, which the PTX does not define"
        if len(params) != len(launch["args"]):
            return (f"{launch['kernel']} takes {len(params)} parameters, "
                    f"the schedule passes {len(launch['args'])}")
        for i, (param, arg) in enumerate(zip(params, launch["args"])):
            kind = next(iter(arg))
            if param.lstrip(".") not in expected[kind]:
                return f"{launch['kernel']} parameter {i} is {param}, the schedule passes {kind}"
    return ""


def run_one(args, model, work):
    src = os.path.join(args.root, model)
    out = os.path.join(work, re.sub(r"[^A-Za-z0-9_]", "_", model))
    command = [args.infer_compile, os.path.join(src, "model.onnx"), "--target=cuda",
               "--emit=ptx", "-o", out, "--name", "m"]
    for arch in ARCHS:
        command += ["--gpu-arch", arch]
    env = None
    if args.emulator:
        command += ["--gpu-emulation", "--gpu-tile-min-blocks=1", "--gpu-warp-min-length=1"]
        env = dict(os.environ, INFER_EMU_KERNELS=os.path.join(out, "m.emu.so"),
                   LD_LIBRARY_PATH=os.pathsep.join(
                       p for p in [args.emulator, os.environ.get("LD_LIBRARY_PATH")] if p))
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=args.timeout)
        if proc.returncode != 0:
            return model, False, "compile: " + first_problem(proc.stderr)
        for arch in ARCHS:
            for suffix in ["ptx", "cubin"]:
                if not os.path.exists(os.path.join(out, f"m.{arch}.{suffix}")):
                    return model, False, f"compile: no m.{arch}.{suffix}"
        with open(os.path.join(out, "m.schedule.json")) as f:
            schedule = json.load(f)
        if not schedule["launches"]:
            return model, False, "compile: the schedule launches no kernel"
        for arch in ARCHS:
            with open(os.path.join(out, f"m.{arch}.ptx")) as f:
                problem = check_launches(f.read(), schedule)
            if problem:
                return model, False, f"schedule: {problem}"
        if args.infer_run:
            sets = sorted(d for d in os.listdir(src) if d.startswith("test_data_set_"))
            command = [args.infer_run, os.path.join(out, "m.so")]
            for s in sets:
                command += ["--test-data", os.path.join(src, s)]
            proc = subprocess.run(command, capture_output=True, text=True,
                                  timeout=args.timeout, env=env)
            if proc.returncode != 0:
                text = proc.stdout + proc.stderr
                if "no CUDA driver" in text or "sees no device" in text:
                    return model, False, "NO-GPU " + first_problem(text)
                if proc.returncode < 0:
                    return model, False, f"run: crashed with signal {-proc.returncode}"
                return model, False, "run: " + first_problem(text)
        return model, True, ""
    except subprocess.TimeoutExpired:
        return model, False, f"compile: timed out after {args.timeout}s"
    finally:
        shutil.rmtree(out, ignore_errors=True)


def gpu_available(args):
    """False (and says why) when the runtime finds no CUDA driver or device:
    one model compiled and run decides it."""
    model = next(iter(find_models(args.root)), None)
    probe = os.path.join(args.root, "node", "test_relu")
    if os.path.isdir(probe):
        model = "node/test_relu"
    with tempfile.TemporaryDirectory(prefix="infer-gpu-probe-") as work:
        subprocess.run([args.infer_compile, os.path.join(args.root, model, "model.onnx"),
                        "--target=cuda", "-o", work, "--name", "m"],
                       capture_output=True, text=True, timeout=args.timeout)
        proc = subprocess.run([args.infer_run, os.path.join(work, "m.so")],
                              capture_output=True, text=True, timeout=args.timeout)
    text = proc.stdout + proc.stderr
    if "no CUDA driver" in text or "sees no device" in text:
        print("SKIPPED: no GPU here: " + first_problem(text))
        return False
    return True


def main():
    parser = suite_arguments(__doc__, timeout=300)
    parser.add_argument("--cpu-xfail", required=True)
    parser.add_argument("--infer-run", help="also run each model on the GPU")
    parser.add_argument("--emulator", help="directory of the emulator's libcuda.so.1: "
                        "run each model's kernels on the CPU (needs --infer-run)")
    parser.add_argument("--label", default="cuda")
    args = parser.parse_args()
    if args.emulator and not args.infer_run:
        parser.error("--emulator needs --infer-run")
    if not find_ptxas():
        print("SKIPPED: no ptxas ($CUDA_HOME/bin, /usr/local/cuda/bin or PATH): "
              "the PTX cannot be validated")
        return 77
    if args.infer_run and not args.emulator and not gpu_available(args):
        return 77
    cpu_failing = read_xfail(args.cpu_xfail)

    def cpu_share(results):
        cpu_passing = [m for m, _, _ in results if m not in cpu_failing]
        ok = sum(1 for m, passed, _ in results if passed and m not in cpu_failing)
        if cpu_passing:
            print(f"{args.label}: {ok} of the {len(cpu_passing)} models that pass on CPU "
                  f"({100.0 * ok / len(cpu_passing):.1f}%)")

    what = "compile to PTX that ptxas accepts for sm_80 and sm_90"
    if args.emulator:
        what += " and match the test data when the emulator runs their kernels"
    elif args.infer_run:
        what += " and match the test data on the GPU"
    return run_suite(args, run_one, what,
                     summary=cpu_share)


if __name__ == "__main__":
    sys.exit(main())
