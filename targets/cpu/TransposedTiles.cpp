//===- TransposedTiles.cpp - tiles with vectors along C's rows ------------===//
//
// The kernels' usual tile holds MR rows of C as vectors along N, C's
// columns (a convolution's output plane). When N fills vectors poorly and
// M fills them well (resnet18's last layers: 7x7 = 49 columns in 64 lanes,
// 512 output channels), the tile is transposed: R = 2 vectors of C's rows
// by NC columns (14 on AVX-512, 6 on AVX2), each column one broadcast of
// B's element per step:
//
//   for unit (tile t of R rows, chunk, group of panels)   (parallel)
//     for panel n0 step NC in the group   (offsets constant from a base)
//       acc[NC][2] = fill value (or the panel's sums of earlier k-blocks)
//       for k in the k-block                 (K > KC: blocks, A's in L2)
//         a0, a1 = A_packed[t][k][0..R)   (infer-cpu-pack-weights)
//         for j < NC: acc[j] += a * broadcast(B[k, n0 + j])
//       last block: buffer = transpose(acc) (shuffles, in registers);
//         for each row i of the tile: C[m0 + i, n0..] = epilogue(buffer[i])
//
// B is read in place at offsets linear in the loop dims (K offsets from
// the same table as the packed panels), never packed: a column's element
// at step k is one broadcast load. A chunk holds up to 16 panels (224
// columns); a larger plane goes in chunks of whole rows of its inner N
// dims, whose offset into B is made once per chunk. Panels whose columns
// lie alike relative to their first (each starts a whole or half output
// row) run as a loop, the panel's base offset made per iteration and its
// columns constants from it; other panels are unrolled, each column's
// offset a constant (unrolling every panel made resnet18 compile in 27 s
// instead of 6: 38,000 shuffles of LLVM IR). A tile with few
// units of work (M = 32) splits its panels into groups, so threads share
// it. A k-block of A's tile (KC x R floats) stays in cache while the
// group's panels use it, and the next block is prefetched over all their
// steps; their sums wait in a stack buffer between blocks. The tile reaches C
// once, transposed in registers into rows for the epilogue. transposedTiles()
// (ContractionMatch.cpp) decides.
//
//===----------------------------------------------------------------------===//

#include "targets/cpu/BufferViews.h"
#include "targets/cpu/KernelBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

