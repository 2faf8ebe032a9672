#!/usr/bin/env bash
# Compiled models run by the sanitized runtime and tools of BIN (built by
# build_runtime_alone.sh). Any sanitizer report fails the test.
#   asan: models on the runtime's thread pool and OpenMP models, on 2 and
#         4 threads, under AddressSanitizer with leak detection (GCC 12's
#         LeakSanitizer crashed scanning libomp's threads; the sanitized
#         trees are built with clang-22);
#   tsan: models on the runtime's pool (4 threads inside a run, and four
#         callers at once, each on its own tensors, sharing the pool) and
#         models compiled with --parallel=none called from four threads
#         (TSan cannot see into the OpenMP runtime's own synchronization, so
#         no OpenMP model here).
# Usage: sanitized_models.sh asan|tsan INFER_COMPILE BIN SOURCE_ROOT TESTDATA WORK
set -euo pipefail
mode=$1 compiler=$2 bin=$3 src=$4 data=$5 work=$6
rm -rf "$work" && mkdir -p "$work"
export ASAN_OPTIONS=detect_leaks=1 TSAN_OPTIONS="halt_on_error=1 exitcode=66"
checks=0
compile() {
  local name=$1 model=$2
  shift 2
  "$compiler" "$model" --name "$name" -o "$work/$name" "$@"
}
conv_data=$data/node/test_conv_with_strides_padding
if [ "$mode" = asan ]; then
  compile cnn "$src/examples/models/tiny_cnn.onnxtxt" --batch 64
  compile conv "$conv_data/model.onnx"
  compile cnnomp "$src/examples/models/tiny_cnn.onnxtxt" --batch 64 \
    --parallel=openmp
  for threads in 2 4; do
    "$bin/infer-bench" "$work/cnn/cnn.so" --intra-threads $threads \
      --iterations 20 --json > "$work/cnn-$threads.json"
    "$bin/infer-run" "$work/conv/conv.so" --intra-threads $threads \
      --test-data "$conv_data/test_data_set_0"
    OMP_NUM_THREADS=$threads "$bin/infer-bench" "$work/cnnomp/cnnomp.so" \
      --iterations 20 --json > "$work/cnnomp-$threads.json"
    checks=$((checks + 3))
  done
else
  compile cnn "$src/examples/models/tiny_cnn.onnxtxt" --batch 4 --parallel=none
  compile conv "$conv_data/model.onnx" --parallel=none
  compile gru "$data/node/test_gru_defaults/model.onnx" --parallel=none
  compile cnnpool "$src/examples/models/tiny_cnn.onnxtxt" --batch 64
  for callers in 1 4; do
    "$bin/infer-bench" "$work/cnnpool/cnnpool.so" --intra-threads 4 \
      --threads $callers --iterations 30 --json > "$work/cnnpool-$callers.json"
    checks=$((checks + 1))
  done
  for name in cnn conv gru; do
    "$bin/infer-bench" "$work/$name/$name.so" --threads 4 --iterations 100 \
      --json > "$work/$name.json"
    checks=$((checks + 1))
  done
  "$bin/infer-run" "$work/conv/conv.so" --test-data "$conv_data/test_data_set_0"
  checks=$((checks + 1))
fi
echo "sanitized_models $mode: $checks runs with no sanitizer report"
