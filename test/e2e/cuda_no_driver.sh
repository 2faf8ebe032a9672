#!/usr/bin/env bash
# A CUDA artifact where no GPU is: infer-compile writes NAME.o/.h/.so with
# the kernels behind NAME_model, and infer-run / infer-bench refuse to run
# it with a clear message and exit status 1. Skipped (77) where a CUDA
# driver is installed: the gpu-labelled suite covers that machine.
# Usage: cuda_no_driver.sh INFER_COMPILE INFER_RUN INFER_BENCH SOURCE_DIR WORK
set -euo pipefail
compile=$1 run=$2 bench=$3 src=$4 work=$5
if python3 -c 'import ctypes; ctypes.CDLL("libcuda.so.1")' 2>/dev/null; then
  echo "SKIPPED: a CUDA driver is installed here"
  exit 77
fi
fail() { echo "FAILED: $*"; exit 1; }
rm -rf "$work"
"$compile" "$src/examples/models/tiny_cnn.onnxtxt" --batch 1 --target=cuda \
  --gpu-arch sm_90 --emit=ptx -o "$work" --name cnn > /dev/null
for f in cnn.o cnn.h cnn.so cnn.sm_90.ptx cnn.schedule.json; do
  [[ -f $work/$f ]] || fail "no $f"
done
nm -g --defined-only "$work/cnn.o" | grep -q " cnn_model$" || fail "cnn.o exports no cnn_model"
grep -q "extern const struct infer_abi_model cnn_model;" "$work/cnn.h" || fail "cnn.h declares no cnn_model"
for tool in "$run" "$bench"; do
  set +e
  output=$("$tool" "$work/cnn.so" 2>&1)
  status=$?
  set -e
  [[ $status == 1 ]] || fail "$(basename "$tool") exited $status, expected 1: $output"
  grep -q "runs on an NVIDIA GPU, but no CUDA driver was found" <<<"$output" ||
    fail "$(basename "$tool") did not say that no driver was found: $output"
done
echo "cuda-no-driver: artifact written; infer-run and infer-bench exit 1 naming the missing driver"