namespace infer::cpu {

void KernelBuilder::transposedMatmul() {
  unsigned bits = unsigned(lanes) * 32;
  int64_t tileRows = transposedRowsFor(bits);
  int64_t columns = transposedColumnsFor(bits);
  int64_t tiles = llvm::divideCeil(c.m, tileRows);
  // C's columns in chunks of whole rows of its innermost N dims (all of
  // them when few), each chunk's panels unrolled: a column's offset into
  // B is then the chunk's, made once per chunk, plus a constant.
  int64_t chunkColumns = transposedChunkColumns(c, bits);
  int64_t chunks = llvm::divideCeil(c.n, chunkColumns);
  int64_t lastColumns = c.n - (chunks - 1) * chunkColumns;
  int64_t panels = llvm::divideCeil(chunkColumns, columns);
  c.coefficients = *linearCoefficients(c.op, c.op.getDpsInputOperand(c.rhs));
  Value source = flatView(b, loc, rhs);
  auto bufferType = MemRefType::get({tileRows * lanes}, elem);
  // Units of work: a tile's chunks, their panels in `groups` groups, so
  // that a few tiles (M = 32: one) still give every thread some (a tile's
  // panels share its rows of A, so there are as few groups as that needs).
  int64_t groups = std::min<int64_t>(
      panels, llvm::divideCeil(kMinParallelUnits, tiles * chunks));
  int64_t units = tiles * chunks * groups;
  // With k-blocks, each panel's partial sums between them. Not for a K
  // that would leave a second block of under a quarter of KC (resnet18's
  // 3x3 convolutions over 64 channels, K = 576: a tile's A is 72 KB, in
  // L2 anyway): storing and reloading the sums for it cost 2-4% of the
  // layer.
  bool blocked = c.k > kTransposedBlock + kTransposedBlock / 4;
  auto partialType = MemRefType::get(
      {int64_t(llvm::divideCeil(panels, groups)), 2 * columns, lanes}, elem);
  Value flatLhs = memref::CollapseShapeOp::create(
      b, loc, packedLhs,
      SmallVector<ReassociationIndices>{ReassociationIndices{0, 1, 2}});
  auto run = [&](Value begin, Value end, Value buffer, Value partial) {
    loop(begin, end, 1, {}, [&](Value unit, ValueRange) {
      Value tile = arith::DivUIOp::create(b, loc, unit, index(chunks * groups));
      Value lhsTile = packedLhsTile(tile);
      Value rest = arith::RemUIOp::create(b, loc, unit, index(chunks * groups));
      Value chunk = arith::DivUIOp::create(b, loc, rest, index(groups));
      Value first = arith::MulIOp::create(b, loc, chunk, index(chunkColumns));
      Value firstOffset = linearOffset<Value>(
          first, c.nDims, [&](int64_t v) -> Value { return index(v); });
      auto emitGroup = [&](int64_t g, int64_t width) {
        int64_t count = llvm::divideCeil(width, columns);
        int64_t lo = g * count / groups, hi = (g + 1) * count / groups;
        // Full panels with the same relative offsets run as a loop (one
        // body, its base offset made per panel); others are unrolled.
        int64_t looped = std::min(hi, width / columns);
        if (looped - lo < 2 || !uniformPanels(width, columns)) {
          looped = lo;
        }
        SmallVector<int64_t> relative;
        for (int64_t j = 0; j < columns; ++j) {
          relative.push_back(constantOffset(j, c.nDims));
        }
        auto panelsFrom = [&](Value k0, Value kEnd) {
          TransposedUnit unit{tile,    first,   firstOffset, k0,
                              kEnd,    buffer,  partial,     flatLhs,
                              Value(), hi - lo, lhsTile};
          if (looped > lo) {
            loop(index(lo), index(looped), 1, {}, [&](Value p, ValueRange) {
              unit.slot = arith::SubIOp::create(b, loc, p, index(lo));
              Value n0 = arith::MulIOp::create(b, loc, p, index(columns));
              Value offset = linearOffset<Value>(
                  n0, c.nDims, [&](int64_t v) -> Value { return index(v); });
              transposedTile(unit, n0, offset, relative, source);
              return SmallVector<Value>{};
            });
          }
          for (int64_t p = looped; p < hi; ++p) {
            int64_t n0 = p * columns;
            SmallVector<int64_t> offsets;
            for (int64_t j = 0; j < std::min(columns, width - n0); ++j) {
              offsets.push_back(constantOffset(n0 + j, c.nDims));
            }
            unit.slot = index(p - lo);
            transposedTile(unit, index(n0), index(0), offsets, source);
          }
        };
        if (!partial) {
          return panelsFrom(index(0), index(c.k));
        }
        // A k-block of the tile's rows of A (KC x R floats) serves every
        // panel of the group from L2 before the next is read: the weights
        // stream in once, at the pace of all the group's panels.
        loop(index(0), index(c.k), kTransposedBlock, {},
             [&](Value k0, ValueRange) {
               panelsFrom(k0, arith::MinSIOp::create(
                                  b, loc,
                                  arith::AddIOp::create(
                                      b, loc, k0, index(kTransposedBlock)),
                                  index(c.k)));
               return SmallVector<Value>{};
             });
      };
      auto emitChunk = [&](int64_t width) {
        if (groups == 1) {
          return emitGroup(0, width);
        }
        Value group = arith::RemUIOp::create(b, loc, rest, index(groups));
        SmallVector<int64_t> cases;
        for (int64_t g = 1; g < groups; ++g) {
          cases.push_back(g);
        }
        auto which = scf::IndexSwitchOp::create(b, loc, TypeRange{}, group,
                                                cases, cases.size());
        for (int64_t g = 0; g < groups; ++g) {
          Region &region =
              g == 0 ? which.getDefaultRegion() : which.getCaseRegions()[g - 1];
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(&region.emplaceBlock());
          emitGroup(g, width);
          scf::YieldOp::create(b, loc);
        }
      };
      if (lastColumns == chunkColumns) {
        emitChunk(chunkColumns);
        return SmallVector<Value>{};
      }
      Value last = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         chunk, index(chunks - 1));
      auto branch = scf::IfOp::create(b, loc, last, /*withElseRegion=*/true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(branch.thenBlock());
      emitChunk(lastColumns);
      b.setInsertionPointToStart(branch.elseBlock());
      emitChunk(chunkColumns);
      return SmallVector<Value>{};
    });
  };
  if (parallel && !inParallelBatch && units > 1) {
    // One iteration per unit: the executor gives each thread a range of
    // consecutive units (sharing a tile's rows of A), the same split on
    // every call, and a thread done early takes the last units of another
    // (runtime/src/pool.c) instead of waiting for it.
    scf::ParallelOp::create(
        b, loc, ValueRange{index(0)}, ValueRange{index(units)},
        ValueRange{index(1)}, [&](OpBuilder &nb, Location, ValueRange u0) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
          run(u0.front(), arith::AddIOp::create(b, loc, u0.front(), index(1)),
              stackBuffer(bufferType, true),
              blocked ? stackBuffer(partialType, true) : Value());
        });
    return;
  }
  run(index(0), index(units), stackBuffer(bufferType, inParallelBatch),
      blocked ? stackBuffer(partialType, inParallelBatch) : Value());
}

