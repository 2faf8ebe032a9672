//===- HoistParallelAllocas.cpp - per-thread buffers of parallel loops ----===//
//
// The contraction kernels give each iteration of a parallel panel loop its
// own stack buffer (a memref.alloca in the loop body). convert-scf-to-openmp
// wraps every body in a memref.alloca_scope, which must stay one block; so
// the buffer moves to the entry of the enclosing omp.parallel region, which
// each thread runs once: one buffer per thread, reused by every iteration
// the thread takes, and the scope (now without allocas) folds away.
//
//===----------------------------------------------------------------------===//

#include "targets/cpu/Passes.h"

#include "mlir/Dialect/OpenMP/OpenMPDialect.h"

using namespace mlir;

namespace infer::cpu {
#define GEN_PASS_DEF_HOISTPARALLELALLOCASPASS
#include "targets/cpu/Passes.h.inc"

namespace {

struct HoistParallelAllocasPass final
    : impl::HoistParallelAllocasPassBase<HoistParallelAllocasPass> {
  void runOnOperation() override {
    SmallVector<memref::AllocaOp> allocas;
    getOperation().walk([&](memref::AllocaOp alloca) {
      auto scope = dyn_cast<memref::AllocaScopeOp>(alloca->getParentOp());
      if (scope && alloca.getType().hasStaticShape() &&
          alloca->getNumOperands() == 0 &&
          scope->getParentOfType<omp::ParallelOp>()) {
        allocas.push_back(alloca);
      }
    });
    for (memref::AllocaOp alloca : allocas) {
      auto parallel = alloca->getParentOfType<omp::ParallelOp>();
      Block &entry = parallel.getRegion().front();
      alloca->moveBefore(&entry, entry.begin());
    }
  }
};

} // namespace
} // namespace infer::cpu
