#!/usr/bin/env bash
# Compiles the bundled example model with infer-compile, links the object
# into main.c through the generated header, and runs it.
# Usage: examples/tiny_cnn/run.sh [BUILD_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
out=$build/examples/tiny_cnn
mkdir -p "$out"
"$build/bin/infer-compile" "$here/../models/tiny_cnn.onnxtxt" \
  --shape input=1x1x8x8 --name tiny_cnn -o "$out"
# The object needs only libm. Without the runtime its parallel loops run
# on the calling thread (tiny_cnn_set_executor gives it threads).
cc -O2 -I "$out" "$here/main.c" "$out/tiny_cnn.o" -lm -o "$out/tiny_cnn_demo"
"$out/tiny_cnn_demo"