void KernelBuilder::prefetchLhs(const TransposedUnit &unit, Value kv) {
  // A's rows as one stream: the tile's, then the next tile's (the next
  // unit's, mostly), each row 2 vectors (2 lines on AVX-512, 1 on AVX2).
  int64_t rowLength = 2 * lanes, line = 16;
  int64_t size = cast<MemRefType>(unit.flatLhs.getType()).getNumElements();
  Value rows = arith::MulIOp::create(b, loc, unit.lhsTile, index(c.k));
  if (unit.partial && unit.panels > 1) {
    // With k-blocks the group's panels reuse a block from L2, and the
    // first panel alone would pull it from memory at the pace of one
    // panel: twice what one core streams from DRAM (resnet18's
    // 512-channel layers waited on it). The next block is prefetched
    // instead, spread over the group's panels: panel `slot` fetches its
    // share of the block's lines, one a step from its first step, the
    // last of them again after that. (The address is the share's first
    // line plus the step, clamped once: 3 instructions a step where a
    // line spread over every step took a division.)
    int64_t share =
        llvm::divideCeil(kTransposedBlock * rowLength / line, unit.panels);
    Value next = arith::AddIOp::create(
        b, loc, rows,
        arith::AddIOp::create(b, loc, unit.k0, index(kTransposedBlock)));
    Value first = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, next, index(rowLength)),
        arith::MulIOp::create(b, loc, unit.slot, index(share * line)));
    Value last = arith::MinUIOp::create(
        b, loc, arith::AddIOp::create(b, loc, first, index((share - 1) * line)),
        index(size - 1));
    Value s = arith::SubIOp::create(b, loc, kv, unit.k0);
    prefetchSpaced(
        unit.flatLhs,
        arith::AddIOp::create(b, loc, first,
                              arith::MulIOp::create(b, loc, s, index(line))),
        1, line, last);
    return;
  }
  Value ahead = arith::MulIOp::create(
      b, loc,
      arith::AddIOp::create(
          b, loc, rows,
          arith::AddIOp::create(b, loc, kv, index(kPrefetchSteps))),
      index(rowLength));
  prefetchSpaced(unit.flatLhs, ahead, rowLength / line, line, index(size - 1));
}

