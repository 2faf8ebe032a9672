#!/usr/bin/env python3
"""The model zoo: real architectures exported by PyTorch, compiled by infer
and compared with ONNX Runtime on the same inputs.

The real-weight models of test/zoo/wheels.py (PP-OCR from the
rapidocr-onnxruntime wheel, as shipped and quantized by onnxruntime) run
the same way at their own opsets.

For each architecture (test/zoo/architectures.py), opset and kind (static:
shapes fixed by the exporter; dynamic: batch and sequence axes symbolic,
compiled to the generic variant), this script
  1. exports the model with Debian's PyTorch (export.py run by .venv-torch's
     Python, which adds transformers and timm; cached under --cache by the
     hash of the scripts that define it, never in the checkout),
  2. runs it in ONNX Runtime on the exported inputs (a quantized model
     with ORT's graph optimizations off: its QDQ fusions round differently
     from the ops ONNX defines),
  3. compiles it with infer-compile and runs it against ONNX Runtime's
     outputs (rtol 1e-3, atol 1e-4 of the largest expected magnitude:
     random weights give outputs of any scale; one quantization step for
     an output a DequantizeLinear makes); a quantized wheel model that
     misses that passes only when it is as accurate as ORT's against the
     float model it approximates (see as_accurate; marked * in the table),
and records pass or the first line of the failure. It prints a markdown
table and, with --report, writes it (docs/zoo.md) and a JSON file beside it.

--target picks what step 3 builds and runs:
  cpu   the object and shared library, run by infer-run (the default);
  cuda  PTX and cubins (ptxas validates them when it is installed), run by
        infer-run under the CUDA emulator (--emulator: the folder of
        test/cuda-emulator's libcuda.so.1; every GPU thread is a fiber on
        the CPU, so large models take minutes);
  hls   the HLS C++ project, built with g++ (--cxx) and run as its C-simulation
        testbench; static shapes only.

Usage:
  run_zoo.py --infer-compile BIN --infer-run BIN --work DIR [--cache DIR]
             [--target cpu|cuda|hls] [--emulator DIR] [--cxx g++]
             [--only NAME,...] [--opsets 13,17] [--kinds static,dynamic]
             [--budget SECONDS] [--report docs/zoo.md [--append]] [--require-pass]
--budget stops starting new models after that many seconds (the rest are
listed as not run); --require-pass exits 1 unless every model run was
exported, compiled and matched.
"""
import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time

import numpy as np
import onnx
import onnxruntime as ort
from onnx import numpy_helper

import wheels

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


TARGET_TEXT = {
    "cpu": "CPU target",
    "cuda": "CUDA target (PTX and cubins from ptxas, run under test/cuda-emulator)",
    "hls": "HLS target (the emitted C++ project's testbench, built with g++: C simulation)",
}


def torch_python():
    """The Python that exports: $INFER_ZOO_PYTHON, else the checkout's
    .venv-torch (Debian's torch plus transformers and timm, made by
    .ci/setup-venv), else Debian's python3 (the hub models then record a
    build error)."""
    for candidate in (os.environ.get("INFER_ZOO_PYTHON", ""),
                      os.path.join(ROOT, ".venv-torch", "bin", "python")):
        if candidate and os.path.exists(candidate):
            return candidate
    return "/usr/bin/python3"


TORCH_PYTHON = torch_python()


def scripts_hash(module):
    """The cache key of the architectures defined in `module`: the export
    script, the shared builders and that module."""
    digest = hashlib.sha256()
    for name in sorted({"export.py", "architectures.py", module + ".py"}):
        with open(os.path.join(HERE, name), "rb") as f:
            digest.update(f.read())
    return digest.hexdigest()[:16]


def first_line(text):
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("$"):
            return line[:240]
    return "(no message)"


def export(args, modules):
    """Exports what the cache lacks; returns {name: its cache folder}."""
    folders = {}
    for module, names in sorted(modules.items()):
        cache = os.path.join(args.cache, scripts_hash(module))
        missing = [n for n in names if not exported(os.path.join(cache, n), args.opsets)]
        if missing:
            proc = subprocess.run([TORCH_PYTHON, os.path.join(HERE, "export.py"), "--out",
                                   cache, "--only", ",".join(missing), "--opsets",
                                   args.opsets], capture_output=True, text=True, timeout=7200)
            if proc.returncode != 0:
                sys.exit(f"export.py failed:\n{proc.stdout}{proc.stderr}")
        folders.update({n: os.path.join(cache, n) for n in names})
    return folders


