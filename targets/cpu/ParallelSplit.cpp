//===- ParallelSplit.cpp - a contraction's work across threads ------------===//
//
// With `parallel`, a contraction's kernel is one scf.parallel, which the
// CPU pipeline turns into tasks for the runtime's executor (or OpenMP):
// over a batch loop of kMinParallelBatch iterations or more (a depthwise
// convolution's channels) when there is one; else over groups of column
// panels, each writing its own columns of C (the last group also the
// columns after the full panels); else, when there are fewer
// panels than kMaxGroups and enough row tiles, over chunks of C's rows.
// Each group reads all of A's k-blocks (each chunk packs all of B's
// panels), so there are as few as the threads: one per thread of the
// executor (@__infer_num_threads, with runtime-threads), else at most
// kMaxGroups. Fills of B's border slabs the kernel adopted
// (KernelBuilder::BatchFill, BatchFills.cpp) are made per batch iteration
// at the start of its body.
//
//===----------------------------------------------------------------------===//

#include "targets/cpu/KernelBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace infer::cpu {

std::optional<size_t> KernelBuilder::parallelBatchLevel() {
  if (!parallel) {
    return std::nullopt;
  }
  return parallelBatchLevelOf(c, kMinParallelBatch);
}

void KernelBuilder::batchLoops(size_t level) {
  if (level == c.batch.size()) {
    return matmul();
  }
  if (parallelBatchLevel() == level) {
    builtParallel = scf::ParallelOp::create(
        b, loc, ValueRange{index(0)}, ValueRange{batchBound(c.batch[level])},
        ValueRange{index(1)}, [&](OpBuilder &nb, Location, ValueRange iv) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
          ivs[c.batch[level]] = iv.front();
          for (const BatchFill &fill : batchFills) {
            SmallVector<OpFoldResult> offsets, sizes, strides;
            for (size_t d = 0; d < fill.offsets.size(); ++d) {
              offsets.push_back(d == fill.dim
                                    ? OpFoldResult(iv.front())
                                    : b.getIndexAttr(fill.offsets[d]));
              sizes.push_back(
                  b.getIndexAttr(d == fill.dim ? 1 : fill.sizes[d]));
              strides.push_back(b.getIndexAttr(1));
            }
            Value slice = memref::SubViewOp::create(b, loc, fill.buffer,
                                                    offsets, sizes, strides);
            linalg::FillOp::create(b, loc, fill.value, slice);
          }
          inParallelBatch = true;
          batchLoops(level + 1);
          inParallelBatch = false;
        });
    return;
  }
  if (groupsRows(level)) {
    // kRowGroup output rows an iteration: their windows share input rows,
    // whose loads the group's tiles then share (LLVM merges them: no
    // store comes between); the last rows as one smaller group.
    unsigned d = c.batch[level];
    int64_t range = c.ranges[d], full = range / kRowGroup * kRowGroup;
    auto group = [&](Value first, int64_t count) {
      ivs[d] = first;
      rowGroupDim = d;
      rowGroupCount = count;
      batchLoops(level + 1);
      rowGroupDim.reset();
      rowGroupCount = 1;
    };
    loop(index(0), index(full), kRowGroup, {}, [&](Value iv, ValueRange) {
      group(iv, kRowGroup);
      return SmallVector<Value>{};
    });
    if (range > full) {
      group(index(full), range - full);
    }
    return;
  }
  loop(index(0), batchBound(c.batch[level]), 1, {}, [&](Value iv, ValueRange) {
    ivs[c.batch[level]] = iv;
    batchLoops(level + 1);
    return SmallVector<Value>{};
  });
}

bool KernelBuilder::groupsRows(size_t level) {
  // The innermost batch loop of a kernel whose tiles are one row of a
  // short window read in place (a depthwise convolution: its output rows).
  unsigned d = c.batch[level];
  return level + 1 == c.batch.size() && !transposed && c.m == 1 && c.gather &&
         c.k <= kUnrolledK && c.k <= kBlock && !packsB() &&
         !ShapedType::isDynamic(c.ranges[d]) && c.ranges[d] >= 2 &&
         !ShapedType::isDynamic(c.n);
}

Value KernelBuilder::splitCount(Value most) {
  Value count = index(kMaxGroups);
  if (threadCount) {
    count = arith::MaxSIOp::create(
        b, loc, func::CallOp::create(b, loc, threadCount).getResult(0),
        index(1));
  }
  return arith::MaxSIOp::create(
      b, loc, arith::MinSIOp::create(b, loc, count, most), index(1));
}

