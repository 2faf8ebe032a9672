//===- Tiles.cpp - one register tile of a contraction kernel --------------===//
//
// A tile of MR rows of C by a panel's columns (ContractionKernels.cpp):
// its accumulators over one k-block of the reduction (tileSums), then
// their store to C or through the fused epilogue (storeSums). A group of
// batch iterations (a depthwise convolution's output rows in pairs,
// ParallelSplit.cpp) sums every member before storing any, so the loads
// the members share sit in one block with no store between them. Also
// the row indices the epilogue takes (rowIndex, rowParts).
//
//===----------------------------------------------------------------------===//

#include "targets/cpu/KernelBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

namespace infer::cpu {

void KernelBuilder::tile(Value m0, int64_t tileRows, const Rows &source,
                         Value k0, Value kEnd, Value packed) {
  Value mask = columnMask(source.width, source.length);
  if (!rowGroupDim) {
    SmallVector<Value> sums = tileSums(m0, tileRows, source, k0, kEnd, packed);
    return storeSums(m0, tileRows, source.n0, mask, sums, kEnd);
  }
  // Every row of the group summed, then stored: no store between their
  // loads of the input rows they share.
  unsigned d = *rowGroupDim;
  Value first = ivs[d];
  SmallVector<SmallVector<Value>> sums;
  for (int64_t r = 0; r < rowGroupCount; ++r) {
    ivs[d] = r ? arith::AddIOp::create(b, loc, first, index(r)) : first;
    // (The panel's rows made again: gathers' offsets hold the batch's.)
    Rows rows = r ? rowsAt(source.n0, source.width, source.length) : source;
    sums.push_back(tileSums(m0, tileRows, rows, k0, kEnd, packed));
  }
  for (int64_t r = 0; r < rowGroupCount; ++r) {
    ivs[d] = r ? arith::AddIOp::create(b, loc, first, index(r)) : first;
    storeSums(m0, tileRows, source.n0, mask, sums[r], kEnd);
  }
  ivs[d] = first;
}

SmallVector<Value> KernelBuilder::tileSums(Value m0, int64_t tileRows,
                                           const Rows &source, Value k0,
                                           Value kEnd, Value packed) {
  Value n0 = source.n0;
  int64_t width = source.width, length = source.length;
  auto type = VectorType::get({length}, elem);
  auto accType = VectorType::get({length}, accElem);
  Value mask = columnMask(width, length);
  ivs[c.nId()] = n0;
  auto loadTile = [&] {
    SmallVector<Value> tile;
    for (int64_t i = 0; i < tileRows; ++i) {
      ivs[c.mId()] = arith::AddIOp::create(b, loc, m0, index(i));
      tile.push_back(loadRow(out, outDims, accType, mask));
    }
    return tile;
  };
  SmallVector<Value> acc;
  if (!init) {
    acc = loadTile();
  } else {
    // C was filled with `init` just before: the first k-block starts
    // from it instead of reading C.
    Value first =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, k0, index(0));
    SmallVector<Type> types(tileRows, accType);
    auto branch = scf::IfOp::create(b, loc, types, first, true, true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(branch.thenBlock());
      Value splat = vector::BroadcastOp::create(b, loc, accType, init);
      scf::YieldOp::create(b, loc, SmallVector<Value>(tileRows, splat));
      b.setInsertionPointToStart(branch.elseBlock());
      scf::YieldOp::create(b, loc, loadTile());
    }
    acc = branch.getResults();
  }
  // B packed at compile time: this panel is rhsPanel of [panel][K][NR].
  Value rhsPanel = packedRhs
                       ? arith::DivUIOp::create(b, loc, n0, index(panelWidth))
                       : Value();
  // A packed at compile time: this tile's rows are [tile][k][0..MR); or
  // this k-block of A packed by columns() from row mBegin.
  Value packedTile;
  if (packedLhs) {
    packedTile = packedLhsTile(arith::DivUIOp::create(b, loc, m0, index(rows)));
  } else if (blockLhs) {
    packedTile = arith::DivUIOp::create(
        b, loc, arith::SubIOp::create(b, loc, m0, mBegin), index(rows));
  }
  NextPanelPrefetch next = nextPanelPrefetch(m0, rhsPanel, k0);
  auto step = [&](Value kv, ValueRange args, int64_t covered) {
    ivs[c.kId()] = kv;
    if (next.flat && covered) {
      prefetchNextPanel(next, kv, k0, covered);
    }
    Value row;
    if (packedRhs) {
      row = vector::LoadOp::create(b, loc, type, packedRhs,
                                   ValueRange{rhsPanel, kv, index(0)});
    } else if (packed) {
      Value at = arith::SubIOp::create(b, loc, kv, k0);
      row = vector::LoadOp::create(b, loc, type, packed,
                                   ValueRange{at, index(0)});
    } else {
      row = rowOf(source, kv);
    }
    if (!packed) {
      prefetchRows(source, kv);
    }
    SmallVector<Value> next;
    if (blockLhs) {
      Value at = arith::SubIOp::create(b, loc, kv, k0);
      for (int64_t i = 0; i < tileRows; ++i) {
        Value a = memref::LoadOp::create(b, loc, blockLhs,
                                         lhsPackedAt(packedTile, at, i));
        Value splat = vector::BroadcastOp::create(b, loc, type, a);
        next.push_back(multiplyAdd(splat, row, args[i]));
      }
      return next;
    }
    if (prefetchesNextTile(tileRows) && covered) {
      prefetchNextTile(m0, kv, k0, covered);
    }
    if (packedLhs && covered) {
      prefetchPackedLhs(packedTile, kv, covered);
    }
    for (int64_t i = 0; i < tileRows; ++i) {
      ivs[c.mId()] = arith::AddIOp::create(b, loc, m0, index(i));
      Value a =
          packedLhs
              ? memref::LoadOp::create(b, loc, packedLhs,
                                       ValueRange{packedTile, kv, index(i)})
              : memref::LoadOp::create(b, loc, lhs, indices(lhsDims));
      Value splat = vector::BroadcastOp::create(b, loc, type, a);
      next.push_back(multiplyAdd(splat, row, args[i]));
    }
    return next;
  };
  SmallVector<Value> sums;
  if (c.k <= kUnrolledK && c.k <= kBlock && !packed) {
    // A short reduction read in place (a depthwise 3x3 window: K = 9):
    // unrolled, so each step's offsets into B are constants.
    sums = acc;
    for (int64_t kv = 0; kv < c.k; ++kv) {
      sums = step(index(kv), sums, 1);
    }
  } else {
    // A full tile's long reduction unrolled: the loop's counter, compare
    // and branch then take fewer of the cycles its FMAs need.
    bool unroll = tileRows == rows && !mask && c.k >= kMinUnrolledK;
    sums = reductionLoop(k0, kEnd, acc, step, unroll ? kUnrollSteps : 1);
  }
  return sums;
}

