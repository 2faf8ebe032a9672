//===- Estimator.h - latency and resource estimate of a project -*- C++ -*-===//
//
// Reads the prepared module (layers with their directives) and estimates
// what a synthesis tool would report: cycles per layer and in total, and
// DSP, BRAM, LUT and FF counts, from the per-op cost model. The model is
// documented in docs/design/hls.md.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TARGETS_HLS_ESTIMATOR_H
#define INFER_TARGETS_HLS_ESTIMATOR_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace infer::hls {

struct Resources {
  int64_t dsp = 0;
  int64_t bram18k = 0;
  int64_t lut = 0;
  int64_t ff = 0;
  Resources &operator+=(const Resources &other);
};

struct LayerEstimate {
  std::string name;
  std::vector<std::string> nodes;
  int64_t latency = 0; // cycles
  Resources resources;
};

struct Estimate {
  double clockNs = 4.0;
  std::vector<LayerEstimate> layers;
  Resources buffers; // the top function's arrays and the weights
  Resources total;
  int64_t latency = 0;  // cycles from start to done
  int64_t interval = 0; // cycles between starts (DATAFLOW overlaps layers)
  bool dataflow = false;
  std::string dataflowBlocked;
};

Estimate estimate(mlir::ModuleOp module, double clockNs);

/// The estimate as report.json's object.
llvm::json::Value toJson(const Estimate &estimate, llvm::StringRef model,
                         llvm::StringRef part);

/// A table, one row per layer, then the totals.
void printTable(const Estimate &estimate, llvm::raw_ostream &os);

} // namespace infer::hls

#endif // INFER_TARGETS_HLS_ESTIMATOR_H
