#!/usr/bin/env python3
"""ctest install-consumer: infer as a product's build sees it.

Installs the build into a temporary prefix (cmake --install), moves the
prefix elsewhere (the install must be relocatable), then, using only the
moved prefix:
  - builds examples/cpp_cmake (find_package(Infer) + infer_add_model, the
    C++ API) in a fresh build folder, runs it, and compares every number it
    prints with ONNX's reference evaluator on the same inputs;
  - checks what a rebuild redoes: nothing when nothing changed, only the
    touched model when one model file changes, only that model when its
    arguments change, nothing after re-running cmake;
  - checks that a bad call and a bad model fail with a clear message;
  - builds examples/c with pkg-config (shared and static runtime) and runs
    it on a model the CMake build compiled;
  - compiles a model with TARGET cuda (run under the CUDA emulator) and
    TARGET hls;
  - builds examples/pass_plugin (an MLIR pass plugin) and runs its lit
    tests, which load it into the installed infer-opt and infer-compile;
  - pip-installs python/ into a fresh venv, alone and against the install,
    and runs its pytest suite.
"""

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx
from onnx.reference import ReferenceEvaluator

failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def run(cmd, env=None, cwd=None, expect_ok=True):
    proc = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True)
    out = proc.stdout + proc.stderr
    if expect_ok and proc.returncode != 0:
        print(out)
        raise SystemExit(f"FAIL: {' '.join(cmd)} exited {proc.returncode}")
    return proc.returncode, out


def reference(model_path, feeds):
    model = onnx.parser.parse_model(open(model_path).read())
    return ReferenceEvaluator(model).run(None, feeds)[0]


def numbers(output, label):
    match = re.search(r"^" + re.escape(label) + r": (.*)$", output, re.M)
    if not match:
        return None
    return np.array([float(v) for v in match.group(1).split()], np.float32)


def close(got, want, what):
    ok = got is not None and got.size == want.size and np.allclose(
        got, want.ravel(), rtol=1e-5, atol=1e-6)
    check(ok, f"{what} matches the ONNX reference")


def installed_layout(prefix, build, source):
    for rel in ["bin/infer-compile", "bin/infer-opt", "bin/infer-run",
                "bin/infer-bench", "bin/infer-report",
                "include/infer/runtime.h", "include/infer/infer.hpp",
                "lib/libinfer_runtime.a", "lib/libinfer_runtime.so",
                "lib/cmake/Infer/InferConfig.cmake",
                "lib/cmake/Infer/InferConfigVersion.cmake",
                "lib/cmake/Infer/InferAddModel.cmake",
                "lib/pkgconfig/infer-runtime.pc"]:
        check(os.path.exists(os.path.join(prefix, rel)), f"installs {rel}")
    leaks = []
    for root, _, files in os.walk(prefix):
        for name in files:
            path = os.path.join(root, name)
            if os.path.islink(path):
                continue
            data = open(path, "rb").read()
            for tree in (build, source):
                if tree.encode() in data:
                    leaks.append(os.path.relpath(path, prefix))
    check(not leaks, f"no installed file names the build or source tree {leaks}")


