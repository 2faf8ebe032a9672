//===- ContractionKernels.cpp - register-tiled matmul kernels -------------===//
//
// Rewrites f32 contractions on buffers (matmuls, and convolutions after
// im2col) into register-blocked loop nests on vectors:
//
//   for batch...                      (every batch dim of the contraction)
//     for n0 step NR                  (panel of B and C columns)
//       for k0 step KC                (a KC x NR block of B stays in L1)
//         for m0 step MR              (an MR x NR tile of C in registers)
//           acc[0..MR) = C[m0.., n0:n0+NR]
//           for k in k0..k0+KC
//             b = B[k, n0:n0+NR]
//             acc[i] += broadcast(A[m0+i, k]) * b      (MR FMAs of NR lanes)
//           C[m0.., n0:n0+NR] = acc
//
// With `parallel`, the panel loop is an scf.parallel (the pipeline turns
// it into an OpenMP worksharing loop): panels write disjoint columns of C.
//
// NR is two vector registers wide and MR rows keep 2*MR accumulators plus
// the B row and a broadcast within the register file (16 on AVX2: MR=6;
// 32 on AVX-512: MR=8). M, N and K are static, so the M remainder is a
// tile of fewer rows and the N remainder uses masked loads and stores; batch
// loops may run to a size known at run time (dynamic batch).
//
//===----------------------------------------------------------------------===//

#include "targets/cpu/ContractionMatch.h"
#include "targets/cpu/Epilogue.h"
#include "targets/cpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

#include <numeric>

using namespace mlir;

namespace infer::cpu {
#define GEN_PASS_DEF_CONTRACTIONKERNELSPASS
#include "targets/cpu/Passes.h.inc"

namespace {

class KernelBuilder {
public:
  KernelBuilder(OpBuilder &b, Contraction c, unsigned vectorBits,
                int64_t kBlock, bool parallel, Value &shared, Value init,
                std::optional<Epilogue> epilogue)
      : b(b), loc(c.op.getLoc()), c(c), parallel(parallel), init(init),
        epilogue(std::move(epilogue)),
        lanes(std::max<int64_t>(vectorBits / 32, 4)),
        rows(vectorBits >= 512 ? 8 : 6), kBlock(kBlock), ivs(c.numIds()),
        shared(shared) {
    // Two vectors of columns per panel; when C has fewer rows than a
    // tile (and B is read in place, not packed), wider panels keep the
    // same accumulator count: a matrix-vector product streams whole rows
    // of B instead of two vectors of each.
    int64_t m = c.m;
    int64_t vectors =
        m < rows && !c.gather ? std::min<int64_t>(2 * rows / m, 16) : 2;
    panelWidth = vectors * lanes;
  }

  void build() {
    // Several M dims are consecutive just before K in A and N in C (the
    // match checked); a single one may be anywhere before them.
    SmallVector<std::pair<ArrayRef<unsigned>, unsigned>> aGroups, cGroups;
    if (c.mDims.size() > 1) {
      aGroups.push_back({c.mDims, c.mId()});
      cGroups.push_back({c.mDims, c.mId()});
    }
    // A single K or N dim is indexed in place (loopId); several are the
    // trailing dims of A or C, collapsed (as are they after an M group).
    if (c.kDims.size() > 1 || c.mDims.size() > 1) {
      aGroups.push_back({c.kDims, c.kId()});
    }
    if (c.nDims.size() > 1 || c.mDims.size() > 1) {
      cGroups.push_back({c.nDims, c.nId()});
    }
    lhs = operandView(c.op.getDpsInputOperand(c.lhs), aGroups, lhsDims);
    out = operandView(c.op.getDpsInitOperand(0), cGroups, outDims);
    rhs = c.op.getDpsInputOperand(c.rhs)->get();
    flat = flatView();
    for (AffineExpr expr :
         c.op.getMatchingIndexingMap(c.op.getDpsInputOperand(c.rhs))
             .getResults()) {
      auto dim = dyn_cast<AffineDimExpr>(expr);
      rhsDims.push_back(!dim ? -1 : loopId(dim.getPosition()));
    }
    batchLoops(0);
  }

private:
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }

  /// The loop id indexing with dim `d`: the flattened K or N loop for a
  /// (single) K or N dim.
  int loopId(unsigned d) {
    if (llvm::is_contained(c.kDims, d)) {
      return c.kId();
    }
    if (llvm::is_contained(c.nDims, d)) {
      return c.nId();
    }
    return d;
  }

  /// `operand`, with each of its trailing `groups` of dims collapsed into
  /// one, indexed by the group's loop id; `dims` receives the loop indexing
  /// each dim of the view (-1: the constant 0).
  Value operandView(OpOperand *operand,
                    ArrayRef<std::pair<ArrayRef<unsigned>, unsigned>> groups,
                    SmallVector<int> &dims) {
    ArrayRef<AffineExpr> results =
        c.op.getMatchingIndexingMap(operand).getResults();
    size_t lead = results.size();
    for (auto [group, id] : groups) {
      lead -= group.size();
    }
    SmallVector<ReassociationIndices> reassociation;
    for (size_t i = 0; i < lead; ++i) {
      auto dim = dyn_cast<AffineDimExpr>(results[i]);
      dims.push_back(!dim ? -1 : loopId(dim.getPosition()));
      reassociation.push_back({int64_t(i)});
    }
    bool collapse = false;
    int64_t next = lead;
    for (auto [group, id] : groups) {
      dims.push_back(id);
      reassociation.emplace_back();
      for (size_t i = 0; i < group.size(); ++i) {
        reassociation.back().push_back(next++);
      }
      collapse |= group.size() > 1;
    }
    if (!collapse) {
      return operand->get();
    }
    return memref::CollapseShapeOp::create(b, loc, operand->get(),
                                           reassociation);
  }

  /// Loop `lb..ub step` around `body(iv, iterArgs)` which returns the
  /// values to yield.
  scf::ForOp loop(Value lb, Value ub, int64_t step, ValueRange init,
                  function_ref<SmallVector<Value>(Value, ValueRange)> body) {
    return scf::ForOp::create(
        b, loc, lb, ub, index(step), init,
        [&](OpBuilder &nb, Location, Value iv, ValueRange args) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(nb.getInsertionBlock());
          scf::YieldOp::create(b, loc, body(iv, args));
        });
  }

  /// Indices for the current loop values.
  SmallVector<Value> indices(ArrayRef<int> dims) {
    SmallVector<Value> result;
    for (int d : dims) {
      result.push_back(d < 0 ? index(0) : ivs[d]);
    }
    return result;
  }

  /// The trip count of loop dim `d`: static, or the size of an operand
  /// dim it indexes.
  Value batchBound(unsigned d) {
    if (!ShapedType::isDynamic(c.ranges[d])) {
      return index(c.ranges[d]);
    }
    for (OpOperand &operand : c.op->getOpOperands()) {
      for (auto [pos, expr] : llvm::enumerate(
               c.op.getMatchingIndexingMap(&operand).getResults())) {
        auto dim = dyn_cast<AffineDimExpr>(expr);
        if (dim && dim.getPosition() == d) {
          return memref::DimOp::create(b, loc, operand.get(), pos);
        }
      }
    }
    llvm_unreachable("a loop dim no operand indexes");
  }

  /// The batch loop to run in parallel instead of the panels: the first
  /// one of at least kMinParallelBatch iterations with only unit loops
  /// outside it (a depthwise convolution's channels: one parallel region,
  /// not one per channel).
  std::optional<size_t> parallelBatchLevel() {
    if (!parallel) {
      return std::nullopt;
    }
    for (auto [level, d] : llvm::enumerate(c.batch)) {
      if (ShapedType::isDynamic(c.ranges[d])) {
        return std::nullopt;
      }
      if (c.ranges[d] >= kMinParallelBatch) {
        return level;
      }
      if (c.ranges[d] != 1) {
        return std::nullopt;
      }
    }
    return std::nullopt;
  }

