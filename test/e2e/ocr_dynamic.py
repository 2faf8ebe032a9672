#!/usr/bin/env python3
"""PaddleOCR's real models with run-time image sizes, against ONNX Runtime.

The PP-OCRv4 text detector (input x: [?, 3, ?, ?]: Conv, ConvTranspose,
Resize, Concat over height and width), the PP-OCRv4 recognizer ([?, 3, 48,
?]: a line of any width) and the mobile v2 direction classifier ship with
real weights in the PyPI wheel rapidocr-onnxruntime 1.4.4 (fetched with
the venv's pip into --ocr when missing). Each is compiled once to the
generic variant with a --shape-profile and run at several sizes inside it,
on text images rendered with Pillow (printed words on a light page,
normalized as PaddleOCR does), and compared with ONNX Runtime on the same
input (rtol 1e-3, atol 1e-4 of the largest expected magnitude). A size
outside the profile must be refused.

Usage: ocr_dynamic.py --infer-compile BIN --infer-run BIN --ocr DIR --work DIR
"""
import argparse
import os
import shutil
import subprocess
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import numpy_helper
from PIL import Image, ImageDraw, ImageFont

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench"))
from compare import MODELS, ensure_ocr  # noqa: E402

# name -> (profile min:opt:max, sizes run, a size outside the profile).
CASES = {
    "ppocr_det": ("1x3x160x160:1x3x640x640:1x3x960x960",
                  [(1, 3, 320, 320), (1, 3, 480, 640), (1, 3, 160, 224)], (1, 3, 992, 320)),
    "ppocr_rec": ("1x3x48x32:1x3x48x320:4x3x48x960", [(1, 3, 48, 320), (2, 3, 48, 120)],
                  (1, 3, 48, 1000)),
    "ppocr_cls": ("1x3x48x48:1x3x48x192:4x3x48x480", [(1, 3, 48, 192), (3, 3, 48, 100)],
                  (1, 3, 48, 500)),
}


WORDS = ("infer compiles models ahead of time into native code for CPUs GPUs "
         "and FPGAs 0123456789 invoice total amount date ORDER No. 42 street").split()


def text_image(rng, shape, name):
    """Pages of printed words (Pillow's built-in font, random sizes and
    positions, dark on a light page with a little noise), normalized as
    PaddleOCR does: ImageNet mean and std for the detector, (v - 0.5) / 0.5
    for the recognizer and classifier."""
    n, _, h, w = shape
    pages = []
    for _ in range(n):
        page = Image.new("L", (w, h), int(rng.integers(200, 250)))
        draw = ImageDraw.Draw(page)
        if name == "ppocr_det":
            y = int(rng.integers(4, 20))
            while y < h - 16:
                size = int(rng.integers(14, 32))
                text = " ".join(rng.choice(WORDS, int(rng.integers(2, 6))))
                draw.text((int(rng.integers(4, max(5, w // 3))), y), text,
                          fill=int(rng.integers(0, 60)),
                          font=ImageFont.load_default(size=size))
                y += size + int(rng.integers(8, 40))
        else:
            text = " ".join(rng.choice(WORDS, 8))
            draw.text((2, 6), text, fill=int(rng.integers(0, 60)),
                      font=ImageFont.load_default(size=32))
        pages.append(np.asarray(page, np.float64) + rng.normal(0, 3, (h, w)))
    image = np.repeat(np.stack(pages)[:, None], 3, axis=1).clip(0, 255) / 255.0
    if name == "ppocr_det":
        mean = np.array([0.485, 0.456, 0.406]).reshape(1, 3, 1, 1)
        std = np.array([0.229, 0.224, 0.225]).reshape(1, 3, 1, 1)
        return ((image - mean) / std).astype(np.float32)
    return ((image - 0.5) / 0.5).astype(np.float32)


def write_set(folder, x, expected=(), names=()):
    """A test_data_set: input x, and each expected output under its name."""
    os.makedirs(folder)
    with open(os.path.join(folder, "input_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(x, "x").SerializeToString())
    for k, (value, name) in enumerate(zip(expected, names)):
        with open(os.path.join(folder, f"output_{k}.pb"), "wb") as f:
            f.write(numpy_helper.from_array(value, name).SerializeToString())


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    for flag in ("--infer-compile", "--infer-run", "--ocr", "--work"):
        parser.add_argument(flag, required=True)
    args = parser.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    folder = ensure_ocr(args.ocr)
    rng = np.random.default_rng(5)
    passed = 0
    for name, (profile, sizes, outside) in CASES.items():
        path = os.path.join(folder, MODELS[name][1])
        if not os.path.exists(path):
            sys.exit(f"FAIL: {path} is missing (pip download of the wheel failed?)")
        out = os.path.join(args.work, name)
        proc = subprocess.run([args.infer_compile, path, "-o", out, "--name", "m",
                               "--shape-profile", f"x={profile}"],
                              capture_output=True, text=True, timeout=1200)
        if proc.returncode != 0:
            sys.exit(f"FAIL: compile {name} with --shape-profile x={profile}:\n{proc.stderr}")
        library = os.path.join(out, "m.so")
        session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
        for shape in sizes:
            x = text_image(rng, shape, name)
            expected = [np.asarray(v) for v in session.run(None, {"x": x})]
            scale = max(float(np.max(np.abs(v))) for v in expected)
            label = f"{name}_{'x'.join(map(str, shape))}"
            data = os.path.join(args.work, label)
            write_set(data, x, expected, [o.name for o in session.get_outputs()])
            proc = subprocess.run([args.infer_run, library, "--test-data", data,
                                   "--rtol", "1e-3", "--atol", f"{1e-4 * scale + 1e-6:.3g}"],
                                  capture_output=True, text=True, timeout=600)
            if proc.returncode != 0:
                sys.exit(f"FAIL: {label}:\n{proc.stdout}{proc.stderr}")
            shapes = ", ".join("x".join(map(str, v.shape)) for v in expected)
            print(f"ok {label}: outputs {shapes} match ONNX Runtime (largest {scale:.3g})")
            passed += 1
        label = f"{name}_outside_{'x'.join(map(str, outside))}"
        data = os.path.join(args.work, label)
        write_set(data, text_image(rng, outside, name))
        proc = subprocess.run([args.infer_run, library, "--test-data", data],
                              capture_output=True, text=True, timeout=600)
        if proc.returncode != 1 or "outside the range" not in proc.stdout + proc.stderr:
            sys.exit(f"FAIL: {label} should be refused as outside the profile, got exit "
                     f"{proc.returncode}:\n{proc.stdout}{proc.stderr}")
        print(f"ok {label}: refused, outside the profile")
        passed += 1
    print(f"{passed} passed, 0 failed")


if __name__ == "__main__":
    main()