def exported(folder, opsets):
    """Whether `folder` holds an export at every opset in `opsets`."""
    try:
        with open(os.path.join(folder, "export.json")) as f:
            record = json.load(f)
    except OSError:
        return False
    wanted = {int(o) for o in opsets.split(",")}
    return "inputs" not in record or wanted <= set(record.get("opsets", []))


def run_one(args, folder, record, opset, kind, work):
    """Returns (status, detail, compile seconds)."""
    key = f"opset{opset}_{kind}"
    if key in record["errors"]:
        return "export", record["errors"][key], None
    path = os.path.join(folder, f"{key}.onnx")
    inputs = [np.load(os.path.join(folder, f"input_{k}.npy"))
              for k in range(len(record["inputs"]))]
    names = [i["name"] for i in record["inputs"]]
    model = onnx.load(path)
    graph_inputs = [i.name for i in model.graph.input]
    feeds = dict(zip(names, inputs))
    feeds = {n: feeds[n] for n in graph_inputs if n in feeds}
    try:
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        # ORT's QDQ fusions (QLinearConv and friends) round differently from
        # the ops ONNX defines (they moved PP-OCR's quantized detector by
        # 0.49): quantized models are checked against the unfused graph.
        if any(n.op_type in QUANT_OPS for n in model.graph.node):
            options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        session = ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
        expected = session.run(None, feeds)
    except Exception as error:  # noqa: BLE001
        return "ort", first_line(str(error)), None
    data = os.path.join(work, "test_data_set_0")
    os.makedirs(data)
    for k, name in enumerate(graph_inputs):
        with open(os.path.join(data, f"input_{k}.pb"), "wb") as f:
            f.write(numpy_helper.from_array(feeds[name], name).SerializeToString())
    for k, (value, output) in enumerate(zip(expected, model.graph.output)):
        with open(os.path.join(data, f"output_{k}.pb"), "wb") as f:
            f.write(numpy_helper.from_array(np.asarray(value), output.name).SerializeToString())
    command = [args.infer_compile, path, "-o", os.path.join(work, "out"), "--name", "m",
               f"--target={args.target}"]
    if args.target == "cuda":
        command.append("--gpu-emulation")
    if kind == "static":
        for name in graph_inputs:
            command += ["--shape", f"{name}={'x'.join(map(str, feeds[name].shape)) or '1'}"]
            if feeds[name].ndim == 0:
                command = command[:-2]
    start = time.monotonic()
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return "compile", f"timed out after {args.timeout} s", None
    seconds = time.monotonic() - start
    if proc.returncode != 0:
        message = proc.stderr.replace(path + ": ", "")
        errors = [line for line in message.splitlines() if "error:" in line]
        return "compile", first_line("\n".join(errors) or message), seconds
    scale = max([float(np.max(np.abs(v))) for v in expected
                 if np.asarray(v).size and np.issubdtype(np.asarray(v).dtype, np.floating)]
                or [0.0])
    atol = max(1e-4 * scale + 1e-6, 1.001 * quantum(model))
    out = os.path.join(work, "out")
    try:
        if args.target == "hls":
            proc = run_testbench(args, out, [feeds[n] for n in graph_inputs], expected, atol)
        else:
            env = dict(os.environ)
            if args.target == "cuda":
                env.update(INFER_EMU_KERNELS=os.path.join(out, "m.emu.so"),
                           LD_LIBRARY_PATH=args.emulator)
            proc = subprocess.run([args.infer_run, os.path.join(out, "m.so"), "--test-data",
                                   data, "--rtol", "1e-3", "--atol", f"{atol:.3g}",
                                   "--save-outputs", os.path.join(work, "got")],
                                  capture_output=True, text=True, timeout=args.timeout, env=env)
    except subprocess.TimeoutExpired:
        return "run", f"timed out after {args.timeout} s", seconds
    if proc.returncode != 0:
        lines = [line for line in (proc.stdout + proc.stderr).splitlines()
                 if "FAIL" in line or "error" in line]
        detail = first_line("\n".join(lines) or proc.stdout + proc.stderr)
        if "float_model" in record and args.target != "hls":
            equivalent = as_accurate(os.path.join(folder, record["float_model"]), feeds,
                                     model, expected, os.path.join(work, "got"), atol)
            if equivalent:
                return "pass", equivalent, seconds
        return "mismatch", detail, seconds
    return "pass", "", seconds


