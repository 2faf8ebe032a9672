//===- Bf16.h - --precision=bf16 and its report -----------------*- C++ -*-===//
//
// infer-compile --precision=bf16 marks the matmuls and convolutions to
// compute over bfloat16 inputs with f32 sums (infer-graph-bf16); with
// --precision-report, it also compiles the f32 and the bf16 model for this
// machine, runs both on the input sets and reports how far apart their
// outputs are.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_COMPILER_QUANTIZE_BF16_H
#define INFER_COMPILER_QUANTIZE_BF16_H

#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace infer::quantize {

struct Bf16Options {
  /// ONNX node names of layers to keep in f32
  std::vector<std::string> exclude;
  /// where the JSON report goes (empty: none)
  std::string reportPath;
  /// the input sets the report runs (see loadCalibrationSets)
  std::string setsDir;
};

mlir::LogicalResult convertToBf16(mlir::ModuleOp module,
                                  const Bf16Options &options);

} // namespace infer::quantize

#endif // INFER_COMPILER_QUANTIZE_BF16_H
