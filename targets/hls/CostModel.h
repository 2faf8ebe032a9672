//===- CostModel.h - latency and resources of one HLS operation -*- C++ -*-===//
//
// A first-order model of what an operation costs once a high-level
// synthesis tool maps it to an FPGA: its latency in cycles at a clock
// period, and the DSP slices, LUTs and flip-flops of one instance. The
// numbers approximate the floating-point and integer cores Vitis HLS
// instantiates on UltraScale+ parts at 250 MHz (4 ns), scaled by the clock;
// docs/design/hls.md says where they come from and how far to trust them.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TARGETS_HLS_COSTMODEL_H
#define INFER_TARGETS_HLS_COSTMODEL_H

#include "mlir/IR/Operation.h"

namespace infer::hls {

struct OpCost {
  int64_t latency = 0; // cycles from operands to result
  int64_t dsp = 0;
  int64_t lut = 0;
  int64_t ff = 0;
};

/// The cost of one instance of `op` at a clock period of `clockNs`.
/// Structural ops (loops, constants, yields) cost nothing.
OpCost opCost(mlir::Operation *op, double clockNs);

} // namespace infer::hls

#endif // INFER_TARGETS_HLS_COSTMODEL_H