def rms(a, b):
    return float(np.sqrt(np.mean((np.asarray(a, np.float64) - np.asarray(b, np.float64)) ** 2)))


def as_accurate(float_path, feeds, model, expected, got_dir, atol):
    """For a quantized model whose outputs differ from ONNX Runtime's
    beyond the tolerance: a description of how they compare when they are
    as accurate as ORT's, else None.

    A float difference of one ulp (a sum in another order) moves a range
    DynamicQuantizeLinear picks at run time, or puts a value on the other
    side of a rounding boundary; the integer layers after it carry the step
    on. ORT itself, with and without its graph optimizations, differs by up
    to a whole output unit on PP-OCR's QDQ detector. What must hold is the
    accuracy: against the float model the quantized one approximates (run
    by ORT on the same input), each float output's RMS error is within 10%
    of ORT's, and at most 1% of its elements fall outside the tolerance."""
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    session = ort.InferenceSession(float_path, options, providers=["CPUExecutionProvider"])
    reference = session.run(None, {i.name: feeds[i.name] for i in session.get_inputs()})
    notes = []
    for output, theirs, exact in zip(model.graph.output, expected, reference):
        theirs = np.asarray(theirs)
        if not np.issubdtype(theirs.dtype, np.floating):
            return None
        try:
            ours = np.load(os.path.join(got_dir, output.name + ".npy"))
        except OSError:
            return None
        if ours.shape != theirs.shape:
            return None
        outside = int(np.sum(np.abs(ours - theirs) > atol + 1e-3 * np.abs(theirs)))
        error, reference_error = rms(ours, exact), rms(theirs, exact)
        if error > 1.1 * reference_error + 1e-7 or outside > 0.01 * theirs.size:
            return None
        notes.append(f"{output.name}: RMS error against the float model {error:.4g} "
                     f"(ORT {reference_error:.4g}), {outside} of {theirs.size} elements "
                     f"outside the tolerance of ORT's")
    return "; ".join(notes)


QUANT_OPS = {"QuantizeLinear", "DequantizeLinear", "DynamicQuantizeLinear"}


def quantum(model):
    """The largest quantization step of an output that a DequantizeLinear
    produces (0 when none does): a value on a rounding boundary may come
    out one step apart (ONNX Runtime's fused QLinear kernels round their
    intermediates differently), so the comparison allows one step."""
    producer = {o: n for n in model.graph.node for o in n.output}
    scales = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    step = 0.0
    for output in model.graph.output:
        node = producer.get(output.name)
        if node is not None and node.op_type == "DequantizeLinear" and node.input[1] in scales:
            step = max(step, float(np.max(np.abs(scales[node.input[1]]))))
    return step


def run_testbench(args, out, inputs, expected, atol):
    """Builds the HLS project's C-simulation testbench and runs it on the
    inputs and ONNX Runtime's outputs as raw files. Returns the failed build's
    process, or the run's."""
    data = os.path.join(out, "test_data")
    os.makedirs(data, exist_ok=True)
    for k, value in enumerate(inputs):
        np.ascontiguousarray(value).tofile(os.path.join(data, f"input_{k}.bin"))
    for k, value in enumerate(expected):
        np.ascontiguousarray(value).tofile(os.path.join(data, f"output_{k}.bin"))
    tb = os.path.join(out, "m_tb")
    build = subprocess.run([args.cxx, "-std=c++17", "-O1", "-o", tb, os.path.join(out, "m.cpp"),
                            os.path.join(out, "m_tb.cpp")], capture_output=True, text=True,
                           timeout=args.timeout)
    if build.returncode != 0:
        build.stderr = "error: the testbench does not build: " + first_line(build.stderr)
        return build
    return subprocess.run([tb, data, "1e-3", f"{atol:.3g}"], capture_output=True, text=True,
                          timeout=args.timeout)


