//===- Epilogue.h - elementwise consumers fused into a kernel's store -*- C++
//-*-===//
//
// The elementwise op that consumes a contraction's result (bias, BatchNorm
// folded to a scale and shift, Relu, Clip, residual Add, ...) applied to
// the accumulators of the last k-block while they are in registers, and
// stored straight to that op's output: C is never written and re-read.
//
// Taken when the consumer is the next op after the contraction (views
// aside), reads C through an identity map over C's elements in C's order,
// is C's only reader, reads its other operands either broadcast along C's
// rows (a per-channel bias) or in C's element order (a residual), writes an
// output in C's order (contiguous, or a padded buffer's interior: rows of
// unit-stride runs) that overlaps none of the contraction's operands, and
// has a body of arith/math ops only.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TARGETS_CPU_EPILOGUE_H
#define INFER_TARGETS_CPU_EPILOGUE_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/IRMapping.h"

#include <optional>

namespace infer::cpu {

struct Epilogue {
  mlir::linalg::GenericOp op;
  /// The consumer's input that reads C.
  unsigned cInput = 0;
  /// The consumer's loop ranges; dims [split, end) cover one row of C
  /// (the N dims), dims [0, split) its batch and M dims.
  llvm::SmallVector<int64_t> domain;
  size_t split = 0;
  /// Per consumer operand (inputs, then the output): elements per unit of
  /// each consumer dim, and whether it varies along a row of C.
  struct Operand {
    llvm::SmallVector<int64_t> coefficients;
    bool alongRow = false;
    /// Along a row of C, consecutive within each of the consumer's
    /// innermost rows but not across them: a padded buffer's interior,
    /// stored (the output) or loaded (an input) as one masked access per
    /// run.
    bool runs = false;
  };
  llvm::SmallVector<Operand> operands;
  /// (A runs output: the interior of a padded buffer.) The border columns
  /// beside the interior's rows, stored with the rows the epilogue writes
  /// (their lines are in L1 then) instead of by their own fills: the
  /// elements on each side and their value (null: left to the fill).
  struct Border {
    mlir::Value value;
    int64_t count = 0;
  };
  Border left, right;
  /// The padded buffer, and the interior's first element in it.
  mlir::Value padded;
  int64_t interiorOffset = 0;
};

/// The consumer of contraction `op` (whose C has `rowLength` elements per
/// row) that can run as its epilogue, or nullopt.
std::optional<Epilogue> matchEpilogue(mlir::linalg::LinalgOp op,
                                      int64_t rowLength);

/// For an epilogue that stores into a padded buffer's interior, the fills
/// of the border columns beside the interior's rows (as
/// infer-cpu-pad-borders leaves them: after the consumer, nothing reading
/// the buffer in between) whose value is defined before `kernel`: they are
/// recorded in `epilogue` for emitEpilogue to store, and returned for the
/// caller to erase.
llvm::SmallVector<mlir::Operation *> adoptBorderFills(Epilogue &epilogue,
                                                      mlir::Operation *kernel);

/// Erases `fills` (adopted border fills, or a batch's), and each one's
/// view when nothing else uses it.
void eraseFills(llvm::ArrayRef<mlir::Operation *> fills);

/// The elementwise `body` (arith/math ops on scalars) on vectors of
/// `length` lanes, its arguments mapped to vectors in `mapping`; values
/// from outside it are broadcast. Returns the vector of the value yielded
/// first.
mlir::Value vectorizeBody(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Block &body, mlir::IRMapping &mapping,
                          int64_t length);

/// Applies `epilogue` to `acc`, the accumulators of C's row `row` (the
/// linear index of its batch and M indices) at columns n0.. (a multiple of
/// `columnStep`; `mask`: the valid lanes, or null), and stores the result
/// to the consumer's output. Lanes from `valid` on (default: all) hold no
/// columns of this row's panel, even before C's end. With
/// `prefetchElements`, the lines that far past the row's store are
/// prefetched for writing (the tile's next panels). With `registerLanes`
/// (the lanes of one register), an output of runs (a padded interior)
/// whose rows hold whole registers stores register by register. With
/// `rowParts` (one per consumer dim before `split`), the row's index in
/// each of those dims, used instead of dividing `row` (a depthwise
/// convolution's channel and output row: two divisions a row).
void emitEpilogue(mlir::OpBuilder &b, mlir::Location loc,
                  const Epilogue &epilogue, mlir::Value acc, mlir::Value row,
                  mlir::Value n0, int64_t columnStep, mlir::Value mask,
                  int64_t valid = 0, int64_t prefetchElements = 0,
                  int64_t registerLanes = 0,
                  mlir::ArrayRef<mlir::Value> rowParts = {});

} // namespace infer::cpu

#endif // INFER_TARGETS_CPU_EPILOGUE_H
