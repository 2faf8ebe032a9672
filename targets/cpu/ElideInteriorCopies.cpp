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
// copy and %v go. Other linalg ops that read %v after the producer (a
// residual Add beside the convolution %p feeds, a 1x1 stride-2 downsample
// beside a 3x3 convolution) read %i instead. Runs on
// buffers before the workspace is planned, so the padded buffer's lifetime
// starts where it is now written.
//
//===----------------------------------------------------------------------===//

#include "targets/cpu/BufferViews.h"
#include "targets/cpu/ContractionMatch.h"
#include "targets/cpu/Passes.h"

#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"

using namespace mlir;

namespace infer::cpu {
#define GEN_PASS_DEF_ELIDEINTERIORCOPIESPASS
#include "targets/cpu/Passes.h.inc"

namespace {

/// A linalg op that reads `buffer` only as an input: a residual Add beside
/// the convolution the padded buffer feeds, or another convolution of the
/// same input (a 1x1 stride-2 downsample beside a 3x3 one).
bool inputReader(Operation *user, Value buffer, memref::CopyOp copy) {
  auto op = dyn_cast<linalg::LinalgOp>(user);
  return op && op->getBlock() == copy->getBlock() &&
         llvm::none_of(op.getDpsInitsMutable(),
                       [&](OpOperand &init) { return init.get() == buffer; });
}

/// A view of static shape that only adds or drops unit dims or regroups
/// dims (memref.reshape, expand_shape, collapse_shape).
bool reshapedView(Operation *op) {
  if (!isa<memref::ReshapeOp, memref::ExpandShapeOp, memref::CollapseShapeOp>(
          op)) {
    return false;
  }
  auto type = dyn_cast<MemRefType>(op->getResult(0).getType());
  return type && type.hasStaticShape();
}

/// `view` (a reshapedView of the copy's source) remade over `interior`
/// (strided) right after it, or null when the strides do not allow it.
Value viewOfInterior(memref::SubViewOp interior, Operation *view) {
  auto from = cast<MemRefType>(interior.getType());
  auto to = cast<MemRefType>(view->getResult(0).getType());
  std::optional<SmallVector<ReassociationIndices>> groups =
      from.getRank() <= to.getRank()
          ? getReassociationIndicesForReshape(from, to)
          : getReassociationIndicesForReshape(to, from);
  if (!groups) {
    return {};
  }
  OpBuilder b(interior->getContext());
  b.setInsertionPointAfter(interior);
  if (from.getRank() <= to.getRank()) {
    if (failed(memref::ExpandShapeOp::computeExpandedType(from, to.getShape(),
                                                          *groups))) {
      return {};
    }
    return memref::ExpandShapeOp::create(b, view->getLoc(), to.getShape(),
                                         interior.getResult(), *groups);
  }
  if (!memref::CollapseShapeOp::isGuaranteedCollapsible(from, *groups)) {
    return {};
  }
  return memref::CollapseShapeOp::create(b, view->getLoc(),
                                         interior.getResult(), *groups);
}

/// Whether `op` fills all of `buffer`.
bool fillsAll(linalg::LinalgOp op, memref::AllocOp buffer) {
  return isa<linalg::FillOp>(op.getOperation()) &&
         op.getDpsInitOperand(0)->get() == buffer.getResult();
}

/// The one op besides `copy` that writes `buffer`, when it writes all of
/// it before `copy` without reading it: a linalg op with `buffer` as its
/// only output (a permutation of its loops) and not among its inputs; or
/// one that accumulates into it right after a fill of all of it (`seed`:
/// a pooling window's). Other users may only read it as an input after
/// that op (`readers`).
linalg::LinalgOp soleWriter(memref::AllocOp buffer, memref::CopyOp copy,
                            SmallVectorImpl<Operation *> &readers,
                            linalg::LinalgOp &seed) {
  linalg::LinalgOp writer;
  seed = {};
  for (Operation *user : buffer->getUsers()) {
    auto fill = dyn_cast<linalg::LinalgOp>(user);
    if (fill && fillsAll(fill, buffer)) {
      if (seed) {
        return {};
      }
      seed = fill;
    }
  }
  SmallVector<Operation *> viewReaders;
  for (Operation *user : buffer->getUsers()) {
    if (user == copy.getOperation()) {
      continue;
    }
    auto op = dyn_cast<linalg::LinalgOp>(user);
    if (op && op.getNumDpsInits() == 1 &&
        op.getDpsInitOperand(0)->get() != buffer.getResult() &&
        inputReader(user, buffer, copy)) {
      readers.push_back(user);
      continue;
    }
    // A reshaped view that linalg ops only read (the input of a grouped
    // convolution's form): remade over the interior.
    if (reshapedView(user) && !user->getUsers().empty() &&
        llvm::all_of(user->getUsers(), [&](Operation *viewUser) {
          return inputReader(viewUser, user->getResult(0), copy);
        })) {
      readers.push_back(user);
      llvm::append_range(viewReaders, user->getUsers());
      continue;
    }
    if (!op || op->getBlock() != copy->getBlock() ||
        !op->isBeforeInBlock(copy) || op.getNumDpsInits() != 1) {
      return {};
    }
    if (op == seed) {
      continue;
    }
    if (writer) {
      return {};
    }
    OpOperand *init = op.getDpsInitOperand(0);
    if (init->get() != buffer.getResult() ||
        (op.payloadUsesValueFromOperand(init) &&
         (!seed || seed->getNextNode() != op.getOperation())) ||
        // (After a seed, the fill has written every element.)
        !(seed ? op.getMatchingIndexingMap(init).isProjectedPermutation()
               : op.getMatchingIndexingMap(init).isPermutation()) ||
        llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *input) {
          return input->get() == buffer.getResult();
        })) {
      return {};
    }
    writer = op;
  }
  if (!writer && seed) {
    // The fill alone writes it.
    writer = seed;
    seed = {};
  }
  // A seed only with a writer that reads it, right after, and that is no
  // contraction: a convolution's kernel needs its output planes
  // contiguous (a strided interior would send it to the generic loops).
  if (seed &&
      (!writer.payloadUsesValueFromOperand(writer.getDpsInitOperand(0)) ||
       seed->getNextNode() != writer.getOperation() ||
       matchContraction(writer))) {
    return {};
  }
  // Readers see the values once the writer has made them.
  if (writer && llvm::any_of(viewReaders, [&](Operation *reader) {
        return !writer->isBeforeInBlock(reader);
      })) {
    return {};
  }
  if (writer && llvm::any_of(readers, [&](Operation *reader) {
        return !reshapedView(reader) && !writer->isBeforeInBlock(reader);
      })) {
    return {};
  }
  return writer;
}