def markdown(rows, opsets, kinds, header):
    """The table of `rows`: a column per opset and kind, or with `opsets`
    None (models at their own opsets) a column per kind."""
    columns = [(o, k) for o in opsets for k in kinds] if opsets else [(None, k) for k in kinds]
    lines = [header, "", "| model | " + " | ".join(
                 f"opset {o} {k}" if o else k for o, k in columns) + " |",
             "|---|" + "---|" * len(columns)]
    details, notes = [], []
    for name in sorted({r["model"] for r in rows}):
        cells = []
        for opset, kind in columns:
            row = next((r for r in rows if r["model"] == name
                        and opset in (None, r["opset"]) and r["kind"] == kind), None)
            if row is None:
                cells.append("not run")
            elif row["status"] == "pass":
                seconds = row.get("compile_s")
                cells.append(f"pass ({seconds:.0f} s)" if seconds is not None else "pass")
                if row.get("detail"):
                    cells[-1] += " *"
                    notes.append(f"- {name}, {kind}: {row['detail']}")
            else:
                cells.append(row["status"])
                details.append(f"- {name}, opset {row['opset']} {kind}: {row['status']}: "
                               f"`{row['detail']}`")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    if notes:
        lines += ["", "\\* Quantized models whose outputs differ from ONNX Runtime's beyond the "
                  "tolerance but are as accurate as ORT's against the float model (RMS error "
                  "within 10% of ORT's, at most 1% of elements outside the tolerance; "
                  "`run_zoo.py`'s as_accurate says why):", ""] + notes
    if details:
        lines += ["", "Failures, with the first line of each:", ""] + details
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--infer-compile", required=True)
    parser.add_argument("--infer-run", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--cache", default=os.path.expanduser("~/.cache/infer-zoo"))
    parser.add_argument("--only", default="")
    parser.add_argument("--opsets", default="13,17")
    parser.add_argument("--kinds", default="static,dynamic")
    parser.add_argument("--target", choices=["cpu", "cuda", "hls"], default="cpu")
    parser.add_argument("--emulator", default="",
                        help="with --target cuda: the folder of the CUDA emulator's "
                             "libcuda.so.1 (build/test/cuda-emulator/lib)")
    parser.add_argument("--cxx", default="g++", help="with --target hls: the C++ compiler")
    parser.add_argument("--budget", type=float, default=0)
    parser.add_argument("--timeout", type=int, default=900)
    parser.add_argument("--report", default="")
    parser.add_argument("--require-pass", action="store_true")
    parser.add_argument("--append", action="store_true",
                        help="merge into the rows of --report's JSON (a model, opset and "
                             "kind run again replaces its row)")
    args = parser.parse_args()
    if args.target == "cuda" and not os.path.exists(os.path.join(args.emulator, "libcuda.so.1")):
        sys.exit("--target cuda needs --emulator DIR, the folder of the CUDA emulator's "
                 "libcuda.so.1 (build/test/cuda-emulator/lib)")
    if args.target != "cpu" and "dynamic" in args.kinds.split(","):
        sys.exit(f"--target {args.target} compiles static shapes only: pass --kinds static")
    if not os.path.exists(TORCH_PYTHON) or subprocess.run(
            [TORCH_PYTHON, "-c", "import torch, torchvision, torchaudio"],
            capture_output=True).returncode != 0:
        sys.exit("the zoo needs Debian's python3-torch, python3-torchvision and "
                 "python3-torchaudio (.ci/install-deps installs them)")
    sys.path.insert(0, HERE)
    proc = subprocess.run([TORCH_PYTHON, "-c",
                           "import sys, json; sys.path.insert(0, sys.argv[1]); "
                           "from architectures import ARCHITECTURES; "
                           "print(json.dumps({n: b.__module__ for n, b in "
                           "ARCHITECTURES.items()}))", HERE],
                          capture_output=True, text=True, check=True)
    module_of = json.loads(proc.stdout)
    names = [n for n in args.only.split(",") if n] or list(module_of) + wheels.NAMES
    unknown = [n for n in names if n not in module_of and n not in wheels.NAMES]
    if unknown:
        sys.exit(f"unknown architectures: {', '.join(unknown)}")
    modules = {}
    for name in names:
        if name in module_of:
            modules.setdefault(module_of[name], []).append(name)
    opsets = [int(o) for o in args.opsets.split(",")]
    kinds = args.kinds.split(",")
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    start = time.monotonic()
    folders = export(args, modules)
    if any(n in wheels.NAMES for n in names):
        folders.update(wheels.prepare(args.cache))
    rows = []
    for name in names:
        folder = folders[name]
        with open(os.path.join(folder, "export.json")) as f:
            record = json.load(f)
        # A wheel's model comes at its own opset.
        for opset in record.get("opsets", opsets) if name in wheels.NAMES else opsets:
            for kind in kinds:
                if args.budget and time.monotonic() - start > args.budget:
                    continue
                if "inputs" not in record:
                    status, detail, seconds = "export", next(iter(record["errors"].values())), None
                else:
                    work = os.path.join(args.work, f"{name}_opset{opset}_{kind}")
                    os.makedirs(work)
                    status, detail, seconds = run_one(args, folder, record, opset, kind, work)
                rows.append({"model": name, "opset": opset, "kind": kind, "status": status,
                             "detail": detail, "compile_s": seconds,
                             "source": "wheel" if name in wheels.NAMES else "export"})
                print(f"{name} opset{opset} {kind}: {status} {detail}", flush=True)
    if args.append and args.report and os.path.exists(os.path.splitext(args.report)[0] + ".json"):
        with open(os.path.splitext(args.report)[0] + ".json") as f:
            earlier = json.load(f)
        fresh = {(r["model"], r["opset"], r["kind"]) for r in rows}
        rows = [r for r in earlier if (r["model"], r["opset"], r["kind"]) not in fresh] + rows
        kinds = [k for k in ("static", "dynamic") if any(r["kind"] == k for r in rows)]
    exports = [r for r in rows if r.get("source", "export") == "export"]
    real = [r for r in rows if r.get("source") == "wheel"]
    opsets = sorted({r["opset"] for r in exports})
    counts = {}
    for kind in kinds:
        ran = [r for r in rows if r["kind"] == kind and r["status"] != "export"]
        passed = [r for r in ran if r["status"] == "pass"]
        counts[kind] = (len(passed), len(ran))

    def summary(subset):
        parts = []
        for kind in kinds:
            ran = [r for r in subset if r["kind"] == kind and r["status"] != "export"]
            passed = sum(r["status"] == "pass" for r in ran)
            parts.append(f"{kind}: {passed} of {len(ran)} compiled and matched ONNX Runtime")
        return "; ".join(parts)

    table = ""
    if exports:
        per_opset = " ".join(
            f"Opset {o} ({len({r['model'] for r in exports if r['opset'] == o})} "
            f"architectures run): {summary([r for r in exports if r['opset'] == o])}."
            for o in opsets)
        header = (f"{len({r['model'] for r in exports})} architectures exported by PyTorch, "
                  f"opsets {','.join(map(str, opsets))}. {per_opset} Export failures "
                  f"are not counted: they are the exporter's.")
        table = markdown(exports, opsets, kinds, header)
    if real:
        header = (f"## Real-weight models from PyPI wheels\n\n{wheels.SOURCE}, as shipped "
                  f"(each at its own opset) and as onnxruntime's quantize_dynamic and "
                  f"quantize_static (QDQ) make them (`test/zoo/wheels.py`), run on rendered "
                  f"text. {len({r['model'] for r in real})} models. {summary(real)}.")
        table += ("\n" if table else "") + markdown(real, None, kinds, header)
    print(table)
    if args.report:
        with open(args.report, "w") as f:
            f.write("# The model zoo\n\nGenerated by `test/zoo/run_zoo.py` (see its "
                    f"`--help`); do not edit by hand. {TARGET_TEXT[args.target]}, PyTorch 1.13 "
                    "exports (TorchScript exporter) with random weights, compared with ONNX "
                    "Runtime on the same inputs.\n\n")
            f.write(table)
        with open(os.path.splitext(args.report)[0] + ".json", "w") as f:
            json.dump(rows, f, indent=1)
    failed = sum(n - p for p, n in counts.values())
    unexported = sum(r["status"] == "export" for r in rows)
    print(f"{sum(p for p, _ in counts.values())} passed, {failed} failed, "
          f"{unexported} not exported")
    # A sample that could not be exported checked nothing: that fails too.
    if args.require_pass and (failed or unexported):
        sys.exit(1)


if __name__ == "__main__":
    main()
