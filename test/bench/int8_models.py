"""The int8 models compare.py times: float models quantized here with ONNX
Runtime's quantize_static (QDQ format, per-channel symmetric s8 weights, u8
activations, min-max calibration) on a calibration set of 16 inputs drawn
like the benchmark's own (uniform [0,1) images, seed 7; the timed input is
drawn apart, seed 0). Written next to the float model as NAME_int8.onnx
once, reused after.
"""
import os

import numpy as np

# int8 name -> (float model file in --models, input name, shape).
INT8_MODELS = {
    "resnet18_int8": ("resnet18.onnx", "input", [1, 3, 224, 224]),
}


def ensure_int8(name, models_dir):
    """The path of `name`'s quantized model, made from the float one if
    missing (None when the float model is missing)."""
    source, input_name, shape = INT8_MODELS[name]
    source = os.path.join(models_dir, source)
    target = os.path.join(models_dir, name + ".onnx")
    if os.path.exists(target) or not os.path.exists(source):
        return target
    from onnxruntime.quantization import (CalibrationDataReader, QuantFormat, QuantType,
                                          quantize_static)
    from onnxruntime.quantization.shape_inference import quant_pre_process

    class Images(CalibrationDataReader):
        def __init__(self):
            rng = np.random.default_rng(7)
            self.sets = iter([{input_name: rng.random(shape, dtype=np.float32)}
                              for _ in range(16)])

        def get_next(self):
            return next(self.sets, None)

    prepared = target + ".prepared.onnx"
    quant_pre_process(source, prepared, skip_symbolic_shape=True)
    quantize_static(prepared, target, Images(), quant_format=QuantFormat.QDQ,
                    per_channel=True, activation_type=QuantType.QUInt8,
                    weight_type=QuantType.QInt8)
    os.remove(prepared)
    return target
