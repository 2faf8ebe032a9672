//===- Profile.h - infer-bench --profile: where a run's time goes -*- C++
//-*-===//
//
// Runs a model compiled with `infer-compile --profile`, sums each run's
// segments per kernel, and judges each kernel against the machine's
// roofline: compute-bound when its arithmetic intensity (FLOPs per byte
// it must move) is above the ridge point (peak FLOP/s over bandwidth),
// memory-bound below it, overhead-bound when it is short (under 10 us)
// and the roofline would allow it under a quarter of the time it took
// (a fixed cost dominates, not FLOPs or bytes).
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TOOLS_INFER_BENCH_PROFILE_H
#define INFER_TOOLS_INFER_BENCH_PROFILE_H

#include "infer/runtime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace infer::tools {

struct ProfileOptions {
  std::string modelPath;
  int64_t warmup = 10;
  int64_t iterations = 100;
  int64_t top = 20;        // kernels in the printed table
  std::string tracePath;   // Chrome trace (Trace Event Format JSON)
  std::string jsonPath;    // the whole profile as JSON
  std::string reportPath;  // HTML, drawn by infer-report from the JSON
  std::string machineFile; // cached machine limits
  bool remeasure = false;  // measure the machine again
  std::string self;        // argv[0], to find infer-report beside it
};

/// `text` as a JSON string literal.
std::string jsonString(const std::string &text);

/// Profiles `model` on `inputs`; prints the table and writes the files
/// asked for. Throws ToolError.
void runProfile(infer_model_t model, const std::vector<infer_tensor_t> &inputs,
                const ProfileOptions &options);

} // namespace infer::tools

#endif // INFER_TOOLS_INFER_BENCH_PROFILE_H