void KernelBuilder::rowChunks(Value full, int64_t tail) {
  int64_t tiles = c.m / rows;
  Value chunk;
  if (channelChunk) {
    chunk = index(channelChunk);
  } else {
    Value chunks = splitCount(index(tiles / kMinTilesPerChunk));
    chunk = arith::MulIOp::create(
        b, loc, arith::CeilDivUIOp::create(b, loc, index(tiles), chunks),
        index(rows));
  }
  builtParallel = scf::ParallelOp::create(
      b, loc, ValueRange{index(0)}, ValueRange{index(c.m)}, ValueRange{chunk},
      [&](OpBuilder &nb, Location, ValueRange m0) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
        mBegin = m0.front();
        mEnd = arith::MinSIOp::create(
            b, loc, arith::AddIOp::create(b, loc, mBegin, chunk), index(c.m));
        columns(index(0), full, tail, true);
        mBegin = mEnd = Value();
      });
}

void KernelBuilder::panelGroups(Value full, Value group, int64_t tail) {
  scf::ParallelOp::create(
      b, loc, ValueRange{index(0)}, ValueRange{full}, ValueRange{group},
      [&](OpBuilder &nb, Location, ValueRange n0) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
        Value end = arith::MinSIOp::create(
            b, loc, arith::AddIOp::create(b, loc, n0.front(), group), full);
        // (One pack buffer for both calls, made here: not in the branch.)
        groupPack = packsB() ? packBuffer(true) : Value();
        columns(n0.front(), end, 0, true);
        if (tail) {
          // The columns after the last full panel, by the last group's
          // thread rather than by the caller after the others are done
          // (mobilenet_v2's classifier: 104 of 1000 columns, serial).
          Value last = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                             end, full);
          auto branch = scf::IfOp::create(b, loc, last);
          b.setInsertionPointToStart(branch.thenBlock());
          columns(full, full, tail, true, /*onlyTail=*/true);
        }
        groupPack = Value();
      });
}

void KernelBuilder::dynamicMatmul() {
  // N known at run time: the full panels up to n - n % NR, then a tail
  // panel of the remaining columns under a run-time mask, when there is
  // one. C's innermost dim is N.
  int64_t width = panelWidth;
  int64_t tiles = c.m / rows;
  auto outType = cast<MemRefType>(out.getType());
  Value n = memref::DimOp::create(b, loc, out, outType.getRank() - 1);
  Value full = arith::SubIOp::create(
      b, loc, n, arith::RemUIOp::create(b, loc, n, index(width)));
  tailColumns = arith::SubIOp::create(b, loc, n, full);
  if (parallel && !inParallelBatch && tiles >= 2 * kMinTilesPerChunk) {
    // Threads take row ranges of C (N may be small, M is known).
    rowChunks(full, 0);
  } else if (parallel && !inParallelBatch) {
    // Groups of ceil(panels / splitCount) panels, in parallel.
    Value panels = arith::DivUIOp::create(b, loc, n, index(width));
    Value group = arith::MulIOp::create(
        b, loc,
        arith::MaxUIOp::create(
            b, loc,
            arith::CeilDivUIOp::create(b, loc, panels, splitCount(panels)),
            index(1)),
        index(width));
    Value rest = tailColumns;
    tailColumns = Value();
    panelGroups(full, group);
    tailColumns = rest;
    columns(full, full, 0, false, /*onlyTail=*/true);
  } else {
    columns(index(0), full, 0, inParallelBatch);
  }
  tailColumns = Value();
}

void KernelBuilder::matmul() {
  if (transposed) {
    return transposedMatmul();
  }
  if (ShapedType::isDynamic(c.n)) {
    return dynamicMatmul();
  }
  int64_t n = c.n, width = panelWidth;
  int64_t panels = n / width, full = panels * width, tail = n - full;
  int64_t tiles = c.m / rows;
  if (parallel && !inParallelBatch &&
      (((panels < kMaxGroups || rowsReadPerThread) &&
        tiles >= 2 * kMinTilesPerChunk) ||
       channelChunk)) {
    // Too few panels to share out (a late conv layer: 7x7 outputs, 512
    // channels), or a consumer that splits C's rows across the threads
    // (a depthwise convolution after an expanding 1x1 one): the threads
    // take row ranges of C instead, each packing the panels it needs, and
    // each then reads the rows it wrote from its own caches. (A fixed
    // chunk, channelChunk, for a kernel the next one runs inside.)
    rowChunks(index(full), tail);
  } else if (parallel && !inParallelBatch && panels > 1) {
    // Groups of panels are independent: one parallel loop over them
    // (tasks for the executor, or OpenMP). At most `kMaxGroups` groups, or
    // one per thread, so each k-block of A is read a few times, not once
    // per panel.
    panelGroups(index(full),
                arith::MulIOp::create(
                    b, loc,
                    arith::CeilDivUIOp::create(b, loc, index(panels),
                                               splitCount(index(panels))),
                    index(width)),
                tail);
  } else {
    columns(index(0), index(full), tail, inParallelBatch);
  }
}

} // namespace infer::cpu