bool KernelBuilder::uniformPanels(int64_t width, int64_t columns) {
  for (int64_t n0 = columns; n0 + columns <= width; n0 += columns) {
    int64_t base = constantOffset(n0, c.nDims);
    for (int64_t j = 1; j < columns; ++j) {
      if (constantOffset(n0 + j, c.nDims) !=
          base + constantOffset(j, c.nDims)) {
        return false;
      }
    }
  }
  return true;
}

void KernelBuilder::transposedTile(const TransposedUnit &unit, Value n0,
                                   Value offset, ArrayRef<int64_t> columns,
                                   Value source) {
  Value tile = unit.tile, buffer = unit.buffer;
  int64_t width = columns.size();
  int64_t tileRows = 2 * lanes;
  auto type = VectorType::get({lanes}, elem);
  Value m0 = arith::MulIOp::create(b, loc, tile, index(tileRows));
  // Each column's offset into B, less the step's K offset: the batch
  // loops' part plus the column's own (a constant).
  Value batch = arith::AddIOp::create(
      b, loc, arith::AddIOp::create(b, loc, batchOffset(), unit.firstOffset),
      offset);
  SmallVector<Value> columnAt;
  for (int64_t j = 0; j < width; ++j) {
    columnAt.push_back(arith::AddIOp::create(b, loc, batch, index(columns[j])));
  }
  Value start = vector::BroadcastOp::create(b, loc, type, init);
  SmallVector<Value> acc(2 * width, start);
  auto partialAt = [&](int64_t i) {
    return SmallVector<Value, 3>{unit.slot, index(i), index(0)};
  };
  if (unit.partial) {
    // The first k-block starts from the fill value, later ones from the
    // partial sums the previous block left.
    Value firstBlock = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                             unit.k0, index(0));
    SmallVector<Type> types(2 * width, type);
    auto branch = scf::IfOp::create(b, loc, types, firstBlock, true, true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(branch.thenBlock());
    scf::YieldOp::create(b, loc, acc);
    b.setInsertionPointToStart(branch.elseBlock());
    SmallVector<Value> loaded;
    for (int64_t i = 0; i < 2 * width; ++i) {
      loaded.push_back(
          vector::LoadOp::create(b, loc, type, unit.partial, partialAt(i)));
    }
    scf::YieldOp::create(b, loc, loaded);
    acc = SmallVector<Value>(branch.getResults());
  }
  auto step = [&](Value kv, ValueRange args, int64_t) {
    Value row = kOffset(kv);
    prefetchLhs(unit, kv);
    // B's rows kBPrefetchSteps ahead, the panel's first and last columns:
    // rows another core wrote (a depthwise convolution's channels, split
    // across threads, feeding a 1x1 projection) come from its cache at
    // memory-like latency, and without prefetches the tile waits on each.
    // (A row per step: each step's is another channel or window row.)
    Value later = kOffset(kv, kBPrefetchSteps);
    SmallVector<int64_t, 2> ends{0};
    if (width > 1) {
      ends.push_back(width - 1);
    }
    for (int64_t j : ends) {
      memref::PrefetchOp::create(
          b, loc, source,
          ValueRange{arith::AddIOp::create(b, loc, later, columnAt[j])},
          /*isWrite=*/false, /*localityHint=*/3, /*isDataCache=*/true);
    }
    Value a[2];
    for (int64_t v = 0; v < 2; ++v) {
      a[v] = vector::LoadOp::create(
          b, loc, type, packedLhs,
          ValueRange{unit.lhsTile, kv, index(v * lanes)});
    }
    SmallVector<Value> next;
    for (int64_t j = 0; j < width; ++j) {
      Value at = arith::AddIOp::create(b, loc, row, columnAt[j]);
      Value element = memref::LoadOp::create(b, loc, source, ValueRange{at});
      Value splat = vector::BroadcastOp::create(b, loc, type, element);
      for (int64_t v = 0; v < 2; ++v) {
        next.push_back(
            vector::FMAOp::create(b, loc, a[v], splat, args[2 * j + v]));
      }
    }
    return next;
  };
  // One step an iteration: unrolled, LLVM hoists the next steps' loads of
  // A and B, and where the columns' offsets take a register each (a panel
  // picked at run time) the AVX2 tile (15 of 16 registers) spilled.
  SmallVector<Value> sums = reductionLoop(unit.k0, unit.kEnd, acc, step);
  OpBuilder::InsertionGuard guard(b);
  if (unit.partial) {
    Value lastBlock = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                            unit.kEnd, index(c.k));
    auto branch = scf::IfOp::create(b, loc, lastBlock, true);
    b.setInsertionPointToStart(branch.elseBlock());
    for (int64_t i = 0; i < 2 * width; ++i) {
      vector::StoreOp::create(b, loc, sums[i], unit.partial, partialAt(i));
    }
    b.setInsertionPointToStart(branch.thenBlock());
  }
  // The tile transposed in registers, a lanes x lanes block per vector of
  // rows: log2(lanes) stages, each swapping the off-diagonal sub-blocks of
  // every 2b x 2b block (two-input shuffles), columns past `width` zero.
  // Its rows go to the buffer ([R rows][lanes]), each row of C one load.
  Value zero = arith::ConstantOp::create(
      b, loc, type, cast<DenseElementsAttr>(b.getZeroAttr(type)));
  for (int64_t v = 0; v < 2; ++v) {
    SmallVector<Value> block;
    for (int64_t j = 0; j < lanes; ++j) {
      block.push_back(j < width ? sums[2 * j + v] : zero);
    }
    for (int64_t half = lanes / 2; half >= 1; half /= 2) {
      SmallVector<int64_t> low, high;
      for (int64_t l = 0; l < lanes; ++l) {
        low.push_back(l & half ? lanes + l - half : l);
        high.push_back(l & half ? lanes + l : l + half);
      }
      SmallVector<Value> next(block);
      for (int64_t i = 0; i < lanes; ++i) {
        if (i & half) {
          continue;
        }
        next[i] =
            vector::ShuffleOp::create(b, loc, block[i], block[i + half], low);
        next[i + half] =
            vector::ShuffleOp::create(b, loc, block[i], block[i + half], high);
      }
      block = next;
    }
    for (int64_t i = 0; i < lanes; ++i) {
      vector::StoreOp::create(b, loc, block[i], buffer,
                              ValueRange{index((v * lanes + i) * lanes)});
    }
  }
  Value mask = vector::ConstantMaskOp::create(
      b, loc, VectorType::get({lanes}, b.getI1Type()),
      ArrayRef<int64_t>{width});
  // The last tile's rows past M were computed on zero rows of A.
  Value rowsHere = index(tileRows);
  if (c.m % tileRows) {
    rowsHere = arith::MinSIOp::create(
        b, loc, rowsHere, arith::SubIOp::create(b, loc, index(c.m), m0));
  }
  loop(index(0), rowsHere, 1, {}, [&](Value i, ValueRange) {
    Value row = vector::LoadOp::create(
        b, loc, type, buffer,
        ValueRange{arith::MulIOp::create(b, loc, i, index(lanes))});
    ivs[c.mId()] = arith::AddIOp::create(b, loc, m0, i);
    Value column = arith::AddIOp::create(b, loc, unit.first, n0);
    ivs[c.nId()] = column;
    if (epilogue) {
      emitEpilogue(b, loc, *epilogue, row, rowIndex(), column,
                   transposedColumnsFor(unsigned(lanes) * 32), mask, width,
                   /*prefetchElements=*/0, /*registerLanes=*/0, rowParts());
    } else {
      vector::MaskedStoreOp::create(b, loc, out, indices(outDims), mask, row);
    }
    return SmallVector<Value>{};
  });
}

} // namespace infer::cpu
