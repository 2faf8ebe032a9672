//===- ProfileEmitter.h - per-layer timing in HLS C simulation --*- C++ -*-===//
//
// With --profile the project times each layer call of the top function in
// C simulation: NAME.cpp wraps every call in INFER_LAYER_BEGIN/END, which
// read std::chrono's steady clock into NAME_layer_ns[] outside synthesis
// (__SYNTHESIS__ makes them empty, so the hardware is unchanged); NAME.h
// lists the layers; the testbench runs the model again and writes
// NAME_profile.json with each layer's time beside its estimated cycles.
// C simulation runs on the host CPU: the times show where a simulation's
// time goes, not an FPGA's; the estimate is the hardware's figure.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TARGETS_HLS_PROFILEEMITTER_H
#define INFER_TARGETS_HLS_PROFILEEMITTER_H

#include "targets/hls/Estimator.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace infer::hls {

/// One layer call of the top function, in call order.
struct ProfiledLayer {
  std::string function; // the layer function's name
  std::string nodes;    // its ONNX nodes, comma-separated
  int64_t estimatedCycles = 0;
};

/// The top function's layer calls, with the estimate's cycles for each.
std::vector<ProfiledLayer> profiledLayers(mlir::ModuleOp module,
                                          const Estimate &estimate);

/// Declarations for NAME.h: the counters and the layers' names.
void writeProfileDeclarations(llvm::raw_ostream &os, llvm::StringRef name,
                              llvm::ArrayRef<ProfiledLayer> layers);

/// NAME.cpp's counters and INFER_LAYER_BEGIN/END.
void writeProfileMacros(llvm::raw_ostream &os, llvm::StringRef name,
                        size_t numLayers);

/// The testbench's timed runs of `call` (the top function's call
/// statement) and its NAME_profile.json; `clockNs` converts cycles.
void writeProfileRuns(llvm::raw_ostream &os, llvm::StringRef name,
                      llvm::StringRef call, double clockNs);

} // namespace infer::hls

#endif // INFER_TARGETS_HLS_PROFILEEMITTER_H
