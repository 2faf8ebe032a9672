"""Real-weight models that PyPI wheels ship, for the zoo, in their float
form and in the two forms onnxruntime's quantizer makes of them.

The PP-OCR detector, recognizer and direction classifier come from the
rapidocr-onnxruntime wheel (fetched by test/bench/compare.py's ensure_ocr).
For each, besides the float model:
  - `_qdynamic`: onnxruntime.quantization.quantize_dynamic (u8 weights;
    DynamicQuantizeLinear feeding ConvInteger and MatMulInteger), after the
    quantizer's own pre-processing (quant_pre_process: its quantizer needs
    the weights as initializers);
  - `_qstatic`: quantize_static in QDQ form (per-tensor u8 activations, s8
    weights), calibrated with min/max on four rendered text images.
Inputs are pages or lines of printed text rendered with Pillow
(test/e2e/ocr_dynamic.py's text_image), normalized as PaddleOCR does; noise
would leave a detector's output all background.

Each model is written to a folder laid out like export.py's (export.json,
input_0.npy, opset<N>_static.onnx and opset<N>_dynamic.onnx, N being the
model's own opset: the same file, compiled with --shape for the static
kind and with its dynamic dims for the dynamic one), cached under the
cache folder by this script's hash.
"""
import hashlib
import json
import os
import sys

import numpy as np
import onnx

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "test", "e2e"))
sys.path.insert(0, os.path.join(ROOT, "test", "bench"))

# name -> (file in the wheel, input shape run, text_image's kind).
FLOAT = {
    "ppocr_det": ("ch_PP-OCRv4_det_infer.onnx", (1, 3, 320, 320), "ppocr_det"),
    "ppocr_rec": ("ch_PP-OCRv4_rec_infer.onnx", (1, 3, 48, 320), "ppocr_rec"),
    "ppocr_cls": ("ch_ppocr_mobile_v2.0_cls_infer.onnx", (1, 3, 48, 192), "ppocr_cls"),
}
FORMS = ("", "_qdynamic", "_qstatic")
NAMES = [base + form for base in FLOAT for form in FORMS]
SOURCE = "rapidocr-onnxruntime 1.4.4 wheel (PP-OCR, real weights)"


def scripts_hash():
    digest = hashlib.sha256()
    for name in ("wheels.py", os.path.join("..", "e2e", "ocr_dynamic.py")):
        with open(os.path.join(HERE, name), "rb") as f:
            digest.update(f.read())
    return digest.hexdigest()[:16]


def _quantized(form, src, dst, shape, kind, rng):
    from onnxruntime.quantization import (CalibrationDataReader, QuantFormat, QuantType,
                                          quantize_dynamic, quantize_static)
    from onnxruntime.quantization.shape_inference import quant_pre_process
    from ocr_dynamic import text_image

    pre = dst + ".pre.onnx"
    quant_pre_process(src, pre, skip_symbolic_shape=True)
    if form == "_qdynamic":
        quantize_dynamic(pre, dst, weight_type=QuantType.QUInt8)
    else:
        name = onnx.load(pre).graph.input[0].name

        class Pages(CalibrationDataReader):
            def __init__(self):
                self.left = [text_image(rng, shape, kind) for _ in range(4)]

            def get_next(self):
                return {name: self.left.pop()} if self.left else None

        quantize_static(pre, dst, Pages(), quant_format=QuantFormat.QDQ,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8)
    os.remove(pre)


def prepare(cache):
    """Writes what the cache lacks; returns {name: folder}. A model that
    cannot be made records the error in its export.json."""
    from compare import ensure_ocr
    from ocr_dynamic import text_image

    root = os.path.join(cache, "wheels-" + scripts_hash())
    folders = {n: os.path.join(root, n) for n in NAMES}
    if all(os.path.exists(os.path.join(f, "export.json")) for f in folders.values()):
        return folders
    models = ensure_ocr(os.path.join(cache, "ocr-models"))
    for base, (file, shape, kind) in FLOAT.items():
        src = os.path.join(models, file)
        for form in FORMS:
            folder = folders[base + form]
            os.makedirs(folder, exist_ok=True)
            rng = np.random.default_rng(17)
            record = {"errors": {}, "source": SOURCE}
            try:
                opset = next(o.version for o in onnx.load(src).opset_import
                             if o.domain in ("", "ai.onnx"))
                path = os.path.join(folder, f"opset{opset}_dynamic.onnx")
                if form:
                    _quantized(form, src, path, shape, kind, rng)
                else:
                    onnx.save(onnx.load(src), path)
                os.link(path, os.path.join(folder, f"opset{opset}_static.onnx"))
                name = onnx.load(path).graph.input[0].name
                np.save(os.path.join(folder, "input_0.npy"), text_image(rng, shape, kind))
                record.update(opsets=[opset], outputs=[],
                              inputs=[{"name": name, "shape": list(shape), "dtype": "float32"}])
                if form:
                    # The float model the quantized one approximates, on
                    # the same input (run_zoo.py's accuracy check).
                    record["float_model"] = os.path.join(
                        "..", base, f"opset{opset}_static.onnx")
            except Exception as error:  # noqa: BLE001
                record["errors"] = {"static": str(error), "dynamic": str(error)}
            with open(os.path.join(folder, "export.json"), "w") as f:
                json.dump(record, f, indent=1)
    return folders
