//===- PlanWorkspace.cpp - intermediate buffers in one planned workspace --===//
//
// After bufferization every intermediate tensor is a `memref.alloc`.
// Results computed into a buffer that is then copied to an output are
// computed into the output directly. For
// the static ones in the entry block this pass computes when each is live
// (from its allocation to the last use of it or of any view of it, uses in
// nested regions counting at their enclosing top-level op), packs them
// into one byte buffer so buffers whose lifetimes do not overlap share
// memory, and replaces each allocation with a `memref.view` at its offset.
// The buffer becomes a new last argument of the function; its size is
// recorded on the module for the artifact's header and ABI constant.
// Allocations marked `infer.unplanned` (kUnplannedAttr) are left out.
//
//===----------------------------------------------------------------------===//

#include "targets/common/MemRefBytes.h"
#include "targets/common/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include <algorithm>

using namespace mlir;

namespace infer::targets {
#define GEN_PASS_DEF_PLANWORKSPACEPASS
#include "targets/common/Passes.h.inc"

namespace {

constexpr int64_t kAlignment = 64;

int64_t alignUp(int64_t bytes) {
  return (bytes + kAlignment - 1) / kAlignment * kAlignment;
}

struct Buffer {
  memref::AllocOp alloc;
  int64_t bytes = 0;
  int64_t first = 0, last = 0; // positions in the entry block
  int64_t offset = -1;
};

/// True when `value` is the source of a view whose result aliases it.
bool isViewOf(Operation *user, Value value) {
  if (auto view = dyn_cast<ViewLikeOpInterface>(user)) {
    return view.getViewSource() == value;
  }
  return isa<memref::ReshapeOp, memref::CastOp>(user);
}

/// The last entry-block position at which `value` or a view of it is used;
/// fails when it escapes (returned or passed to a call).
FailureOr<int64_t> lastUse(Value value, Block &entry,
                           const DenseMap<Operation *, int64_t> &position) {
  int64_t last = -1;
  SmallVector<Value> worklist = {value};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (isa<func::ReturnOp, CallOpInterface>(user)) {
        return failure();
      }
      if (isViewOf(user, v)) {
        for (Value result : user->getResults()) {
          worklist.push_back(result);
        }
      }
      Operation *top = entry.findAncestorOpInBlock(*user);
      if (!top) {
        return failure();
      }
      last = std::max(last, position.lookup(top));
    }
  }
  return last;
}

/// A contraction, or another op a target's kernel may run with its
/// elementwise consumer as an epilogue (marked so by the target: the CPU's
/// Winograd output transform).
bool isContraction(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp && (linalgOp.getNumReductionLoops() > 0 ||
                      op->hasAttr("infer.epilogue_host"));
}

bool isElementwise(Operation *op) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  return generic && generic.getNumParallelLoops() == generic.getNumLoops();
}

/// Bytes of a buffer the plan can place: static, with the identity layout.
std::optional<int64_t> staticBytes(MemRefType type) {
  return type.getLayout().isIdentity() ? memrefBytes(type) : std::nullopt;
}

/// First-fit by decreasing size: each buffer goes at the lowest aligned
/// offset that overlaps no placed buffer live at the same time.
int64_t assignOffsets(MutableArrayRef<Buffer> buffers) {
  SmallVector<Buffer *> order;
  for (Buffer &buffer : buffers) {
    order.push_back(&buffer);
  }
  llvm::stable_sort(order,
                    [](Buffer *a, Buffer *b) { return a->bytes > b->bytes; });
  SmallVector<Buffer *> placed;
  int64_t total = 0;
  for (Buffer *buffer : order) {
    SmallVector<std::pair<int64_t, int64_t>> busy;
    for (Buffer *other : placed) {
      if (other->first <= buffer->last && buffer->first <= other->last) {
        busy.push_back({other->offset, other->offset + other->bytes});
      }
    }
    llvm::sort(busy);
    int64_t offset = 0;
    for (auto [begin, end] : busy) {
      if (offset + buffer->bytes <= begin) {
        break;
      }
      offset = std::max(offset, alignUp(end));
    }
    buffer->offset = offset;
    total = std::max(total, offset + buffer->bytes);
    placed.push_back(buffer);
  }
  return alignUp(total);
}

