#!/usr/bin/env python3
"""Linear and cubic Resize by whole factors, against ONNX Runtime.

Those that grow spatial axes by whole factors with a coordinate
transformation periodic in the output index (half_pixel,
pytorch_half_pixel, half_pixel_symmetric, asymmetric) are lowered as one
depthwise convolution per phase over the input padded with its edge
values (passes/lowering/tensor/PhasedResize.cpp). Each case here is one
Resize (or one between convolutions, as in a feature pyramid), over
sizes that are not multiples of a vector, compared with ONNX Runtime on
the same input: factors 2, 3, 4 and mixed, one axis only, 1-D, 2-D and
3-D, scales and sizes, cubic coefficients -0.75 and -0.5, and the forms
left to the general lowering beside them (align_corners, cubic with
exclude_outside, a factor of 1.5).

Usage: resize_phases.py --infer-compile BIN --infer-run BIN --work DIR
"""
import os
import sys

import numpy as np
import onnxruntime as ort
from onnx import TensorProto, helper

from test_data import compile_model, make_model, parse_args, run, write_set

F = TensorProto.FLOAT


def resize_case(label, shape, factors, mode, ctm, extra=None, sizes=False, opset=13):
    """One Resize of a [shape] input by `factors` (one per axis)."""
    out = [int(round(n * f)) for n, f in zip(shape, factors)]
    inits = []
    if sizes:
        inputs = ["x", "", "", "sizes"]
        inits.append(helper.make_tensor("sizes", TensorProto.INT64, [len(out)], out))
    else:
        inputs = ["x", "", "scales"]
        inits.append(helper.make_tensor("scales", F, [len(factors)],
                                        np.array(factors, np.float32)))
    node = helper.make_node("Resize", inputs, ["y"], mode=mode,
                            coordinate_transformation_mode=ctm, **(extra or {}))
    info = helper.make_tensor_value_info
    graph = helper.make_graph([node], label, [info("x", F, shape)], [info("y", F, out)], inits)
    return label, make_model(graph, opset), shape


def pyramid_case(rng):
    """A feature pyramid's top-down step: a 1x1 convolution, a bilinear x2
    Resize of a coarser level, their sum, a 3x3 convolution."""
    info = helper.make_tensor_value_info
    c = 16
    w1 = rng.standard_normal((c, c, 1, 1)) / 4
    w3 = rng.standard_normal((c, c, 3, 3)) / 12
    inits = [helper.make_tensor("w1", F, w1.shape, w1.astype(np.float32).ravel()),
             helper.make_tensor("w3", F, w3.shape, w3.astype(np.float32).ravel()),
             helper.make_tensor("scales", F, [4], np.array([1, 1, 2, 2], np.float32))]
    nodes = [helper.make_node("Conv", ["fine", "w1"], ["lateral"]),
             helper.make_node("Resize", ["coarse", "", "scales"], ["up"], mode="linear",
                              coordinate_transformation_mode="half_pixel"),
             helper.make_node("Add", ["lateral", "up"], ["sum"]),
             helper.make_node("Conv", ["sum", "w3"], ["y"], pads=[1, 1, 1, 1])]
    graph = helper.make_graph(nodes, "pyramid",
                              [info("fine", F, [1, c, 26, 18]), info("coarse", F, [1, c, 13, 9])],
                              [info("y", F, [1, c, 26, 18])], inits)
    return "pyramid", make_model(graph, 13), None


def main():
    args = parse_args(__doc__)
    rng = np.random.default_rng(5)
    cubic = {"cubic_coeff_a": -0.75}
    cases = [
        resize_case("linear_x2_half_pixel", [1, 8, 7, 9], [1, 1, 2, 2], "linear", "half_pixel"),
        resize_case("linear_x2_sizes", [1, 8, 7, 9], [1, 1, 2, 2], "linear",
                    "pytorch_half_pixel", sizes=True),
        resize_case("linear_x3_asymmetric", [1, 4, 5, 6], [1, 1, 3, 3], "linear", "asymmetric"),
        resize_case("linear_x4_half_pixel", [2, 3, 5, 5], [1, 1, 4, 4], "linear", "half_pixel"),
        resize_case("linear_x2x3", [1, 5, 6, 4], [1, 1, 2, 3], "linear", "pytorch_half_pixel"),
        resize_case("linear_height_only", [1, 4, 6, 7], [1, 1, 2, 1], "linear", "half_pixel"),
        resize_case("linear_symmetric", [1, 3, 5, 7], [1, 1, 2, 2], "linear",
                    "half_pixel_symmetric", opset=19),
        resize_case("linear_1d", [1, 6, 11], [1, 1, 2], "linear", "half_pixel"),
        resize_case("linear_3d", [1, 2, 3, 4, 5], [1, 1, 2, 2, 2], "linear", "half_pixel"),
        resize_case("cubic_x2_half_pixel", [1, 4, 7, 9], [1, 1, 2, 2], "cubic", "half_pixel",
                    cubic),
        resize_case("cubic_x3_pytorch", [1, 2, 6, 5], [1, 1, 3, 3], "cubic",
                    "pytorch_half_pixel", {"cubic_coeff_a": -0.5}),
        resize_case("cubic_x2_asymmetric", [1, 3, 5, 8], [1, 1, 2, 2], "cubic", "asymmetric",
                    cubic),
        # The general form: not periodic, excluded taps, not a whole factor.
        resize_case("linear_align_corners", [1, 3, 5, 7], [1, 1, 2, 2], "linear",
                    "align_corners"),
        resize_case("cubic_exclude_outside", [1, 3, 5, 7], [1, 1, 2, 2], "cubic", "half_pixel",
                    {"exclude_outside": 1}),
        resize_case("linear_x1_5", [1, 3, 6, 8], [1, 1, 1.5, 1.5], "linear", "half_pixel"),
        pyramid_case(rng),
    ]
    for label, model, shape in cases:
        feeds = {i.name: rng.uniform(-2, 2, [d.dim_value for d in i.type.tensor_type.shape.dim])
                 .astype(np.float32) for i in model.graph.input}
        work, library = compile_model(args, model, label, symbol="m")
        session = ort.InferenceSession(model.SerializeToString(),
                                       providers=["CPUExecutionProvider"])
        data = os.path.join(work, "data")
        write_set(data, model, feeds, session.run(None, feeds))
        proc = run([args.infer_run, library, "--test-data", data])
        if proc.returncode != 0:
            sys.exit(f"FAIL: {label}:\n{proc.stdout}{proc.stderr}")
        print(f"ok {label} matches ONNX Runtime")
    print(f"{len(cases)} passed, 0 failed")


if __name__ == "__main__":
    main()
