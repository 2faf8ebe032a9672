//===- UnplanFusedOutputs.cpp - outputs the kernels never write -----------===//
//
// A contraction whose elementwise consumer its kernel computes as an
// epilogue stores the consumer's result from registers: its own output C
// is never written, when the kernel runs over one k-block (no partial sums
// stored between blocks) and starts from the value of C's initializing
// fill (which the kernel erases), not from values read from C. Planned,
// each such C took workspace memory beside the buffers live around it:
// mobilenet_v2's 41 of them made its workspace 10.6 MB instead of 6.2
// (PP-OCRv4 det's 32.9 instead of 23.2). Their allocations are marked
// `infer.unplanned` here, which infer-plan-workspace leaves out, and move
// to the start of the function; once the kernels are made nothing uses
// them and canonicalization removes them.
//
//===----------------------------------------------------------------------===//

#include "targets/cpu/BufferViews.h"
#include "targets/cpu/ContractionMatch.h"
#include "targets/cpu/Epilogue.h"
#include "targets/cpu/KernelBuilder.h"
#include "targets/cpu/Passes.h"

#include "targets/common/Passes.h"

using namespace mlir;

namespace infer::cpu {
#define GEN_PASS_DEF_UNPLANFUSEDOUTPUTSPASS
#include "targets/cpu/Passes.h.inc"

namespace {

struct UnplanFusedOutputsPass final
    : impl::UnplanFusedOutputsPassBase<UnplanFusedOutputsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    if (fn.getBody().empty()) {
      return;
    }
    Block &entry = fn.getBody().front();
    fn.walk([&](linalg::LinalgOp op) {
      std::optional<Contraction> c =
          kernelContraction(op, vectorBits, KernelBuilder::kMaxRowTaps);
      // (The f32 kernels; the 8-bit and bf16 ones keep their C.)
      if (!c || !c->element.isF32() || c->byteDot || c->accElement ||
          ShapedType::isDynamic(c->k) || ShapedType::isDynamic(c->n) ||
          c->k > reductionBlock(*c, kBlock, tileRowsFor(vectorBits), l2Bytes) ||
          !initializingFill(op) || !matchEpilogue(op, c->n)) {
        return;
      }
      auto alloc = viewRoot(op.getDpsInitOperand(0)->get())
                       .getDefiningOp<memref::AllocOp>();
      if (alloc && alloc->getBlock() == &entry &&
          alloc.getType().hasStaticShape()) {
        alloc->setAttr(targets::kUnplannedAttr, UnitAttr::get(&getContext()));
        // Out of the way of the passes that look at the ops around a
        // kernel (its epilogue, the border fills it adopts), which the
        // planner leaves as views.
        alloc->moveBefore(&entry.front());
      }
    });
  }
};

} // namespace
} // namespace infer::cpu
