#!/usr/bin/env bash
# Writes the onnx wheel's node tests (once) and runs the import suite on them.
# Usage: run_wheel_suite.sh VENV_PYTHON OUT_DIR INFER_COMPILE SOURCE_DIR
set -euo pipefail
python=$1 out=$2 compiler=$3 src=$4
if [ ! -x "$python" ]; then
  echo "error: no project venv at $python; run .ci/setup-venv (the README's test command does)" >&2
  exit 1
fi
if [ ! -f "$out/.complete" ]; then
  rm -rf "$out"
  "$python" "$src/generate_node_tests.py" "$out" 2>/dev/null
  touch "$out/.complete"
fi
exec python3 "$src/import_suite.py" --infer-compile "$compiler" --root "$out" \
  --xfail "$src/import-xfail-onnx-1.23.txt" --label onnx-1.23-node
