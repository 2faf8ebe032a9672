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

#include "passes/fusion/Passes.h"
#include "targets/cpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace infer::cpu {
#define GEN_PASS_DEF_CONTRACTIONKERNELSPASS
#include "targets/cpu/Passes.h.inc"

namespace {

/// A contraction C[.., m, n] += A[.., m, k] * B[.., k, n] the kernel takes:
/// n is the innermost, unit-stride dimension of B and C.
struct Contraction {
  linalg::LinalgOp op;
  SmallVector<int64_t> ranges;
  SmallVector<unsigned> batch;
  unsigned m = 0, n = 0, k = 0;
};

bool innermostUnitStride(Value value) {
  auto type = dyn_cast<MemRefType>(value.getType());
  if (!type || type.getRank() == 0) {
    return false;
  }
  SmallVector<int64_t> strides;
  int64_t offset;
  return succeeded(type.getStridesAndOffset(strides, offset)) &&
         strides.back() == 1;
}

bool lastResultIsDim(AffineMap map, unsigned dim) {
  auto expr = dyn_cast<AffineDimExpr>(map.getResults().back());
  return expr && expr.getPosition() == dim;
}

std::optional<Contraction> match(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || !fusion::isContraction(op)) {
    return std::nullopt;
  }
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type || !type.getElementType().isF32()) {
      return std::nullopt;
    }
    for (AffineExpr expr : op.getMatchingIndexingMap(&operand).getResults()) {
      auto constant = dyn_cast<AffineConstantExpr>(expr);
      if (!isa<AffineDimExpr>(expr) &&
          !(constant && constant.getValue() == 0)) {
        return std::nullopt;
      }
    }
  }
  // k: the one reduction dim; n: the innermost dim of C, also in B but
  // not in A; m: the one dim in A and C but not in B; every other dim
  // (true or broadcast batch dims) is an outer loop.
  if (op.getNumReductionLoops() != 1) {
    return std::nullopt;
  }
  OpOperand *lhsOperand = op.getDpsInputOperand(0);
  auto uses = [&](OpOperand *operand, unsigned dim) {
    return op.getMatchingIndexingMap(operand).isFunctionOfDim(dim);
  };
  Contraction c{op, op.getStaticLoopRanges(), {}, 0, 0, 0};
  SmallVector<unsigned> reductions;
  op.getReductionDims(reductions);
  c.k = reductions.front();
  auto nExpr = dyn_cast<AffineDimExpr>(
      op.getMatchingIndexingMap(op.getDpsInitOperand(0)).getResults().back());
  if (!nExpr || uses(lhsOperand, nExpr.getPosition())) {
    return std::nullopt;
  }
  c.n = nExpr.getPosition();
  SmallVector<unsigned> ms;
  for (unsigned d = 0; d < op.getNumLoops(); ++d) {
    if (d == c.k || d == c.n) {
      continue;
    }
    if (uses(lhsOperand, d) && !uses(op.getDpsInputOperand(1), d)) {
      ms.push_back(d);
    } else {
      c.batch.push_back(d);
    }
  }
  if (ms.size() != 1) {
    return std::nullopt;
  }
  c.m = ms.front();
  // Only batch loops may run to a size known at run time (the generic
  // variant of a model with a dynamic batch).
  for (unsigned d : {c.m, c.n, c.k}) {
    if (ShapedType::isDynamic(c.ranges[d])) {
      return std::nullopt;
    }
  }
  OpOperand *rhs = op.getDpsInputOperand(1);
  OpOperand *out = op.getDpsInitOperand(0);
  if (!lastResultIsDim(op.getMatchingIndexingMap(rhs), c.n) ||
      !lastResultIsDim(op.getMatchingIndexingMap(out), c.n) ||
      !innermostUnitStride(rhs->get()) || !innermostUnitStride(out->get())) {
    return std::nullopt;
  }
  return c;
}

class KernelBuilder {
public:
  KernelBuilder(OpBuilder &b, Contraction c, unsigned vectorBits,
                int64_t kBlock, bool parallel)
      : b(b), loc(c.op.getLoc()), c(c), parallel(parallel),
        lanes(std::max<int64_t>(vectorBits / 32, 4)),
        rows(vectorBits >= 512 ? 8 : 6), kBlock(kBlock), ivs(c.ranges.size()) {
    lhs = c.op.getDpsInputOperand(0);
    rhs = c.op.getDpsInputOperand(1);
    out = c.op.getDpsInitOperand(0);
  }

