//===- TilePrefetches.cpp - software prefetches of the usual tiles --------===//
//
// The usual tiles' k loops (ContractionKernels.cpp) read streams that the
// hardware prefetchers do not follow or follow too late; each step of a
// tile issues prefetches for them:
//
//   - B's next panel, when B's panels are packed at compile time and too
//     large for L2: each of a panel's T tiles prefetches 1/T of the next
//     panel's k-block (after the group's last panel, the next k-block of
//     its first), so it streams in over the whole panel;
//   - A's next tile, when A is read in place and over 1 MB: one short
//     stream per row of A, the next tile's rows of the k-block;
//   - B's rows a plane apart: a 1x1 convolution's input read in place,
//     kRowPrefetchSteps ahead (32: 16 left mobilenet_v2's 32 -> 16
//     projection at 112 x 112, whose 1.6 MB input comes from L3, waiting
//     on its rows), or a stride-1 window's, its rows' offsets from the k
//     table, kBPrefetchSteps ahead;
//   - a tile's rows of A packed at compile time, one stream,
//     kPrefetchSteps ahead.
//
// In an unrolled loop the first step of each group issues the group's
// prefetches of the first two and the last (their address arithmetic, a
// division and a clamp or two each, otherwise cost as many instructions
// as the step's FMAs on AVX2, where a step is 12 of them); B's rows are
// another row at every step, prefetched at each.
//
//===----------------------------------------------------------------------===//

#include "targets/cpu/BufferViews.h"
#include "targets/cpu/KernelBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <climits>

using namespace mlir;

namespace infer::cpu {

KernelBuilder::NextPanelPrefetch
KernelBuilder::nextPanelPrefetch(Value m0, Value rhsPanel, Value k0) {
  // Tiles from 0, or over a block of A's rows copied (blockLhs: a
  // panel's tiles are the block's); a thread's row chunk is not split.
  // A single tile of fewer rows (a matrix-vector product) reads the
  // panels as one sequential stream, which the hardware prefetchers
  // follow: prefetches would only crowd the loop (a classifier's 1280 x
  // 1000 weights from memory, 0.23 ms without them, 0.37-0.39 with one a
  // row ahead in a C model of the loop).
  if (!packedRhs || (mBegin && !blockLhs) || c.m < rows) {
    return {};
  }
  auto type = cast<MemRefType>(packedRhs.getType());
  int64_t bytes =
      type.getNumElements() * type.getElementTypeBitWidth() / CHAR_BIT;
  if (bytes < kPrefetchPanelsBytes) {
    return {};
  }
  NextPanelPrefetch next;
  next.tiles = llvm::divideCeil(blockLhs ? lhsBlockRows() : c.m, rows);
  next.lineElements =
      kCacheLineBytes * CHAR_BIT / type.getElementTypeBitWidth();
  next.linesPerStep = std::max<int64_t>(1, panelWidth / next.lineElements);
  next.flat = memref::CollapseShapeOp::create(
      b, loc, packedRhs,
      SmallVector<ReassociationIndices>{ReassociationIndices{0, 1, 2}});
  // Row k0 of the next panel, [panel + 1][k0][0]; after the group's last
  // panel, the next k-block of its first.
  Value nextPanel = arith::AddIOp::create(b, loc, rhsPanel, index(1));
  Value nextK0 = k0;
  if (groupColumns.first) {
    Value wraps = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::uge,
        arith::MulIOp::create(b, loc, nextPanel, index(panelWidth)),
        groupColumns.second);
    nextPanel = arith::SelectOp::create(
        b, loc, wraps,
        arith::DivUIOp::create(b, loc, groupColumns.first, index(panelWidth)),
        nextPanel);
    nextK0 = arith::SelectOp::create(
        b, loc, wraps,
        arith::AddIOp::create(b, loc, k0, index(std::min(kBlock, c.k))), k0);
  }
  next.base = arith::MulIOp::create(
      b, loc,
      arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, nextPanel, index(c.k)), nextK0),
      index(panelWidth));
  // This tile's first line of it: tile t of T covers lines
  // [t * KC * L / T, (t + 1) * KC * L / T) of the block's KC * L.
  Value first = blockLhs ? arith::SubIOp::create(b, loc, m0, mBegin) : m0;
  next.tileSteps = arith::MulIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, first, index(rows)),
      index(std::min(kBlock, c.k) * next.linesPerStep));
  return next;
}

