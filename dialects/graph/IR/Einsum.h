//===- Einsum.h - Einsum equations ------------------------------*- C++ -*-===//
//
// The parsed form of an Einsum equation, shared by the op's shape inference
// and its lowering.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_DIALECTS_GRAPH_IR_EINSUM_H
#define INFER_DIALECTS_GRAPH_IR_EINSUM_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace infer::graph {

/// An equation with one letter per dimension: an ellipsis spelled with
/// letters the equation does not use (the same trailing-aligned broadcast
/// dims in every term), and the implicit output (no `->`: the broadcast
/// letters, then the letters appearing once, sorted) made explicit.
struct EinsumEquation {
  llvm::SmallVector<std::string> terms;
  std::string output;
};

/// Parses `equation` (spaces ignored, letters of either case) for operands
/// of `ranks`; fails with a reason in `why` when a term does not match its
/// operand's rank, the term count differs from the operand count, or an
/// output letter appears in no term.
mlir::FailureOr<EinsumEquation> parseEinsum(llvm::StringRef equation,
                                            llvm::ArrayRef<int64_t> ranks,
                                            std::string &why);

} // namespace infer::graph

#endif // INFER_DIALECTS_GRAPH_IR_EINSUM_H
