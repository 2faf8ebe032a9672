"""The infer Python package against the infer install it was built with.

INFER_EXAMPLE_MODELS names the folder of examples/models (tiny_cnn,
tiny_mlp); infer-run is taken from beside the infer-compile the package
finds.
"""

import os
import subprocess
import threading

import numpy as np
import pytest

import infer

MODELS = os.environ.get(
    "INFER_EXAMPLE_MODELS",
    os.path.join(os.path.dirname(__file__), "..", "..", "examples", "models"))
CNN = os.path.join(MODELS, "tiny_cnn.onnxtxt")
MLP = os.path.join(MODELS, "tiny_mlp.onnxtxt")

# tiny_mlp.onnxtxt's weights: y = relu(x W1 + b1) W2 + b2.
W1 = np.array([[0.5, -1.0, 0.25], [1.0, 0.5, -0.5], [-0.25, 0.75, 1.0],
               [0.125, -0.5, 0.5]], np.float32)
B1 = np.array([0.1, -0.2, 0.3], np.float32)
W2 = np.array([[1.0, -0.5], [0.5, 1.0], [-1.0, 0.25]], np.float32)
B2 = np.array([0.05, -0.05], np.float32)


@pytest.fixture(scope="module")
def cnn(tmp_path_factory):
    out = tmp_path_factory.mktemp("cnn")
    return infer.compile(CNN, shapes={"input": (1, 1, 8, 8)}, out_dir=out)


@pytest.fixture(scope="module")
def mlp(tmp_path_factory):
    return infer.compile(MLP, out_dir=tmp_path_factory.mktemp("mlp"))


def diagonal():
    x = np.zeros((1, 1, 8, 8), np.float32)
    x[0, 0, range(8), range(8)] = 1
    return x


def test_compile_returns_the_shared_library(cnn):
    assert cnn.endswith("tiny_cnn.so") and os.path.isfile(cnn)
    assert os.path.isfile(cnn[:-3] + ".h") and os.path.isfile(cnn[:-3] + ".o")


def test_model_describes_inputs_and_outputs(cnn):
    m = infer.load(cnn)
    assert m.name == "tiny_cnn"
    assert not m.is_dynamic
    assert [(t.name, t.shape, t.dtype) for t in m.inputs] == [
        ("input", (1, 1, 8, 8), "float32")]
    assert [(t.name, t.shape, t.dtype) for t in m.outputs] == [
        ("probabilities", (1, 10), "float32")]


def test_run_matches_infer_run(cnn, tmp_path):
    m = infer.load(cnn)
    x = diagonal()
    got = m.run({"input": x})
    assert list(got) == ["probabilities"]
    y = got["probabilities"]
    assert y.dtype == np.float32 and y.shape == (1, 10)
    np.save(tmp_path / "x.npy", x)
    infer_run = os.path.join(os.path.dirname(infer.find_compiler()), "infer-run")
    subprocess.run([infer_run, cnn, "--input", f"input={tmp_path / 'x.npy'}",
                    "--save-outputs", str(tmp_path / "out")], check=True,
                   capture_output=True)
    want = np.load(tmp_path / "out" / "probabilities.npy")
    np.testing.assert_array_equal(y, want)  # the same code: bit for bit
    assert abs(float(y.sum()) - 1.0) < 1e-5  # softmax


def test_run_matches_numpy_on_the_mlp(mlp):
    m = infer.load(mlp)
    x = np.array([[1.0, -2.0, 3.0, 0.5]], np.float32)
    want = np.maximum(x @ W1 + B1, 0) @ W2 + B2
    np.testing.assert_allclose(m.run({"features": x})["scores"], want, rtol=1e-6)


def test_outputs_are_independent_arrays(mlp):
    m = infer.load(mlp)
    a = m.run({"features": np.ones((1, 4), np.float32)})["scores"]
    b = m.run({"features": np.zeros((1, 4), np.float32)})["scores"]
    assert not np.shares_memory(a, b)
    a[...] = 7  # writable, and b is untouched
    np.testing.assert_allclose(b, [np.maximum(B1, 0) @ W2 + B2], rtol=1e-6)


