//===- Winograd.cpp - 3x3 convolutions as Winograd F(2x2, 3x3) ------------===//
//
// A 3x3 stride-1 convolution reaches the CPU target as an im2col copy, a
// reshape of it and a matmul (see ImplicitGemm.cpp). With constant
// filters, enough channels and terms that stay in cache, this pass
// replaces the three with Winograd's form (Winograd.h) on tensors:
//
//   v[k] = term k of x's 4x4 tiles, 2 apart       v: [16, n, c, tiles]
//   m[k] = u[k] . v[k]   u[k] = (G g G^T)_k       one batch of 16 matmuls
//   y    = output transform of the m, 2x2 outputs a tile, interleaved
//
// The matmuls have the form of 1x1 convolutions over the tiles, with the
// term a batch dim; the register-tiled kernels run them with u packed at
// compile time. The two transforms are generics marked `infer.winograd`
// whose bodies compute them on scalars (the reference) and which
// infer-cpu-winograd-kernels writes as vector code. The convolution's
// consumer (bias, activation, residual) still reads y as before.
//
//===----------------------------------------------------------------------===//

#include "targets/cpu/Winograd.h"
#include "passes/fusion/Passes.h"
#include "targets/cpu/ConstantData.h"
#include "targets/cpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Utils/Utils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace infer::cpu {
#define GEN_PASS_DEF_WINOGRADPASS
#include "targets/cpu/Passes.h.inc"

namespace {

/// B^T and A^T of F(2x2, 3x3).
constexpr int kBT[4][4] = {
    {1, 0, -1, 0}, {0, 1, 1, 0}, {0, -1, 1, 0}, {0, 1, 0, -1}};
constexpr int kAT[2][4] = {{1, 1, 1, 0}, {0, 1, -1, -1}};
constexpr double kG[4][3] = {
    {1, 0, 0}, {0.5, 0.5, 0.5}, {0.5, -0.5, 0.5}, {0, 0, 1}};

/// sum_i row[i] * values[i] for coefficients in {-1, 0, 1}, as additions
/// and subtractions from the first +1 term.
Value combine(OpBuilder &b, Location loc, ArrayRef<int> row,
              ArrayRef<Value> values) {
  int first = -1;
  for (auto [i, coefficient] : llvm::enumerate(row)) {
    if (coefficient == 1) {
      first = i;
      break;
    }
  }
  assert(first >= 0 && "every row has a +1 term");
  Value sum = values[first];
  for (auto [i, coefficient] : llvm::enumerate(row)) {
    if (int(i) == first || coefficient == 0) {
      continue;
    }
    sum = coefficient > 0
              ? arith::AddFOp::create(b, loc, sum, values[i]).getResult()
              : arith::SubFOp::create(b, loc, sum, values[i]).getResult();
  }
  return sum;
}

/// M^T t M for a 4x4 `t` (row-major) and M^T of `rows` rows: the rows x
/// rows result, row-major. The row transform first, then the columns.
template <size_t Rows>
SmallVector<Value> twoSided(OpBuilder &b, Location loc,
                            const int (&mt)[Rows][4], ArrayRef<Value> t) {
  SmallVector<Value> half; // [Rows][4]: the row transform
  for (size_t r = 0; r < Rows; ++r) {
    for (int j = 0; j < 4; ++j) {
      Value column[4] = {t[j], t[4 + j], t[8 + j], t[12 + j]};
      half.push_back(combine(b, loc, mt[r], column));
    }
  }
  SmallVector<Value> result;
  for (size_t r = 0; r < Rows; ++r) {
    for (size_t c = 0; c < Rows; ++c) {
      result.push_back(combine(b, loc, mt[c], ArrayRef(half).slice(4 * r, 4)));
    }
  }
  return result;
}

} // namespace

SmallVector<Value> winogradInputTransform(OpBuilder &b, Location loc,
                                          ArrayRef<Value> d) {
  return twoSided(b, loc, kBT, d);
}

SmallVector<Value> winogradOutputTransform(OpBuilder &b, Location loc,
                                           ArrayRef<Value> m) {
  return twoSided(b, loc, kAT, m);
}

void winogradFilterTransform(const float *g, float *u) {
  double half[4][3]; // G g
  for (int r = 0; r < 4; ++r) {
    for (int j = 0; j < 3; ++j) {
      half[r][j] = 0;
      for (int i = 0; i < 3; ++i) {
        half[r][j] += kG[r][i] * g[3 * i + j];
      }
    }
  }
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 4; ++c) {
      double sum = 0;
      for (int j = 0; j < 3; ++j) {
        sum += half[r][j] * kG[c][j];
      }
      u[4 * r + c] = float(sum);
    }
  }
}

