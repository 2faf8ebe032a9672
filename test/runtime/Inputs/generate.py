"""Regenerates the checked-in test data for tools_test.sh.

Run with the project venv (onnx + numpy):
    .venv/bin/python test/runtime/Inputs/generate.py
The files are tiny ONNX TensorProto (.pb) and NumPy (.npy) files for the
hand-written models in test/runtime/fake_model.c.
"""

import os

import numpy as np
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))


def write_pb(path, tensor):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(tensor.SerializeToString())


def raw(array, name):
    """A TensorProto with the data in raw_data."""
    return numpy_helper.from_array(array, name)


def typed(array, name, dtype):
    """A TensorProto with the data in the typed field (float_data, ...)."""
    return helper.make_tensor(name, dtype, array.shape, array.flatten().tolist(),
                              raw=False)


def main():
    a = np.arange(6, dtype=np.float32).reshape(2, 3) * 0.5 - 1.0
    b = np.array([[0.25, 1e-3, -2.0], [3.5, -0.125, 100.0]], dtype=np.float32)
    add = os.path.join(HERE, "add")
    # fake_model: sum = a + b, data in raw_data.
    s0 = os.path.join(add, "test_data_set_0")
    write_pb(f"{s0}/input_0.pb", raw(a, "a"))
    write_pb(f"{s0}/input_1.pb", raw(b, "b"))
    write_pb(f"{s0}/output_0.pb", raw(a + b, "sum"))
    # The same model, data in float_data, other values.
    s1 = os.path.join(add, "test_data_set_1")
    c = np.full((2, 3), 7.0, dtype=np.float32)
    write_pb(f"{s1}/input_0.pb", typed(b, "a", TensorProto.FLOAT))
    write_pb(f"{s1}/input_1.pb", typed(c, "b", TensorProto.FLOAT))
    write_pb(f"{s1}/output_0.pb", typed(b + c, "sum", TensorProto.FLOAT))
    # Wrong expected values: element [1,2] off by 0.5.
    wrong = os.path.join(add, "wrong_values")
    expected = a + b
    expected[1, 2] += 0.5
    write_pb(f"{wrong}/input_0.pb", raw(a, "a"))
    write_pb(f"{wrong}/input_1.pb", raw(b, "b"))
    write_pb(f"{wrong}/output_0.pb", raw(expected, "sum"))
    # input_0.pb names a tensor the model does not have at position 0.
    named = os.path.join(add, "wrong_name")
    write_pb(f"{named}/input_0.pb", raw(a, "b"))
    write_pb(f"{named}/input_1.pb", raw(b, "a"))
    # float64 data for a float32 input.
    f64 = os.path.join(add, "float64_input")
    write_pb(f"{f64}/input_0.pb", raw(a.astype(np.float64), "a"))
    write_pb(f"{f64}/input_1.pb", raw(b, "b"))

    # fake_logic_model: int64 in int64_data, bool in int32_data.
    values = np.array([-2, 5, 7, 0], dtype=np.int64)
    mask = np.array([True, True, False, True])
    logic = os.path.join(HERE, "logic", "test_data_set_0")
    write_pb(f"{logic}/input_0.pb", typed(values, "values", TensorProto.INT64))
    write_pb(f"{logic}/input_1.pb", typed(mask, "mask", TensorProto.BOOL))
    write_pb(f"{logic}/output_0.pb",
             typed(np.where(mask, values, 0), "masked", TensorProto.INT64))
    write_pb(f"{logic}/output_1.pb", raw(values > 0, "positive"))

    npy = os.path.join(HERE, "npy")
    os.makedirs(npy, exist_ok=True)
    np.save(f"{npy}/a.npy", a)
    np.save(f"{npy}/b.npy", b)
    np.save(f"{npy}/a_float64.npy", a.astype(np.float64))
    np.save(f"{npy}/a_transposed.npy", np.ascontiguousarray(a.T))
    np.save(f"{npy}/sum.npy", a + b)


if __name__ == "__main__":
    main()
