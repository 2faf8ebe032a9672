#!/usr/bin/env python3
"""The GPU machine's half of run_on_gpu.sh: correctness and timing.

For each entry of RUN_DIR/manifest.json: gpu_runner with CUDA graphs (the
default) and without (INFER_CUDA_GRAPHS=0), the result against ONNX
Runtime's expected output (float32: |got - expected| <= 1e-4 + 1e-3 *
|expected|, the CPU target's rtol with a looser atol for GPU math), then
the same torch architecture at the same batch, eager and torch.compile,
timed with CUDA events (medians of 100 runs after warm-up; random weights:
only the time is compared). gpu_runner also runs on device tensors (no
host copies, as the PyTorch timings have none); those outputs must equal
the host run's bit for bit, and their time gives the device_tensors ratios.
Writes one JSON file.
Usage: compare_and_time.py GPU_RUNNER RUN_DIR OUT.json
"""
import json
import os
import subprocess
import sys

import numpy as np

try:
    import torch
except ImportError as e:  # the comparison is then reported as missing
    torch = None
    TORCH_ERROR = repr(e)


def torch_model(arch):
    if arch == "resnet18":
        import torchvision
        return torchvision.models.resnet18(weights=None), (3, 224, 224)
    if arch == "transformer_encoder":
        layer = torch.nn.TransformerEncoderLayer(d_model=256, nhead=4, dim_feedforward=1024,
                                                 dropout=0.0, batch_first=True)
        return torch.nn.TransformerEncoder(layer, num_layers=2), (64, 256)
    if arch == "tiny_cnn":
        return torch.nn.Sequential(
            torch.nn.Conv2d(1, 4, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
            torch.nn.Flatten(), torch.nn.Linear(64, 10), torch.nn.Softmax(dim=1)), (1, 8, 8)
    raise ValueError(arch)


def time_torch(fn, x, runs=100):
    with torch.no_grad():
        for _ in range(10):
            fn(x)
        torch.cuda.synchronize()
        times = []
        for _ in range(runs):
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            fn(x)
            end.record()
            torch.cuda.synchronize()
            times.append(start.elapsed_time(end))
    return float(np.median(times))


def main():
    runner, run_dir, out = sys.argv[1:4]
    manifest = json.load(open(os.path.join(run_dir, "manifest.json")))
    results, failures = [], 0
    for entry in manifest:
        d = os.path.join(run_dir, entry["dir"])
        row = dict(entry)
        for graphs in ("1", "0"):
            env = dict(os.environ, INFER_CUDA_GRAPHS=graphs)
            proc = subprocess.run([runner, os.path.join(d, "m.so"), "m", d, "100"],
                                  capture_output=True, text=True, env=env)
            if proc.returncode != 0:
                row["error"] = proc.stderr.strip()
                break
            timing = json.loads(proc.stdout.strip().splitlines()[-1])
            row["infer_graph_ms" if graphs == "1" else "infer_no_graph_ms"] = timing["median_ms"]
            if graphs == "1":
                # Device tensors: no host copies, as PyTorch is timed here.
                row["device_tensors_match"] = timing["device_tensors_match"]
                row["infer_device_tensors_ms"] = timing["device_tensors_median_ms"]
                # --profile: the launches' sum, event-timed, one by one;
                # and the ceilings infer-bench --profile judges them by.
                row["profiled_launches_ms"] = timing["profiled_launches_ms"]
                row["device_peak_gflops"] = timing["device_peak_gflops"]
                row["device_bandwidth_gbs"] = timing["device_bandwidth_gbs"]
        if "error" not in row:
            worst = 0.0
            ok = True
            for i in range(entry["outputs"]):
                got = np.fromfile(os.path.join(d, f"result_{i}.bin"), np.float32)
                want = np.fromfile(os.path.join(d, f"expected_{i}.bin"), np.float32)
                err = np.abs(got - want)
                worst = max(worst, float(err.max()))
                ok = ok and got.shape == want.shape and bool(np.all(err <= 1e-4 + 1e-3 * np.abs(want)))
            row["max_abs_error"] = worst
            row["match"] = ok and row["device_tensors_match"]
        failures += 0 if row.get("match") else 1
        try:
            if torch is None:
                raise RuntimeError(TORCH_ERROR)
            model, shape = torch_model(entry["arch"])
            model = model.cuda().eval()
            x = torch.randn(entry["batch"], *shape, device="cuda")
            row["torch_eager_ms"] = time_torch(model, x)
            row["torch_compile_ms"] = time_torch(torch.compile(model), x)
            if "infer_graph_ms" in row:
                row["ratio_vs_eager"] = row["infer_graph_ms"] / row["torch_eager_ms"]
                row["ratio_vs_compile"] = row["infer_graph_ms"] / row["torch_compile_ms"]
                device_ms = row["infer_device_tensors_ms"]
                row["device_tensors_ratio_vs_eager"] = device_ms / row["torch_eager_ms"]
                row["device_tensors_ratio_vs_compile"] = device_ms / row["torch_compile_ms"]
        except Exception as e:  # report, do not hide
            row["torch_error"] = repr(e)
        print(json.dumps(row), flush=True)
        results.append(row)
    device = (torch.cuda.get_device_name(0)
              if torch is not None and torch.cuda.is_available() else "no CUDA device")
    json.dump({"device": device, "results": results},
              open(out, "w"), indent=2)
    print(f"{len(results) - failures} of {len(results)} models match ONNX Runtime on the GPU")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