void KernelBuilder::storeSums(Value m0, int64_t tileRows, Value n0, Value mask,
                              ArrayRef<Value> sums, Value kEnd) {
  ivs[c.nId()] = n0;
  auto storeTile = [&] {
    for (int64_t i = 0; i < tileRows; ++i) {
      ivs[c.mId()] = arith::AddIOp::create(b, loc, m0, index(i));
      SmallVector<Value> at = indices(outDims);
      Value value = sums[i];
      if (mask) {
        vector::MaskedStoreOp::create(b, loc, out, at, mask, value);
      } else {
        vector::StoreOp::create(b, loc, value, out, at);
      }
    }
  };
  if (!epilogue) {
    return storeTile();
  }
  // The last k-block applies the fused consumer and stores its output;
  // earlier ones keep the partial sums in C.
  auto applyEpilogue = [&] {
    for (int64_t i = 0; i < tileRows; ++i) {
      ivs[c.mId()] = arith::AddIOp::create(b, loc, m0, index(i));
      emitEpilogue(b, loc, *epilogue, sums[i], rowIndex(), n0, panelWidth, mask,
                   /*valid=*/0, storePrefetchElements(), lanes, rowParts());
    }
  };
  if (c.k <= kBlock) {
    return applyEpilogue();
  }
  Value last =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, kEnd, index(c.k));
  auto branch = scf::IfOp::create(b, loc, last, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(branch.thenBlock());
  applyEpilogue();
  b.setInsertionPointToStart(branch.elseBlock());
  storeTile();
}

Value KernelBuilder::packedLhsTile(Value tile) {
  if (!lhsBatchDim) {
    return tile;
  }
  return arith::AddIOp::create(
      b, loc, tile,
      arith::MulIOp::create(b, loc, ivs[*lhsBatchDim], index(lhsBatchTiles)));
}

Value KernelBuilder::rowIndex() {
  ArrayRef<int64_t> shape = cast<MemRefType>(out.getType()).getShape();
  Value row = index(0);
  for (size_t i = 0; i + 1 < outDims.size(); ++i) {
    row = arith::MulIOp::create(b, loc, row, index(shape[i]));
    if (outDims[i] >= 0) {
      row = arith::AddIOp::create(b, loc, row, ivs[outDims[i]]);
    }
  }
  return row;
}

SmallVector<Value> KernelBuilder::rowParts() {
  // C's leading dims and the epilogue's dims before its split, unit dims
  // aside (C of a depthwise convolution is [n, c, 1, oh, ow]), alike.
  ArrayRef<int64_t> shape = cast<MemRefType>(out.getType()).getShape();
  if (!epilogue || outDims.empty()) {
    return {};
  }
  SmallVector<Value> indices;
  SmallVector<int64_t> sizes;
  for (size_t i = 0; i + 1 < outDims.size(); ++i) {
    if (shape[i] != 1) {
      sizes.push_back(shape[i]);
      indices.push_back(outDims[i] >= 0 ? ivs[outDims[i]] : index(0));
    }
  }
  SmallVector<Value> parts;
  size_t next = 0;
  for (size_t d = 0; d < epilogue->split; ++d) {
    if (epilogue->domain[d] == 1) {
      parts.push_back(index(0));
    } else if (next < sizes.size() && sizes[next] == epilogue->domain[d]) {
      parts.push_back(indices[next++]);
    } else {
      return {};
    }
  }
  if (next != sizes.size()) {
    return {};
  }
  return parts;
}

} // namespace infer::cpu