def consumer(prefix, source, work, cmake):
    src = os.path.join(work, "src")
    shutil.copytree(os.path.join(source, "examples", "cpp_cmake"),
                    os.path.join(src, "cpp_cmake"))
    shutil.copytree(os.path.join(source, "examples", "models"),
                    os.path.join(src, "models"))
    app = os.path.join(work, "app")
    run([cmake, "-S", os.path.join(src, "cpp_cmake"), "-B", app, "-G", "Ninja",
         f"-DCMAKE_PREFIX_PATH={prefix}"])
    _, log = run([cmake, "--build", app])
    check(log.count("infer-compile ") >= 3,
          "the build runs infer-compile for the three models")
    _, out = run([os.path.join(app, "app")])
    print(out)

    models = os.path.join(src, "models")
    features = np.array([[1, 2, 3, 4]], np.float32)
    mlp = reference(os.path.join(models, "tiny_mlp.onnxtxt"),
                    {"features": features})
    close(numbers(out, "tiny_mlp typed"), mlp, "typed entry point (tiny_mlp)")
    close(numbers(out, "tiny_mlp session"), mlp, "infer::Session (tiny_mlp)")
    image = np.zeros((1, 1, 8, 8), np.float32)
    image[0, 0, range(8), range(8)] = 1
    cnn_path = os.path.join(models, "tiny_cnn.onnxtxt")
    close(numbers(out, "tiny_cnn"), reference(cnn_path, {"input": image}),
          "infer::Session (tiny_cnn)")
    images = np.zeros((3, 1, 8, 8), np.float32)
    images[0, 0, range(8), range(8)] = 1
    images[1, 0, range(8), [7 - i for i in range(8)]] = 1
    images[2, 0, range(8), range(8)] = 1
    check("tiny_cnn_batch shape: 3 x 10" in out, "dynamic batch: output 3 x 10")
    close(numbers(out, "tiny_cnn_batch"), reference(cnn_path, {"input": images}),
          "Model::run, dynamic batch of 3 (tiny_cnn_batch)")
    check(re.search(r"refused \(INVALID_ARGUMENT\): input 'input'.*\[1, 8\]",
                    out) is not None,
          "a batch of 9 is refused with infer::Error naming the input")
    return src, app


def rebuilds(prefix, src, app, cmake):
    _, log = run([cmake, "--build", app])
    check("no work to do" in log, "a second build does nothing")

    # Only the touched model is compiled again, then the program relinked.
    mlp = os.path.join(src, "models", "tiny_mlp.onnxtxt")
    time.sleep(0.1)
    os.utime(mlp)  # now: newer than the outputs (the copy kept an old time)
    _, log = run([cmake, "--build", app, "--", "-v"])
    check("--name=tiny_mlp" in log and "--name=tiny_cnn" not in log,
          "touching tiny_mlp.onnxtxt recompiles tiny_mlp only")
    check("-o app" in log, "and relinks the program")

    run([cmake, app])
    _, log = run([cmake, "--build", app])
    check("no work to do" in log, "re-running cmake changes nothing")

    # A new infer-compile recompiles every model.
    time.sleep(0.1)
    os.utime(os.path.join(prefix, "bin", "infer-compile"))
    _, log = run([cmake, "--build", app, "--", "-v"])
    check(all(f"--name={m}" in log for m in ("tiny_mlp", "tiny_cnn", "tiny_cnn_batch")),
          "a newer infer-compile recompiles every model")

    # New arguments for one model recompile that model only.
    lists = os.path.join(src, "cpp_cmake", "CMakeLists.txt")
    text = open(lists).read()
    changed = text.replace("infer_add_model(tiny_mlp MODEL ../models/tiny_mlp.onnxtxt)",
                           "infer_add_model(tiny_mlp MODEL ../models/tiny_mlp.onnxtxt\n"
                           "                OPTIONS --math=libm)")
    check(changed != text, "the example's tiny_mlp call is where expected")
    open(lists, "w").write(changed)
    _, log = run([cmake, "--build", app, "--", "-v"])
    check("--name=tiny_mlp" in log and "--math=libm" in log
          and "--name=tiny_cnn" not in log,
          "new OPTIONS for tiny_mlp recompile tiny_mlp only")


