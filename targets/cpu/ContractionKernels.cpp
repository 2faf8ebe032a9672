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
// With `parallel`, the panel loop is an scf.parallel over groups of
// panels (or of row tiles), one per thread of the executor:
// ParallelSplit.cpp. A tile's k loop and its store: Tiles.cpp; their
// software prefetches: TilePrefetches.cpp.
//
// NR is two vector registers wide and MR rows keep 2*MR accumulators plus
// the B row and a broadcast within the register file (16 on AVX2: MR=6;
// 32 on AVX-512: MR=8). M and K are static, so the M remainder is a tile
// of fewer rows; the N remainder uses masked loads and stores (a constant
// mask, or one made at run time when N is known only then: a convolution
// over a dynamic image). Batch loops may run to a size known at run time
// (dynamic batch).
//
//===----------------------------------------------------------------------===//

#include "targets/cpu/BufferViews.h"
#include "targets/cpu/ChannelFusion.h"
#include "targets/cpu/KernelBuilder.h"
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

void KernelBuilder::build() {
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
  flat = runsView();
  strided = flat ? Value() : stridedView();
  for (AffineExpr expr :
       c.op.getMatchingIndexingMap(c.op.getDpsInputOperand(c.rhs))
           .getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    rhsDims.push_back(!dim ? -1 : loopId(dim.getPosition()));
  }
  batchLoops(0);
}

int KernelBuilder::loopId(unsigned d) {
  if (llvm::is_contained(c.kDims, d)) {
    return c.kId();
  }
  if (llvm::is_contained(c.nDims, d)) {
    return c.nId();
  }
  return d;
}

Value KernelBuilder::operandView(
    OpOperand *operand,
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
  return memref::CollapseShapeOp::create(b, loc, operand->get(), reassociation);
}

scf::ForOp
KernelBuilder::loop(Value lb, Value ub, int64_t step, ValueRange init,
                    function_ref<SmallVector<Value>(Value, ValueRange)> body) {
  return scf::ForOp::create(
      b, loc, lb, ub, index(step), init,
      [&](OpBuilder &nb, Location, Value iv, ValueRange args) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(nb.getInsertionBlock());
        scf::YieldOp::create(b, loc, body(iv, args));
      });
}

SmallVector<Value> KernelBuilder::reductionLoop(Value lb, Value ub,
                                                ValueRange acc, StepBody body,
                                                int64_t unroll) {
  auto type = cast<VectorType>(acc.front().getType());
  int64_t length = type.getNumElements();
  auto single = [&](Value kv, ValueRange args) { return body(kv, args, 1); };
  if (llvm::has_single_bit<uint64_t>(length) || length % lanes) {
    if (unroll <= 1) {
      return SmallVector<Value>(loop(lb, ub, 1, acc, single).getResults());
    }
    // Groups of `unroll` steps, the first taking the group's prefetches;
    // then the remaining steps one at a time.
    Value groups = arith::DivUIOp::create(
        b, loc, arith::SubIOp::create(b, loc, ub, lb), index(unroll));
    Value mainEnd = arith::AddIOp::create(
        b, loc, lb, arith::MulIOp::create(b, loc, groups, index(unroll)));
    scf::ForOp unrolled =
        loop(lb, mainEnd, unroll, acc, [&](Value kv, ValueRange args) {
          SmallVector<Value> sums(args);
          for (int64_t j = 0; j < unroll; ++j) {
            Value at =
                j == 0 ? kv : arith::AddIOp::create(b, loc, kv, index(j));
            sums = body(at, sums, j == 0 ? unroll : 0);
          }
          return sums;
        });
    return SmallVector<Value>(
        loop(mainEnd, ub, 1, unrolled.getResults(), single).getResults());
  }
  // LLVM takes a loop-carried vector whose length is not a power of two
  // (the 96 lanes of a matrix-vector panel on AVX2, a 24-lane tail) apart
  // into scalars on the stack at every step. The loop carries
  // register-wide pieces instead; joining and splitting them inside the
  // body costs nothing once legalized.
  int64_t pieces = length / lanes;
  auto split = [&](ValueRange vectors) {
    SmallVector<Value> parts;
    for (Value v : vectors) {
      for (int64_t p = 0; p < pieces; ++p) {
        parts.push_back(vector::ExtractStridedSliceOp::create(
            b, loc, v, ArrayRef<int64_t>{p * lanes}, ArrayRef<int64_t>{lanes},
            ArrayRef<int64_t>{1}));
      }
    }
    return parts;
  };
  auto join = [&](ValueRange parts) {
    SmallVector<Value> vectors;
    for (size_t i = 0; i < parts.size(); i += pieces) {
      Value v = arith::ConstantOp::create(
          b, loc, cast<DenseElementsAttr>(b.getZeroAttr(type)));
      for (int64_t p = 0; p < pieces; ++p) {
        v = vector::InsertStridedSliceOp::create(b, loc, parts[i + p], v,
                                                 ArrayRef<int64_t>{p * lanes},
                                                 ArrayRef<int64_t>{1});
      }
      vectors.push_back(v);
    }
    return vectors;
  };
  scf::ForOp carried =
      loop(lb, ub, 1, split(acc), [&](Value iv, ValueRange parts) {
        return split(body(iv, join(parts), 1));
      });
  return join(carried.getResults());
}

