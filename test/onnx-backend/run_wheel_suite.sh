#!/usr/bin/env bash
# Writes the onnx wheel's node tests (once) and runs a suite on them: the
# import suite, or with INFER_RUN the CPU suite.
# Usage: run_wheel_suite.sh VENV_PYTHON OUT_DIR INFER_COMPILE SOURCE_DIR [INFER_RUN]
set -euo pipefail
python=$1 out=$2 compiler=$3 src=$4 runner=${5:-}
if [ ! -x "$python" ]; then
  echo "error: no project venv at $python; run .ci/setup-venv (the README's test command does)" >&2
  exit 1
fi
# Both suites may start at once (ctest -j): one writes, the other waits.
mkdir -p "$(dirname "$out")"
exec 9>"$out.lock"
flock 9
if [ ! -f "$out/.complete" ]; then
  rm -rf "$out"
  "$python" "$src/generate_node_tests.py" "$out" 2>/dev/null
  touch "$out/.complete"
fi
flock -u 9
if [ -z "$runner" ]; then
  exec python3 "$src/import_suite.py" --infer-compile "$compiler" --root "$out" \
    --xfail "$src/import-xfail-onnx-1.23.txt" --label onnx-1.23-node
fi
exec python3 "$src/cpu_suite.py" --infer-compile "$compiler" --infer-run "$runner" \
  --root "$out" --xfail "$src/cpu-xfail-onnx-1.23.txt" --label cpu-onnx-1.23-node
