//===- LhsBlocks.cpp - copies of A's k-blocks in the tiles' layout --------===//
//
// A matmul's A (activations) is read in place by the usual tiles, MR rows
// a row of A apart. When that is a multiple of 4 KiB the MR lines a tile
// reads at a step share one L1 set with the packed panel of B and evict
// each other. columns() (ContractionKernels.cpp) then copies each k-block
// of A, a block of rows at a time, into [tile][k][MR] in a stack buffer,
// and the tiles broadcast from the copy: one stream per tile, as for a
// constant A packed by infer-cpu-pack-weights.
//
//===----------------------------------------------------------------------===//

#include "targets/cpu/KernelBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

namespace infer::cpu {

int64_t KernelBuilder::lhsBlockRows() const {
  // A read in place is MR rows a row of A apart. When that is a multiple
  // of 4 KiB (K = 1024, 2048, ...), the MR lines a tile reads at a step
  // share one L1 set with the packed panel of B's, and evict each other:
  // square 1024 matmuls ran at 62% of the FMA peak (Xeon VM, AVX-512),
  // against 73% with K = 1008. A copy of each k-block of A in the tiles'
  // layout ([tile][k][MR], as infer-cpu-pack-weights makes for constant
  // weights) is read as one stream. It costs a copy of A per k-block,
  // paid back over the panels, so only with several of them.
  // (The copy's transposes are written for 8 rows of 16 lanes: AVX-512.)
  if (packedLhs || transposed || !elem.isF32() || !accElem.isF32() ||
      rows != 8 || lanes != 16 || ShapedType::isDynamic(c.n) ||
      c.m < 2 * rows || c.n < kMinLhsPackPanels * panelWidth ||
      c.k < kMinUnrolledK) {
    return 0;
  }
  int64_t rowBytes = lhsRowBytes(c);
  if (rowBytes <= 0 || rowBytes % kAliasingRowBytes) {
    return 0;
  }
  // As many whole tiles as fit the buffer with a k-block of each.
  int64_t most = kLhsPackFloats / (std::min(kBlock, c.k) * rows) * rows;
  return std::min(most, int64_t(llvm::alignTo(c.m, rows)));
}

Value KernelBuilder::lhsBuffer(bool inParallel) {
  auto type = MemRefType::get({kLhsPackFloats}, elem);
  if (inParallel || !sharedLhs) {
    return stackBuffer(type, inParallel);
  }
  if (!*sharedLhs) {
    *sharedLhs = stackBuffer(type, false);
  }
  return *sharedLhs;
}

Value KernelBuilder::lhsPackedAt(Value tile, Value step, int64_t row) {
  // [tile][k - k0][row] in the flat buffer.
  int64_t block = std::min(kBlock, c.k);
  Value at = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, tile, index(block)), step);
  return arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, at, index(rows)), index(row));
}

void KernelBuilder::packLhs(Value buffer, Value begin, Value end, Value k0,
                            Value kEnd) {
  // Rows past M (the last tile's) repeat row M - 1: never read.
  auto type = VectorType::get({lanes}, elem);
  loop(begin, end, rows, {}, [&](Value m0, ValueRange) {
    Value t = arith::DivUIOp::create(
        b, loc, arith::SubIOp::create(b, loc, m0, begin), index(rows));
    SmallVector<Value> rowAt;
    for (int64_t i = 0; i < rows; ++i) {
      rowAt.push_back(arith::MinSIOp::create(
          b, loc, arith::AddIOp::create(b, loc, m0, index(i)), index(c.m - 1)));
    }
    // A vector of each row's next 16 elements, transposed in registers
    // into 16 steps of 8 rows: three stages of two-input shuffles that
    // interleave units of 1, 2 and 4 floats (pairs of rows, pairs of
    // pairs, the two halves); vector j then holds steps 2j and 2j + 1.
    Value steps = arith::SubIOp::create(b, loc, kEnd, k0);
    Value whole = arith::AddIOp::create(
        b, loc, k0,
        arith::MulIOp::create(
            b, loc, arith::DivUIOp::create(b, loc, steps, index(lanes)),
            index(lanes)));
    loop(k0, whole, lanes, {}, [&](Value kv, ValueRange) {
      ivs[c.kId()] = kv;
      SmallVector<Value> v;
      for (int64_t i = 0; i < rows; ++i) {
        ivs[c.mId()] = rowAt[i];
        v.push_back(
            vector::LoadOp::create(b, loc, type, lhs, indices(lhsDims)));
      }
      // Stage u interleaves units of u floats of vectors i and i + step.
      for (int64_t unit = 1; unit <= 4; unit *= 2) {
        SmallVector<Value> next;
        for (int64_t i = 0; i < rows; i += 2 * unit) {
          for (int64_t j = i; j < i + unit; ++j) {
            for (int64_t half = 0; half < 2; ++half) {
              SmallVector<int64_t> mask;
              for (int64_t q = 0; q < lanes / (2 * unit); ++q) {
                int64_t from = (half * lanes / 2) + q * unit;
                for (int64_t e = 0; e < unit; ++e) {
                  mask.push_back(from + e);
                }
                for (int64_t e = 0; e < unit; ++e) {
                  mask.push_back(lanes + from + e);
                }
              }
              next.push_back(
                  vector::ShuffleOp::create(b, loc, v[j], v[j + unit], mask));
            }
          }
        }
        v = next;
      }
      Value at = arith::SubIOp::create(b, loc, kv, k0);
      for (int64_t j = 0; j < rows; ++j) {
        vector::StoreOp::create(b, loc, v[j], buffer,
                                lhsPackedAt(t, at, j * 2 * rows));
      }
      return SmallVector<Value>{};
    });
    loop(whole, kEnd, 1, {}, [&](Value kv, ValueRange) {
      ivs[c.kId()] = kv;
      Value at = arith::SubIOp::create(b, loc, kv, k0);
      for (int64_t i = 0; i < rows; ++i) {
        ivs[c.mId()] = rowAt[i];
        Value a = memref::LoadOp::create(b, loc, lhs, indices(lhsDims));
        memref::StoreOp::create(b, loc, a, buffer, lhsPackedAt(t, at, i));
      }
      return SmallVector<Value>{};
    });
    return SmallVector<Value>{};
  });
}

} // namespace infer::cpu
