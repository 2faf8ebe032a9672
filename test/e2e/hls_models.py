#!/usr/bin/env python3
"""The HLS target end to end on two small networks, against a reference.

A CNN (the bundled examples/models/tiny_cnn.onnxtxt: conv, relu, max pool,
flatten, gemm, softmax) and an MLP built here (matmul, add, relu, twice,
then softmax) go through `infer-compile --target=hls`, the emitted project
is built with g++ as a user would, and its testbench runs on a random
input whose expected output comes from onnx's reference evaluator
(onnx.reference, a separate implementation of every op). Each network runs
at --hls-parallelism 1 and 4 (unrolled loops, partitioned arrays). The test
also checks that the testbench fails on a wrong expected output and that
report.json estimates every layer. With --profile, each network's
testbench times every layer call in C simulation and writes its JSON
(one entry per call, beside report.json's estimate); under __SYNTHESIS__
the timing code is gone.

Usage: hls_models.py --infer-compile BIN --examples DIR --work DIR
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto
from onnx.reference import ReferenceEvaluator


def mlp(path):
    rng = np.random.default_rng(7)
    def weight(name, *shape):
        return numpy_helper.from_array(
            rng.standard_normal(shape).astype(np.float32) * 0.3, name)
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w1"], ["h1"], name="fc1"),
         helper.make_node("Add", ["h1", "b1"], ["a1"], name="fc1_bias"),
         helper.make_node("Relu", ["a1"], ["r1"], name="relu1"),
         helper.make_node("MatMul", ["r1", "w2"], ["h2"], name="fc2"),
         helper.make_node("Add", ["h2", "b2"], ["a2"], name="fc2_bias"),
         helper.make_node("Softmax", ["a2"], ["y"], name="softmax", axis=1)],
        "mlp",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 16])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10])],
        [weight("w1", 16, 32), weight("b1", 32), weight("w2", 32, 10),
         weight("b2", 10)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, path)
    return model


def run(command, **kwargs):
    proc = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if proc.returncode != 0:
        sys.exit(f"FAIL: {' '.join(command)} exited {proc.returncode}\n"
                 f"{proc.stdout}{proc.stderr}")
    return proc.stdout


def write_test_data(out, model, seed):
    """A random input and onnx.reference's output as out/test_data/*.bin;
    returns the folder and the expected output."""
    input_info = model.graph.input[0]
    shape = [d.dim_value or 1 for d in input_info.type.tensor_type.shape.dim]
    x = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    expected = ReferenceEvaluator(model).run(None, {input_info.name: x})[0]
    data = os.path.join(out, "test_data")
    os.makedirs(data)
    x.tofile(os.path.join(data, "input_0.bin"))
    expected.astype(np.float32).tofile(os.path.join(data, "output_0.bin"))
    return data, expected


def build_testbench(args, out, name):
    """g++ on the project's NAME.cpp and NAME_tb.cpp, as a user would."""
    tb = os.path.join(out, f"{name}_tb")
    run([args.cxx, "-std=c++17", "-O1", "-Wall", "-o", tb,
         os.path.join(out, f"{name}.cpp"), os.path.join(out, f"{name}_tb.cpp")])
    return tb


def check(args, name, model_path, model, shape_args, parallelism):
    out = os.path.join(args.work, f"{name}_p{parallelism}")
    shutil.rmtree(out, ignore_errors=True)
    table = run([args.infer_compile, model_path, "--target=hls", "-o", out,
                 "--name", name, f"--hls-parallelism={parallelism}"] + shape_args)
    data, expected = write_test_data(out, model, seed=11)
    tb = build_testbench(args, out, name)
    csim = run([tb, data])
    if "PASS" not in csim:
        sys.exit(f"FAIL: {name}: testbench did not pass:\n{csim}")

    # A wrong expected output must make the testbench fail.
    wrong = os.path.join(out, "wrong_data")
    shutil.copytree(data, wrong)
    (expected + 0.01).astype(np.float32).tofile(os.path.join(wrong, "output_0.bin"))
    proc = subprocess.run([tb, wrong], capture_output=True, text=True)
    if proc.returncode != 1 or "FAIL" not in proc.stdout:
        sys.exit(f"FAIL: {name}: testbench accepted a wrong expected output:\n{proc.stdout}")
    # ... unless the tolerance given on its command line covers the error.
    proc = subprocess.run([tb, wrong, "0", "0.02"], capture_output=True, text=True)
    if proc.returncode != 0 or "PASS" not in proc.stdout:
        sys.exit(f"FAIL: {name}: testbench ignored RTOL ATOL 0 0.02:\n{proc.stdout}")

    with open(os.path.join(out, "report.json")) as f:
        report = json.load(f)
    layers = report["layers"]
    if not layers or any(l["latency_cycles"] <= 0 for l in layers):
        sys.exit(f"FAIL: {name}: report.json has no per-layer latency: {report}")
    if report["latency_cycles"] != sum(l["latency_cycles"] for l in layers):
        sys.exit(f"FAIL: {name}: the total latency is not the sum of the layers'")
    cpp = open(os.path.join(out, f"{name}.cpp")).read()
    for pragma in ["#pragma HLS INTERFACE m_axi", "#pragma HLS PIPELINE II=",
                   "#pragma HLS INLINE off"]:
        if pragma not in cpp:
            sys.exit(f"FAIL: {name}: no '{pragma}' in {name}.cpp")
    if parallelism > 1 and "#pragma HLS UNROLL factor=" not in cpp:
        sys.exit(f"FAIL: {name}: --hls-parallelism={parallelism} unrolled nothing")
    print(f"{name} (parallelism {parallelism}): C simulation matches the reference; "
          f"{len(layers)} layers, estimated {report['latency_cycles']} cycles, "
          f"{report['resources']['dsp']} DSP")
    print(table.rstrip())