  void batchLoops(size_t level) {
    if (level == c.batch.size()) {
      return matmul();
    }
    if (parallelBatchLevel() == level) {
      scf::ParallelOp::create(
          b, loc, ValueRange{index(0)}, ValueRange{batchBound(c.batch[level])},
          ValueRange{index(1)}, [&](OpBuilder &nb, Location, ValueRange iv) {
            OpBuilder::InsertionGuard guard(b);
            b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
            ivs[c.batch[level]] = iv.front();
            inParallelBatch = true;
            batchLoops(level + 1);
            inParallelBatch = false;
          });
      return;
    }
    loop(index(0), batchBound(c.batch[level]), 1, {},
         [&](Value iv, ValueRange) {
           ivs[c.batch[level]] = iv;
           batchLoops(level + 1);
           return SmallVector<Value>{};
         });
  }

  void matmul() {
    int64_t n = c.n, width = panelWidth;
    int64_t panels = n / width, full = panels * width, tail = n - full;
    int64_t tiles = c.m / rows;
    if (parallel && !inParallelBatch && panels < kMaxGroups &&
        tiles >= 2 * kMinTilesPerChunk) {
      // Too few panels to share out (a late conv layer: 7x7 outputs, 512
      // channels): the threads take row ranges of C instead, each packing
      // the panels it needs.
      int64_t chunks = std::min(kMaxGroups, tiles / kMinTilesPerChunk);
      int64_t chunk = llvm::divideCeil(tiles, chunks) * rows;
      scf::ParallelOp::create(
          b, loc, ValueRange{index(0)}, ValueRange{index(c.m)},
          ValueRange{index(chunk)},
          [&](OpBuilder &nb, Location, ValueRange m0) {
            OpBuilder::InsertionGuard guard(b);
            b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
            mBegin = m0.front();
            mEnd = arith::MinSIOp::create(
                b, loc, arith::AddIOp::create(b, loc, mBegin, index(chunk)),
                index(c.m));
            columns(index(0), index(full), tail, true);
            mBegin = mEnd = Value();
          });
    } else if (parallel && !inParallelBatch && panels > 1) {
      // Groups of panels are independent: one parallel loop over them
      // (threads through OpenMP once scf.parallel is converted). At most
      // `kMaxGroups` groups, so each k-block of A is read a few times, not
      // once per panel.
      int64_t group = llvm::divideCeil(panels, kMaxGroups) * width;
      scf::ParallelOp::create(
          b, loc, ValueRange{index(0)}, ValueRange{index(full)},
          ValueRange{index(group)},
          [&](OpBuilder &nb, Location, ValueRange n0) {
            OpBuilder::InsertionGuard guard(b);
            b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
            Value end = arith::MinSIOp::create(
                b, loc, arith::AddIOp::create(b, loc, n0.front(), index(group)),
                index(full));
            columns(n0.front(), end, 0, true);
          });
      if (tail) {
        columns(index(full), index(full), tail, false);
      }
    } else {
      columns(index(0), index(full), tail, inParallelBatch);
    }
  }

  /// The full panels from n0 to nEnd and, if `tail`, the `tail` columns
  /// after nEnd, one k-block at a time: the k-block of A (M x KC) stays in
  /// L2 while every panel uses it.
  void columns(Value n0, Value nEnd, int64_t tail, bool inParallel) {
    int64_t k = c.k, m = c.m, width = panelWidth;
    int64_t block = std::min(kBlock, k);
    // The panel's rows of B, one k-block at a time, are copied into a
    // contiguous buffer: the tiles then read it at unit stride (rows of
    // B lie N floats apart, which thrashes L1 sets and the TLB when N is
    // a conv's output plane). Rows are only worth copying when several
    // tiles reuse them; gathered rows are always copied.
    Value packed = m > rows ? packBuffer(inParallel) : Value();
    loop(index(0), index(k), block, {}, [&](Value k0, ValueRange) {
      Value kEnd = arith::MinSIOp::create(
          b, loc, arith::AddIOp::create(b, loc, k0, index(block)), index(k));
      loop(n0, nEnd, width, {}, [&](Value p, ValueRange) {
        panel(p, width, width, k0, kEnd, packed);
        return SmallVector<Value>{};
      });
      if (tail) {
        panel(nEnd, tail, llvm::alignTo(tail, lanes), k0, kEnd, packed);
      }
      return SmallVector<Value>{};
    });
  }

