//===- WinogradKernels.cpp - Winograd transforms as vector loops ----------===//
//
// The two generics infer-cpu-winograd marks (Winograd.cpp), on buffers:
//
// - input: per (n, c) and tile row ty, vectors of tiles along tx. Tap
//   (i, j) of L tiles is every other element of row 2 ty + i from column
//   2 tx + j: two wide loads per row (from 2 tx and 2 tx + 2) and their
//   even and odd lanes give the row's 4 taps; the 16 terms are stored to
//   the 16 outputs, the row's last tiles masked.
// - output: per (n, f) and tile row ty, vectors of tiles along tx: the 16
//   terms loaded, the 2x2 outputs computed, and each output row's pair
//   interleaved into 2 L consecutive elements of y. When y's consumer can
//   run as an epilogue (Epilogue.h: bias, activation, residual), it is
//   applied to those vectors and stored to its output instead: y is never
//   written.
//
// Both compute the transforms with Winograd.h's helpers, as the generics'
// bodies do on scalars; (n, c) and (n, f) loops are parallel.
//
//===----------------------------------------------------------------------===//

#include "targets/cpu/BufferViews.h"
#include "targets/cpu/Epilogue.h"
#include "targets/cpu/Passes.h"
#include "targets/cpu/Winograd.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

namespace infer::cpu {
#define GEN_PASS_DEF_WINOGRADKERNELSPASS
#include "targets/cpu/Passes.h.inc"

namespace {

/// A buffer of static shape and strides, unit-stride innermost: its flat
/// view and strides.
struct Strided {
  Value flat;
  SmallVector<int64_t> strides;
};

std::optional<Strided> strided(OpBuilder &b, Location loc, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  Strided s;
  int64_t offset;
  if (!type.getElementType().isF32() ||
      failed(type.getStridesAndOffset(s.strides, offset)) ||
      ShapedType::isDynamicShape(s.strides) || s.strides.back() != 1) {
    return std::nullopt;
  }
  s.flat = flatView(b, loc, memref);
  if (!s.flat) {
    return std::nullopt;
  }
  return s;
}

class TransformBuilder {
public:
  TransformBuilder(OpBuilder &b, Location loc, unsigned vectorBits,
                   bool parallel)
      : b(b), loc(loc), lanes(std::max<int64_t>(vectorBits / 32, 4)),
        parallel(parallel) {}

  /// The input transform: `x` [n, c, hp, wp], `v` [16, n, c, th, tw].
  void input(const Strided &x, const Strided &v, ArrayRef<int64_t> vShape,
             int64_t wp) {
    int64_t tw = vShape[4];
    planes(vShape[1], vShape[2], vShape[3], [&](Value n, Value c, Value ty) {
      Value xRow = offset(x, {n, c, mul(ty, 2)});
      Value vRow = offset(v, {index(0), n, c, ty});
      tileBlocks(tw, [&](Value tx, int64_t valid) {
        Value column = mul(tx, 2);
        SmallVector<Value> d(kWinogradTerms);
        for (int64_t i = 0; i < kWinogradIn; ++i) {
          Value at = add(add(xRow, index(i * x.strides[2])), column);
          // Columns 2 tx .. 2 tx + 2 L - 1 and 2 tx + 2 .. 2 tx + 2 L + 1
          // (the row ends at wp: the last block's loads are masked).
          for (int64_t half = 0; half < 2; ++half) {
            int64_t readable =
                valid < lanes ? wp - 2 * (tw - valid) - 2 * half : 2 * lanes;
            Value wide = loadWide(x.flat, add(at, index(2 * half)), readable);
            d[4 * i + 2 * half] = lanesFrom(wide, 0);
            d[4 * i + 2 * half + 1] = lanesFrom(wide, 1);
          }
        }
        SmallVector<Value> terms = winogradInputTransform(b, loc, d);
        Value at = add(vRow, tx);
        for (auto [k, term] : llvm::enumerate(terms)) {
          store(v.flat, add(at, index(int64_t(k) * v.strides[0])), term, valid);
        }
      });
    });
  }

