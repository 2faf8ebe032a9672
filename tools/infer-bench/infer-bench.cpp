//===- infer-bench.cpp - latency and throughput of a compiled model -------===//
//
// Runs a model library on given or random inputs: W warm-up calls, then I timed
// calls of infer_model_run (or, with --into, infer_model_run_into) per
// thread, each timed with CLOCK_MONOTONIC. With
// --threads N, N threads call run concurrently on one model; percentiles are
// over every timed call and throughput is all calls over the wall time of
// the timed phase.
//
//===----------------------------------------------------------------------===//

#include "tools/common/Args.h"
#include "tools/common/TestData.h"
#include "tools/infer-bench/BatchSweep.h"
#include "tools/infer-bench/Clock.h"
#include "tools/infer-bench/Machine.h"
#include "tools/infer-bench/Profile.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <ctime>
#include <mutex>
#include <optional>
#include <thread>

using namespace infer::tools;

namespace {

constexpr const char *kHelp =
    R"(infer-bench: latency and throughput of a compiled model

USAGE
  infer-bench MODEL.so [options]

MODEL.so is a shared library built from infer-compile's output; its symbol
is `<stem>_model` (m.so -> m_model) unless --name says otherwise. Each call
of the runtime's infer_model_run, including the allocation of its outputs,
is timed (with --into, of infer_model_run_into, writing into outputs made
once).

INPUTS (pick one source; with none, inputs are random)
  --test-data DIR     the inputs of an ONNX test_data_set_N directory
                      (input_K.pb for the K-th input; outputs are ignored).
  --input NAME=FILE   the value of input NAME from a .npy or .pb file.
                      Repeat once per input.
  --seed S            seed of the random inputs (default 1).
  --int-range LO:HI   random integer inputs uniform in [LO, HI] (default
                      0:9): token ids must index their embedding table.
  --shape NAME=D0xD1  the shape of random input NAME when the model has
                      dynamic dims (default: the profile's optimal shape,
                      see infer-compile --shape-profile). Repeatable.

OPTIONS
  --name NAME         the model's name (its symbol is NAME_model).
  --intra-threads N   threads inside one run, the caller's included
                      (default 0: one per CPU; 1: the calling thread only).
                      When other work keeps the CPUs busy, runs drop to
                      fewer threads for a while (see --fixed-threads).
                      Models compiled with --parallel=openmp take
                      OMP_NUM_THREADS instead.
  --fixed-threads     every run uses all --intra-threads threads, even on a
                      busy machine (to measure what dropping threads saves).
  --warmup W          untimed calls per thread before timing (default 10).
  --iterations I      timed calls per thread (default 100).
  --into              time infer_model_run_into instead: each calling thread
                      creates its outputs once and every call writes into
                      them, so a call allocates nothing (the fixed cost of
                      a call, for tiny models). Models of static shapes.
  --threads N         threads calling the model concurrently (default 1).
                      Latency percentiles are over all N*I calls; throughput
                      is N*I over the wall time from the first timed call to
                      the last.
  --json              print one JSON object instead of the table:
                      {"model", "threads", "intra_threads", "into",
                       "warmup", "iterations",
                       "latency_ms": {"p50","p90","p99","max","mean"},
                       "throughput_per_s"}
  --no-cuda-graph     CUDA models: launch the kernels one by one instead of
                      replaying a captured CUDA graph (the default), to
                      compare the two (sets INFER_CUDA_GRAPHS=0).
  --help              show this text.

PROFILE (models compiled with infer-compile --profile)
  --profile           time each kernel (a fused op group; on a GPU each
                      launch, with CUDA events) of each run and print the
                      slowest: time, % of the run, GFLOP/s, GB/s,
                      arithmetic intensity (FLOP/B), % of the roofline
                      (the time the machine's limits allow over the time
                      taken) and a class: compute-bound (intensity above
                      the ridge point), memory-bound (below it), or
                      overhead-bound (under 10 us and under 25% of its
                      roofline: a fixed cost dominates). One calling
                      thread; --intra-threads as above.
  --top N             kernels in the table (default 20).
  --trace FILE        also write a Chrome trace of the timed runs (open it
                      in https://ui.perfetto.dev or chrome://tracing).
  --profile-json FILE also write the profile as JSON.
  --report FILE       also write a self-contained HTML report (drawn by
                      infer-report, beside infer-bench, from the JSON it
                      writes to FILE.json unless --profile-json is given).
  --batch-sweep B,... time the model at each batch size (a model compiled
                      with a dynamic leading dim, e.g. --shape-profile
                      input=1x3x224x224:8x3x224x224:16x3x224x224): p50
                      latency, ms per item and inferences/s per batch;
                      with --json, the curve infer-report --sweep draws.
  --measure-machine   measure the peak FMA rate (one core's widest FMAs
                      times the threads) and the triad memory bandwidth
                      again; without a model, only print them. Cached in
                      ~/.cache/infer/machine.txt per CPU and thread count.
  --machine-file FILE the cache file to use instead.

EXAMPLES
  infer-bench m.so --iterations 1000 --threads 4 --json
  infer-bench resnet.so --profile --trace resnet.trace.json --report r.html
  infer-bench bert.so --input input_ids=ids.npy --input attention_mask=mask.npy
)";

struct Options {
  std::string modelPath;
  std::string name;
  int64_t intraThreads = 0;
  bool fixedThreads = false;
  int64_t warmup = 10;
  int64_t iterations = 100;
  int64_t threads = 1;
  uint64_t seed = 1;
  bool json = false;
  bool into = false;
  std::vector<std::string> shapes;
  std::string testData;
  std::vector<std::string> inputs;
  IntRange ints;
  bool profile = false;
  bool measureMachine = false;
  ProfileOptions profiling;
  std::vector<int64_t> batches; // --batch-sweep
};

std::optional<Options> parseArgs(int argc, char **argv) {
  Options options;
  ArgReader args(argc, argv);
  std::string value;
  while (!args.done()) {
    if (args.flag("--help") || args.flag("-h")) {
      fmt::print("{}", kHelp);
      return std::nullopt;
    }
    if (args.option("--name", options.name)) {
      continue;
    }
    if (args.option("--intra-threads", value)) {
      options.intraThreads = parseInteger(value, "--intra-threads", 0, 1024);
      continue;
    }
    if (args.flag("--fixed-threads")) {
      options.fixedThreads = true;
      continue;
    }
    if (args.option("--warmup", value)) {
      options.warmup = parseInteger(value, "--warmup", 0, 100000000);
    } else if (args.option("--iterations", value)) {
      options.iterations = parseInteger(value, "--iterations", 1, 100000000);
    } else if (args.option("--threads", value)) {
      options.threads = parseInteger(value, "--threads", 1, 1024);
    } else if (args.option("--shape", value)) {
      options.shapes.push_back(value);
    } else if (args.option("--test-data", value)) {
      options.testData = value;
    } else if (args.option("--input", value)) {
      options.inputs.push_back(value);
    } else if (args.option("--int-range", value)) {
      options.ints = parseIntRange(value);
    } else if (args.option("--seed", value)) {
      options.seed =
          static_cast<uint64_t>(parseInteger(value, "--seed", 0, INT64_MAX));
    } else if (args.flag("--profile")) {
      options.profile = true;
    } else if (args.option("--top", value)) {
      options.profiling.top = parseInteger(value, "--top", 1, 1000000);
    } else if (args.option("--trace", options.profiling.tracePath) ||
               args.option("--profile-json", options.profiling.jsonPath) ||
               args.option("--report", options.profiling.reportPath) ||
               args.option("--machine-file", options.profiling.machineFile)) {
      continue;
    } else if (args.option("--batch-sweep", value)) {
      options.batches = parseBatches(value);
    } else if (args.flag("--measure-machine")) {
      options.measureMachine = true;
    } else if (args.flag("--json")) {
      options.json = true;
    } else if (args.flag("--into")) {
      options.into = true;
    } else if (args.flag("--no-cuda-graph")) {
      // Read by the runtime's CUDA backend when the model is loaded.
      setenv("INFER_CUDA_GRAPHS", "0", 1);
    } else if (options.modelPath.empty()) {
      options.modelPath = args.positional();
    } else {
      throw ToolError(fmt::format("unexpected argument '{}' (see --help)",
                                  args.positional()));
    }
  }
  bool profileFiles = !options.profiling.tracePath.empty() ||
                      !options.profiling.jsonPath.empty() ||
                      !options.profiling.reportPath.empty();
  if (profileFiles && !options.profile) {
    throw ToolError("--trace, --profile-json and --report need --profile");
  }
  if (!options.batches.empty() &&
      (options.profile || options.threads != 1 || options.into ||
       !options.testData.empty() || !options.inputs.empty() ||
       !options.shapes.empty())) {
    throw ToolError("--batch-sweep makes its own random inputs on one "
                    "calling thread: drop --profile, --threads, --into, "
                    "--test-data, --input and --shape");
  }
  if (options.profile && (options.threads != 1 || options.into)) {
    throw ToolError("--profile runs one calling thread into outputs made "
                    "once: drop --threads and --into");
  }
  options.profiling.modelPath = options.modelPath;
  options.profiling.warmup = options.warmup;
  options.profiling.iterations = options.iterations;
  options.profiling.remeasure = options.measureMachine;
  options.profiling.self = argv[0];
  if (options.modelPath.empty() && options.measureMachine) {
    return options;
  }
  if (options.modelPath.empty()) {
    throw ToolError("no model given; usage: infer-bench MODEL.so [options] "
                    "(see --help)");
  }
  if (!options.testData.empty() && !options.inputs.empty()) {
    throw ToolError("give inputs either with --test-data or with --input, "
                    "not both");
  }
  return options;
}

/// Releases all waiting threads at once when the last one arrives.
class StartLine {
public:
  explicit StartLine(size_t count) : remaining(count) {}
  void arriveAndWait() {
    std::unique_lock<std::mutex> lock(mutex);
    if (--remaining == 0) {
      condition.notify_all();
    } else {
      condition.wait(lock, [&] { return remaining == 0; });
    }
  }

private:
  std::mutex mutex;
  std::condition_variable condition;
  size_t remaining;
};

struct ThreadResult {
  std::vector<double> latencies; // seconds
  double start = 0, end = 0;
  std::string error;
};

void benchThread(infer_model_t model, const std::vector<infer_tensor_t> &inputs,
                 const Options &options, StartLine &startLine,
                 ThreadResult &result) {
  std::vector<infer_tensor_t> outputs(infer_model_num_outputs(model));
  auto fail = [&](infer_status_t status) {
    if (result.error.empty()) {
      result.error = infer_status_message(status);
    }
    infer_status_free(status);
    return false;
  };
  if (options.into) {
    // The outputs every call writes into, made once per thread.
    for (size_t i = 0; i < outputs.size(); ++i) {
      const infer_abi_tensor_t *declared = infer_model_output(model, i);
      if (infer_status_t status = infer_tensor_create(
              static_cast<infer_dtype_t>(declared->dtype), declared->rank,
              declared->shape, &outputs[i])) {
        fail(status);
        break;
      }
    }
  }
  auto call = [&]() -> bool {
    if (options.into) {
      infer_status_t status = infer_model_run_into(
          model, inputs.data(), inputs.size(), outputs.data(), outputs.size());
      return status ? fail(status) : true;
    }
    infer_status_t status = infer_model_run(model, inputs.data(), inputs.size(),
                                            outputs.data(), outputs.size());
    if (status) {
      return fail(status);
    }
    for (infer_tensor_t output : outputs) {
      infer_tensor_release(output);
    }
    return true;
  };
  bool ok = result.error.empty();
  for (int64_t i = 0; i < options.warmup && ok; ++i) {
    ok = call();
  }
  startLine.arriveAndWait();
  result.latencies.reserve(static_cast<size_t>(options.iterations));
  result.start = nowSeconds();
  for (int64_t i = 0; i < options.iterations && ok; ++i) {
    double before = nowSeconds();
    ok = call();
    result.latencies.push_back(nowSeconds() - before);
  }
  result.end = nowSeconds();
  if (options.into) {
    for (infer_tensor_t output : outputs) {
      infer_tensor_release(output);
    }
  }
}

/// Nearest-rank percentile of sorted values.
double percentile(const std::vector<double> &sorted, double p) {
  size_t rank = static_cast<size_t>(
      std::ceil(p / 100.0 * static_cast<double>(sorted.size())));
  return sorted[std::min(sorted.size() - 1, rank ? rank - 1 : 0)];
}

int run(int argc, char **argv) {
  std::optional<Options> parsed = parseArgs(argc, argv);
  if (!parsed) {
    return 0;
  }
  const Options &options = *parsed;
  if (options.modelPath.empty()) {
    int threads = options.intraThreads > 0
                      ? static_cast<int>(options.intraThreads)
                      : static_cast<int>(std::thread::hardware_concurrency());
    MachineLimits limits = machineLimits(
        options.profiling.machineFile.empty() ? defaultMachineFile()
                                              : options.profiling.machineFile,
        std::max(threads, 1), /*remeasure=*/true);
    fmt::print("cpu         {}\nfma         {}\nthreads     {}\n"
               "peak        {:.1f} GFLOP/s (f32)\nbandwidth   {:.1f} GB/s "
               "(triad)\n",
               limits.cpu, limits.isa, limits.threads, limits.peakGflops,
               limits.bandwidthGbs);
    return 0;
  }
  Model model = loadModel(options.modelPath, options.name, options.intraThreads,
                          options.fixedThreads);
  if (options.into && infer_model_is_dynamic(model.get())) {
    throw ToolError(fmt::format(
        "--into needs a model of static shapes: '{}' has dims known only at "
        "run time (its outputs' shapes come from each run), so time it "
        "without --into, which calls infer_model_run",
        infer_model_name(model.get())));
  }
  if (!options.batches.empty()) {
    SweepOptions sweep;
    sweep.modelPath = options.modelPath;
    sweep.batches = options.batches;
    sweep.warmup = options.warmup;
    sweep.iterations = options.iterations;
    sweep.seed = options.seed;
    sweep.ints = options.ints;
    sweep.json = options.json;
    runBatchSweep(model.get(), sweep);
    return 0;
  }
  TestCase source =
      !options.testData.empty() ? loadTestDataSet(model.get(), options.testData)
      : !options.inputs.empty() ? loadInputFiles(model.get(), options.inputs)
                                : makeRandomCase(model.get(), options.seed,
                                                 options.shapes, options.ints);
  const std::vector<Tensor> &owned = source.inputs;
  std::vector<infer_tensor_t> inputs;
  for (const Tensor &input : owned) {
    inputs.push_back(input.get());
  }

  if (options.profile) {
    runProfile(model.get(), inputs, options.profiling);
    return 0;
  }
  size_t numThreads = static_cast<size_t>(options.threads);
  std::vector<ThreadResult> results(numThreads);
  StartLine startLine(numThreads);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < numThreads; ++t) {
    threads.emplace_back(benchThread, model.get(), std::cref(inputs),
                         std::cref(options), std::ref(startLine),
                         std::ref(results[t]));
  }
  for (std::thread &thread : threads) {
    thread.join();
  }

