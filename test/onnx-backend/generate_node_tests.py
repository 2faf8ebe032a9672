#!/usr/bin/env python3
"""Writes the ONNX node backend tests of the installed `onnx` wheel to a folder.

The `onnx` wheel (1.23) carries its node tests as Python cases, not files;
this turns them into the usual layout (<out>/<test>/model.onnx and
test_data_set_N/{input,output}_N.pb) so the same suite runner reads them.
Usage: generate_node_tests.py OUT_DIR
"""
import os
import shutil
import sys

import onnx
from onnx import numpy_helper
from onnx.backend.test.case import node


def write_value(path, value, value_info):
    kind = value_info.type.WhichOneof("value")
    if isinstance(value, onnx.TensorProto):  # cases that build their protos
        proto = onnx.TensorProto()
        proto.CopyFrom(value)
        proto.name = value_info.name
    elif kind == "sequence_type":
        proto = numpy_helper.from_list(value, value_info.name)
    elif kind == "optional_type":
        proto = numpy_helper.from_optional(value, value_info.name)
    else:
        proto = numpy_helper.from_array(value, value_info.name)
    with open(path, "wb") as f:
        f.write(proto.SerializeToString())


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    cases = node.collect_testcases()
    written = 0
    for case in cases:
        if case.model is None or not case.data_sets:
            continue
        case_dir = os.path.join(out, case.name)
        if os.path.exists(case_dir):
            shutil.rmtree(case_dir)
        os.makedirs(case_dir)
        with open(os.path.join(case_dir, "model.onnx"), "wb") as f:
            f.write(case.model.SerializeToString())
        graph = case.model.graph
        for i, (inputs, outputs) in enumerate(case.data_sets):
            data_dir = os.path.join(case_dir, f"test_data_set_{i}")
            os.makedirs(data_dir)
            try:
                for j, value in enumerate(inputs):
                    write_value(os.path.join(data_dir, f"input_{j}.pb"), value,
                                graph.input[j])
                for j, value in enumerate(outputs):
                    write_value(os.path.join(data_dir, f"output_{j}.pb"), value,
                                graph.output[j])
            except Exception as error:  # noqa: BLE001 - data is optional here
                print(f"note: {case.name}: test data not written: {error}",
                      file=sys.stderr)
        written += 1
    print(f"wrote {written} node tests from onnx {onnx.__version__} to {out}")


if __name__ == "__main__":
    main()
