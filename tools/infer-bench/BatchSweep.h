//===- BatchSweep.h - infer-bench --batch-sweep: latency vs throughput -*- C++
//-*-===//
//
// Runs a model compiled with a dynamic batch dim at several batch sizes:
// one call's latency against the inferences per second it gives, the
// trade-off a serving configuration picks a point on.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TOOLS_INFER_BENCH_BATCHSWEEP_H
#define INFER_TOOLS_INFER_BENCH_BATCHSWEEP_H

#include "tools/common/RandomInputs.h"

#include "infer/runtime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace infer::tools {

struct SweepOptions {
  std::string modelPath;
  std::vector<int64_t> batches;
  int64_t warmup = 10;
  int64_t iterations = 100;
  uint64_t seed = 1;
  IntRange ints;
  bool json = false;
};

/// Parses "1,2,4,8" (positive, increasing); throws ToolError.
std::vector<int64_t> parseBatches(const std::string &text);

/// Times `model` at each batch size on random inputs and prints a table
/// (or, with `json`, {"model", "intra_threads", "batch_sweep": [{"batch",
/// "latency_p50_ms", "throughput_per_s"}]}, which infer-report --sweep
/// draws). Throws ToolError.
void runBatchSweep(infer_model_t model, const SweepOptions &options);

} // namespace infer::tools

#endif // INFER_TOOLS_INFER_BENCH_BATCHSWEEP_H