  std::vector<double> latencies;
  double start = results[0].start, end = results[0].end;
  for (const ThreadResult &result : results) {
    if (!result.error.empty()) {
      throw ToolError(result.error);
    }
    latencies.insert(latencies.end(), result.latencies.begin(),
                     result.latencies.end());
    start = std::min(start, result.start);
    end = std::max(end, result.end);
  }
  std::sort(latencies.begin(), latencies.end());
  double sum = 0;
  for (double latency : latencies) {
    sum += latency;
  }
  double ms = 1e3;
  double p50 = percentile(latencies, 50) * ms;
  double p90 = percentile(latencies, 90) * ms;
  double p99 = percentile(latencies, 99) * ms;
  double max = latencies.back() * ms;
  double mean = sum / static_cast<double>(latencies.size()) * ms;
  double wall = std::max(end - start, 1e-9);
  double throughput = static_cast<double>(latencies.size()) / wall;

  if (options.json) {
    fmt::print("{{\"model\": {}, \"threads\": {}, \"intra_threads\": {}, "
               "\"into\": {}, \"warmup\": {}, "
               "\"iterations\": {}, \"latency_ms\": {{\"p50\": {:.6f}, "
               "\"p90\": {:.6f}, \"p99\": {:.6f}, \"max\": {:.6f}, "
               "\"mean\": {:.6f}}}, \"throughput_per_s\": {:.3f}}}\n",
               jsonString(infer_model_name(model.get())), options.threads,
               infer_model_intra_op_threads(model.get()),
               options.into ? "true" : "false", options.warmup,
               options.iterations, p50, p90, p99, max, mean, throughput);
    return 0;
  }
  fmt::print("model       {} ({})\n", infer_model_name(model.get()),
             options.modelPath);
  fmt::print("threads     {} calling, {} inside each run\n", options.threads,
             infer_model_intra_op_threads(model.get()));
  fmt::print("calls       {}\n",
             options.into ? "infer_model_run_into (outputs made once)"
                          : "infer_model_run (outputs allocated per call)");
  fmt::print("warmup      {} calls per thread\n", options.warmup);
  fmt::print("iterations  {} timed calls per thread ({} in all)\n",
             options.iterations, latencies.size());
  fmt::print("\n{:<12}{:>12}{:>12}{:>12}{:>12}{:>12}\n", "", "p50", "p90",
             "p99", "max", "mean");
  fmt::print("{:<12}{:>12.4f}{:>12.4f}{:>12.4f}{:>12.4f}{:>12.4f}\n",
             "latency ms", p50, p90, p99, max, mean);
  fmt::print("\nthroughput  {:.1f} inferences/s\n", throughput);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  try {
    return run(argc, argv);
  } catch (const ToolError &error) {
    fmt::print(stderr, "infer-bench: error: {}\n", error.what());
  } catch (const std::exception &error) {
    fmt::print(stderr, "infer-bench: internal error: {}\n", error.what());
  }
  return 1;
}