  /// Rows k0..kEnd of columns n0..n0+width of C, as vectors of `length`
  /// lanes (masked when `width` < `length`).
  /// How a panel reads its rows of B: in place (`loadRow`), gathered at
  /// `offsets`, or as runs (`parts`, see planRuns).
  /// One vector of lanes of a row: runs of consecutive elements, each an
  /// offset (for k = 0) and the lanes it fills.
  struct Part {
    SmallVector<Value> offsets, masks;
  };
  struct Rows {
    Value n0, offsets;
    SmallVector<Part> parts;
    int64_t width, length;
  };

  void panel(Value n0, int64_t width, int64_t length, Value k0, Value kEnd,
             Value packed) {
    int64_t m = c.m;
    Rows source{n0, Value(), {}, width, length};
    if (flat) {
      source.parts = planRuns(n0, width, length);
    } else if (c.gather) {
      source.offsets = columnOffsets(n0, length);
    }
    if (packed) {
      ivs[c.nId()] = n0;
      loop(k0, kEnd, 1, {}, [&](Value kv, ValueRange) {
        Value row = rowOf(source, kv);
        Value at = arith::SubIOp::create(b, loc, kv, k0);
        vector::StoreOp::create(b, loc, row, packed, ValueRange{at, index(0)});
        return SmallVector<Value>{};
      });
    }
    int64_t full = m / rows * rows;
    if (mBegin) {
      // This thread's rows mBegin..mEnd (multiples of MR but the last).
      Value end = arith::MinSIOp::create(b, loc, mEnd, index(full));
      loop(mBegin, end, rows, {}, [&](Value m0, ValueRange) {
        tile(m0, rows, source, k0, kEnd, packed);
        return SmallVector<Value>{};
      });
      if (int64_t tail = m - full) {
        Value last = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                           mEnd, index(m));
        auto branch = scf::IfOp::create(b, loc, last);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(branch.thenBlock());
        tile(index(full), tail, source, k0, kEnd, packed);
      }
      return;
    }
    if (full > 0) {
      loop(index(0), index(full), rows, {}, [&](Value m0, ValueRange) {
        tile(m0, rows, source, k0, kEnd, packed);
        return SmallVector<Value>{};
      });
    }
    if (int64_t tail = m - full) {
      tile(index(full), tail, source, k0, kEnd, packed);
    }
  }

  /// Row kv of B over the panel's columns.
  Value rowOf(const Rows &source, Value kv) {
    auto type = VectorType::get({source.length}, b.getF32Type());
    ivs[c.nId()] = source.n0;
    ivs[c.kId()] = kv;
    if (flat) {
      return loadRuns(source, kv);
    }
    if (c.gather) {
      return gatherRow(kv, source.offsets, type, source.width);
    }
    return loadRow(rhs, rhsDims, type, columnMask(source.width, source.length));
  }

  /// For B whose innermost N dim is unit-stride and at least a vector long
  /// (a stride-1 convolution): each vector of lanes covers at most two
  /// runs of consecutive elements, the end of one output row and the start
  /// of the next. The first is a masked load, the second an expanding load
  /// into the lanes after it (no gather). Per part: the two runs' offsets
  /// for k = 0 and their lane masks.
  SmallVector<Part> planRuns(Value n0, int64_t width, int64_t length) {
    int64_t rowLength = c.ranges[c.nDims.back()];
    auto maskType = VectorType::get({lanes}, b.getI1Type());
    Value batch = batchOffset();
    auto columnOffset = [&](Value column) {
      return arith::AddIOp::create(
          b, loc, batch,
          linearOffset<Value>(column, c.nDims,
                              [&](int64_t v) -> Value { return index(v); }));
    };
    SmallVector<Part> parts;
    for (int64_t v = 0; v * lanes < length; ++v) {
      int64_t valid = std::min(lanes, width - v * lanes);
      Value start = arith::AddIOp::create(b, loc, n0, index(v * lanes));
      // Run r fills lanes [bound_r, bound_r+1): the rest of the output row
      // the lane at bound_r is in, or up to the last valid lane.
      Part part;
      Value bound = index(0);
      Value before = vector::ConstantMaskOp::create(b, loc, maskType,
                                                    ArrayRef<int64_t>{0});
      for (int64_t r = 0; r < runsPerVector; ++r) {
        Value column = arith::AddIOp::create(b, loc, start, bound);
        Value next = arith::MinSIOp::create(
            b, loc,
            arith::AddIOp::create(
                b, loc, bound,
                arith::SubIOp::create(
                    b, loc, index(rowLength),
                    arith::RemUIOp::create(b, loc, column, index(rowLength)))),
            index(valid));
        Value upTo = vector::CreateMaskOp::create(b, loc, maskType, next);
        part.offsets.push_back(columnOffset(
            arith::MinSIOp::create(b, loc, column, index(c.n - 1))));
        part.masks.push_back(arith::XOrIOp::create(b, loc, upTo, before));
        before = upTo;
        bound = next;
      }
      parts.push_back(std::move(part));
    }
    return parts;
  }

  Value loadRuns(const Rows &source, Value kv) {
    auto type = VectorType::get({lanes}, b.getF32Type());
    auto rowType = VectorType::get({source.length}, b.getF32Type());
    Value row = linearOffset<Value>(
        kv, c.kDims, [&](int64_t v) -> Value { return index(v); });
    Value result = arith::ConstantOp::create(
        b, loc, rowType, DenseElementsAttr::get(rowType, b.getF32FloatAttr(0)));
    for (auto [v, part] : llvm::enumerate(source.parts)) {
      // The first run starts at lane 0: a masked load; the others expand
      // into the lanes after it.
      Value value = arith::ConstantOp::create(
          b, loc, type, DenseElementsAttr::get(type, b.getF32FloatAttr(0)));
      for (auto [r, offset] : llvm::enumerate(part.offsets)) {
        ValueRange at{arith::AddIOp::create(b, loc, row, offset)};
        value = r == 0 ? vector::MaskedLoadOp::create(b, loc, type, flat, at,
                                                      part.masks[r], value)
                             .getResult()
                       : vector::ExpandLoadOp::create(b, loc, type, flat, at,
                                                      part.masks[r], value)
                             .getResult();
      }
      result = vector::InsertStridedSliceOp::create(
          b, loc, value, result, ArrayRef<int64_t>{int64_t(v) * lanes},
          ArrayRef<int64_t>{1});
    }
    return result;
  }

  /// The batch loops' part of B's offsets.
  Value batchOffset() {
    Value batch = index(0);
    for (unsigned d : c.batch) {
      batch = arith::AddIOp::create(
          b, loc, batch,
          arith::MulIOp::create(b, loc, ivs[d], index(c.coefficients[d])));
    }
    return batch;
  }

  /// B as one dimension (its elements at the linear offsets the
  /// coefficients give), for a stride-1 implicit GEMM.
  Value flatView() {
    int64_t innermost = c.nDims.back();
    // Up to 4 runs per vector (output rows of at least lanes / 3).
    runsPerVector = llvm::divideCeil(lanes - 1, c.ranges[innermost]) + 1;
    if (!c.gather || c.coefficients[innermost] != 1 || runsPerVector > 4) {
      return {};
    }
    auto type = cast<MemRefType>(rhs.getType());
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(type.getStridesAndOffset(strides, offset))) {
      return {};
    }
    int64_t extent = 1;
    for (auto [size, stride] : llvm::zip(type.getShape(), strides)) {
      extent += (size - 1) * stride;
    }
    auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, rhs);
    return memref::ReinterpretCastOp::create(
        b, loc,
        MemRefType::get(
            {extent}, type.getElementType(),
            StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, {1})),
        metadata.getBaseBuffer(), metadata.getOffset(),
        ArrayRef<OpFoldResult>{b.getIndexAttr(extent)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  }

  /// sum(coefficient[d] * index_d) over `dims`, delinearizing `flat`
  /// (innermost dim last): the offset of B's element for a K or N index.
  template <typename T>
  T linearOffset(T flat, ArrayRef<unsigned> dims,
                 function_ref<T(int64_t)> constant) {
    T offset = constant(0);
    for (size_t i = dims.size(); i-- > 0;) {
      unsigned d = dims[i];
      T position = flat;
      if (i > 0) {
        position = arith::RemUIOp::create(b, loc, flat, constant(c.ranges[d]));
        flat = arith::DivUIOp::create(b, loc, flat, constant(c.ranges[d]));
      }
      if (int64_t coefficient = c.coefficients[d]) {
        offset = arith::AddIOp::create(
            b, loc, offset,
            arith::MulIOp::create(b, loc, position, constant(coefficient)));
      }
    }
    return offset;
  }

  /// B's offsets (i32 lanes) for columns n0.. of the panel, with the
  /// batch loops' part added.
  Value columnOffsets(Value n0, int64_t length) {
    auto type = VectorType::get({length}, b.getI32Type());
    auto splat = [&](int64_t v) -> Value {
      return arith::ConstantOp::create(
          b, loc, type, DenseElementsAttr::get(type, b.getI32IntegerAttr(v)));
    };
    Value start = arith::IndexCastOp::create(b, loc, b.getI32Type(), n0);
    SmallVector<int32_t> lanes(length);
    std::iota(lanes.begin(), lanes.end(), 0);
    Value columns = arith::AddIOp::create(
        b, loc, vector::BroadcastOp::create(b, loc, type, start),
        arith::ConstantOp::create(
            b, loc, type, DenseElementsAttr::get(type, ArrayRef(lanes))));
    Value offsets = linearOffset<Value>(columns, c.nDims, splat);
    Value batch =
        arith::IndexCastOp::create(b, loc, b.getI32Type(), batchOffset());
    return arith::AddIOp::create(
        b, loc, offsets, vector::BroadcastOp::create(b, loc, type, batch));
  }

  /// Row kv of the panel, gathered from B at `columns` plus kv's offset.
  Value gatherRow(Value kv, Value columns, VectorType type, int64_t width) {
    Value row = linearOffset<Value>(
        kv, c.kDims, [&](int64_t v) -> Value { return index(v); });
    row = arith::IndexCastOp::create(b, loc, b.getI32Type(), row);
    Value offsets = arith::AddIOp::create(
        b, loc, columns,
        vector::BroadcastOp::create(b, loc, columns.getType(), row));
    int64_t length = type.getNumElements();
    Value mask = vector::ConstantMaskOp::create(
        b, loc, VectorType::get({length}, b.getI1Type()),
        ArrayRef<int64_t>{std::min(width, length)});
    Value zero = arith::ConstantOp::create(
        b, loc, type, DenseElementsAttr::get(type, b.getF32FloatAttr(0)));
    auto rank = cast<MemRefType>(rhs.getType()).getRank();
    SmallVector<Value> origin(rank, index(0));
    return vector::GatherOp::create(b, loc, type, rhs, origin, offsets, mask,
                                    zero);
  }

  /// A k-block x NR buffer for packing B: a fresh one in each parallel
  /// iteration (each thread its own; the OpenMP conversion scopes it), or
  /// the one function-wide buffer that every serial panel reuses (an
  /// alloca in a loop would grow the stack on every iteration).
  Value packBuffer(bool inParallel) {
    auto type = MemRefType::get({kBlock, panelWidth}, b.getF32Type());
    if (inParallel) {
      return memref::AllocaOp::create(b, loc, type);
    }
    if (!shared) {
      OpBuilder::InsertionGuard guard(b);
      auto func = c.op->getParentOfType<FunctionOpInterface>();
      b.setInsertionPointToStart(&func.getFunctionBody().front());
      shared = memref::AllocaOp::create(b, loc, type);
    }
    return shared;
  }

  Value columnMask(int64_t width, int64_t length) {
    if (width >= length) {
      return {};
    }
    return vector::ConstantMaskOp::create(
        b, loc, VectorType::get({length}, b.getI1Type()),
        ArrayRef<int64_t>{width});
  }

  Value loadRow(Value memref, ArrayRef<int> dims, VectorType type, Value mask) {
    SmallVector<Value> at = indices(dims);
    if (!mask) {
      return vector::LoadOp::create(b, loc, type, memref, at);
    }
    Value zero = arith::ConstantOp::create(
        b, loc, type, DenseElementsAttr::get(type, b.getF32FloatAttr(0)));
    return vector::MaskedLoadOp::create(b, loc, type, memref, at, mask, zero);
  }

  /// An MR x NR tile of C at (m0, the panel's n0) over reduction rows
  /// k0..kEnd, reading B from `packed` (row kv - k0) when the panel was
  /// packed, else straight from `source`.
  void tile(Value m0, int64_t tileRows, const Rows &source, Value k0,
            Value kEnd, Value packed) {
    Value n0 = source.n0;
    int64_t width = source.width, length = source.length;
    auto type = VectorType::get({length}, b.getF32Type());
    Value mask = columnMask(width, length);
    ivs[c.nId()] = n0;
    auto loadTile = [&] {
      SmallVector<Value> tile;
      for (int64_t i = 0; i < tileRows; ++i) {
        ivs[c.mId()] = arith::AddIOp::create(b, loc, m0, index(i));
        tile.push_back(loadRow(out, outDims, type, mask));
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
      SmallVector<Type> types(tileRows, type);
      auto branch = scf::IfOp::create(b, loc, types, first, true, true);
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(branch.thenBlock());
        Value splat = vector::BroadcastOp::create(b, loc, type, init);
        scf::YieldOp::create(b, loc, SmallVector<Value>(tileRows, splat));
        b.setInsertionPointToStart(branch.elseBlock());
        scf::YieldOp::create(b, loc, loadTile());
      }
      acc = branch.getResults();
    }
    auto step = [&](Value kv, ValueRange args) {
      ivs[c.kId()] = kv;
      Value row;
      if (packed) {
        Value at = arith::SubIOp::create(b, loc, kv, k0);
        row = vector::LoadOp::create(b, loc, type, packed,
                                     ValueRange{at, index(0)});
      } else {
        row = rowOf(source, kv);
      }
      SmallVector<Value> next;
      for (int64_t i = 0; i < tileRows; ++i) {
        ivs[c.mId()] = arith::AddIOp::create(b, loc, m0, index(i));
        Value a = memref::LoadOp::create(b, loc, lhs, indices(lhsDims));
        Value splat = vector::BroadcastOp::create(b, loc, type, a);
        next.push_back(vector::FMAOp::create(b, loc, splat, row, args[i]));
      }
      return next;
    };
    SmallVector<Value> sums;
    if (c.k <= kUnrolledK && c.k <= kBlock && !packed) {
      // A short reduction read in place (a depthwise 3x3 window: K = 9):
      // unrolled, so each step's offsets into B are constants.
      sums = acc;
      for (int64_t kv = 0; kv < c.k; ++kv) {
        sums = step(index(kv), sums);
      }
    } else {
      sums = loop(k0, kEnd, 1, acc, step).getResults();
    }
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
        emitEpilogue(b, loc, *epilogue, sums[i], rowIndex(), n0, mask);
      }
    };
    if (c.k <= kBlock) {
      return applyEpilogue();
    }
    Value last = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, kEnd,
                                       index(c.k));
    auto branch = scf::IfOp::create(b, loc, last, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(branch.thenBlock());
    applyEpilogue();
    b.setInsertionPointToStart(branch.elseBlock());
    storeTile();
  }

  /// The linear index of C's current row: its leading (batch and M)
  /// indices in C's row-major order.
  Value rowIndex() {
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

  static constexpr int64_t kMaxGroups = 8;
  static constexpr int64_t kMinParallelBatch = 4;
  static constexpr int64_t kMinTilesPerChunk = 4;
  static constexpr int64_t kUnrolledK = 16;
  bool inParallelBatch = false;
  /// Runs of consecutive elements a vector of B's row can span.
  int64_t runsPerVector = 2;
  /// The rows of C this thread computes, when threads split M.
  Value mBegin, mEnd;

  OpBuilder &b;
  Location loc;
  Contraction c;
  bool parallel;
  /// The value C holds before the contraction when a fill was folded in.
  Value init;
  /// The consumer applied to the last k-block's accumulators.
  std::optional<Epilogue> epilogue;
  int64_t lanes, rows, kBlock, panelWidth;
  SmallVector<Value> ivs;
  Value lhs, rhs, out, flat;
  SmallVector<int> lhsDims, rhsDims, outDims;
  Value &shared;
};