SmallVector<Value> KernelBuilder::indices(ArrayRef<int> dims) {
  SmallVector<Value> result;
  for (int d : dims) {
    result.push_back(d < 0 ? index(0) : ivs[d]);
  }
  return result;
}

Value KernelBuilder::batchBound(unsigned d) {
  if (!ShapedType::isDynamic(c.ranges[d])) {
    return index(c.ranges[d]);
  }
  for (OpOperand &operand : c.op->getOpOperands()) {
    for (auto [pos, expr] :
         llvm::enumerate(c.op.getMatchingIndexingMap(&operand).getResults())) {
      auto dim = dyn_cast<AffineDimExpr>(expr);
      if (dim && dim.getPosition() == d) {
        return memref::DimOp::create(b, loc, operand.get(), pos);
      }
    }
  }
  llvm_unreachable("a loop dim no operand indexes");
}

bool KernelBuilder::packsB() const {
  // The panel's rows of B, one k-block at a time, are copied into a
  // contiguous buffer: the tiles then read it at unit stride (rows of
  // B lie N floats apart, which thrashes L1 sets and the TLB when N is
  // a conv's output plane). A constant B packed at compile time
  // (packedRhs) is read from its panels instead.
  return !packedRhs && packsPanels(channelChunk ? channelChunk : c.m, rows,
                                   !c.gather || (flat && wholeVectors));
}

void KernelBuilder::columns(Value n0, Value nEnd, int64_t tail, bool inParallel,
                            bool onlyTail) {
  int64_t k = c.k, width = panelWidth;
  int64_t block = std::min(kBlock, k);
  Value packed = packsB() ? packBuffer(inParallel) : Value();
  // (Not for the remainder columns alone: one panel cannot pay for it.)
  int64_t lhsRows = onlyTail ? 0 : lhsBlockRows();
  Value lhsPack = lhsRows ? lhsBuffer(inParallel) : Value();
  loop(index(0), index(k), block, {}, [&](Value k0, ValueRange) {
    Value kEnd = arith::MinSIOp::create(
        b, loc, arith::AddIOp::create(b, loc, k0, index(block)), index(k));
    auto allPanels = [&] {
      if (!onlyTail) {
        groupColumns = {n0, nEnd};
        loop(n0, nEnd, width, {}, [&](Value p, ValueRange) {
          panel(p, width, width, k0, kEnd, packed);
          return SmallVector<Value>{};
        });
        groupColumns = {};
      }
      if (tail) {
        panel(nEnd, tail, llvm::alignTo(tail, lanes), k0, kEnd, packed);
      }
      if (tailColumns) {
        // The last nEnd..N columns, fewer than a panel: masked at run time.
        Value some = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                           tailColumns, index(0));
        auto branch = scf::IfOp::create(b, loc, some);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(branch.thenBlock());
        tailMask = vector::CreateMaskOp::create(
            b, loc, VectorType::get({width}, b.getI1Type()), tailColumns);
        panel(nEnd, width, width, k0, kEnd, packed);
        tailMask = Value();
      }
    };
    if (!lhsPack) {
      allPanels();
      return SmallVector<Value>{};
    }
    // A's rows in blocks of lhsRows: each block's k-block packed as
    // [tile][k][MR], then every panel over the block's tiles (B's panels
    // packed once per block).
    Value begin = mBegin ? mBegin : index(0);
    Value end = mEnd ? mEnd : index(c.m);
    loop(begin, end, lhsRows, {}, [&](Value m0, ValueRange) {
      Value blockEnd = arith::MinSIOp::create(
          b, loc, arith::AddIOp::create(b, loc, m0, index(lhsRows)), end);
      packLhs(lhsPack, m0, blockEnd, k0, kEnd);
      Value outerBegin = mBegin, outerEnd = mEnd;
      mBegin = m0;
      mEnd = blockEnd;
      blockLhs = lhsPack;
      allPanels();
      blockLhs = Value();
      mBegin = outerBegin;
      mEnd = outerEnd;
      return SmallVector<Value>{};
    });
    return SmallVector<Value>{};
  });
}