namespace {

/// A convolution the pass rewrites.
struct Conv {
  linalg::GenericOp matmul;
  /// The padded input [n, 1, c, ho + 2, wo + 2].
  Value x;
  /// The filters [f][c][3][3].
  std::vector<float> filters;
  int64_t n = 0, c = 0, f = 0, ho = 0, wo = 0;
  /// Bands of tile rows run one after the other (1: the whole plane).
  int64_t bands = 1;
};

/// The value `value` is a reshape of (through tensor.reshape and
/// collapse/expand_shape).
Value throughReshapes(Value value) {
  while (Operation *op = value.getDefiningOp()) {
    if (!isa<tensor::ReshapeOp, tensor::CollapseShapeOp, tensor::ExpandShapeOp>(
            op)) {
      break;
    }
    value = op->getOperand(0);
  }
  return value;
}

/// Whether `op` copies its one input through `map` into an identity-mapped
/// output.
bool copiesThrough(Operation *op, AffineMap map) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInputs() != 1 ||
      generic.getNumDpsInits() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      generic.getIndexingMapsArray() !=
          SmallVector<AffineMap>{
              map, AffineMap::getMultiDimIdentityMap(map.getNumDims(),
                                                     op->getContext())}) {
    return false;
  }
  auto yield = cast<linalg::YieldOp>(generic.getBlock()->getTerminator());
  return yield.getNumOperands() == 1 &&
         yield.getOperand(0) == generic.getBlock()->getArgument(0);
}

std::optional<Conv> matchConv(linalg::GenericOp op, int64_t minChannels,
                              int64_t maxTermBytes) {
  MLIRContext *ctx = op.getContext();
  if (!op.hasPureTensorSemantics() || !fusion::isContraction(op) ||
      op.getNumLoops() != 5) {
    return std::nullopt;
  }
  for (Value operand : op->getOperands()) {
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    if (!type || !type.hasStaticShape() || !type.getElementType().isF32()) {
      return std::nullopt;
    }
  }
  // The matmul im2colConv builds: out[n, g, f, p] += w[g, f, k] col[n, g,
  // k, p] over (n, g, f, k, p).
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  SmallVector<AffineMap> maps = {
      AffineMap::get(5, 0, {d(1), d(2), d(3)}, ctx),
      AffineMap::get(5, 0, {d(0), d(1), d(3), d(4)}, ctx),
      AffineMap::get(5, 0, {d(0), d(1), d(2), d(4)}, ctx)};
  if (op.getIndexingMapsArray() != maps) {
    return std::nullopt;
  }
  // B: the reshaped copy of the padded input through a 3x3 window of
  // stride 1: col[n, g, c, kh, kw, oh, ow] = x[n, g, c, oh + kh, ow + kw].
  auto reshape = op.getDpsInputOperand(1)->get().getDefiningOp();
  if (!isa_and_nonnull<tensor::ReshapeOp, tensor::CollapseShapeOp>(reshape)) {
    return std::nullopt;
  }
  Operation *copy = reshape->getOperand(0).getDefiningOp();
  AffineMap window =
      AffineMap::get(7, 0, {d(0), d(1), d(2), d(3) + d(5), d(4) + d(6)}, ctx);
  if (!copiesThrough(copy, window)) {
    return std::nullopt;
  }
  ArrayRef<int64_t> col =
      cast<RankedTensorType>(copy->getResult(0).getType()).getShape();
  Conv conv;
  conv.matmul = op;
  conv.x = copy->getOperand(0);
  ArrayRef<int64_t> x = cast<RankedTensorType>(conv.x.getType()).getShape();
  ArrayRef<int64_t> out =
      cast<RankedTensorType>(op.getDpsInitOperand(0)->get().getType())
          .getShape();
  conv.n = col[0];
  conv.c = col[2];
  conv.f = out[2];
  conv.ho = col[5];
  conv.wo = col[6];
  if (col[1] != 1 || col[3] != 3 || col[4] != 3 || x[3] != conv.ho + 2 ||
      x[4] != conv.wo + 2 || conv.c < minChannels || conv.f < minChannels) {
    return std::nullopt;
  }
  // The terms of the input and of the products, 4x the input and the
  // output, are written and read back once each: from cache they cost
  // less than the multiplications they save, from memory more (PP-OCRv4
  // det's 96 -> 24 convolution at 160x160: 49 MB of terms, 10.2 -> 10.5
  // ms; at 80x80, 12 MB: 2.46 -> 1.79 ms). A plane whose terms exceed
  // `maxTermBytes` runs in bands of tile rows that each stay within it.
  int64_t tileRows = llvm::divideCeil(conv.ho, 2);
  int64_t termBytes = kWinogradTerms * conv.n * tileRows *
                      llvm::divideCeil(conv.wo, 2) * (conv.c + conv.f) *
                      int64_t(sizeof(float));
  conv.bands =
      std::min<int64_t>(tileRows, llvm::divideCeil(termBytes, maxTermBytes));
  // A: constant filters.
  Attribute weights;
  if (!matchPattern(throughReshapes(op.getDpsInputOperand(0)->get()),
                    m_Constant(&weights))) {
    return std::nullopt;
  }
  std::optional<std::vector<float>> data =
      elementsData(weights, conv.f * conv.c * 9);
  if (!data) {
    return std::nullopt;
  }
  conv.filters = std::move(*data);
  return conv;
}

