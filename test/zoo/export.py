#!/usr/bin/python3
"""Exports the zoo's architectures to ONNX (run with Debian's python3, which
has PyTorch 1.13): for each architecture and opset, a static model (every
input shape fixed) and a dynamic one (the axes architectures.py names are
symbolic), plus the inputs as .npy files.

Usage: export.py --out DIR [--only NAME,...] [--opsets 13,17]
Writes DIR/NAME/opsetN_{static,dynamic}.onnx, DIR/NAME/input_K.npy and
DIR/NAME/export.json ({"inputs": [...], "outputs": [...], "errors": {...}}).
An architecture whose export fails is recorded with the exporter's first
error line, not retried.
"""
import argparse
import json
import os
import sys
import traceback

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from architectures import ARCHITECTURES  # noqa: E402


def first_line(error):
    lines = [line for line in str(error).splitlines() if line.strip()]
    return (lines[0] if lines else type(error).__name__)[:300]


def export_one(name, out, opsets):
    folder = os.path.join(out, name)
    os.makedirs(folder, exist_ok=True)
    record = {"errors": {}, "opsets": opsets}
    try:
        model, inputs, axes = ARCHITECTURES[name]()
    except Exception as error:  # noqa: BLE001 - any build failure is recorded
        record["errors"]["build"] = first_line(error)
        return record
    model.eval()
    names = list(inputs)
    record["inputs"] = [{"name": n, "shape": list(inputs[n].shape), "dtype": str(inputs[n].dtype)}
                        for n in names]
    for k, n in enumerate(names):
        np.save(os.path.join(folder, f"input_{k}.npy"), inputs[n])
    args = tuple(torch.from_numpy(inputs[n]) for n in names)
    with torch.inference_mode(False):
        outputs = model(*args)
    count = len(outputs) if isinstance(outputs, (tuple, list)) else 1
    record["outputs"] = [f"out{i}" for i in range(count)]
    for opset in opsets:
        for kind in ("static", "dynamic"):
            path = os.path.join(folder, f"opset{opset}_{kind}.onnx")
            dynamic = {n: a for n, a in axes.items()} if kind == "dynamic" else None
            try:
                # Grad stays enabled: torch 1.13's eval-mode transformer fast
                # path has no ONNX export.
                torch.onnx.export(model, args, path, input_names=names,
                                  output_names=record["outputs"], opset_version=opset,
                                  dynamic_axes=dynamic, do_constant_folding=True)
            except Exception as error:  # noqa: BLE001
                record["errors"][f"opset{opset}_{kind}"] = first_line(error)
                if os.path.exists(path):
                    os.remove(path)
    return record


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", required=True)
    parser.add_argument("--only", default="")
    parser.add_argument("--opsets", default="13,17")
    args = parser.parse_args()
    names = [n for n in args.only.split(",") if n] or list(ARCHITECTURES)
    unknown = [n for n in names if n not in ARCHITECTURES]
    if unknown:
        sys.exit(f"unknown architectures: {', '.join(unknown)}")
    opsets = [int(o) for o in args.opsets.split(",")]
    torch.set_num_threads(1)
    for name in names:
        marker = os.path.join(args.out, name, "export.json")
        if os.path.exists(marker):
            with open(marker) as f:
                done = json.load(f)
            if "inputs" not in done or set(opsets) <= set(done.get("opsets", [])):
                continue
        try:
            record = export_one(name, args.out, opsets)
        except Exception as error:  # noqa: BLE001
            traceback.print_exc()
            record = {"errors": {"export": first_line(error)}}
        with open(marker, "w") as f:
            json.dump(record, f, indent=1)
        print(f"exported {name}: {len(record['errors'])} error(s)", flush=True)


if __name__ == "__main__":
    main()