/// Whether the ops up to `copy` leave `interior` (a box of `padded`)
/// alone: they touch `padded` only through subviews disjoint from it (the
/// border fills; the rows earlier bands of a Winograd output wrote), so
/// `padded`'s views and allocation may move before the box's writer.
bool interiorUntouched(memref::CopyOp copy, memref::SubViewOp interior,
                       const Box &box) {
  Value padded = interior.getSource();
  for (Operation *user : padded.getUsers()) {
    if (user == interior.getOperation()) {
      continue;
    }
    // Uses after the copy read the result.
    if (user->getBlock() != copy->getBlock()) {
      return false;
    }
    if (copy->isBeforeInBlock(user)) {
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
      linalg::LinalgOp seed;
      linalg::LinalgOp writer = soleWriter(source, copy, readers, seed);
      if (!writer) {
        continue;
      }
      // The first op that writes the buffer (the seed when there is one).
      Operation *first = seed ? seed.getOperation() : writer.getOperation();
      if (!interiorUntouched(copy, interior, *box)) {
        continue;
      }
      // Other readers read the interior (strided, in place of a buffer).
      SmallVector<std::pair<Operation *, Value>> views;
      SmallVector<Operation *> direct;
      bool viewsMade = true;
      for (Operation *reader : readers) {
        if (!reshapedView(reader)) {
          direct.push_back(reader);
          continue;
        }
        Value view = viewOfInterior(interior, reader);
        viewsMade = viewsMade && view;
        views.push_back({reader, view});
      }
      if (!viewsMade) {
        for (auto [old, view] : views) {
          if (view) {
            view.getDefiningOp()->erase();
          }
        }
        continue;
      }
      if (!padded->isBeforeInBlock(first)) {
        padded->moveBefore(first);
      }
      if (!interior->isBeforeInBlock(first)) {
        interior->moveBefore(first);
      }
      for (auto [old, view] : views) {
        // (Made right after the interior, which may have moved since.)
        view.getDefiningOp()->moveAfter(interior);
        old->getResult(0).replaceAllUsesWith(view);
        old->erase();
      }
      writer.getDpsInitOperand(0)->set(interior.getResult());
      if (seed) {
        seed.getDpsInitOperand(0)->set(interior.getResult());
      }
      for (Operation *reader : direct) {
        reader->replaceUsesOfWith(source.getResult(), interior.getResult());
      }
      copy->erase();
      source->erase();
    }
  }
};

} // namespace
} // namespace infer::cpu
