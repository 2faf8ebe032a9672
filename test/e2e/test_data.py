"""Writes ONNX test-data directories (what infer-run --test-data reads)."""
import os

import numpy as np
from onnx import numpy_helper


def write_set(directory, model, feeds, expected=None):
    """`directory`/input_K.pb for each graph input of `model` from `feeds`
    (by name), and output_K.pb for each value of `expected` (in output
    order), when given."""
    os.makedirs(directory)
    for i, graph_input in enumerate(model.graph.input):
        tensor = numpy_helper.from_array(np.asarray(feeds[graph_input.name]), graph_input.name)
        with open(os.path.join(directory, f"input_{i}.pb"), "wb") as f:
            f.write(tensor.SerializeToString())
    for i, value in enumerate(expected or []):
        tensor = numpy_helper.from_array(np.asarray(value), model.graph.output[i].name)
        with open(os.path.join(directory, f"output_{i}.pb"), "wb") as f:
            f.write(tensor.SerializeToString())
