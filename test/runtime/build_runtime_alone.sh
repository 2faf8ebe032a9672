#!/usr/bin/env bash
# Configures and builds only the runtime (INFER_BUILD_COMPILER=OFF), runs its
# tests, and checks that no runtime file includes an LLVM or MLIR header.
set -euo pipefail
src=$1 out=$2
if grep -rnE '#\s*include\s*[<"](mlir|llvm)/' "$src/runtime"; then
  echo "error: the runtime includes compiler headers" >&2
  exit 1
fi
rm -rf "$out"
cmake -S "$src" -B "$out" -G Ninja -DINFER_BUILD_COMPILER=OFF >/dev/null
cmake --build "$out" >/dev/null
ctest --test-dir "$out" --output-on-failure
