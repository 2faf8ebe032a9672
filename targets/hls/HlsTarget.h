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
#include "targets/common/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include <string>

namespace infer::hls {

struct HlsOptions {
  double clockNs = 4.0;                      // target clock period
  std::string part = "xcu250-figd2104-2L-e"; // Alveo U250
  int64_t parallelism = 1;                   // unroll factor of pipelined loops
  bool profile = false; // time each layer in C simulation (ProfileEmitter.h)
};

/// Fused linalg on tensors (the function `top` is the model; "": the only
/// public function) -> prepared loops on memrefs with directive
/// attributes, ready for emitProject.
void buildHlsCodegenPipeline(mlir::OpPassManager &pm, const HlsOptions &options,
                             llvm::StringRef top);

/// The HLS target's options: `infer-compile --target=hls --NAME=VALUE` and
/// `infer-opt --hls-codegen="NAME=VALUE ..."`.
struct HlsTargetOptions : public targets::TargetOptions<HlsTargetOptions> {
  Option<double> clockNs{
      *this, "hls-clock-ns",
      llvm::cl::desc("Clock period in ns the directives and the estimate "
                     "assume (default 4: 250 MHz)"),
      llvm::cl::init(4.0)};
  Option<std::string> part{
      *this, "hls-part",
      llvm::cl::desc("FPGA part for run_hls.tcl (default "
                     "xcu250-figd2104-2L-e, an Alveo U250)"),
      llvm::cl::init("xcu250-figd2104-2L-e")};
  Option<int64_t> parallelism{
      *this, "hls-parallelism",
      llvm::cl::desc("Unroll pipelined loops by up to N and partition the "
                     "arrays they index, trading DSPs and LUTs for cycles "
                     "(default 1)"),
      llvm::cl::init(1)};
  Option<bool> profile{
      *this, "profile",
      llvm::cl::desc("Time each layer function in C simulation: the "
                     "testbench runs the model again and writes "
                     "NAME_profile.json (each layer's time, its ONNX nodes "
                     "and the estimated cycles); nothing changes under "
                     "synthesis"),
      llvm::cl::init(false)};
};

/// Registers the HLS target (see targets/common/Target.h).
void registerTarget();

/// Writes `<dir>/<name>.cpp`, `.h`, `<name>_weights.h`, `<name>_tb.cpp`,
/// `run_hls.tcl` and `report.json`, and prints the estimate table to
/// `summary` (when not null).
llvm::LogicalResult
emitProject(mlir::ModuleOp module, const targets::ModelSignature &signature,
            const HlsOptions &options, llvm::StringRef outputDir,
            llvm::StringRef sourceName, llvm::raw_ostream *summary);

} // namespace infer::hls

#endif // INFER_TARGETS_HLS_HLSTARGET_H
