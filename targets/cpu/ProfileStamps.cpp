//===- ProfileStamps.cpp - cycle-counter stamps between kernels -----------===//
//
// With --profile the entry function reads the cycle counter where one
// kernel's code ends and the next one's begins, and stores the count in a
// slot of the workspace:
//
//   stamp 0; kernel of segment 0; stamp 1; ...; stamp S; return
//
// so every op of a run falls in exactly one segment and the segments'
// times add up to the run's. A segment is a maximal run of top-level ops
// that do work (write memory or hold regions) and carry the same kernel
// mark (infer-mark-kernels); ops without a mark belong to the segment
// they follow. A kernel whose code now sits inside another's (an
// elementwise consumer fused into a contraction's epilogue) is merged
// into it: its nodes and arithmetic are counted there.
//
//===----------------------------------------------------------------------===//

#include "targets/common/KernelMarks.h"
#include "targets/common/KernelTable.h"
#include "targets/cpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace infer::cpu {
#define GEN_PASS_DEF_PROFILESTAMPSPASS
#include "targets/cpu/Passes.h.inc"

namespace {

constexpr int64_t kAlignment = 64;
constexpr int64_t kUnmarked = targets::KernelTable::kUnmarked;

bool doesWork(Operation *op) {
  return !isMemoryEffectFree(op) &&
         !isa<memref::AllocOp, memref::AllocaOp, memref::DeallocOp>(op);
}

struct ProfileStampsPass final
    : impl::ProfileStampsPassBase<ProfileStampsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp fn;
    for (auto candidate : module.getOps<func::FuncOp>()) {
      if (candidate.isPublic() && !candidate.isExternal()) {
        fn = candidate;
      }
    }
    auto size = module->getAttrOfType<IntegerAttr>("infer.workspace_size");
    if (!fn || !size) {
      module.emitError("--profile needs the planned entry function "
                       "(infer-plan-workspace did not run)");
      return signalPassFailure();
    }
    // The workspace is the last argument, before the status if any.
    unsigned index =
        fn.getNumArguments() - 1 - (module->hasAttr("infer.errors") ? 1 : 0);
    BlockArgument workspace = fn.getArgument(index);
    auto type = dyn_cast<MemRefType>(workspace.getType());
    if (!type || type.getRank() != 1 || !type.getElementType().isInteger(8) ||
        type.getDimSize(0) != size.getInt()) {
      fn.emitError("--profile: the workspace is not argument ") << index;
      return signalPassFailure();
    }

    Block &entry = fn.getBody().front();
    SmallVector<std::pair<Operation *, int64_t>> segments; // first op, kernel
    for (Operation &op : entry.without_terminator()) {
      if (!doesWork(&op)) {
        continue;
      }
      std::optional<targets::KernelMark> mark =
          targets::findKernelMark(op.getLoc());
      int64_t id =
          mark ? mark->id
               : (segments.empty() ? kUnmarked : segments.back().second);
      if (segments.empty() || segments.back().second != id) {
        segments.push_back({&op, id});
      }
    }
    targets::KernelTable kernels; // in order of first run
    for (auto [op, id] : segments) {
      kernels.declare(id);
    }
    int64_t current = kUnmarked;
    for (Operation &op : entry.without_terminator()) {
      if (!doesWork(&op)) {
        continue;
      }
      if (auto mark = targets::findKernelMark(op.getLoc())) {
        current = mark->id;
        kernels.setRole(current, mark->role);
      }
      op.walk([&](Operation *inner) {
        if (!kernels.attribute(inner->getLoc(), current)) {
          return;
        }
        for (Value operand : inner->getOperands()) {
          Operation *owner = operand.getParentBlock()->getParentOp();
          if (operand != workspace && !op.isAncestor(owner)) {
            kernels.addBuffer(current, operand);
          }
        }
      });
    }

    // The stamps: S + 1 counters after the planned buffers.
    int64_t offset = (size.getInt() + kAlignment - 1) / kAlignment * kAlignment;
    int64_t count = static_cast<int64_t>(segments.size()) + 1;
    auto grown = MemRefType::get({offset + 8 * count}, type.getElementType());
    workspace.setType(grown);
    SmallVector<Type> inputs(fn.getArgumentTypes());
    inputs[index] = grown;
    fn.setType(FunctionType::get(&getContext(), inputs, fn.getResultTypes()));
    OpBuilder b(&entry, entry.begin());
    Location loc = fn.getLoc();
    Value stamps = memref::ViewOp::create(
        b, loc, MemRefType::get({count}, b.getI64Type()), workspace,
        arith::ConstantIndexOp::create(b, loc, offset), ValueRange{});
    auto stamp = [&](Operation *before, int64_t slot) {
      b.setInsertionPoint(before);
      Value ticks = LLVM::CallIntrinsicOp::create(
                        b, loc, b.getI64Type(),
                        b.getStringAttr("llvm.readcyclecounter"), ValueRange{})
                        .getResult(0);
      memref::StoreOp::create(
          b, loc, ticks, stamps,
          arith::ConstantIndexOp::create(b, loc, slot).getResult());
    };
    SmallVector<int64_t> order;
    for (auto [i, segment] : llvm::enumerate(segments)) {
      stamp(segment.first, i);
      order.push_back(kernels.indexOf(segment.second));
    }
    stamp(entry.getTerminator(), count - 1);

    module->setAttr("infer.workspace_size",
                    b.getI64IntegerAttr(grown.getDimSize(0)));
    module->setAttr("infer.profile", kernels.toAttr(b, order, offset));
  }
};

} // namespace
} // namespace infer::cpu
