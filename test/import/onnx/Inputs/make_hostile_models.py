"""Writes the hostile models of hostile-files.test into DIR.

DIR/model/ holds the models and the files they name; DIR/outside/ holds a
file no model may read. Each model's initializer W (float[4]) is stored as
external data: located where each case says.

Usage: make_hostile_models.py DIR
"""

import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper


def model_with_weights(location, offset=None, length=None, extra=None):
    weights = TensorProto()
    weights.name = "W"
    weights.data_type = TensorProto.FLOAT
    weights.dims.extend([4])
    weights.data_location = TensorProto.EXTERNAL
    entries = [("location", location)]
    if offset is not None:
        entries.append(("offset", str(offset)))
    if length is not None:
        entries.append(("length", str(length)))
    for key, value in entries + list(extra or []):
        entry = weights.external_data.add()
        entry.key, entry.value = key, value
    graph = helper.make_graph(
        [helper.make_node("Add", ["X", "W"], ["Y"], name="add")], "g",
        [helper.make_tensor_value_info("X", TensorProto.FLOAT, [4])],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [4])],
        initializer=[weights])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                             ir_version=8)


def relu_model(input_dims=(2,), node_name="relu", output_name="Y"):
    graph = helper.make_graph(
        [helper.make_node("Relu", ["X"], [output_name], name=node_name)], "g",
        [helper.make_tensor_value_info("X", TensorProto.FLOAT, list(input_dims))],
        [helper.make_tensor_value_info(output_name, TensorProto.FLOAT, [2])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                             ir_version=8)


def mismatched_add(node_name):
    """An Add of float and int64: an error whose location names the node."""
    graph = helper.make_graph(
        [helper.make_node("Add", ["X", "Z"], ["Y"], name=node_name)], "g",
        [helper.make_tensor_value_info("X", TensorProto.FLOAT, [2]),
         helper.make_tensor_value_info("Z", TensorProto.INT64, [2])],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [2])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                             ir_version=8)


def main():
    root = sys.argv[1]
    models = os.path.join(root, "model")
    outside = os.path.join(root, "outside")
    os.makedirs(os.path.join(models, "sub", "dir"), exist_ok=True)
    os.makedirs(outside, exist_ok=True)
    values = np.arange(4, dtype=np.float32) + 1
    values.tofile(os.path.join(models, "w.bin"))
    values.tofile(os.path.join(models, "sub", "w.bin"))
    # The secret: 16 bytes, so a read that escaped would import cleanly.
    np.full(4, 42, dtype=np.float32).tofile(os.path.join(outside, "secret.bin"))
    os.symlink(os.path.join("..", "outside", "secret.bin"),
               os.path.join(models, "escape.bin"))
    os.symlink("w.bin", os.path.join(models, "alias.bin"))
    os.mkfifo(os.path.join(models, "pipe"))

    cases = {
        "inside": model_with_weights("w.bin"),
        "inside-subdir": model_with_weights("sub/w.bin", offset=0, length=16),
        "inside-symlink": model_with_weights("alias.bin"),
        "dotdot": model_with_weights("../outside/secret.bin"),
        "dotdot-inside": model_with_weights("sub/../w.bin"),
        "absolute": model_with_weights(os.path.abspath(
            os.path.join(outside, "secret.bin"))),
        "symlink-out": model_with_weights("escape.bin"),
        "fifo": model_with_weights("pipe"),
        "directory": model_with_weights("sub/dir"),
        "huge-length": model_with_weights("w.bin", offset=0,
                                          length=9223372036854775000),
        "huge-offset": model_with_weights("w.bin", offset=9223372036854775807,
                                          length=16),
        "negative-offset": model_with_weights("w.bin", offset=-5),
        "short": model_with_weights("w.bin", offset=4),
        "missing": model_with_weights("nothing-here.bin"),
        "negative-dim": relu_model(input_dims=(-5, 2)),
        "newline-name": mismatched_add("evil\nmodel.onnx: error: forged"),
    }
    for name, model in cases.items():
        with open(os.path.join(models, name + ".onnx"), "wb") as f:
            f.write(model.SerializeToString())


if __name__ == "__main__":
    main()
