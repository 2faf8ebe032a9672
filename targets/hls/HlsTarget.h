//===- HlsTarget.h - the FPGA target: pipeline and project ------*- C++ -*-===//
//
// The HLS target lowers linalg on tensors to loops on static arrays
// (bufferize, reductions interchanged, loops, views folded), outlines one
// function per ONNX layer, chooses directives (PIPELINE, UNROLL,
// ARRAY_PARTITION, DATAFLOW) as IR attributes, then writes a Vitis-style
// project: C++ that plain g++ compiles, a C-simulation testbench, a Tcl
// script and a latency/resource estimate.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TARGETS_HLS_HLSTARGET_H
#define INFER_TARGETS_HLS_HLSTARGET_H

#include "targets/common/Signature.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include <string>

namespace infer::hls {

struct HlsOptions {
  double clockNs = 4.0;                  // target clock period
  std::string part = "xcu250-figd2104-2L-e"; // Alveo U250
  int64_t parallelism = 1;               // unroll factor of pipelined loops
};

/// Linalg on tensors (the function `top` is the model) -> prepared loops on
/// memrefs with directive attributes, ready for emitProject.
void buildHlsCodegenPipeline(mlir::OpPassManager &pm,
                             const HlsOptions &options, llvm::StringRef top);

/// Registers the HLS passes and `hls-codegen` for infer-opt.
void registerHlsPipelines();

/// Writes `<dir>/<name>.cpp`, `.h`, `<name>_weights.h`, `<name>_tb.cpp`,
/// `run_hls.tcl` and `report.json`, and prints the estimate table to
/// `summary` (when not null).
llvm::LogicalResult emitProject(mlir::ModuleOp module,
                                const targets::ModelSignature &signature,
                                const HlsOptions &options,
                                llvm::StringRef outputDir,
                                llvm::StringRef sourceName,
                                llvm::raw_ostream *summary);

} // namespace infer::hls

#endif // INFER_TARGETS_HLS_HLSTARGET_H