void KernelBuilder::prefetchNextPanel(const NextPanelPrefetch &next, Value kv,
                                      Value k0, int64_t steps) {
  // Over `steps` steps the tile's share advances steps * L / T lines: this
  // step's line and the ones after it, up to that many.
  Value s = arith::SubIOp::create(b, loc, kv, k0);
  Value line = arith::DivUIOp::create(
      b, loc,
      arith::AddIOp::create(
          b, loc, next.tileSteps,
          arith::MulIOp::create(b, loc, s, index(next.linesPerStep))),
      index(next.tiles));
  int64_t size = cast<MemRefType>(next.flat.getType()).getNumElements();
  Value first = arith::AddIOp::create(
      b, loc, next.base,
      arith::MulIOp::create(b, loc, line, index(next.lineElements)));
  prefetchSpaced(next.flat, first,
                 llvm::divideCeil(steps * next.linesPerStep, next.tiles),
                 next.lineElements, index(size - 1));
}

void KernelBuilder::prefetchSpaced(Value flat, Value first, int64_t count,
                                   int64_t apart, Value last) {
  for (int64_t j = 0; j < count; ++j) {
    Value element = arith::MinUIOp::create(
        b, loc,
        j == 0 ? first : arith::AddIOp::create(b, loc, first, index(j * apart)),
        last);
    memref::PrefetchOp::create(b, loc, flat, ValueRange{element},
                               /*isWrite=*/false, /*localityHint=*/3,
                               /*isDataCache=*/true);
  }
}

bool KernelBuilder::prefetchesNextTile(int64_t tileRows) const {
  return !packedLhs && !blockLhs && !mBegin && tileRows == rows &&
         c.m / rows >= 2 &&
         c.m * c.k * int64_t(sizeof(float)) >= kPrefetchPanelsBytes;
}

void KernelBuilder::prefetchNextTile(Value m0, Value kv, Value k0,
                                     int64_t steps) {
  // The next tile's rows of this k-block, R rows of KC / L lines (L floats
  // a line), R / L lines a step: line l = s * R / L of them and the ones
  // after it that `steps` steps cover.
  int64_t block = std::min(kBlock, c.k);
  int64_t lineElements = kCacheLineBytes / int64_t(sizeof(float));
  int64_t linesPerRow = llvm::divideCeil(block, lineElements);
  Value first = arith::DivUIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, arith::SubIOp::create(b, loc, kv, k0),
                            index(rows)),
      index(lineElements));
  Value savedM = ivs[c.mId()], savedK = ivs[c.kId()];
  int64_t lines = llvm::divideCeil(steps * rows, lineElements);
  for (int64_t j = 0; j < lines; ++j) {
    Value line =
        j == 0 ? first : arith::AddIOp::create(b, loc, first, index(j));
    ivs[c.mId()] = arith::MinUIOp::create(
        b, loc,
        arith::AddIOp::create(
            b, loc, m0,
            arith::AddIOp::create(
                b, loc, index(rows),
                arith::DivUIOp::create(b, loc, line, index(linesPerRow)))),
        index(c.m - 1));
    ivs[c.kId()] = arith::MinUIOp::create(
        b, loc,
        arith::AddIOp::create(
            b, loc, k0,
            arith::MulIOp::create(
                b, loc,
                arith::RemUIOp::create(b, loc, line, index(linesPerRow)),
                index(lineElements))),
        index(c.k - 1));
    memref::PrefetchOp::create(b, loc, lhs, indices(lhsDims),
                               /*isWrite=*/false,
                               /*localityHint=*/3, /*isDataCache=*/true);
  }
  ivs[c.mId()] = savedM;
  ivs[c.kId()] = savedK;
}

void KernelBuilder::prefetchPackedLhs(Value packedTile, Value kv,
                                      int64_t steps) {
  // One stream of A per tile: the prefetchers alone keep few of its lines
  // in flight when the weights come from memory. Its rows at steps
  // ahead, ahead + d, ... (d rows a line, or 1): points at most a line
  // apart, from group to group too, so every line gets one.
  auto type = cast<MemRefType>(packedLhs.getType());
  int64_t lineElements =
      kCacheLineBytes * CHAR_BIT / type.getElementTypeBitWidth();
  int64_t apart = std::max<int64_t>(1, lineElements / type.getShape().back());
  Value ahead = arith::AddIOp::create(b, loc, kv, index(kPrefetchSteps));
  int64_t points = llvm::divideCeil(steps, apart);
  for (int64_t j = 0; j < points; ++j) {
    Value at = arith::MinUIOp::create(
        b, loc,
        j == 0 ? ahead : arith::AddIOp::create(b, loc, ahead, index(j * apart)),
        index(c.k - 1));
    memref::PrefetchOp::create(b, loc, packedLhs,
                               ValueRange{packedTile, at, index(0)},
                               /*isWrite=*/false, /*localityHint=*/3,
                               /*isDataCache=*/true);
  }
}

