//===- Quantizer.h - post-training int8 quantization in the compiler -*- C++
//-*-===//
//
// `infer-compile --quantize=int8 --calibration=DIR`: the float model,
// after graph-opt, is compiled by infer for this machine with the
// tensors around each Conv and MatMul appended to its outputs, run over
// the calibration sets to measure their ranges, and rewritten with QDQ
// around every one the int8 kernels run (infer-graph-quantize), which
// graph-level folding then makes QLinearConv / QLinearMatMul. Grouped and
// depthwise convolutions, MatMuls of two activations, and all other ops
// stay float.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_COMPILER_QUANTIZE_QUANTIZER_H
#define INFER_COMPILER_QUANTIZE_QUANTIZER_H

#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace infer::quantize {

struct QuantizeOptions {
  /// input sets (see loadCalibrationSets)
  std::string calibrationDir;
  /// "minmax" or "percentile"
  std::string method = "minmax";
  /// for "percentile": the share of values kept inside the range at each end
  double percentile = 99.99;
  /// ONNX node names of Convs and MatMuls to keep float
  std::vector<std::string> exclude;
  /// where the JSON report goes (empty: none)
  std::string reportPath;
  /// above 0: layers whose output's relative RMS error against the float
  /// model exceeds it stay float
  double maxError = 0.0;
};

/// Quantizes the graph-level `module` (static shapes, after graph-opt) in
/// place. Errors are emitted as diagnostics.
mlir::LogicalResult quantizeInt8(mlir::ModuleOp module,
                                 const QuantizeOptions &options);

} // namespace infer::quantize

#endif // INFER_COMPILER_QUANTIZE_QUANTIZER_H