def errors(prefix, work, cmake):
    bad = os.path.join(work, "bad")
    os.makedirs(bad)
    open(os.path.join(bad, "bad.onnxtxt"), "w").write(
        "<ir_version: 8, opset_import: [\"\" : 17]>\n"
        "bad (float[2] x) => (float[2] y) { y = Frobnicate (x) }\n")

    def project(call):
        open(os.path.join(bad, "CMakeLists.txt"), "w").write(
            "cmake_minimum_required(VERSION 3.20)\nproject(bad C)\n"
            "find_package(Infer CONFIG REQUIRED)\n" + call + "\n")
        shutil.rmtree(os.path.join(work, "bad-build"), ignore_errors=True)
        return run([cmake, "-S", bad, "-B", os.path.join(work, "bad-build"),
                    "-G", "Ninja", f"-DCMAKE_PREFIX_PATH={prefix}"],
                   expect_ok=False)

    rc, log = project("infer_add_model(m TARGET cpu)")
    check(rc != 0 and "MODEL is required" in log, "a call without MODEL is refused")
    rc, log = project("infer_add_model(m MODEL missing.onnx)")
    check(rc != 0 and "does not exist" in log, "a missing model file is refused")
    rc, log = project("infer_add_model(m MODEL bad.onnxtxt TARGET tpu)")
    check(rc != 0 and "TARGET must be cpu, cuda or hls" in log,
          "an unknown TARGET is refused")
    rc, log = project("infer_add_model(m-1 MODEL bad.onnxtxt)")
    check(rc != 0 and "not a C identifier" in log,
          "a target name that is no C identifier asks for NAME")
    rc, log = project("infer_add_model(m MODEL bad.onnxtxt QUANTIZE int8)")
    check(rc != 0 and "QUANTIZE and CALIBRATION go together" in log,
          "QUANTIZE without CALIBRATION is refused")
    rc, log = project("infer_add_model(m MODEL bad.onnxtxt QUANTIZE int8 CALIBRATION .)")
    args_files = glob.glob(os.path.join(work, "bad-build", "**", "*.args"), recursive=True)
    check(rc == 0 and any("--quantize=int8" in open(f).read() for f in args_files),
          "QUANTIZE int8 CALIBRATION dir passes --quantize=int8 (infer-compile has it)")
    rc, log = project("infer_add_model(m MODEL bad.onnxtxt SHAPES x=2)")
    check(rc != 0 and "unknown arguments" in log, "an unknown keyword is refused")
    rc, _ = project("infer_add_model(m MODEL bad.onnxtxt)")
    check(rc == 0, "a call with a bad model configures")
    rc, log = run([cmake, "--build", os.path.join(work, "bad-build")],
                  expect_ok=False)
    check(rc != 0 and "Frobnicate" in log,
          "the build fails and its log shows infer-compile's error")


GPU_MAIN = r"""
#include "mlp_gpu.h"
#include "infer/runtime.h"
#include <stdio.h>
int main(void) {
  infer_model_t model;
  infer_status_t status = infer_model_from_abi(&mlp_gpu_model, &model);
  if (status) {
    printf("error: %s\n", infer_status_message(status));
    return 3;
  }
  int64_t shape[2] = {1, 4};
  float features[4] = {1, 2, 3, 4};
  infer_tensor_t input, output;
  infer_tensor_wrap(INFER_DTYPE_F32, 2, shape, features, &input);
  status = infer_model_run(model, &input, 1, &output, 1);
  if (status) {
    printf("error: %s\n", infer_status_message(status));
    return 1;
  }
  const float *scores = infer_tensor_data(output);
  printf("scores: %.9g %.9g\n", scores[0], scores[1]);
  infer_tensor_release(output);
  infer_tensor_release(input);
  infer_model_release(model);
  return 0;
}
"""


def other_targets(prefix, source, work, cmake, emulator):
    """TARGET cuda (a library linking the runtime) and TARGET hls (a
    project folder), in one consumer project."""
    proj = os.path.join(work, "targets")
    os.makedirs(proj)
    mlp = os.path.join(source, "examples", "models", "tiny_mlp.onnxtxt")
    open(os.path.join(proj, "main.c"), "w").write(GPU_MAIN)
    open(os.path.join(proj, "CMakeLists.txt"), "w").write(
        "cmake_minimum_required(VERSION 3.20)\nproject(targets C)\n"
        "find_package(Infer CONFIG REQUIRED)\n"
        # --gpu-emulation: also NAME.emu.so, the kernels for the emulator.
        f"infer_add_model(mlp_gpu MODEL {mlp} TARGET cuda OPTIONS --gpu-emulation)\n"
        f"infer_add_model(mlp_hls MODEL {mlp} TARGET hls)\n"
        "add_executable(gpu_app main.c)\n"
        "target_link_libraries(gpu_app PRIVATE mlp_gpu)\n")
    out = os.path.join(work, "targets-build")
    run([cmake, "-S", proj, "-B", out, "-G", "Ninja", f"-DCMAKE_PREFIX_PATH={prefix}"])
    run([cmake, "--build", out])
    hls = os.path.join(out, "mlp_hls.infer")
    check(all(os.path.exists(os.path.join(hls, f)) for f in
              ["mlp_hls.cpp", "mlp_hls.h", "mlp_hls_tb.cpp", "run_hls.tcl"]),
          "TARGET hls writes the HLS project")
    rc, _ = run(["g++", "-std=c++17", "-fsyntax-only", os.path.join(hls, "mlp_hls.cpp")],
                expect_ok=False)
    check(rc == 0, "the HLS project's C++ compiles")
    want = reference(mlp, {"features": np.array([[1, 2, 3, 4]], np.float32)})
    if emulator:
        _, got = run([os.path.join(out, "gpu_app")],
                     env=dict(os.environ, LD_LIBRARY_PATH=emulator,
                              INFER_EMU_KERNELS=os.path.join(
                                  out, "mlp_gpu.infer", "mlp_gpu.emu.so")))
        close(numbers(got, "scores"), want,
              "TARGET cuda linked with the runtime, under the CUDA emulator")
    else:
        print("note: no CUDA emulator in this build; TARGET cuda built only")


