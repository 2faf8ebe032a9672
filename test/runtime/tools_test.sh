#!/usr/bin/env bash
# Drives infer-run and infer-bench on fake.so (test/runtime/fake_model.c)
# with the data under Inputs/ (regenerate with Inputs/generate.py).
#
# Usage: tools_test.sh CASE INFER_RUN INFER_BENCH FAKE_SO INPUTS WORKDIR
# Each CASE is one ctest test; it checks exit codes and output text, and
# exits 1 with the failing checks listed when one does not hold.
set -uo pipefail
case_name=$1 run=$2 bench=$3 model=$4 inputs=$5 work=$6
rm -rf "$work" && mkdir -p "$work"
add=$inputs/add npy=$inputs/npy

failures=0 checks=0
fail() { echo "FAILED: $*" >&2; failures=$((failures + 1)); }

# expect RC NEEDLE... -- CMD...: runs CMD, checks its exit status is RC and
# that its stdout+stderr contains every NEEDLE.
expect() {
  local rc=$1; shift
  local needles=()
  while [[ $1 != -- ]]; do needles+=("$1"); shift; done
  shift
  local output status
  output=$("$@" 2>&1); status=$?
  checks=$((checks + 1))
  echo "\$ ${*##*/}"; echo "$output"
  if [[ $status != "$rc" ]]; then
    fail "exit status $status, expected $rc: $*"
  fi
  for needle in "${needles[@]}"; do
    if [[ $output != *"$needle"* ]]; then
      fail "output lacks '$needle': $*"
    fi
  done
}

case $case_name in
run-pass)
  expect 0 "sum" "float32 [2,3]" "max_abs_err" "max_rel_err" "PASS" \
    "1 of 1 compared outputs passed" -- "$run" "$model" --test-data "$add/test_data_set_0"
  ;;
run-typed-fields)
  expect 0 "PASS" -- "$run" "$model" --test-data "$add/test_data_set_1"
  ;;
run-logic)
  expect 0 "masked" "int64 [4]" "positive" "bool [4]" \
    "2 of 2 compared outputs passed" -- \
    "$run" "$model" --name fake_logic --test-data "$inputs/logic/test_data_set_0"
  ;;
run-fail-values)
  expect 1 "FAIL" "max_abs_err 5.000e-01" "1 of 6 elements" "first at [1,2]" \
    "got 101.5, expected 102" "0 of 1 compared outputs passed" -- \
    "$run" "$model" --test-data "$add/wrong_values"
  ;;
run-missing-dir)
  expect 1 "infer-run: error: test data directory '$work/nope' does not exist" -- \
    "$run" "$model" --test-data "$work/nope"
  ;;
run-too-few-inputs)
  cp -r "$add/test_data_set_0" "$work/set" && rm "$work/set/input_1.pb"
  expect 1 "has 1 input_K.pb file(s), but model 'fake' takes 2 input(s) ('a', 'b')" -- \
    "$run" "$model" --test-data "$work/set"
  ;;
run-too-many-inputs)
  cp -r "$add/test_data_set_0" "$work/set" && cp "$work/set/input_1.pb" "$work/set/input_2.pb"
  expect 1 "has 3 input_K.pb file(s)" -- "$run" "$model" --test-data "$work/set"
  # Two files, but not input_0 and input_1.
  rm "$work/set/input_1.pb"
  expect 1 "has 2 input_K.pb file(s)" -- "$run" "$model" --test-data "$work/set"
  # An expected output the model does not have.
  cp -r "$add/test_data_set_0" "$work/set2" && cp "$work/set2/output_0.pb" "$work/set2/output_1.pb"
  expect 1 "has output_1.pb, but model 'fake' has 1 output(s) ('sum')" -- \
    "$run" "$model" --test-data "$work/set2"
  ;;
run-wrong-name)
  expect 1 "holds tensor 'b', but model input 0 is 'a'" -- \
    "$run" "$model" --test-data "$add/wrong_name"
  ;;
