//===- KernelMarks.h - which kernel an op belongs to, for --profile -*- C++
//-*-===//
//
// `infer-mark-kernels` numbers the kernels of the fused graph (each linalg
// op, pad or control-flow op at the top of the entry function) and records
// the number and the kernel's arithmetic in the op's location:
// `loc(fused<{infer.kernel = N : i64, flops = F : f64}>[original])`
// (and `role = "pad"` or `"copy"` for data movement).
// Locations survive the rewrites between fusion and code generation (new
// ops take the location of the op they replace), so a later pass can
// still tell which kernel the code it sees came from.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TARGETS_COMMON_KERNELMARKS_H
#define INFER_TARGETS_COMMON_KERNELMARKS_H

#include "mlir/IR/Location.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace infer::targets {

inline constexpr llvm::StringLiteral kKernelMark = "infer.kernel";

struct KernelMark {
  int64_t id = 0;
  double flops = 0; // arithmetic operations of one run, 0 when unknown
  // What the kernel does for its nodes when that is not their arithmetic:
  // "pad" (their input padded), "copy" (a copy or transposition), or "".
  llvm::StringRef role;
};

/// The kernel marks in `loc`, depth-first (several where ops of different
/// kernels were fused into one).
llvm::SmallVector<KernelMark, 1> findKernelMarks(mlir::Location loc);

/// The first of them, if any.
std::optional<KernelMark> findKernelMark(mlir::Location loc);

/// Adds the ONNX nodes named inside the kernel marks in `loc` for which
/// `wanted(id)` holds to `nodes`, and their op types to `opTypes` (the
/// importer's `NameLoc(node, NameLoc(op_type))`).
void collectMarkedNodes(mlir::Location loc,
                        llvm::function_ref<bool(int64_t)> wanted,
                        llvm::SetVector<llvm::StringRef> &nodes,
                        llvm::SetVector<llvm::StringRef> &opTypes);

} // namespace infer::targets

#endif // INFER_TARGETS_COMMON_KERNELMARKS_H