/// Erases `op` and then every producer of its operands that is left
/// unused and has no effects (the copy, reshapes and fills it read).
void eraseWithDeadProducers(Operation *op) {
  SmallVector<Operation *> worklist = {op};
  while (!worklist.empty()) {
    Operation *next = worklist.pop_back_val();
    if (!next->use_empty() ||
        (next != op && !isPure(next) && !isa<linalg::LinalgOp>(next))) {
      continue;
    }
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(next);
        linalgOp && next != op && !linalgOp.hasPureTensorSemantics()) {
      continue;
    }
    SmallVector<Operation *> producers;
    for (Value operand : next->getOperands()) {
      if (Operation *producer = operand.getDefiningOp()) {
        producers.push_back(producer);
      }
    }
    next->erase();
    for (Operation *producer : producers) {
      if (!llvm::is_contained(worklist, producer)) {
        worklist.push_back(producer);
      }
    }
  }
}

void rewrite(Conv &conv) {
  linalg::GenericOp op = conv.matmul;
  OpBuilder b(op);
  Location loc = op.getLoc();
  MLIRContext *ctx = b.getContext();
  Type f32 = b.getF32Type();
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  using linalg::GenericOp;
  using mlir::utils::IteratorType;
  int64_t th = llvm::divideCeil(conv.ho, 2), tw = llvm::divideCeil(conv.wo, 2);
  // An odd plane: its last tile row or column is computed on a row or
  // column of zeros below or right of the padded input, and dropped.
  Value padded = conv.x;
  if (conv.ho % 2 || conv.wo % 2) {
    auto type = cast<RankedTensorType>(conv.x.getType());
    SmallVector<int64_t> shape(type.getShape());
    shape[3] += conv.ho % 2;
    shape[4] += conv.wo % 2;
    padded = tensor::createPadHighOp(
        RankedTensorType::get(shape, f32), conv.x,
        arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0)),
        /*nofold=*/false, loc, b);
  }
  auto xType = cast<RankedTensorType>(padded.getType());
  Value x = tensor::CollapseShapeOp::create(
      b, loc,
      RankedTensorType::get(
          {conv.n, conv.c, xType.getDimSize(3), xType.getDimSize(4)}, f32),
      padded, SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}, {4}});
  // The filters' terms u [16, f, c], computed here.
  std::vector<float> u(kWinogradTerms * conv.f * conv.c);
  for (int64_t i = 0; i < conv.f * conv.c; ++i) {
    float terms[kWinogradTerms];
    winogradFilterTransform(&conv.filters[9 * i], terms);
    for (int64_t k = 0; k < kWinogradTerms; ++k) {
      u[k * conv.f * conv.c + i] = terms[k];
    }
  }
  // (Subnormal terms cost the products an assist each: flushSubnormals.)
  flushSubnormals(u);
  Value filters = arith::ConstantOp::create(
      b, loc,
      cast<TypedAttr>(f32Elements(
          RankedTensorType::get({kWinogradTerms, conv.f, conv.c}, f32), u,
          "winograd")));
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
  // Tile rows [t0, t0 + rows) of the plane into `init` [n, f, rows, 2,
  // tw, 2]: the transforms and products of their tiles alone.
  auto band = [&](int64_t t0, int64_t rows, Value init) -> GenericOp {
    // The input transform over (k, n, c, ty, tx) into v [16, n, c, ty,
    // tx]: 16 inputs, tap (i, j) of the tile at x[n, c, 2 ty + i, 2 tx +
    // j]; each element term k of its tile's 16.
    Value xBand = x;
    if (rows != th) {
      SmallVector<int64_t> sizes = {conv.n, conv.c, 2 * rows + 2,
                                    xType.getDimSize(4)};
      xBand = tensor::ExtractSliceOp::create(
          b, loc, RankedTensorType::get(sizes, f32), x, ValueRange{},
          ValueRange{}, ValueRange{}, b.getDenseI64ArrayAttr({0, 0, 2 * t0, 0}),
          b.getDenseI64ArrayAttr(sizes), b.getDenseI64ArrayAttr({1, 1, 1, 1}));
    }
    auto vType =
        RankedTensorType::get({kWinogradTerms, conv.n, conv.c, rows, tw}, f32);
    SmallVector<Value> taps;
    SmallVector<AffineMap> inMaps;
    for (int64_t i = 0; i < kWinogradIn; ++i) {
      for (int64_t j = 0; j < kWinogradIn; ++j) {
        taps.push_back(xBand);
        inMaps.push_back(AffineMap::get(
            5, 0, {d(1), d(2), 2 * d(3) + i, 2 * d(4) + j}, ctx));
      }
    }
    inMaps.push_back(AffineMap::getMultiDimIdentityMap(5, ctx));
    auto input = GenericOp::create(
        b, loc, TypeRange{vType}, taps,
        ValueRange{tensor::EmptyOp::create(b, loc, vType.getShape(), f32)},
        inMaps, SmallVector<IteratorType>(5, IteratorType::parallel),
        [&](OpBuilder &nb, Location l, ValueRange args) {
          SmallVector<Value> terms = winogradInputTransform(
              nb, l, llvm::to_vector(args.take_front(kWinogradTerms)));
          Value k = linalg::IndexOp::create(nb, l, 0);
          Value term = terms.back();
          for (int64_t i = kWinogradTerms - 1; i-- > 0;) {
            Value isI =
                arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq, k,
                                      arith::ConstantIndexOp::create(nb, l, i));
            term = arith::SelectOp::create(nb, l, isI, terms[i], term);
          }
          linalg::YieldOp::create(nb, l, term);
        });
    input->setAttr(kWinogradAttr, b.getStringAttr("input"));
    // The 16 matmuls, one batch: m[k, n, f, t] = sum_c u[k, f, c] v[k, n,
    // c, t].
    int64_t tiles = rows * tw;
    Value v = tensor::CollapseShapeOp::create(
        b, loc,
        RankedTensorType::get({kWinogradTerms, conv.n, conv.c, tiles}, f32),
        input.getResult(0),
        SmallVector<ReassociationIndices>{{0}, {1}, {2}, {3, 4}});
    auto mType =
        RankedTensorType::get({kWinogradTerms, conv.n, conv.f, tiles}, f32);
    Value mInit =
        linalg::FillOp::create(
            b, loc, zero,
            ValueRange{tensor::EmptyOp::create(b, loc, mType.getShape(), f32)})
            .getResult(0);
    // Dims (k, n, f, c, t).
    auto products = GenericOp::create(
        b, loc, TypeRange{mType}, ValueRange{filters, v}, ValueRange{mInit},
        SmallVector<AffineMap>{
            AffineMap::get(5, 0, {d(0), d(2), d(3)}, ctx),
            AffineMap::get(5, 0, {d(0), d(1), d(3), d(4)}, ctx),
            AffineMap::get(5, 0, {d(0), d(1), d(2), d(4)}, ctx)},
        SmallVector<IteratorType>{
            IteratorType::parallel, IteratorType::parallel,
            IteratorType::parallel, IteratorType::reduction,
            IteratorType::parallel});
    IRMapping mapping;
    op.getRegion().cloneInto(&products.getRegion(), mapping);
    // The output transform over (n, f, ty, a, tx, b) into [n, f, ty, a,
    // tx, b], the row-major [n, f, 2 ty + a, 2 tx + b]: each element the
    // (a, b) output of its tile's 4.
    SmallVector<AffineMap> outMaps;
    for (int64_t k = 0; k < kWinogradTerms; ++k) {
      outMaps.push_back(AffineMap::get(
          6, 0, {getAffineConstantExpr(k, ctx), d(0), d(1), d(2) * tw + d(4)},
          ctx));
    }
    outMaps.push_back(AffineMap::getMultiDimIdentityMap(6, ctx));
    auto output = GenericOp::create(
        b, loc, TypeRange{init.getType()},
        SmallVector<Value>(kWinogradTerms, products.getResult(0)),
        ValueRange{init}, outMaps,
        SmallVector<IteratorType>(6, IteratorType::parallel),
        [&](OpBuilder &nb, Location l, ValueRange args) {
          SmallVector<Value> y = winogradOutputTransform(
              nb, l, llvm::to_vector(args.take_front(kWinogradTerms)));
          auto first = [&](unsigned dim) {
            Value at = linalg::IndexOp::create(nb, l, dim);
            return arith::CmpIOp::create(
                nb, l, arith::CmpIPredicate::eq, at,
                arith::ConstantIndexOp::create(nb, l, 0));
          };
          Value a0 = first(3), b0 = first(5);
          Value top = arith::SelectOp::create(nb, l, b0, y[0], y[1]);
          Value bottom = arith::SelectOp::create(nb, l, b0, y[2], y[3]);
          linalg::YieldOp::create(
              nb, l,
              ValueRange{arith::SelectOp::create(nb, l, a0, top, bottom)});
        });
    output->setAttr(kWinogradAttr, b.getStringAttr("output"));
    return output;
  };
  auto yType = RankedTensorType::get({conv.n, conv.f, th, 2, tw, 2}, f32);
  Value y;
  if (conv.bands == 1) {
    GenericOp output =
        band(0, th, tensor::EmptyOp::create(b, loc, yType.getShape(), f32));
    // Its kernel may take y's consumer as an epilogue: the workspace keeps
    // the products live through that consumer.
    output->setAttr("infer.epilogue_host", b.getUnitAttr());
    y = output.getResult(0);
  } else {
    // Each band's output transform writes its rows of the plane
    // (infer-cpu-elide-interior-copies makes it write them in place).
    y = tensor::EmptyOp::create(b, loc, yType.getShape(), f32);
    int64_t step = llvm::divideCeil(th, conv.bands);
    for (int64_t t0 = 0; t0 < th; t0 += step) {
      int64_t rows = std::min(step, th - t0);
      SmallVector<int64_t> offsets = {0, 0, t0, 0, 0, 0};
      SmallVector<int64_t> sizes = {conv.n, conv.f, rows, 2, tw, 2};
      y = tensor::InsertSliceOp::create(
          b, loc,
          band(t0, rows, tensor::EmptyOp::create(b, loc, sizes, f32))
              .getResult(0),
          y, ValueRange{}, ValueRange{}, ValueRange{},
          b.getDenseI64ArrayAttr(offsets), b.getDenseI64ArrayAttr(sizes),
          b.getDenseI64ArrayAttr(SmallVector<int64_t>(6, 1)));
    }
  }
  if (conv.ho % 2 || conv.wo % 2) {
    y = tensor::CollapseShapeOp::create(
        b, loc, RankedTensorType::get({conv.n, conv.f, 2 * th, 2 * tw}, f32), y,
        SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}, {4, 5}});
    y = tensor::ExtractSliceOp::create(
        b, loc, RankedTensorType::get({conv.n, conv.f, conv.ho, conv.wo}, f32),
        y, ValueRange{}, ValueRange{}, ValueRange{},
        b.getDenseI64ArrayAttr({0, 0, 0, 0}),
        b.getDenseI64ArrayAttr({conv.n, conv.f, conv.ho, conv.wo}),
        b.getDenseI64ArrayAttr({1, 1, 1, 1}));
    y = tensor::CollapseShapeOp::create(
        b, loc, RankedTensorType::get({conv.n, conv.f, conv.ho * conv.wo}, f32),
        y, SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}});
  } else {
    y = tensor::CollapseShapeOp::create(
        b, loc, RankedTensorType::get({conv.n, conv.f, conv.ho * conv.wo}, f32),
        y, SmallVector<ReassociationIndices>{{0}, {1}, {2, 3, 4, 5}});
  }
  y = tensor::ExpandShapeOp::create(
      b, loc, op.getResult(0).getType(), y,
      SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}});
  op.getResult(0).replaceAllUsesWith(y);
  eraseWithDeadProducers(op);
}

struct WinogradPass final : impl::WinogradPassBase<WinogradPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<Conv> found;
    getOperation().walk([&](linalg::GenericOp op) {
      if (std::optional<Conv> conv = matchConv(op, minChannels, maxTermBytes)) {
        found.push_back(std::move(*conv));
      }
    });
    for (Conv &conv : found) {
      rewrite(conv);
    }
  }
};

} // namespace
} // namespace infer::cpu