/// The buffer `value` is a reshaped view of.
Value viewRoot(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (!isa<memref::ExpandShapeOp, memref::CollapseShapeOp, memref::ReshapeOp>(
            def)) {
      break;
    }
    value = def->getOperand(0);
  }
  return value;
}

/// The linalg.fill of C's whole buffer that `op` accumulates onto, when
/// nothing between the two touches that buffer: the kernel can start from
/// the fill value and the fill can go.
linalg::FillOp initializingFill(linalg::LinalgOp op) {
  Value out = op.getDpsInitOperand(0)->get();
  Value root = viewRoot(out);
  auto outType = cast<MemRefType>(out.getType());
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (auto fill = dyn_cast<linalg::FillOp>(prev)) {
      Value filled = fill.getDpsInitOperand(0)->get();
      if (viewRoot(filled) == root) {
        auto type = cast<MemRefType>(filled.getType());
        return type.getNumElements() == outType.getNumElements() &&
                       type.getLayout().isIdentity() &&
                       outType.getLayout().isIdentity()
                   ? fill
                   : linalg::FillOp();
      }
    }
    // A view of the buffer is harmless; any other use of it is not.
    bool isView =
        isa<memref::ExpandShapeOp, memref::CollapseShapeOp, memref::ReshapeOp>(
            prev);
    for (Value operand : prev->getOperands()) {
      if (!isView && isa<MemRefType>(operand.getType()) &&
          viewRoot(operand) == root) {
        return {};
      }
    }
    if (prev->getNumRegions() != 0 && !isa<linalg::LinalgOp>(prev)) {
      return {}; // a loop or branch could touch it in ways not seen here
    }
  }
  return {};
}

