#!/usr/bin/env bash
# CI's fuzzing smoke: the three harnesses as the normal build makes them
# (ReplayMain.cpp instead of libFuzzer: no sanitizer, no coverage feedback)
# over the ONNX backend seeds and a fixed number of seeded mutants of each.
# The same files give the same inputs on every machine, so the smoke fails
# only when a change breaks what it covers, never at random. A crash, an
# abort, an allocation past 4 GiB, an input that runs past 30 s, or a
# compiler failure without an error message is a finding: its input is kept
# in FINDINGS as <harness>-<file>-<mutant>, to replay with
# `BIN/<harness> FILE`. About 3 minutes on the 2-core VM.
# Usage: smoke.sh BIN_DIR FINDINGS_DIR ONNX_TESTDATA_DIR [MUTANTS_SCALE]
#   MUTANTS_SCALE multiplies every mutant count (default 1), for a longer
#   run by hand.
set -euo pipefail
# The globs' order is the inputs' order, and a mutant's seed depends on its
# file's position: byte order everywhere.
export LC_ALL=C
bin=$1 findings=$2 data=$3 scale=${4:-1}
here=$(cd "$(dirname "$0")" && pwd)
models=("$data"/node/*/model.onnx "$data"/simple/*/model.onnx)
tensors=("$data"/node/*/test_data_set_0/*.pb "$here/../runtime/Inputs/npy")
rm -rf "$findings"
mkdir -p "$findings"
# The compiler harnesses write their inputs under TMPDIR.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
run() {
  local harness=$1 mutants=$(($2 * scale))
  shift 2
  if ! TMPDIR=$work "$bin/infer-fuzz-$harness" --keep-going --seed 1 \
      --mutants "$mutants" --findings "$findings" "$@"; then
    status=1
  fi
}
run tensor-file 20 "${tensors[@]}"
run import 30 "${models[@]}"
run lower 30 "${models[@]}"
if [ $status -ne 0 ]; then
  echo "smoke.sh: findings in $findings (replay one with $bin/infer-fuzz-<harness> FILE)" >&2
fi
exit $status
