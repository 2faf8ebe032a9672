//===- KernelTable.h - the kernel table of a --profile artifact -*- C++ -*-===//
//
// The targets' instrumentation passes (infer-cpu-profile-stamps,
// infer-cuda-profile-launches) split a model's code into segments, each
// spent in one kernel, and describe the kernels in the module attribute
// `infer.profile`, which readKernelProfile (Signature.h) turns into the
// artifact's infer_abi_profile_t:
//
//   {kernels = [{name, nodes, op_types, flops, bytes}, ...],
//    segments = array<i64: kernel index per segment>, offset = stamps}
//
// A kernel is one infer-mark-kernels mark with code of its own; a kernel
// whose code now sits inside another's (an elementwise consumer fused into
// a contraction's epilogue) is merged into the first kernel whose code
// holds it: its nodes and arithmetic are counted there.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TARGETS_COMMON_KERNELTABLE_H
#define INFER_TARGETS_COMMON_KERNELTABLE_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Value.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace infer::targets {

class KernelTable {
public:
  /// The kernel of code that runs before any marked kernel.
  static constexpr int64_t kUnmarked = -1;

  /// Declares that kernel `id` has code of its own (kernels are listed in
  /// the order of their first declaration).
  void declare(int64_t id) { kernels[id]; }
  bool hasCode(int64_t id) const { return kernels.contains(id); }

  /// Sets the role ("pad", "copy") shown after kernel `id`'s op types.
  void setRole(int64_t id, llvm::StringRef role) { kernels[id].role = role; }

  /// Counts an op at `loc` running in kernel `current`'s code: its marks'
  /// FLOPs (each mark once) and ONNX nodes, for `current`'s own mark and
  /// for kernels without code of their own. Returns false, counting
  /// nothing, when the op's first mark is another kernel with code of its
  /// own (it was moved here and counts there).
  bool attribute(mlir::Location loc, int64_t current);

  /// Adds the bytes of `buffer` (a statically shaped memref) to kernel
  /// `current`, once per buffer.
  void addBuffer(int64_t current, mlir::Value buffer);

  /// The position of kernel `id` in the table.
  int64_t indexOf(int64_t id) const;

  /// The `infer.profile` attribute: the table, `segments` (kernel
  /// positions, one per segment) and the stamps' workspace `offset`.
  mlir::DictionaryAttr toAttr(mlir::Builder &b,
                              llvm::ArrayRef<int64_t> segments,
                              int64_t offset) const;

private:
  struct Kernel {
    double flops = 0;
    int64_t bytes = 0;
    llvm::SetVector<llvm::StringRef> nodes, opTypes; // owned by the context
    llvm::DenseSet<int64_t> marks;                   // counted in `flops`
    llvm::DenseSet<mlir::Value> buffers;             // counted in `bytes`
    llvm::StringRef role;
  };
  llvm::MapVector<int64_t, Kernel> kernels;
  llvm::DenseMap<int64_t, int64_t> mergedInto;
};

} // namespace infer::targets

#endif // INFER_TARGETS_COMMON_KERNELTABLE_H
