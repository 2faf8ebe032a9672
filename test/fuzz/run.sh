#!/usr/bin/env bash
# Builds the libFuzzer harnesses (clang-22, ASan + UBSan, coverage) in their
# own tree and runs each for a set time over a seed corpus taken from the
# ONNX backend test data. Exits 1 when a harness finds something: the input
# that did it is left in FINDINGS as <harness>-crash-<sha1> (or -timeout-,
# -leak-, -oom-), to reproduce with `BUILD/bin/<harness> FILE`.
#
# Usage: test/fuzz/run.sh [--build DIR] [--time SECONDS] [--only HARNESS]
#                         [--findings DIR] [--corpus DIR] [--jobs N]
#   --build DIR     the fuzz build tree (default: build-fuzz)
#   --time S        seconds per harness (default: 60)
#   --only H        run one harness: tensor-file, import or lower
#   --findings DIR  where crashing inputs go (default: fuzz-findings)
#   --corpus DIR    the growing corpus, kept between runs (default: BUILD/corpus)
#   --jobs N        fuzzing processes per harness (-fork=N; default: 1)
#   --runs N        stop each harness after N inputs (with --seed, a run
#                   that repeats exactly: what CI's smoke uses)
#   --seed S        libFuzzer's random seed (default: from the clock); with a
#                   seed, the corpus starts again from the seeds alone
#   --keep-going    do not stop at the first finding: run again for the
#                   time left, collecting every crashing input in FINDINGS
# The closing lines give each harness's execution count.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
build=$src/build-fuzz time=60 only="" findings=$PWD/fuzz-findings corpus="" jobs=1 keep=0 runs=-1 seed=0
while [ $# -gt 0 ]; do
  case $1 in
  --build) build=$2; shift 2 ;;
  --time) time=$2; shift 2 ;;
  --only) only=$2; shift 2 ;;
  --findings) findings=$2; shift 2 ;;
  --corpus) corpus=$2; shift 2 ;;
  --jobs) jobs=$2; shift 2 ;;
  --keep-going) keep=1; shift ;;
  --runs) runs=$2; shift 2 ;;
  --seed) seed=$2; shift 2 ;;
  -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "run.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
corpus=${corpus:-$build/corpus}
if [ "$seed" != 0 ]; then
  corpus=$build/corpus-seed$seed
  rm -rf "$corpus"
fi
data=/usr/share/libonnx-testdata/data
for tool in clang-22 clang++-22; do
  command -v $tool >/dev/null || { echo "run.sh: $tool not found: apt install clang-22 libclang-rt-22-dev" >&2; exit 2; }
done

# Configure and build: only the harnesses and what they link.
launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR=$src
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_USE_LINKER=lld -DINFER_FUZZ=ON -DINFER_SANITIZE=address,undefined \
    -DINFER_BUILD_CUDA=OFF -DINFER_BUILD_HLS=OFF "${launcher[@]}" >/dev/null
fi
harnesses=(tensor-file import lower)
if [ -n "$only" ]; then harnesses=("$only"); fi
targets=()
for h in "${harnesses[@]}"; do targets+=("infer-fuzz-$h"); done
cmake --build "$build" --target "${targets[@]}" >/dev/null

# Seeds: every backend model; every test input and output tensor.
seeds=$build/seeds
if [ ! -d "$seeds/model" ]; then
  mkdir -p "$seeds/model" "$seeds/tensor"
  for m in "$data"/node/*/model.onnx "$data"/simple/*/model.onnx; do
    name=$(basename "$(dirname "$m")")
    cp "$m" "$seeds/model/$name.onnx"
    for t in "$(dirname "$m")"/test_data_set_0/*.pb; do
      [ -f "$t" ] && cp "$t" "$seeds/tensor/${name}_$(basename "$t")"
    done
  done
  cp "$src"/test/runtime/Inputs/npy/*.npy "$seeds/tensor/"
fi

mkdir -p "$findings"
status=0
summary=()
for h in "${harnesses[@]}"; do
  kind=model
  [ "$h" = tensor-file ] && kind=tensor
  mkdir -p "$corpus/$h"
  log=$build/fuzz-$h.log
  # A model may take seconds to compile, never 30; 2 GiB is more than any
  # seed needs. Leaks are findings too.
  # -fork=N runs N processes over one corpus; their logs go to the folder
  # the harness runs in.
  parallel=()
  if [ "$jobs" -gt 1 ]; then parallel=(-fork="$jobs"); fi
  work=$build/work-$h
  rm -rf "$work" && mkdir -p "$work"
  : >"$log"
  # --keep-going: after a finding, run again (the corpus is kept) for the
  # time that is left.
  deadline=$(($(date +%s) + time))
  rc=0
  while :; do
    left=$((deadline - $(date +%s)))
    [ $left -gt 0 ] || break
    # TMPDIR: the harnesses' input files, and anything a killed process
    # leaves, stay in the work folder.
    set +e
    (cd "$work" && TMPDIR=$work ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
      UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
      "$build/bin/infer-fuzz-$h" "$corpus/$h" "$seeds/$kind" \
        -max_total_time="$left" -timeout=30 -rss_limit_mb=4096 -malloc_limit_mb=2048 \
        -max_len=1048576 -print_final_stats=1 -runs="$runs" -seed="$seed" "${parallel[@]}" \
        -artifact_prefix="$findings/$h-" >>"$log" 2>&1)
    run_rc=$?
    set -e
    [ $run_rc -eq 0 ] || rc=$run_rc
    [ $keep = 1 ] && [ $run_rc -ne 0 ] || break
  done
  execs=$({ cat "$log" "$work"/fuzz-*.log 2>/dev/null || true; } |
          sed -n 's/^stat::number_of_executed_units: *//p' | awk '{s += $1} END {print s + 0}')
  if [ $rc -ne 0 ]; then
    status=1
    echo "run.sh: $h: FINDING (exit $rc); the log is $log, the input in $findings:" >&2
    grep -E "^==[0-9]+==ERROR|^SUMMARY|runtime error|infer-fuzz:|ALARM|out-of-memory|deadly signal" "$log" | head -5 >&2
  fi
  summary+=("$h: $execs executions in ${time}s, exit $rc")
done
printf '%s\n' "${summary[@]}"
exit $status