def test_dynamic_batch(tmp_path):
    so = infer.compile(CNN, shape_profiles={"input": ((1, 1, 8, 8), (4, 1, 8, 8),
                                                      (8, 1, 8, 8))},
                       out_dir=tmp_path, name="cnn_batch")
    m = infer.load(so)
    assert m.is_dynamic and m.inputs[0].shape == (None, 1, 8, 8)
    xs = np.random.default_rng(1).standard_normal((3, 1, 8, 8)).astype(np.float32)
    y = m.run({"input": xs})["probabilities"]
    assert y.shape == (3, 10)
    for i in range(3):
        one = m.run({"input": np.ascontiguousarray(xs[i:i + 1])})["probabilities"]
        np.testing.assert_allclose(y[i:i + 1], one, rtol=1e-5, atol=1e-7)
    with pytest.raises(infer.Error, match=r"outside the range \[1, 8\]"):
        m.run({"input": np.zeros((9, 1, 8, 8), np.float32)})


def test_bad_inputs_are_refused(cnn):
    m = infer.load(cnn)
    with pytest.raises(TypeError, match="'input' must be a NumPy array of float32"):
        m.run({"input": diagonal().astype(np.float64)})
    with pytest.raises(ValueError, match="missing input 'input'"):
        m.run({})
    with pytest.raises(infer.Error, match="NOT_FOUND"):
        m.run({"input": diagonal(), "nope": diagonal()})
    with pytest.raises(infer.Error, match=r"INVALID_ARGUMENT: input 'input': expected shape"):
        m.run({"input": np.zeros((1, 1, 8, 9), np.float32)})
    with pytest.raises(ValueError, match="not C-contiguous"):
        m.run({"input": np.zeros((1, 1, 8, 16), np.float32)[..., ::2]})


def test_compile_errors_carry_the_compiler_message(tmp_path):
    bad = tmp_path / "bad.onnxtxt"
    bad.write_text('<ir_version: 8, opset_import: ["" : 17]>\n'
                   "bad (float[2] x) => (float[2] y) { y = Frobnicate (x) }\n")
    with pytest.raises(infer.CompileError, match="Frobnicate") as error:
        infer.compile(bad, out_dir=tmp_path / "out")
    assert error.value.returncode != 0
    with pytest.raises(FileNotFoundError, match="no model at"):
        infer.compile(tmp_path / "missing.onnx")
    with pytest.raises(FileNotFoundError, match="infer-compile not found"):
        infer.compile(CNN, infer_compile=tmp_path / "no-compiler")
    with pytest.raises(infer.Error, match="NOT_FOUND"):
        infer.load(tmp_path / "missing.so")


def test_threads_and_concurrent_callers(cnn):
    one = infer.load(cnn, intra_op_threads=1)
    assert one.intra_op_threads == 1
    want = one.run({"input": diagonal()})["probabilities"]
    m = infer.load(cnn)
    results = [None] * 4

    def call(i):
        results[i] = m.run({"input": diagonal()})["probabilities"]

    threads = [threading.Thread(target=call, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for r in results:
        np.testing.assert_array_equal(r, want)
    fixed = infer.load(cnn, intra_op_threads=2, fixed_threads=True)
    assert fixed.intra_op_threads == 2
    np.testing.assert_array_equal(fixed.run({"input": diagonal()})["probabilities"], want)


def test_benchmark(cnn):
    m = infer.load(cnn, intra_op_threads=1)
    stats = m.benchmark(iterations=20, warmup=2)
    assert stats["iterations"] == 20
    assert 0 < stats["min_ms"] <= stats["p50_ms"] <= stats["p90_ms"] <= stats["p99_ms"]
    assert stats["runs_per_s"] > 0
    with pytest.raises(ValueError):
        m.benchmark(iterations=0)