void KernelBuilder::panel(Value n0, int64_t width, int64_t length, Value k0,
                          Value kEnd, Value packed) {
  int64_t m = c.m;
  Rows source = rowsAt(n0, width, length);
  if (packed) {
    ivs[c.nId()] = n0;
    loop(k0, kEnd, 1, {}, [&](Value kv, ValueRange) {
      prefetchRows(source, kv);
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
      Value last = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, mEnd,
                                         index(m));
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

KernelBuilder::Rows KernelBuilder::rowsAt(Value n0, int64_t width,
                                          int64_t length) {
  Rows source{n0, Value(), {}, width, length};
  if ((flat && !wholeVectors) || stridedRuns) {
    source.parts = planRuns(n0, width, length);
  } else if (c.gather && !strided) {
    source.offsets = columnOffsets(n0, length);
  }
  return source;
}

namespace {

/// A get_global of the copy of `c`'s operand `operand` that
/// infer-cpu-pack-weights made and named in attribute `name` ({global,
/// operand, `key` = `size`}), as [ceil(`extent` / size)][K][size]; null
/// when there is none of that size.
Value packedOperandOf(OpBuilder &b, Contraction &c, StringRef name,
                      unsigned operand, StringRef key, int64_t size,
                      int64_t extent) {
  auto info = c.op->getAttrOfType<DictionaryAttr>(name);
  if (!info || ShapedType::isDynamic(extent)) {
    return {};
  }
  auto global = info.getAs<FlatSymbolRefAttr>("global");
  auto index = info.getAs<IntegerAttr>("operand");
  auto packedSize = info.getAs<IntegerAttr>(key);
  if (!global || !index || !packedSize || index.getInt() != operand ||
      packedSize.getInt() != size) {
    return {};
  }
  int64_t blocks = llvm::divideCeil(extent, size);
  // A batch of matrices packed one after the other.
  if (auto batch = info.getAs<IntegerAttr>("batch")) {
    blocks *= c.ranges[batch.getInt()];
  }
  auto type = MemRefType::get({blocks, c.k, size}, c.element);
  return memref::GetGlobalOp::create(b, c.op.getLoc(), type, global.getValue());
}

struct ContractionKernelsPass final
    : impl::ContractionKernelsPassBase<ContractionKernelsPass> {
  using Base::Base;

  /// `func.func private @__infer_num_threads() -> index`, declared once:
  /// the executor's thread count (infer-cpu-parallel-to-runtime defines
  /// it).
  func::FuncOp threadCount() {
    ModuleOp module = getOperation();
    if (auto fn = module.lookupSymbol<func::FuncOp>(kThreadCountFn)) {
      return fn;
    }
    OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
    auto fn = func::FuncOp::create(b, module.getLoc(), kThreadCountFn,
                                   b.getFunctionType({}, {b.getIndexType()}));
    fn.setPrivate();
    return fn;
  }

  void runOnOperation() override {
    if (vectorBits != 128 && vectorBits != 256 && vectorBits != 512) {
      getOperation().emitError("vector-bits must be 128, 256 or 512");
      return signalPassFailure();
    }
    for (auto fn : getOperation().getOps<func::FuncOp>()) {
      runOnFunction(fn);
    }
  }

  void runOnFunction(func::FuncOp fn) {
    SmallVector<Contraction, 4> found;
    fn.walk([&](linalg::LinalgOp op) {
      if (std::optional<Contraction> c =
              kernelContraction(op, vectorBits, KernelBuilder::kMaxRowTaps)) {
        found.push_back(*c);
      }
    });
    // The pack buffer the serial panels of every contraction share (one
    // per element type).
    llvm::DenseMap<Type, Value> shared;
    // And the one their copies of A's k-blocks share (f32).
    Value sharedLhs;
    bool fusesNext = false;
    for (auto [i, c] : llvm::enumerate(found)) {
      OpBuilder b(c.op);
      // Whether the next kernel splits C's rows across threads (its batch
      // loop over them) and reads what this one writes.
      std::optional<Epilogue> epilogueFound =
          ShapedType::isDynamic(c.n) ? std::nullopt : matchEpilogue(c.op, c.n);
      bool rowsReadPerThread =
          i + 1 < found.size() &&
          readsRowsPerThread(c, found[i + 1],
                             epilogueFound
                                 ? epilogueFound->op.getDpsInitOperand(0)->get()
                                 : c.op.getDpsInitOperand(0)->get());
      // (Asked before the fill they need is folded away.)
      bool transposed = transposedTiles(c, vectorBits);
      std::optional<int64_t> chunk;
      if (parallel && !transposed && epilogueFound && i + 1 < found.size()) {
        chunk = channelChunkRows(c, *epilogueFound, found[i + 1], kBlock,
                                 tileRowsFor(vectorBits), l2Bytes);
      }
      Value init;
      if (linalg::FillOp fill = initializingFill(c.op)) {
        init = fill.value();
        fill->erase();
      }
      // (No epilogue over a run-time N: the consumer runs on its own.)
      std::optional<Epilogue> epilogue = epilogueFound;
      SmallVector<Operation *> borderFills;
      if (epilogue) {
        // The views between the two (of the consumer's operands) move
        // before the kernel that now uses them.
        while (c.op->getNextNode() != epilogue->op.getOperation()) {
          c.op->getNextNode()->moveBefore(c.op);
        }
        borderFills = adoptBorderFills(*epilogue, c.op);
        // The kernel computes the consumer's nodes too (--profile reads
        // them from its locations).
        c.op->setLoc(FusedLoc::get(&getContext(),
                                   {c.op->getLoc(), epilogue->op->getLoc()}));
      }
      KernelBuilder builder(
          b, c, vectorBits,
          reductionBlock(c, kBlock, tileRowsFor(vectorBits), l2Bytes), parallel,
          shared[c.element], init, epilogue);
      if (chunk) {
        builder.setChannelChunk(*chunk);
      } else if (rowsReadPerThread) {
        builder.setRowsReadPerThread();
      }
      builder.shareLhsBuffer(sharedLhs);
      if (parallel && runtimeThreads) {
        builder.setThreadCount(threadCount());
      }
      builder.setByteDotBits(std::min<unsigned>(byteDotBits, vectorBits),
                             wordDot);
      builder.setBf16DotBits(std::min<unsigned>(bf16DotBits, vectorBits));
      int64_t lhsRows =
          transposed ? transposedRowsFor(vectorBits) : tileRowsFor(vectorBits);
      if (Value packed = packedOperandOf(b, c, kPackedLhsAttr, c.lhs, "rows",
                                         lhsRows, c.m)) {
        builder.setPackedLhs(packed);
        builder.setTransposed(transposed);
        if (auto batch = c.op->getAttrOfType<DictionaryAttr>(kPackedLhsAttr)
                             .getAs<IntegerAttr>("batch")) {
          builder.setPackedLhsBatch(batch.getInt(),
                                    llvm::divideCeil(c.m, lhsRows));
        }
      }
      if (!transposed) {
        if (Value panels = packedOperandOf(b, c, kPackedRhsAttr, c.rhs, "width",
                                           builder.panelColumns(), c.n)) {
          builder.setPackedRhs(panels);
        }
      }
      SmallVector<Operation *> batchFills;
      if (std::optional<unsigned> dim = builder.parallelBatchDim()) {
        builder.setBatchFills(adoptBatchFills(c, *dim, batchFills));
      }
      builder.build();
      // infer-cpu-fuse-channel-loops runs the next kernel inside this one.
      if (scf::ParallelOp loop = builder.parallelLoop()) {
        if (chunk) {
          loop->setAttr(kFuseNextAttr, b.getIndexAttr(*chunk));
        }
        if (fusesNext) {
          loop->setAttr(kFusedChannelsAttr, b.getUnitAttr());
        }
      }
      fusesNext = chunk.has_value();
      c.op->erase();
      if (epilogue) {
        epilogue->op->erase();
      }
      borderFills.append(batchFills);
      eraseFills(borderFills);
    }
  }
};

} // namespace
} // namespace infer::cpu
