//===- Passes.h - loop-level transforms shared by targets -------*- C++ -*-===//

#ifndef INFER_PASSES_LOOPS_PASSES_H
#define INFER_PASSES_LOOPS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Pass/Pass.h"

namespace infer::loops {

#define GEN_PASS_DECL
#include "passes/loops/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/loops/Passes.h.inc"

} // namespace infer::loops

#endif // INFER_PASSES_LOOPS_PASSES_H