def pass_plugin(prefix, source, work, cmake, mlir_prefix):
    """examples/pass_plugin built out of tree; its lit tests load it into
    the installed infer-opt and infer-compile."""
    src = os.path.join(work, "plugin-src")
    shutil.copytree(os.path.join(source, "examples", "pass_plugin"), src)
    out = os.path.join(work, "plugin-build")
    run([cmake, "-S", src, "-B", out, "-G", "Ninja",
         f"-DCMAKE_PREFIX_PATH={prefix};{mlir_prefix}"])
    run([cmake, "--build", out])
    check(os.path.exists(os.path.join(out, "InferExamplePasses.so")),
          "examples/pass_plugin builds against the installed package")
    rc, log = run(["ctest", "--test-dir", out, "--output-on-failure"],
                  expect_ok=False)
    if rc != 0:
        print(log)
    check(rc == 0, "its lit tests pass: the plugin's pass runs in infer-opt "
                   "and inside infer-compile's pipeline")


def python_package(prefix, source, work, wheelhouse):
    """pip install ./python into a fresh venv (offline, from the wheelhouse
    setup-venv fills): first alone (the runtime built from the sources,
    infer-compile from $INFER_COMPILE), then against the installed package
    (CMAKE_PREFIX_PATH), whose pytest suite then runs."""
    if not os.path.isdir(wheelhouse):
        check(False, f"the wheelhouse {wheelhouse} exists (.ci/setup-venv makes it)")
        return
    tree = os.path.join(work, "pytree")
    for part in ("python", "runtime"):
        shutil.copytree(os.path.join(source, part), os.path.join(tree, part),
                        ignore=shutil.ignore_patterns("build", "__pycache__"))
    venv = os.path.join(work, "venv")
    run([sys.executable, "-m", "venv", venv])
    pip = [os.path.join(venv, "bin", "python"), "-m", "pip", "--disable-pip-version-check"]
    offline = ["--no-index", "--find-links", wheelhouse]
    run(pip + ["install", "--quiet"] + offline + ["numpy", "pytest"])
    env = {k: v for k, v in os.environ.items() if k != "CMAKE_PREFIX_PATH"}
    python = os.path.join(venv, "bin", "python")
    models = os.path.join(source, "examples", "models")
    smoke = ("import infer, numpy as np\n"
             f"so = infer.compile({os.path.join(models, 'tiny_mlp.onnxtxt')!r}, "
             f"out_dir={os.path.join(work, 'py-mlp')!r})\n"
             "y = infer.load(so).run({'features': np.array([[1, 2, 3, 4]], np.float32)})\n"
             "print('scores:', *y['scores'].ravel())\n")
    want = reference(os.path.join(models, "tiny_mlp.onnxtxt"),
                     {"features": np.array([[1, 2, 3, 4]], np.float32)})

    run(pip + ["install", "--quiet"] + offline + [os.path.join(tree, "python")], env=env)
    _, out = run([python, "-c", smoke], env=dict(
        env, INFER_COMPILE=os.path.join(prefix, "bin", "infer-compile")))
    close(numbers(out, "scores"), want,
          "pip install ./python alone (runtime from sources): infer.compile + run")

    run(pip + ["install", "--quiet", "--force-reinstall", "--no-deps"] + offline
        + [os.path.join(tree, "python")], env=dict(env, CMAKE_PREFIX_PATH=prefix))
    _, out = run([python, "-c", "import infer._config as c; print(c.INFER_BIN_DIR)"])
    check(out.strip() == os.path.join(prefix, "bin"),
          "built against the installed package, it knows its infer-compile")
    _, out = run([python, "-c", smoke], env=env)
    close(numbers(out, "scores"), want, "infer.compile finds the install's infer-compile")
    _, out = run([python, "-c", "import infer, os; "
                  "print(*os.listdir(os.path.dirname(infer.__file__)))"])
    check({"_runtime.pyi", "py.typed"} <= set(out.split()),
          "the package ships type stubs (_runtime.pyi, py.typed)")
    rc, out = run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                   os.path.join(tree, "python", "tests")],
                  env=dict(env, INFER_EXAMPLE_MODELS=models), expect_ok=False)
    print(out[-3000:])
    check(rc == 0, "the Python package's pytest suite passes")