  void build() { batchLoops(0); }

private:
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }

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

  /// Indices into `operand` for the current loop values.
  SmallVector<Value> indices(OpOperand *operand) {
    SmallVector<Value> result;
    for (AffineExpr expr : c.op.getMatchingIndexingMap(operand).getResults()) {
      if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
        result.push_back(ivs[dim.getPosition()]);
      } else {
        result.push_back(index(0));
      }
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

  void batchLoops(size_t level) {
    if (level == c.batch.size()) {
      return matmul();
    }
    loop(index(0), batchBound(c.batch[level]), 1, {},
         [&](Value iv, ValueRange) {
           ivs[c.batch[level]] = iv;
           batchLoops(level + 1);
           return SmallVector<Value>{};
         });
  }

  void matmul() {
    int64_t n = c.ranges[c.n], width = 2 * lanes;
    int64_t full = n / width * width;
    if (full > 0 && parallel && full > width) {
      // Panels are independent: one parallel loop over them (threads
      // through OpenMP once scf.parallel is converted).
      scf::ParallelOp::create(b, loc, ValueRange{index(0)},
                              ValueRange{index(full)}, ValueRange{index(width)},
                              [&](OpBuilder &nb, Location, ValueRange n0) {
                                OpBuilder::InsertionGuard guard(b);
                                b.setInsertionPoint(nb.getInsertionBlock(),
                                                    nb.getInsertionPoint());
                                panel(n0.front(), width, width);
                              });
    } else if (full > 0) {
      loop(index(0), index(full), width, {}, [&](Value n0, ValueRange) {
        panel(n0, width, width);
        return SmallVector<Value>{};
      });
    }
    if (int64_t tail = n - full) {
      panel(index(full), tail, tail <= lanes ? lanes : width);
    }
  }

  /// Columns n0..n0+width of C, as vectors of `length` lanes (masked when
  /// `width` < `length`).
  void panel(Value n0, int64_t width, int64_t length) {
    int64_t k = c.ranges[c.k], m = c.ranges[c.m];
    int64_t block = std::min(kBlock, k);
    loop(index(0), index(k), block, {}, [&](Value k0, ValueRange) {
      Value kEnd = arith::MinSIOp::create(
          b, loc, arith::AddIOp::create(b, loc, k0, index(block)), index(k));
      int64_t full = m / rows * rows;
      if (full > 0) {
        loop(index(0), index(full), rows, {}, [&](Value m0, ValueRange) {
          tile(m0, rows, n0, width, length, k0, kEnd);
          return SmallVector<Value>{};
        });
      }
      if (int64_t tail = m - full) {
        tile(index(full), tail, n0, width, length, k0, kEnd);
      }
      return SmallVector<Value>{};
    });
  }

  Value loadRow(OpOperand *operand, VectorType type, Value mask) {
    SmallVector<Value> at = indices(operand);
    if (!mask) {
      return vector::LoadOp::create(b, loc, type, operand->get(), at);
    }
    Value zero = arith::ConstantOp::create(
        b, loc, type, DenseElementsAttr::get(type, b.getF32FloatAttr(0)));
    return vector::MaskedLoadOp::create(b, loc, type, operand->get(), at, mask,
                                        zero);
  }

  void tile(Value m0, int64_t tileRows, Value n0, int64_t width, int64_t length,
            Value k0, Value kEnd) {
    auto type = VectorType::get({length}, b.getF32Type());
    Value mask;
    if (width < length) {
      mask = vector::ConstantMaskOp::create(
          b, loc, VectorType::get({length}, b.getI1Type()),
          ArrayRef<int64_t>{width});
    }
    ivs[c.n] = n0;
    SmallVector<Value> acc;
    for (int64_t i = 0; i < tileRows; ++i) {
      ivs[c.m] = arith::AddIOp::create(b, loc, m0, index(i));
      acc.push_back(loadRow(out, type, mask));
    }
    scf::ForOp reduction =
        loop(k0, kEnd, 1, acc, [&](Value kv, ValueRange args) {
          ivs[c.k] = kv;
          Value row = loadRow(rhs, type, mask);
          SmallVector<Value> next;
          for (int64_t i = 0; i < tileRows; ++i) {
            ivs[c.m] = arith::AddIOp::create(b, loc, m0, index(i));
            Value a = memref::LoadOp::create(b, loc, lhs->get(), indices(lhs));
            Value splat = vector::BroadcastOp::create(b, loc, type, a);
            next.push_back(vector::FMAOp::create(b, loc, splat, row, args[i]));
          }
          return next;
        });
    for (int64_t i = 0; i < tileRows; ++i) {
      ivs[c.m] = arith::AddIOp::create(b, loc, m0, index(i));
      SmallVector<Value> at = indices(out);
      Value value = reduction.getResult(i);
      if (mask) {
        vector::MaskedStoreOp::create(b, loc, out->get(), at, mask, value);
      } else {
        vector::StoreOp::create(b, loc, value, out->get(), at);
      }
    }
  }

  OpBuilder &b;
  Location loc;
  Contraction c;
  bool parallel;
  int64_t lanes, rows, kBlock;
  SmallVector<Value> ivs;
  OpOperand *lhs, *rhs, *out;
};

struct ContractionKernelsPass final
    : impl::ContractionKernelsPassBase<ContractionKernelsPass> {
  using Base::Base;
  void runOnOperation() override {
    if (vectorBits != 128 && vectorBits != 256 && vectorBits != 512) {
      getOperation().emitError("vector-bits must be 128, 256 or 512");
      return signalPassFailure();
    }
    SmallVector<Contraction> found;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (std::optional<Contraction> c = match(op)) {
        found.push_back(*c);
      }
    });
    for (Contraction &c : found) {
      OpBuilder b(c.op);
      KernelBuilder(b, c, vectorBits, kBlock, parallel).build();
      c.op->erase();
    }
  }
};

} // namespace
} // namespace infer::cpu
