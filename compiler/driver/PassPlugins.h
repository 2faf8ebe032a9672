//===- PassPlugins.h - infer-compile's pass plugins and insertions -*- C++
//-*-===//
//
// A researcher's pass, built out of tree as an MLIR pass plugin (a shared
// library exporting mlirGetPassPluginInfo), runs inside infer-compile's
// pipeline without rebuilding it:
//
//   infer-compile m.onnx --load-pass-plugin=libMyPass.so \
//       --insert-pass-after=linalg:'func.func(my-pass)' -o out
//
// The pipeline text after `PHASE:` is what `--pass-pipeline` takes inside
// `builtin.module(...)`; it runs on the module once PHASE's passes have run.
// PHASE is a --compile-to name: import, graph, linalg, fuse or llvm.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_COMPILER_DRIVER_PASSPLUGINS_H
#define INFER_COMPILER_DRIVER_PASSPLUGINS_H

#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace infer {

/// Passes to run after one phase.
struct PassInsertion {
  std::string phase;    // "import", "graph", "linalg", "fuse" or "llvm"
  std::string pipeline; // textual, as inside builtin.module(...)
};

/// The phases passes may be inserted after, in pipeline order.
llvm::ArrayRef<llvm::StringRef> insertionPhases();

/// Loads each plugin, which registers its passes. False, with `error`
/// naming the file and why, when one cannot be loaded.
bool loadPassPlugins(llvm::ArrayRef<std::string> paths, std::string &error);

/// Reads `--insert-pass-after` values ("PHASE:PIPELINE"), checking the
/// phase and that the pipeline names registered passes (call after
/// loadPassPlugins). False with `error` otherwise.
bool parsePassInsertions(llvm::ArrayRef<std::string> values,
                         std::vector<PassInsertion> &out, std::string &error);

/// Appends to `pm` the pipelines inserted after `phase`, in command-line
/// order. They were checked when parsed.
void appendPassInsertions(mlir::OpPassManager &pm,
                          llvm::ArrayRef<PassInsertion> insertions,
                          llvm::StringRef phase);

} // namespace infer

#endif // INFER_COMPILER_DRIVER_PASSPLUGINS_H