def c_example(prefix, source, work, app):
    env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(prefix, "lib", "pkgconfig"))
    _, flags = run(["pkg-config", "--cflags", "--libs", "infer-runtime"], env=env)
    exe = os.path.join(work, "run_model")
    c_src = os.path.join(source, "examples", "c", "run_model.c")
    run(["cc", "-Wall", "-Werror", c_src, "-o", exe] + flags.split(), env=env)
    model = os.path.join(app, "tiny_mlp.infer", "tiny_mlp.so")
    want = reference(os.path.join(source, "examples", "models", "tiny_mlp.onnxtxt"),
                     {"features": np.ones((1, 4), np.float32)})
    _, out = run([exe, model], env=dict(env, LD_LIBRARY_PATH=os.path.join(prefix, "lib")))
    close(numbers(out, "scores"), want, "examples/c with pkg-config (shared runtime)")
    static = os.path.join(work, "run_model_static")
    run(["cc", c_src, "-o", static, "-I", os.path.join(prefix, "include"),
         os.path.join(prefix, "lib", "libinfer_runtime.a"), "-ldl", "-lpthread"])
    _, out = run([static, model])
    close(numbers(out, "scores"), want, "examples/c with libinfer_runtime.a")
    rc, out = run([static, os.path.join(work, "none.so")], expect_ok=False)
    check(rc != 0 and "error:" in out, "examples/c reports a missing model")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--build", required=True)
    parser.add_argument("--source", required=True)
    parser.add_argument("--cmake", default="cmake")
    parser.add_argument("--mlir-prefix", default="/usr/lib/llvm-22",
                        help="where LLVM/MLIR 22's CMake packages are")
    parser.add_argument("--wheelhouse", default="",
                        help="wheels for an offline pip install of python/")
    parser.add_argument("--cuda-emulator", default="",
                        help="folder of the emulated libcuda.so.1")
    args = parser.parse_args()
    build = os.path.realpath(args.build)
    source = os.path.realpath(args.source)
    work = tempfile.mkdtemp(prefix="infer-install-")
    try:
        stage = os.path.join(work, "stage")
        run([args.cmake, "--install", build, "--prefix", stage])
        prefix = os.path.join(work, "moved", "infer")
        os.makedirs(os.path.dirname(prefix))
        os.rename(stage, prefix)
        installed_layout(prefix, build, source)
        _, out = run([os.path.join(prefix, "bin", "infer-compile"), "--version"])
        check("version" in out.lower(), "the moved infer-compile runs")
        src, app = consumer(prefix, source, work, args.cmake)
        rebuilds(prefix, src, app, args.cmake)
        errors(prefix, work, args.cmake)
        c_example(prefix, source, work, app)
        other_targets(prefix, source, work, args.cmake, args.cuda_emulator)
        pass_plugin(prefix, source, work, args.cmake, args.mlir_prefix)
        python_package(prefix, source, work, args.wheelhouse)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        print(f"{len(failures)} check(s) failed")
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
