#!/usr/bin/env bash
# Configures and builds only the runtime and its tools
# (INFER_BUILD_COMPILER=OFF), with the sanitizers SANITIZE (-fsanitize=
# list; "none" for a plain build), runs their tests, and checks that no
# runtime file includes an LLVM or MLIR header. The sanitized tools stay in
# OUT/bin for the suites that use them (onnx-cpu-sanitized-runtime).
# Usage: build_runtime_alone.sh SOURCE_ROOT OUT [SANITIZE]
set -euo pipefail
src=$1 out=$2 sanitize=${3:-none}
if grep -rnE '#\s*include\s*[<"](mlir|llvm)/' "$src/runtime"; then
  echo "error: the runtime includes compiler headers" >&2
  exit 1
fi
options=(-DINFER_BUILD_COMPILER=OFF)
if [ "$sanitize" != none ]; then
  options+=("-DINFER_SANITIZE=$sanitize")
  # clang-22's sanitizer runtimes: GCC 12's LeakSanitizer crashes scanning
  # the dynamic TLS of libomp's threads (glibc 2.36).
  if command -v clang-22 >/dev/null; then
    options+=(-DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22)
  fi
fi
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR=$src
  options+=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
rm -rf "$out"
cmake -S "$src" -B "$out" -G Ninja "${options[@]}" >/dev/null
cmake --build "$out" >/dev/null
# Leaks and data races are errors.
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1
export TSAN_OPTIONS="halt_on_error=1 exitcode=66"
ctest --test-dir "$out" --output-on-failure -E source-format