struct PlanWorkspacePass final
    : impl::PlanWorkspacePassBase<PlanWorkspacePass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> entries;
    for (auto fn : module.getOps<func::FuncOp>()) {
      if (fn.isPublic() && !fn.isExternal()) {
        entries.push_back(fn);
      }
    }
    if (entries.size() > 1) {
      module.emitError("workspace planning expects one entry function, found ")
          << entries.size();
      return signalPassFailure();
    }
    int64_t size = entries.empty() ? 0 : plan(entries.front());
    module->setAttr(
        "infer.workspace_size",
        IntegerAttr::get(IntegerType::get(&getContext(), 64), size));
  }

  /// Out-params are filled by `memref.copy %alloc, %out` at the end; when
  /// the copy is the output argument's only use and the types match, the
  /// result is computed into the output directly and the copy goes away.
  void writeResultsInPlace(func::FuncOp fn) {
    SmallVector<memref::CopyOp> copies;
    for (auto copy : fn.getBody().front().getOps<memref::CopyOp>()) {
      copies.push_back(copy);
    }
    for (memref::CopyOp copy : copies) {
      auto alloc = copy.getSource().getDefiningOp<memref::AllocOp>();
      auto out = dyn_cast<BlockArgument>(copy.getTarget());
      if (!alloc || !out || out.getOwner() != &fn.getBody().front() ||
          !out.hasOneUse() || alloc.getType() != out.getType() ||
          alloc->getBlock() != copy->getBlock()) {
        continue;
      }
      // Nothing may use the buffer after the copy.
      bool usedAfter = llvm::any_of(alloc->getUsers(), [&](Operation *user) {
        Operation *top = copy->getBlock()->findAncestorOpInBlock(*user);
        return user != copy && (!top || copy->isBeforeInBlock(top));
      });
      if (usedAfter) {
        continue;
      }
      copy.erase();
      alloc.replaceAllUsesWith(out);
      alloc.erase();
    }
  }

  int64_t plan(func::FuncOp fn) {
    writeResultsInPlace(fn);
    Block &entry = fn.getBody().front();
    DenseMap<Operation *, int64_t> position;
    int64_t index = 0;
    for (Operation &op : entry) {
      position[&op] = index++;
    }
    // Per position, where a buffer last used there stops being live: the
    // position itself, or for a contraction followed by an elementwise op
    // (views, constants and allocations between them), that op.
    SmallVector<int64_t> liveUntil(index);
    Operation *next = nullptr;
    for (Operation &op : llvm::reverse(entry)) {
      int64_t at = position.lookup(&op);
      liveUntil[at] =
          liveThroughNextOp && next && isContraction(&op) && isElementwise(next)
              ? position.lookup(next)
              : at;
      if (!isa<ViewLikeOpInterface, memref::ReshapeOp, memref::AllocOp>(&op) &&
          !op.hasTrait<OpTrait::ConstantLike>()) {
        next = &op;
      }
    }
    SmallVector<Buffer> buffers;
    for (auto alloc : entry.getOps<memref::AllocOp>()) {
      std::optional<int64_t> bytes = staticBytes(alloc.getType());
      if (!bytes || *bytes == 0 || alloc->hasAttr(kUnplannedAttr)) {
        continue;
      }
      FailureOr<int64_t> last = lastUse(alloc.getResult(), entry, position);
      if (failed(last)) {
        continue;
      }
      int64_t first = position.lookup(alloc);
      buffers.push_back(
          {alloc, *bytes, first, *last < 0 ? first : liveUntil[*last]});
    }
    int64_t total = assignOffsets(buffers);
    auto workspaceType =
        MemRefType::get({total}, IntegerType::get(&getContext(), 8));
    unsigned argIndex = fn.getNumArguments();
    if (failed(fn.insertArgument(argIndex, workspaceType, {}, fn.getLoc()))) {
      return 0;
    }
    Value workspace = fn.getArgument(argIndex);
    for (Buffer &buffer : buffers) {
      OpBuilder b(buffer.alloc);
      Location loc = buffer.alloc.getLoc();
      Value offset = arith::ConstantIndexOp::create(b, loc, buffer.offset);
      auto view = memref::ViewOp::create(b, loc, buffer.alloc.getType(),
                                         workspace, offset, ValueRange{});
      view->setAttr("infer.buffer",
                    b.getI64IntegerAttr(&buffer - buffers.data()));
      buffer.alloc.getResult().replaceAllUsesWith(view.getResult());
      buffer.alloc.erase();
    }
    return total;
  }
};

} // namespace
} // namespace infer::targets