void KernelBuilder::prefetchRows(const Rows &source, Value kv) {
  // B's own rows (a 1x1 convolution's input), a plane apart: the panel's
  // rows are as many streams as K, which no hardware prefetcher follows,
  // and when another core wrote them (a depthwise convolution split by
  // channels before mobilenet_v2's projections) each read costs about
  // what one from memory does. Constant rows (weights; a recurrent
  // layer's, read at every step, stay in L2) are left alone.
  if (strided || (c.gather && !flat) || c.k < kMinBPrefetchK ||
      ShapedType::isDynamic(c.n) ||
      c.n * elem.getIntOrFloatBitWidth() / 8 < kPrefetchRowBytes ||
      viewRoot(rhs).getDefiningOp<memref::GetGlobalOp>()) {
    return;
  }
  if (flat) {
    // A stride-1 window's rows (a 3x3 convolution's input read in place,
    // few filters: PP-OCRv4 det's heads) are a channel's plane apart too:
    // the panel's first and last elements of the row kBPrefetchSteps
    // ahead, as assembleVectors addresses them.
    auto constant = [&](int64_t v) -> Value { return index(v); };
    Value row = arith::AddIOp::create(b, loc, batchOffset(),
                                      kOffset(kv, kBPrefetchSteps));
    for (int64_t column : {int64_t(0), source.width - 1}) {
      Value at = arith::AddIOp::create(b, loc, source.n0, index(column));
      Value address = arith::AddIOp::create(
          b, loc, row, linearOffset<Value>(at, c.nDims, constant));
      memref::PrefetchOp::create(b, loc, flat, ValueRange{address},
                                 /*isWrite=*/false, /*localityHint=*/3,
                                 /*isDataCache=*/true);
    }
    return;
  }
  // Within one k-block (all of K), the rows past K are the next panel's:
  // a short K (mobilenet_v2's 32 -> 16 projection at 112 x 112) otherwise
  // left its first rows of every panel to demand misses.
  Value ahead = arith::AddIOp::create(b, loc, kv,
                                      index(std::min(kRowPrefetchSteps, c.k)));
  Value n0 = source.n0;
  if (c.k <= kBlock) {
    Value past = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, ahead,
                                       index(c.k));
    ahead = arith::SelectOp::create(
        b, loc, past, arith::SubIOp::create(b, loc, ahead, index(c.k)), ahead);
    n0 = arith::SelectOp::create(
        b, loc, past, arith::AddIOp::create(b, loc, n0, index(source.width)),
        n0);
  } else {
    ahead = arith::MinUIOp::create(b, loc, ahead, index(c.k - 1));
  }
  ivs[c.kId()] = ahead;
  for (int64_t column : {int64_t(0), source.width - 1}) {
    ivs[c.nId()] = arith::MinUIOp::create(
        b, loc, arith::AddIOp::create(b, loc, n0, index(column)),
        index(c.n - 1));
    memref::PrefetchOp::create(b, loc, rhs, indices(rhsDims),
                               /*isWrite=*/false, /*localityHint=*/3,
                               /*isDataCache=*/true);
  }
  ivs[c.kId()] = kv;
  ivs[c.nId()] = source.n0;
}

int64_t KernelBuilder::storePrefetchElements() {
  // A tile's epilogue stores MR rows of C a panel at a time: MR streams
  // (planes of a convolution's output) that the hardware prefetchers do
  // not all follow. When C outgrows L2, each store waited for its line:
  // mobilenet_v2's 16 -> 96 expansion at 112 x 112 (4.8 MB, K = 16) spent
  // more time on them than on its FMAs. One depthwise row (M = 1) is a
  // single stream the prefetchers follow.
  if (!epilogue || c.m < 2 || ShapedType::isDynamic(c.n) || c.k > kBlock) {
    return 0;
  }
  int64_t elements = c.m * c.n;
  for (unsigned d : c.batch) {
    if (ShapedType::isDynamic(c.ranges[d])) {
      return 0;
    }
    elements *= c.ranges[d];
  }
  // (The epilogue's elements: bytes of a quantized layer's output.)
  Type stored =
      getElementTypeOrSelf(epilogue->op.getDpsInitOperand(0)->get().getType());
  int64_t bytes = elements * stored.getIntOrFloatBitWidth() / 8;
  return bytes >= kPrefetchStoresBytes ? kStorePrefetchPanels * panelWidth : 0;
}

} // namespace infer::cpu