def check_profile(args, name, model_path, model, shape_args):
    """--profile: the testbench times each layer call in C simulation and
    writes NAME_profile.json; under synthesis the timing code is gone."""
    out = os.path.join(args.work, f"{name}_profile")
    shutil.rmtree(out, ignore_errors=True)
    run([args.infer_compile, model_path, "--target=hls", "--profile", "-o", out,
         "--name", name] + shape_args)
    data, _ = write_test_data(out, model, seed=12)
    cpp = os.path.join(out, f"{name}.cpp")
    tb = build_testbench(args, out, name)
    json_path = os.path.join(out, "layers.json")
    csim = run([tb, data], env=dict(os.environ, INFER_PROFILE_RUNS="7",
                                    INFER_PROFILE_JSON=json_path))
    if "PASS" not in csim:
        sys.exit(f"FAIL: {name} --profile: testbench did not pass:\n{csim}")
    with open(json_path) as f:
        profile = json.load(f)
    with open(os.path.join(out, "report.json")) as f:
        report = json.load(f)
    calls = len(re.findall(r"^  INFER_LAYER_BEGIN\(\d+\);$", open(cpp).read(), re.M))
    layers = profile["layers"]
    estimated = {l["name"]: l["latency_cycles"] for l in report["layers"]}
    problems = []
    if profile["runs"] != 7 or len(layers) != calls or not layers:
        problems.append(f"{len(layers)} layers for {calls} timed calls, runs {profile['runs']}")
    for layer in layers:
        if layer["calls"] != 7 or layer["ms"] <= 0 or not layer["nodes"]:
            problems.append(f"layer {layer}")
        if layer["estimated_cycles"] != estimated.get(layer["function"]):
            problems.append(f"{layer['function']}: estimate {layer['estimated_cycles']} "
                            f"against report.json's {estimated.get(layer['function'])}")
    if abs(sum(l["ms"] for l in layers) - profile["total_ms"]) > 1e-3:
        problems.append("the layers do not add up to the total")
    if problems:
        sys.exit(f"FAIL: {name} --profile: {problems}\n{csim}")
    # Synthesis sees no timing code: with __SYNTHESIS__ it compiles without
    # <chrono>, and the counters are gone.
    run([args.cxx, "-std=c++17", "-fsyntax-only", "-D__SYNTHESIS__", cpp])
    synth = run([args.cxx, "-std=c++17", "-E", "-P", "-D__SYNTHESIS__", cpp])
    if "chrono" in synth or f"{name}_layer_ns" in synth:
        sys.exit(f"FAIL: {name} --profile: timing code left under __SYNTHESIS__")
    print(f"{name} --profile: {len(layers)} layers timed in C simulation "
          f"({profile['total_ms']:.4f} ms per run), none under synthesis")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--infer-compile", required=True)
    parser.add_argument("--examples", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--cxx", default="g++")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)

    cnn_path = os.path.join(args.examples, "tiny_cnn.onnxtxt")
    with open(cnn_path) as f:
        cnn = onnx.parser.parse_model(f.read())
    cnn_fixed = os.path.join(args.work, "tiny_cnn_b1.onnx")
    # The reference evaluator needs a concrete batch: fix N=1 as --batch does.
    cnn.graph.input[0].type.tensor_type.shape.dim[0].dim_value = 1
    cnn.graph.output[0].type.tensor_type.shape.dim[0].dim_value = 1
    onnx.save(cnn, cnn_fixed)
    mlp_path = os.path.join(args.work, "mlp.onnx")
    mlp_model = mlp(mlp_path)
    for parallelism in (1, 4):
        check(args, "tiny_cnn", cnn_path, cnn, ["--batch", "1"], parallelism)
        check(args, "mlp", mlp_path, mlp_model, [], parallelism)
    check_profile(args, "tiny_cnn", cnn_path, cnn, ["--batch", "1"])
    check_profile(args, "mlp", mlp_path, mlp_model, [])
    print("hls e2e: 4 of 4 builds pass C simulation, 2 of 2 profiled")
    return 0


if __name__ == "__main__":
    sys.exit(main())
