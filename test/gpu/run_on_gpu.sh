#!/usr/bin/env bash
# Runs prepared CUDA artifacts on a GPU machine that has CMake, a C compiler
# and PyTorch but no LLVM/MLIR: builds the runtime alone and gpu_runner.c,
# runs every model of RUN_DIR/manifest.json (CUDA graphs on and off),
# compares each output with ONNX Runtime's (expected_<i>.bin), times the
# same architecture and batch in PyTorch eager and torch.compile, and writes
# OUT_DIR/gpu_results.json. Exit status 1 if any output does not match.
# Usage (repository root): test/gpu/run_on_gpu.sh RUN_DIR OUT_DIR
# ($PYTHON, default python3, needs numpy and torch.)
set -euo pipefail
run_dir=$1 out_dir=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(mktemp -d)
cmake -S "$root" -B "$build" -DINFER_BUILD_COMPILER=OFF -DINFER_BUILD_RUNTIME_TOOLS=OFF \
  -DINFER_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=Release > "$build/cmake.log"
cmake --build "$build" -j > "$build/build.log"
cc -std=c11 -O2 -I"$root/runtime/include" "$root/test/gpu/gpu_runner.c" \
  "$build/runtime/libinfer_runtime.a" -ldl -lpthread -o "$build/gpu_runner"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
mkdir -p "$out_dir"
"${PYTHON:-python3}" "$root/test/gpu/compare_and_time.py" "$build/gpu_runner" "$run_dir" "$out_dir/gpu_results.json"