run-wrong-dtype)
  expect 1 "input 'a':" "holds float64 [2,3], but the model expects float32 [2,3]" -- \
    "$run" "$model" --test-data "$add/float64_input"
  # Not a TensorProto at all.
  cp -r "$add/test_data_set_0" "$work/set" && echo garbage > "$work/set/input_0.pb"
  expect 1 "infer-run: error:" -- "$run" "$model" --test-data "$work/set"
  ;;
run-npy)
  expect 0 "--input:" "(no expected output) [-0.75, -0.499, -2, 4, 0.875, 101.5]" -- \
    "$run" "$model" --input "a=$npy/a.npy" --input "b=$npy/b.npy"
  expect 0 "(no expected output)" -- \
    "$run" "$model" --input "a=$add/test_data_set_0/input_0.pb" --input "b=$npy/b.npy"
  expect 1 "no value for input 'b' (float32 [2,3]); add --input b=FILE" -- \
    "$run" "$model" --input "a=$npy/a.npy"
  expect 1 "input 'a' is given twice" -- \
    "$run" "$model" --input "a=$npy/a.npy" --input "a=$npy/a.npy"
  expect 1 "cannot open '$work/missing.npy'" -- \
    "$run" "$model" --input "a=$work/missing.npy" --input "b=$npy/b.npy"
  ;;
run-npy-wrong-dtype)
  expect 1 "input 'a':" "holds float64 [2,3], but the model expects float32 [2,3]" -- \
    "$run" "$model" --input "a=$npy/a_float64.npy" --input "b=$npy/b.npy"
  ;;
run-npy-wrong-shape)
  expect 1 "input 'a':" "holds float32 [3,2], but the model expects float32 [2,3]" -- \
    "$run" "$model" --input "a=$npy/a_transposed.npy" --input "b=$npy/b.npy"
  # A truncated file.
  head -c 148 "$npy/a.npy" > "$work/short.npy"
  expect 1 "holds 20 bytes of data, but a float32 [2,3] array needs 24" -- \
    "$run" "$model" --input "a=$work/short.npy" --input "b=$npy/b.npy"
  ;;
run-hostile-inputs)
  # A 128-byte .npy whose header claims 2^30 floats: refused from the file's
  # size, before 4 GB are allocated (ulimit makes an allocation fail loudly).
  python3 - "$work/huge.npy" <<'PY'
import sys
header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1073741824,), }"
header += " " * (128 - 10 - len(header) - 1) + "\n"
open(sys.argv[1], "wb").write(b"\x93NUMPY\x01\x00" + bytes([len(header), 0]) + header.encode())
PY
  # Sanitized builds map terabytes of shadow memory, so they cap single
  # allocations instead.
  if [ -n "${ASAN_OPTIONS+x}" ]; then
    limited=(env "ASAN_OPTIONS=$ASAN_OPTIONS:max_allocation_size_mb=1000")
  else
    limited=(bash -c 'ulimit -v 1000000; exec "$@"' _)
  fi
  expect 1 "holds 0 bytes of data, but a float32 [1073741824] array needs 4294967296" -- \
    "${limited[@]}" "$run" "$model" --input "a=$work/huge.npy" --input "b=$npy/b.npy"
  # A shape whose byte size overflows 64 bits.
  python3 - "$work/overflow.npy" <<'PY'
import sys
header = "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 16), }"
header += " " * (128 - 10 - len(header) - 1) + "\n"
open(sys.argv[1], "wb").write(b"\x93NUMPY\x01\x00" + bytes([len(header), 0]) + header.encode())
PY
  expect 1 "declares a shape too large for any memory" -- \
    "$run" "$model" --input "a=$work/overflow.npy" --input "b=$npy/b.npy"
  # Found by infer-fuzz-tensor-file: a header key with no value after its
  # colon (an out-of-range substr), and a TensorProto data type past the
  # runtime's last (an invalid enum value under UBSan).
  python3 - "$work/novalue.npy" <<'PY'
import sys
header = "{'descr':"
open(sys.argv[1], "wb").write(b"\x93NUMPY\x01\x00" + bytes([len(header), 0]) + header.encode())
PY
  expect 1 "is not a valid .npy file: 'descr' has no value in its header" -- \
    "$run" "$model" --input "a=$work/novalue.npy" --input "b=$npy/b.npy"
  python3 - "$work/dtype61.pb" <<'PY'