  /// The output transform: `m` [16, n, f, tiles], y [n, f, th, 2, tw, 2]
  /// (or its consumer `epilogue`, over rows of ho * wo).
  void output(const Strided &m, const Strided &y, ArrayRef<int64_t> yShape,
              const std::optional<Epilogue> &epilogue) {
    int64_t f = yShape[1], th = yShape[2], tw = yShape[4];
    int64_t wo = 2 * tw;
    planes(yShape[0], f, th, [&](Value n, Value fi, Value ty) {
      Value mRow = add(offset(m, {index(0), n, fi}), mul(ty, tw));
      Value row = add(mul(n, f), fi);
      tileBlocks(tw, [&](Value tx, int64_t valid) {
        SmallVector<Value> terms;
        Value at = add(mRow, tx);
        for (int64_t k = 0; k < kWinogradTerms; ++k) {
          terms.push_back(
              load(m.flat, add(at, index(k * m.strides[0])), valid));
        }
        SmallVector<Value> outputs = winogradOutputTransform(b, loc, terms);
        Value mask;
        if (valid < lanes) {
          mask = vector::ConstantMaskOp::create(
              b, loc, VectorType::get({2 * lanes}, b.getI1Type()),
              ArrayRef<int64_t>{2 * valid});
        }
        for (int64_t a = 0; a < kWinogradOut; ++a) {
          Value pairs = interleave(outputs[2 * a], outputs[2 * a + 1]);
          Value outputRow = add(mul(ty, 2), index(a));
          Value column = mul(tx, 2);
          if (epilogue) {
            emitEpilogue(b, loc, *epilogue, pairs, row,
                         add(mul(outputRow, wo), column), /*columnStep=*/2,
                         mask, 2 * valid);
            continue;
          }
          Value at =
              add(offset(y, {n, fi, ty}), add(index(a * y.strides[3]), column));
          if (mask) {
            vector::MaskedStoreOp::create(b, loc, y.flat, at, mask, pairs);
          } else {
            vector::StoreOp::create(b, loc, pairs, y.flat, at);
          }
        }
      });
    });
  }

private:
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value mul(Value x, int64_t y) {
    return arith::MulIOp::create(b, loc, x, index(y));
  }

  /// sum(indices[d] * strides[d]) over the leading dims given.
  Value offset(const Strided &s, ArrayRef<Value> indices) {
    Value sum = index(0);
    for (auto [i, at] : llvm::enumerate(indices)) {
      sum = add(sum, mul(at, s.strides[i]));
    }
    return sum;
  }

  /// for n; parallel p (channels or filters); for ty: body(n, p, ty).
  void planes(int64_t n, int64_t p, int64_t th,
              function_ref<void(Value, Value, Value)> body) {
    loop(n, false, [&](Value ni) {
      loop(p, parallel && p >= 2, [&](Value pi) {
        loop(th, false, [&](Value ty) { body(ni, pi, ty); });
      });
    });
  }

  void loop(int64_t count, bool inParallel, function_ref<void(Value)> body) {
    auto inside = [&](OpBuilder &nb, Value iv) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
      body(iv);
    };
    if (inParallel) {
      scf::ParallelOp::create(
          b, loc, ValueRange{index(0)}, ValueRange{index(count)},
          ValueRange{index(1)},
          [&](OpBuilder &nb, Location, ValueRange iv) { inside(nb, iv[0]); });
      return;
    }
    scf::ForOp::create(b, loc, index(0), index(count), index(1), ValueRange{},
                       [&](OpBuilder &nb, Location, Value iv, ValueRange) {
                         inside(nb, iv);
                         scf::YieldOp::create(nb, loc);
                       });
  }

  /// body(tx, valid) over vectors of `lanes` tiles of a row of `tiles`:
  /// full vectors in a loop, then the last `valid` < lanes.
  void tileBlocks(int64_t tiles, function_ref<void(Value, int64_t)> body) {
    int64_t full = tiles / lanes * lanes;
    if (full > 0) {
      scf::ForOp::create(
          b, loc, index(0), index(full), index(lanes), ValueRange{},
          [&](OpBuilder &nb, Location, Value tx, ValueRange) {
            OpBuilder::InsertionGuard guard(b);
            b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
            body(tx, lanes);
            scf::YieldOp::create(b, loc);
          });
    }
    if (tiles > full) {
      body(index(full), tiles - full);
    }
  }

  Value zeros(VectorType type) {
    return arith::ConstantOp::create(b, loc, type,
                                     cast<TypedAttr>(b.getZeroAttr(type)));
  }

  Value maskOf(int64_t length, int64_t valid) {
    return vector::ConstantMaskOp::create(
        b, loc, VectorType::get({length}, b.getI1Type()),
        ArrayRef<int64_t>{valid});
  }

  /// 2 L elements from `at`, those from `readable` on as zero (not read).
  Value loadWide(Value flat, Value at, int64_t readable) {
    auto type = VectorType::get({2 * lanes}, b.getF32Type());
    if (readable >= 2 * lanes) {
      return vector::LoadOp::create(b, loc, type, flat, ValueRange{at});
    }
    return vector::MaskedLoadOp::create(b, loc, type, flat, ValueRange{at},
                                        maskOf(2 * lanes, readable),
                                        zeros(type));
  }

