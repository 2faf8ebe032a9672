//===- Pipelines.h - the compiler's phases as pass pipelines ----*- C++ -*-===//
//
// Each phase of infer is one named pipeline, registered so `infer-opt
// --pass-pipeline=...` or `infer-opt --graph-opt` can run it alone.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_COMPILER_PIPELINES_PIPELINES_H
#define INFER_COMPILER_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

#include <string>
#include <vector>

namespace infer {

struct GraphOptOptions : public mlir::PassPipelineOptions<GraphOptOptions> {
  ListOption<std::string> shapes{
      *this, "shape",
      llvm::cl::desc("Fix an input's shape: name=D0xD1x... (repeatable)")};
  Option<int64_t> batch{
      *this, "batch",
      llvm::cl::desc("Size for every dynamic leading (batch) dimension"),
      llvm::cl::init(0)};
  ListOption<std::string> profiles{
      *this, "profile",
      llvm::cl::desc("Shape profiles name=MIN:OPT:MAX: dims whose MIN and "
                     "MAX agree become static (repeatable)")};
  ListOption<std::string> bindings{
      *this, "bind",
      llvm::cl::desc("Fix an input to compile-time values: name=v0,v1,... "
                     "(repeatable)")};
};

/// graph-opt: static specialization (when shapes are given), shape
/// propagation, canonicalization and constant folding of shape subgraphs.
void buildGraphOptPipeline(mlir::OpPassManager &pm,
                           const GraphOptOptions &options);

struct LowerOptions : public mlir::PassPipelineOptions<LowerOptions> {
  Option<bool> checks{
      *this, "checks",
      llvm::cl::desc("Emit run-time checks (cf.assert) for what only a run "
                     "can tell (index ranges, shapes of dynamic inputs)"),
      llvm::cl::init(true)};
};

/// lower: graph ops -> linalg, tensor, arith, math (after
/// infer-prepare-entry made @main the target's entry).
void buildLowerPipeline(mlir::OpPassManager &pm, const LowerOptions &options);

/// fuse: elementwise producers fused into their consumers, on tensors.
void buildFusePipeline(mlir::OpPassManager &pm);

/// Registers every phase's pipeline by name (the targets register their
/// own `<target>-codegen`).
void registerPipelines();

} // namespace infer

#endif // INFER_COMPILER_PIPELINES_PIPELINES_H
