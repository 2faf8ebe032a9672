#!/usr/bin/env bash
# Compiles two models with different --name prefixes and links both objects
# into one C program (two_models.c), which runs and checks them.
# Usage: two_models.sh INFER_COMPILE SOURCE_ROOT TESTDATA OUT_DIR
set -euo pipefail
compiler=$1 src=$2 data=$3 out=$4
rm -rf "$out" && mkdir -p "$out"
"$compiler" "$data/node/test_add/model.onnx" --name add -o "$out"
# --parallel=none: objects with no dependency beyond libm link as they are.
"$compiler" "$src/examples/models/tiny_cnn.onnxtxt" --shape input=1x1x8x8 \
  --parallel=none --name cnn -o "$out"
grep -q "define CNN_USES_OPENMP 0" "$out/cnn.h"
cc -O2 -I "$out" "$src/test/e2e/two_models.c" "$out/add.o" "$out/cnn.o" -lm -o "$out/two_models"
"$out/two_models"