  /// L elements from `at`, the first `valid` read.
  Value load(Value flat, Value at, int64_t valid) {
    auto type = VectorType::get({lanes}, b.getF32Type());
    if (valid >= lanes) {
      return vector::LoadOp::create(b, loc, type, flat, ValueRange{at});
    }
    return vector::MaskedLoadOp::create(b, loc, type, flat, ValueRange{at},
                                        maskOf(lanes, valid), zeros(type));
  }

  void store(Value flat, Value at, Value value, int64_t valid) {
    if (valid >= lanes) {
      vector::StoreOp::create(b, loc, value, flat, ValueRange{at});
      return;
    }
    vector::MaskedStoreOp::create(b, loc, flat, ValueRange{at},
                                  maskOf(lanes, valid), value);
  }

  /// Lanes first, first + 2, ... of a wide vector.
  Value lanesFrom(Value wide, int64_t first) {
    SmallVector<int64_t> picks;
    for (int64_t l = 0; l < lanes; ++l) {
      picks.push_back(first + 2 * l);
    }
    return vector::ShuffleOp::create(b, loc, wide, wide, picks);
  }

  /// x0 y0 x1 y1 ...
  Value interleave(Value x, Value y) {
    SmallVector<int64_t> picks;
    for (int64_t l = 0; l < lanes; ++l) {
      picks.push_back(l);
      picks.push_back(lanes + l);
    }
    return vector::ShuffleOp::create(b, loc, x, y, picks);
  }

  OpBuilder &b;
  Location loc;
  int64_t lanes;
  bool parallel;
};

struct WinogradKernelsPass final
    : impl::WinogradKernelsPassBase<WinogradKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::GenericOp> marked;
    getOperation().walk([&](linalg::GenericOp op) {
      if (op->hasAttr(kWinogradAttr) && op.hasPureBufferSemantics()) {
        marked.push_back(op);
      }
    });
    for (linalg::GenericOp op : marked) {
      if (failed(rewrite(op))) {
        op.emitError("a Winograd transform the kernels cannot take "
                     "(buffers of static shape and strides expected)");
        return signalPassFailure();
      }
    }
  }

  LogicalResult rewrite(linalg::GenericOp op) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    auto kind = op->getAttrOfType<StringAttr>(kWinogradAttr);
    // Every input reads the same buffer (at its own taps or terms).
    Value source = op.getDpsInputOperand(0)->get();
    if (!kind || op.getNumDpsInputs() != kWinogradTerms ||
        op.getNumDpsInits() != 1 ||
        !llvm::all_of(op.getDpsInputs(),
                      [&](Value input) { return input == source; })) {
      return failure();
    }
    Value target = op.getDpsInitOperand(0)->get();
    ArrayRef<int64_t> shape = cast<MemRefType>(target.getType()).getShape();
    if (kind.getValue() == "input") {
      std::optional<Strided> x = strided(b, loc, source);
      std::optional<Strided> v = strided(b, loc, target);
      if (!x || !v) {
        return failure();
      }
      TransformBuilder(b, loc, vectorBits, parallel)
          .input(*x, *v, shape,
                 cast<MemRefType>(source.getType()).getShape()[3]);
      op->erase();
      return success();
    }
    if (kind.getValue() != "output") {
      return failure();
    }
    std::optional<Epilogue> epilogue =
        matchEpilogue(op, 4 * shape[2] * shape[4]);
    SmallVector<Operation *> borderFills;
    if (epilogue) {
      // The views between the two (of the consumer's operands) move
      // before the kernel that now uses them; the kernel computes the
      // consumer's nodes too (--profile reads them from its locations).
      while (op->getNextNode() != epilogue->op.getOperation()) {
        op->getNextNode()->moveBefore(op);
      }
      loc = FusedLoc::get(&getContext(), {loc, epilogue->op->getLoc()});
      b.setInsertionPoint(op);
      // Into a padded buffer's interior: the border columns are stored
      // with the rows that start and end at them.
      borderFills = adoptBorderFills(*epilogue, op);
    }
    std::optional<Strided> m = strided(b, loc, source);
    std::optional<Strided> y = strided(b, loc, target);
    // (Pairs of outputs along a row are consecutive.)
    if (!m || !y || y->strides[4] != 2) {
      return failure();
    }
    TransformBuilder(b, loc, vectorBits, parallel)
        .output(*m, *y, shape, epilogue);
    op->erase();
    if (epilogue) {
      epilogue->op->erase();
    }
    eraseFills(borderFills);
    return success();
  }
};

} // namespace
} // namespace infer::cpu