struct ContractionKernelsPass final
    : impl::ContractionKernelsPassBase<ContractionKernelsPass> {
  using Base::Base;
  void runOnOperation() override {
    if (vectorBits != 128 && vectorBits != 256 && vectorBits != 512) {
      getOperation().emitError("vector-bits must be 128, 256 or 512");
      return signalPassFailure();
    }
    SmallVector<Contraction, 4> found;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (std::optional<Contraction> c = matchContraction(op)) {
        found.push_back(*c);
      }
    });
    // The pack buffer the serial panels of every contraction share.
    Value shared;
    for (Contraction &c : found) {
      OpBuilder b(c.op);
      Value init;
      if (linalg::FillOp fill = initializingFill(c.op)) {
        init = fill.value();
        fill->erase();
      }
      std::optional<Epilogue> epilogue = matchEpilogue(c.op, c.n);
      if (epilogue) {
        // The views between the two (of the consumer's operands) move
        // before the kernel that now uses them.
        while (c.op->getNextNode() != epilogue->op.getOperation()) {
          c.op->getNextNode()->moveBefore(c.op);
        }
      }
      KernelBuilder(b, c, vectorBits, kBlock, parallel, shared, init, epilogue)
          .build();
      c.op->erase();
      if (epilogue) {
        epilogue->op->erase();
      }
    }
  }
};

} // namespace
} // namespace infer::cpu