import sys
# TensorProto: dims (field 1) = 1, data_type (field 2) = 61, name "a".
open(sys.argv[1], "wb").write(bytes([0x08, 0x01, 0x10, 61, 0x42, 0x01]) + b"a")
PY
  expect 1 "holds 61 data, which infer-run does not support" -- \
    "$run" "$model" --input "a=$work/dtype61.pb" --input "b=$npy/b.npy"
  # A test-data folder with inputs but no expected outputs compares nothing:
  # an error, not a silent pass (with --save-outputs it is a way to run).
  cp -r "$add/test_data_set_0" "$work/noout" && rm "$work/noout"/output_*.pb
  expect 1 "test data '$work/noout' has no output_K.pb file: nothing to compare" -- \
    "$run" "$model" --test-data "$work/noout"
  expect 0 "(no expected output)" -- \
    "$run" "$model" --test-data "$work/noout" --save-outputs "$work/saved"
  ;;
run-hostile-model)
  # Truncated and non-ELF artifacts: a status, never SIGBUS in dlopen.
  size=$(stat -c %s "$model")
  head -c $((size / 2)) "$model" > "$work/truncated.so"
  expect 1 "is truncated" -- "$run" "$work/truncated.so"
  head -c 40 "$model" > "$work/headonly.so"
  expect 1 "is not a shared object (no ELF header)" -- "$run" "$work/headonly.so"
  printf 'not a model' > "$work/text.so"
  expect 1 "is not a shared object (no ELF header)" -- "$run" "$work/text.so"
  mkfifo "$work/fifo.so"
  expect 1 "not a regular file" -- timeout 20 "$run" "$work/fifo.so"
  ;;
run-unknown-input)
  expect 1 "no input 'c'; its inputs are: 'a', 'b'" -- \
    "$run" "$model" --input "c=$npy/a.npy"
  expect 1 "give inputs either with --test-data or with --input" -- \
    "$run" "$model" --input "a=$npy/a.npy" --test-data "$add/test_data_set_0"
  ;;
run-random)
  expect 0 "random inputs (seed 1)" "(no expected output)" -- "$run" "$model"
  a=$("$run" "$model" --seed 5 | tail -1)
  b=$("$run" "$model" --seed 5 | tail -1)
  c=$("$run" "$model" --seed 6 | tail -1)
  checks=$((checks + 1))
  [[ $a == "$b" ]] || fail "same seed, different inputs: '$a' vs '$b'"
  [[ $a != "$c" ]] || fail "different seeds, same inputs: '$a'"
  expect 0 "masked" "positive" -- "$run" "$model" --name fake_logic --seed 3
  ;;
run-tolerance-override)
  expect 0 "PASS" -- "$run" "$model" --test-data "$add/wrong_values" --atol 1
  expect 0 "PASS" -- "$run" "$model" --test-data "$add/wrong_values" --rtol 0.01
  expect 0 "PASS" -- "$run" "$model" --test-data "$add/test_data_set_0" --rtol 0 --atol 0
  expect 1 "--rtol expects a non-negative number" -- \
    "$run" "$model" --test-data "$add/test_data_set_0" --rtol -1
  ;;
run-save-outputs)
  expect 0 "wrote $work/out/sum.npy" -- \
    "$run" "$model" --test-data "$add/test_data_set_0" --save-outputs "$work/out"
  checks=$((checks + 1))
  cmp "$work/out/sum.npy" "$npy/sum.npy" || fail "saved sum.npy differs from numpy's"
  expect 1 "'$work/out/sum.npy' exists; pass --force to overwrite it" -- \
    "$run" "$model" --test-data "$add/test_data_set_0" --save-outputs "$work/out"
  expect 0 "wrote" -- \
    "$run" "$model" --test-data "$add/test_data_set_0" --save-outputs "$work/out" --force
  expect 0 "wrote $work/logic/masked.npy" "wrote $work/logic/positive.npy" -- \
    "$run" "$model" --name fake_logic --test-data "$inputs/logic/test_data_set_0" \
    --save-outputs "$work/logic"
  # What was saved reads back as an input.
  expect 0 "(no expected output) [-1.5, -0.998, -4, 8, 1.75, 203]" -- \
    "$run" "$model" --input "a=$work/out/sum.npy" --input "b=$work/out/sum.npy"
  ;;
