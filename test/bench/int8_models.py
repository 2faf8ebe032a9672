"""The int8 models compare.py times: float models quantized here with ONNX
Runtime's quantize_static (QDQ format, per-channel symmetric s8 weights, u8
activations, min-max calibration) on a calibration set of 16 inputs drawn
like the benchmark's own (uniform [0,1) images, seed 7; the timed input is
drawn apart). Models older than opset 13 are converted to 13 first (per-
channel DequantizeLinear needs it), and their input dims fixed to the
benchmark's shape. Written into --models as NAME.onnx once, reused after.

transformer_encoder_int8_dyn is the float encoder quantized by
quantize_dynamic instead (s8 weights, DynamicQuantizeLinear + MatMulInteger
for every MatMul with a constant side; no calibration): the form of
quantized transformers. Its outputs are hidden states, not classes, so it
is checked by SQNR against ORT's run of the same file (sqnr_check).

Checking: quantized intermediates may round a step apart from ORT's fused
integer kernels (ORT's own optimized and unoptimized runs of PP-OCRv4 rec
int8 differ in 283 of 265,000 outputs), so an int8 model that does not
match ORT exactly is checked for the same top-1 class at every position of
its last axis instead (top1_check).
"""
import os
import subprocess

import numpy as np

# int8 name -> (folder of the float model: "models" or "ocr", its file,
# input name, shape).
INT8_MODELS = {
    "resnet18_int8": ("models", "resnet18.onnx", "input", [1, 3, 224, 224]),
    "ppocr_rec_int8": ("ocr", "ch_PP-OCRv4_rec_infer.onnx", "x", [1, 3, 48, 320]),
    "transformer_encoder_int8_dyn": ("models", "transformer_encoder.onnx", "x",
                                     [1, 128, 384]),
}

# Rows quantized by quantize_dynamic (no calibration), checked by SQNR.
DYNAMIC = {"transformer_encoder_int8_dyn"}
# The least SQNR against ORT's output of the same quantized model that
# sqnr_check accepts (each rounds its own activations' scales).
MIN_SQNR_DB = 30.0


# Rows whose model infer quantizes itself (--quantize=int8) from the float
# model of an INT8_MODELS row, on the same calibration inputs; ORT and
# OpenVINO run that row's quantize_static model.
INFER_QUANTIZED = {"resnet18_int8_infer": "resnet18_int8",
                   "ppocr_rec_int8_infer": "ppocr_rec_int8"}


def calibration_inputs(shape, count=16, seed=7):
    """The calibration set both quantizers use: `count` uniform [0, 1)
    images (the benchmark's own input is drawn apart, from seed 0)."""
    rng = np.random.default_rng(seed)
    return [rng.random(shape, dtype=np.float32) for _ in range(count)]


def infer_quantize_args(name, folders):
    """(float model, infer-compile flags) for an INFER_QUANTIZED row, with
    the calibration inputs written as DIR/set_K/INPUT.npy; None for other
    rows."""
    if name not in INFER_QUANTIZED:
        return None
    folder, source, input_name, shape = INT8_MODELS[INFER_QUANTIZED[name]]
    calibration = os.path.join(folders["models"], name + "_calibration")
    for k, x in enumerate(calibration_inputs(shape)):
        os.makedirs(os.path.join(calibration, f"set_{k:02d}"), exist_ok=True)
        np.save(os.path.join(calibration, f"set_{k:02d}", input_name + ".npy"), x)
    return (os.path.join(folders[folder], source),
            ["--quantize=int8", "--calibration=" + calibration])


def ensure_int8(name, folders):
    """Makes `name`'s quantized model in folders["models"] from the float
    one if missing (nothing when the float model is missing)."""
    import onnx
    from onnx import version_converter
    from onnxruntime.quantization import (CalibrationDataReader, QuantFormat, QuantType,
                                          quantize_dynamic, quantize_static)
    from onnxruntime.quantization.shape_inference import quant_pre_process

    folder, source, input_name, shape = INT8_MODELS[name]
    source = os.path.join(folders[folder], source)
    target = os.path.join(folders["models"], name + ".onnx")
    if os.path.exists(target) or not os.path.exists(source):
        return

    class Images(CalibrationDataReader):
        def __init__(self):
            self.sets = iter([{input_name: x} for x in calibration_inputs(shape)])

        def get_next(self):
            return next(self.sets, None)

    prepared = target + ".prepared.onnx"
    quant_pre_process(source, prepared, skip_symbolic_shape=True)
    model = onnx.load(prepared)
    for graph_input in model.graph.input:
        if graph_input.name == input_name:
            for dim, size in zip(graph_input.type.tensor_type.shape.dim, shape):
                dim.ClearField("dim_param")
                dim.dim_value = size
    opset = next(o.version for o in model.opset_import if o.domain in ("", "ai.onnx"))
    if opset < 13:
        model = version_converter.convert_version(model, 13)
    onnx.save(model, prepared)
    if name in DYNAMIC:
        quantize_dynamic(prepared, target, weight_type=QuantType.QInt8)
        os.remove(prepared)
        return
    quantize_static(prepared, target, Images(), quant_format=QuantFormat.QDQ,
                    per_channel=True, activation_type=QuantType.QUInt8,
                    weight_type=QuantType.QInt8)
    os.remove(prepared)


def top1_check(infer_run, library, name, data, expected, out_dir):
    """Runs `library` on the test_data_set `data` and compares each output
    with ORT's `expected` by its top-1 index along the last axis. Returns
    (every position agrees, a one-line summary)."""
    subprocess.run([infer_run, library, "--name", name, "--test-data", data,
                    "--save-outputs", out_dir, "--force"], capture_output=True, text=True)
    agree, worst = [], 0.0
    for value in expected:
        files = sorted(f for f in os.listdir(out_dir) if f.endswith(".npy"))
        got = [np.load(os.path.join(out_dir, f)) for f in files]
        match = next((g for g in got if g.shape == np.shape(value)), None)
        if match is None:
            return False, "an output is missing"
        value = np.asarray(value)
        agree.append(float(np.mean(match.argmax(-1) == value.argmax(-1))))
        worst = max(worst, float(np.max(np.abs(match.astype(np.float64) - value))))
    ok = all(a == 1.0 for a in agree)
    return ok, (f"top-1 agreement {min(agree):.1%} at every position, "
                f"max |infer - ORT| {worst:.3g}")


def sqnr_check(infer_run, library, name, data, expected, out_dir):
    """Runs `library` on the test_data_set `data` and compares each output
    with ORT's `expected` by its signal-to-quantization-noise ratio. Returns
    (every output at MIN_SQNR_DB or more, a one-line summary)."""
    subprocess.run([infer_run, library, "--name", name, "--test-data", data,
                    "--save-outputs", out_dir, "--force"], capture_output=True, text=True)
    files = sorted(f for f in os.listdir(out_dir) if f.endswith(".npy"))
    got = [np.load(os.path.join(out_dir, f)) for f in files]
    worst, error = np.inf, 0.0
    for value in expected:
        value = np.asarray(value, dtype=np.float64)
        match = next((g for g in got if g.shape == value.shape), None)
        if match is None:
            return False, "an output is missing"
        noise = np.sum((match.astype(np.float64) - value) ** 2)
        worst = min(worst, 10 * np.log10(np.sum(value ** 2) / noise) if noise else np.inf)
        error = max(error, float(np.max(np.abs(match - value))))
    return bool(worst >= MIN_SQNR_DB), (f"SQNR {worst:.1f} dB against ORT's int8 (at least "
                                  f"{MIN_SQNR_DB:.0f} wanted), max |infer - ORT| {error:.3g}")
