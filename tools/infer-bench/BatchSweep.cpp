//===- BatchSweep.cpp - infer-bench --batch-sweep: latency vs throughput --===//

#include "tools/infer-bench/BatchSweep.h"

#include "tools/common/Args.h"
#include "tools/common/RuntimeHandles.h"
#include "tools/common/TestData.h"
#include "tools/infer-bench/Clock.h"
#include "tools/infer-bench/Profile.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <ctime>

namespace infer::tools {
namespace {

/// The --shape arguments that set every input's leading dim to `batch`
/// (other dims at the profile's optimal shape); throws when an input's
/// range leaves `batch` out or no input has a dynamic leading dim.
std::vector<std::string> batchShapes(infer_model_t model, int64_t batch) {
  std::vector<std::string> shapes;
  bool batched = false;
  for (size_t i = 0; i < infer_model_num_inputs(model); ++i) {
    const infer_abi_tensor_t *input = infer_model_input(model, i);
    if (input->rank == 0) {
      continue;
    }
    std::vector<int64_t> lo(input->rank), opt(input->rank), hi(input->rank);
    check(infer_model_input_range(model, i, lo.data(), opt.data(), hi.data()));
    if (input->shape[0] == -1) {
      if (batch < lo[0] || batch > hi[0]) {
        throw ToolError(
            fmt::format("batch {} is outside input '{}''s range [{}, {}] (its "
                        "--shape-profile at compile time)",
                        batch, input->name, lo[0], hi[0]));
      }
      opt[0] = batch;
      batched = true;
    }
    shapes.push_back(fmt::format("{}={}", input->name, fmt::join(opt, "x")));
  }
  if (!batched) {
    throw ToolError(
        "--batch-sweep needs a model whose inputs have a dynamic leading "
        "(batch) dim: compile it with e.g. infer-compile --shape-profile "
        "input=1x3x224x224:8x3x224x224:16x3x224x224");
  }
  return shapes;
}

/// Median latency in seconds of `options.iterations` calls.
double timeBatch(infer_model_t model, const SweepOptions &options,
                 int64_t batch) {
  TestCase source = makeRandomCase(model, options.seed,
                                   batchShapes(model, batch), options.ints);
  std::vector<infer_tensor_t> inputs;
  for (const Tensor &input : source.inputs) {
    inputs.push_back(input.get());
  }
  std::vector<infer_tensor_t> outputs(infer_model_num_outputs(model));
  std::vector<double> latencies;
  for (int64_t i = 0; i < options.warmup + options.iterations; ++i) {
    double before = nowSeconds();
    check(infer_model_run(model, inputs.data(), inputs.size(), outputs.data(),
                          outputs.size()));
    double after = nowSeconds();
    for (infer_tensor_t output : outputs) {
      infer_tensor_release(output);
    }
    if (i >= options.warmup) {
      latencies.push_back(after - before);
    }
  }
  std::sort(latencies.begin(), latencies.end());
  return latencies[latencies.size() / 2];
}

} // namespace

std::vector<int64_t> parseBatches(const std::string &text) {
  std::vector<int64_t> batches;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    std::string item = text.substr(
        start, comma == std::string::npos ? std::string::npos : comma - start);
    int64_t batch = parseInteger(item, "--batch-sweep", 1, 1 << 20);
    if (!batches.empty() && batch <= batches.back()) {
      throw ToolError("--batch-sweep takes increasing batch sizes, e.g. "
                      "1,2,4,8");
    }
    batches.push_back(batch);
    if (comma == std::string::npos) {
      break;
    }
    start = comma + 1;
  }
  return batches;
}

void runBatchSweep(infer_model_t model, const SweepOptions &options) {
  std::vector<double> latencies;
  for (int64_t batch : options.batches) {
    latencies.push_back(timeBatch(model, options, batch));
  }
  if (options.json) {
    std::string rows;
    for (size_t i = 0; i < latencies.size(); ++i) {
      rows +=
          fmt::format("{}{{\"batch\": {}, \"latency_p50_ms\": {:.6f}, "
                      "\"throughput_per_s\": {:.3f}}}",
                      i ? ", " : "", options.batches[i], latencies[i] * 1e3,
                      static_cast<double>(options.batches[i]) / latencies[i]);
    }
    fmt::print("{{\"model\": {}, \"intra_threads\": {}, \"iterations\": {}, "
               "\"batch_sweep\": [{}]}}\n",
               jsonString(infer_model_name(model)),
               infer_model_intra_op_threads(model), options.iterations, rows);
    return;
  }
  fmt::print("model       {} ({})\n", infer_model_name(model),
             options.modelPath);
  fmt::print(
      "threads     {} inside each run; {} timed calls per batch size\n\n",
      infer_model_intra_op_threads(model), options.iterations);
  fmt::print("{:>8}{:>14}{:>14}{:>16}\n", "batch", "p50 ms", "ms per item",
             "inferences/s");
  for (size_t i = 0; i < latencies.size(); ++i) {
    double batch = static_cast<double>(options.batches[i]);
    fmt::print("{:>8}{:>14.4f}{:>14.4f}{:>16.1f}\n", options.batches[i],
               latencies[i] * 1e3, latencies[i] * 1e3 / batch,
               batch / latencies[i]);
  }
}

} // namespace infer::tools