run-multiple-sets)
  expect 1 "test_data_set_0:" "test_data_set_1:" "wrong_values:" \
    "2 of 3 compared outputs passed" -- \
    "$run" "$model" --test-data "$add/test_data_set_0" --test-data "$add/test_data_set_1" \
    --test-data "$add/wrong_values" --save-outputs "$work/out"
  checks=$((checks + 1))
  [[ -f $work/out/test_data_set_1/sum.npy ]] || fail "no per-set output directory"
  ;;
run-missing-model)
  expect 1 "infer-run: error: cannot open model '$work/none.so'" -- "$run" "$work/none.so"
  expect 1 "no symbol 'nope_model'" "--name" -- "$run" "$model" --name nope
  expect 1 "supports versions 1 to" -- "$run" "$model" --name fake_future
  ;;
run-help)
  expect 0 "USAGE" "--test-data DIR" "--input NAME=FILE" "--save-outputs" "EXIT STATUS" -- \
    "$run" --help
  expect 1 "unknown option '--bogus'" -- "$run" "$model" --bogus
  expect 1 "no model given" -- "$run"
  expect 1 "option --test-data needs a value" -- "$run" "$model" --test-data
  ;;
bench-table)
  expect 0 "model       fake" "p50" "p90" "p99" "max" "latency ms" "inferences/s" -- \
    "$bench" "$model" --warmup 2 --iterations 20
  expect 0 "USAGE" "--threads N" "--json" -- "$bench" --help
  ;;
bench-json)
  out=$("$bench" "$model" --json --warmup 1 --iterations 30)
  checks=$((checks + 1))
  echo "$out"
  python3 - "$out" <<'PY' || fail "bad JSON: $out"
import json, sys
data = json.loads(sys.argv[1])
assert data["model"] == "fake", data
assert data["threads"] == 1 and data["warmup"] == 1 and data["iterations"] == 30, data
lat = data["latency_ms"]
for key in ("p50", "p90", "p99", "max", "mean"):
    assert isinstance(lat[key], float) and lat[key] >= 0, key
assert lat["p50"] <= lat["p90"] <= lat["p99"] <= lat["max"], lat
assert data["throughput_per_s"] > 0, data
PY
  ;;
bench-threads)
  out=$("$bench" "$model" --name fake_logic --json --threads 4 --iterations 50)
  checks=$((checks + 1))
  echo "$out"
  python3 - "$out" <<'PY' || fail "bad JSON: $out"
import json, sys
data = json.loads(sys.argv[1])
assert data["model"] == "fake_logic" and data["threads"] == 4, data
assert data["iterations"] == 50 and data["throughput_per_s"] > 0, data
assert data["into"] is False, data
PY
  # Each calling thread writes into its own outputs.
  out=$("$bench" "$model" --name fake_logic --json --into --threads 4 --iterations 50)
  checks=$((checks + 1))
  echo "$out"
  python3 - "$out" <<'PY' || fail "bad JSON: $out"
import json, sys
data = json.loads(sys.argv[1])
assert data["into"] is True and data["threads"] == 4, data
assert data["latency_ms"]["p50"] >= 0 and data["throughput_per_s"] > 0, data
PY
  expect 0 "infer_model_run_into (outputs made once)" -- "$bench" "$model" --into --iterations 5
  ;;
bench-bad-args)
  expect 1 "--iterations expects an integer from 1" -- "$bench" "$model" --iterations 0
  expect 1 "--threads expects an integer" -- "$bench" "$model" --threads x
  expect 1 "no model given" -- "$bench"
  expect 1 "cannot open model" -- "$bench" "$work/none.so"
  expect 1 "dims known only at run time" "calls infer_model_run" -- \
    "$bench" "$model" --name fake_rows --into --iterations 5
  ;;
*)
  echo "unknown case '$case_name'" >&2
  exit 2
  ;;
esac

echo "$case_name: $((checks - failures)) passed, $failures failed"
[[ $failures == 0 ]]
