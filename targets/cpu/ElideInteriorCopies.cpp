//===- ElideInteriorCopies.cpp - compute into a padded buffer's interior --===//
//
// A padded input (a convolution's) is built by computing the producer's
// result into a buffer of its own and copying that into the interior of
// the padded buffer, whose border infer-cpu-pad-borders fills:
//
//   %v = memref.alloc()              linalg.generic ... outs(%v)
//   %p = memref.alloc()              linalg.fill (border slabs of %p)
//   %i = memref.subview %p[1, 1]     memref.copy %v, %i
//
// Here the producer writes %i directly: %p and %i move before it, the
// copy and %v go. Elementwise ops after the copy that also read %v (a
// residual Add beside the convolution %p feeds) read %i instead. Runs on
// buffers before the workspace is planned, so the padded buffer's lifetime
// starts where it is now written.
//
//===----------------------------------------------------------------------===//

#include "targets/cpu/BufferViews.h"
#include "targets/cpu/Passes.h"

using namespace mlir;

namespace infer::cpu {
#define GEN_PASS_DEF_ELIDEINTERIORCOPIESPASS
#include "targets/cpu/Passes.h.inc"

namespace {

/// An elementwise op after `copy` that reads `buffer` only as an input
/// (a residual Add beside the convolution the padded buffer feeds).
bool laterElementwiseReader(Operation *user, memref::AllocOp buffer,
                            memref::CopyOp copy) {
  auto op = dyn_cast<linalg::GenericOp>(user);
  return op && op->getBlock() == copy->getBlock() &&
         copy->isBeforeInBlock(op) &&
         op.getNumParallelLoops() == op.getNumLoops() &&
         llvm::none_of(op.getDpsInitsMutable(), [&](OpOperand &init) {
           return init.get() == buffer.getResult();
         });
}

/// The one op besides `copy` that writes `buffer`, when it writes all of
/// it before `copy` without reading it: a linalg op with `buffer` as its
/// only output (a permutation of its loops) and not among its inputs.
/// Other users may only read it elementwise after the copy (`readers`).
linalg::LinalgOp soleWriter(memref::AllocOp buffer, memref::CopyOp copy,
                            SmallVectorImpl<Operation *> &readers) {
  linalg::LinalgOp writer;
  for (Operation *user : buffer->getUsers()) {
    if (user == copy.getOperation()) {
      continue;
    }
    if (laterElementwiseReader(user, buffer, copy)) {
      readers.push_back(user);
      continue;
    }
    auto op = dyn_cast<linalg::LinalgOp>(user);
    if (writer || !op || op->getBlock() != copy->getBlock() ||
        !op->isBeforeInBlock(copy) || op.getNumDpsInits() != 1) {
      return {};
    }
    OpOperand *init = op.getDpsInitOperand(0);
    if (init->get() != buffer.getResult() ||
        op.payloadUsesValueFromOperand(init) ||
        !op.getMatchingIndexingMap(init).isPermutation() ||
        llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *input) {
          return input->get() == buffer.getResult();
        })) {
      return {};
    }
    writer = op;
  }
  return writer;
}

/// Whether the ops strictly between `writer` and `copy` leave `interior`
/// (a box of `padded`) alone: they touch `padded` only through subviews
/// disjoint from it (the border fills), and `padded`'s views and
/// allocation may move before `writer`.
bool interiorUntouched(Operation *writer, memref::CopyOp copy,
                       memref::SubViewOp interior, const Box &box) {
  Value padded = interior.getSource();
  for (Operation *user : padded.getUsers()) {
    if (user == interior.getOperation()) {
      continue;
    }
    bool between = writer->isBeforeInBlock(user) &&
                   user->getBlock() == copy->getBlock() &&
                   user->isBeforeInBlock(copy);
    if (!between) {
      // Uses after the copy read the result; none may come before.
      if (user->getBlock() != copy->getBlock() ||
          !copy->isBeforeInBlock(user)) {
        return false;
      }
      continue;
    }
    auto slab = dyn_cast<memref::SubViewOp>(user);
    std::optional<Box> other = slab ? staticBox(slab) : std::nullopt;
    if (!other || !box.disjoint(*other)) {
      return false;
    }
  }
  return true;
}

struct ElideInteriorCopiesPass final
    : impl::ElideInteriorCopiesPassBase<ElideInteriorCopiesPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) { copies.push_back(copy); });
    for (memref::CopyOp copy : copies) {
      auto source = copy.getSource().getDefiningOp<memref::AllocOp>();
      auto interior = copy.getTarget().getDefiningOp<memref::SubViewOp>();
      if (!source || !interior || !source.getType().hasStaticShape()) {
        continue;
      }
      auto padded = interior.getSource().getDefiningOp<memref::AllocOp>();
      std::optional<Box> box = staticBox(interior);
      if (!padded || !box || !interior->hasOneUse() ||
          padded->getNumOperands() != 0 ||
          padded->getBlock() != copy->getBlock() ||
          interior->getBlock() != copy->getBlock()) {
        continue;
      }
      SmallVector<Operation *> readers;
      linalg::LinalgOp writer = soleWriter(source, copy, readers);
      if (!writer || !interiorUntouched(writer, copy, interior, *box)) {
        continue;
      }
      if (!padded->isBeforeInBlock(writer)) {
        padded->moveBefore(writer);
      }
      if (!interior->isBeforeInBlock(writer)) {
        interior->moveBefore(writer);
      }
      writer.getDpsInitOperand(0)->set(interior.getResult());
      // Later readers read the interior (strided, in place of a buffer).
      for (Operation *reader : readers) {
        reader->replaceUsesOfWith(source.getResult(), interior.getResult());
      }
      copy->erase();
      source->erase();
    }
  }
};

} // namespace
} // namespace infer::cpu
