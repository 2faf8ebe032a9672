//===- PackWeights.cpp - constant A operands in the kernels' tile layout --===//
//
// The register-tiled kernels broadcast A[m0 + i, k] for the MR rows of a
// tile at every step k: read in place, that is MR streams a row of A apart
// (a convolution's filters, K = C * kh * kw floats apart), which the
// hardware prefetchers follow poorly on the first pass (weights come from
// memory once per run) and which share L1 sets when a row is a multiple of
// 4 KiB. When A is a constant, it is packed here, at compile time, into
// [ceil(M / MR)][K][MR]: each tile's rows are one contiguous stream, MR
// elements per step (f32, or i32 packing 8-bit lanes). The contraction is
// marked with `infer.packed_lhs` naming the packed global;
// infer-cpu-contraction-kernels reads it from there (and the original, when
// nothing else uses it, is dropped by symbol DCE). A contraction the kernels do
// not take keeps reading the original.
//
// A constant B read as rows of N (a MatMul's or Gemm's weights) whose
// panels the usual tiles would copy at run time, a k-block at a time, is
// packed here into those panels, [ceil(N / NR)][K][NR] (columns past N
// zero), and marked `infer.packed_rhs`: the tiles read each panel as one
// stream and nothing is copied at run time.
//
//===----------------------------------------------------------------------===//

#include "targets/cpu/BufferViews.h"
#include "targets/cpu/ConstantData.h"
#include "targets/cpu/ContractionMatch.h"
#include "targets/cpu/Passes.h"

#include "mlir/IR/SymbolTable.h"

#include <map>

using namespace mlir;

namespace infer::cpu {
#define GEN_PASS_DEF_PACKWEIGHTSPASS
#include "targets/cpu/Passes.h.inc"

namespace {

/// Whether A's map is (unit batch dims or constants..., m, K dims in
/// order): A is then an M x K row-major matrix.
bool rowsThenReduction(const Contraction &c, AffineMap map) {
  ArrayRef<AffineExpr> results = map.getResults();
  size_t trailing = 1 + c.kDims.size();
  if (c.mDims.size() != 1 || results.size() < trailing) {
    return false;
  }
  size_t lead = results.size() - trailing;
  for (size_t i = 0; i < lead; ++i) {
    auto dim = dyn_cast<AffineDimExpr>(results[i]);
    auto constant = dyn_cast<AffineConstantExpr>(results[i]);
    bool unitBatch = dim && c.ranges[dim.getPosition()] == 1;
    if (!unitBatch && !(constant && constant.getValue() == 0)) {
      return false;
    }
  }
  auto m = dyn_cast<AffineDimExpr>(results[lead]);
  if (!m || m.getPosition() != c.mDims.front()) {
    return false;
  }
  for (auto [i, d] : llvm::enumerate(c.kDims)) {
    auto k = dyn_cast<AffineDimExpr>(results[lead + 1 + i]);
    if (!k || k.getPosition() != d) {
      return false;
    }
  }
  return true;
}

/// Whether B's map is (unit batch dims or constants..., k, n): B is then a
/// K x N row-major matrix read as rows.
bool reductionThenColumns(const Contraction &c, AffineMap map) {
  ArrayRef<AffineExpr> results = map.getResults();
  if (c.kDims.size() != 1 || c.nDims.size() != 1 || results.size() < 2) {
    return false;
  }
  size_t lead = results.size() - 2;
  for (size_t i = 0; i < lead; ++i) {
    auto dim = dyn_cast<AffineDimExpr>(results[i]);
    auto constant = dyn_cast<AffineConstantExpr>(results[i]);
    bool unitBatch = dim && c.ranges[dim.getPosition()] == 1;
    if (!unitBatch && !(constant && constant.getValue() == 0)) {
      return false;
    }
  }
  auto k = dyn_cast<AffineDimExpr>(results[lead]);
  auto n = dyn_cast<AffineDimExpr>(results[lead + 1]);
  return k && n && k.getPosition() == c.kDims.front() &&
         n.getPosition() == c.nDims.front();
}

/// The constant global `value` is, through reshapes of the whole buffer.
memref::GlobalOp constantGlobal(Value value, SymbolTable &symbols) {
  auto get = viewRoot(value).getDefiningOp<memref::GetGlobalOp>();
  if (!get) {
    return {};
  }
  auto global = symbols.lookup<memref::GlobalOp>(get.getName());
  if (!global || !global.getConstant() || !global.getInitialValue() ||
      !global.getType().getLayout().isIdentity()) {
    return {};
  }
  return global;
}

struct PackWeightsPass final : impl::PackWeightsPassBase<PackWeightsPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    // Weights used by several contractions are packed once per tile
    // height.
    std::map<std::pair<std::string, int64_t>, memref::GlobalOp> packedOf;
    module.walk([&](linalg::LinalgOp op) {
      if (!op.hasPureBufferSemantics()) {
        return;
      }
      std::optional<Contraction> c = matchContraction(op);
      if (!c) {
        return;
      }
      bool transposed = transposedTiles(*c, vectorBits);
      if (!transposed) {
        packRhs(*c, symbols, packedOf);
      }
      int64_t rows =
          transposed ? transposedRowsFor(vectorBits) : tileRowsFor(vectorBits);
      if (c->m < rows) {
        return;
      }
      OpOperand *lhs = op.getDpsInputOperand(c->lhs);
      if (!rowsThenReduction(*c, op.getMatchingIndexingMap(lhs))) {
        return;
      }
      memref::GlobalOp global = constantGlobal(lhs->get(), symbols);
      if (!global) {
        return;
      }
      memref::GlobalOp &packed = packedOf[{global.getSymName().str(), rows}];
      if (!packed) {
        packed = pack(global, c->m, c->k, rows, symbols);
      }
      auto type = packed ? cast<MemRefType>(packed.getType()) : MemRefType();
      if (!packed || type.getDimSize(1) != c->k) {
        return;
      }
      auto i64 = IntegerType::get(op->getContext(), 64);
      op->setAttr(
          kPackedLhsAttr,
          DictionaryAttr::get(
              op->getContext(),
              {NamedAttribute(StringAttr::get(op->getContext(), "global"),
                              FlatSymbolRefAttr::get(packed.getSymNameAttr())),
               NamedAttribute(StringAttr::get(op->getContext(), "operand"),
                              IntegerAttr::get(i64, c->lhs)),
               NamedAttribute(StringAttr::get(op->getContext(), "rows"),
                              IntegerAttr::get(i64, rows))}));
    });
  }

  /// Packs `c`'s B into the usual tiles' panels and marks the contraction,
  /// when the tiles would copy them at run time from a constant.
  void packRhs(
      const Contraction &c, SymbolTable &symbols,
      std::map<std::pair<std::string, int64_t>, memref::GlobalOp> &packedOf) {
    int64_t rows = tileRowsFor(vectorBits);
    int64_t width = 2 * lanesFor(vectorBits);
    if (c.gather || c.byteDot || c.accElement || !c.element.isF32() ||
        ShapedType::isDynamic(c.n) || !packsPanels(c.m, rows, true)) {
      return;
    }
    linalg::LinalgOp op = c.op;
    OpOperand *rhs = op.getDpsInputOperand(c.rhs);
    if (!reductionThenColumns(c, op.getMatchingIndexingMap(rhs))) {
      return;
    }
    memref::GlobalOp global = constantGlobal(rhs->get(), symbols);
    if (!global || global.getType().getNumElements() != c.k * c.n) {
      return;
    }
    // (Keyed apart from A's packs by a negative width.)
    memref::GlobalOp &packed = packedOf[{global.getSymName().str(), -width}];
    if (!packed) {
      packed = panels(global, c.k, c.n, width, symbols);
    }
    if (!packed) {
      return;
    }
    MLIRContext *context = op->getContext();
    auto i64 = IntegerType::get(context, 64);
    op->setAttr(
        kPackedRhsAttr,
        DictionaryAttr::get(
            context,
            {NamedAttribute(StringAttr::get(context, "global"),
                            FlatSymbolRefAttr::get(packed.getSymNameAttr())),
             NamedAttribute(StringAttr::get(context, "operand"),
                            IntegerAttr::get(i64, c.rhs)),
             NamedAttribute(StringAttr::get(context, "width"),
                            IntegerAttr::get(i64, width))}));
  }

  /// `global` (K x N row-major) as [ceil(N / width)][K][width], columns
  /// past N zero; null when its data cannot be read.
  memref::GlobalOp panels(memref::GlobalOp global, int64_t k, int64_t n,
                          int64_t width, SymbolTable &symbols) {
    std::optional<std::vector<uint32_t>> data =
        elementBits(*global.getInitialValue(), k * n);
    if (!data) {
      return {};
    }
    int64_t count = llvm::divideCeil(n, width);
    std::vector<uint32_t> packed(count * k * width, 0);
    for (int64_t kv = 0; kv < k; ++kv) {
      const uint32_t *from = data->data() + kv * n;
      for (int64_t column = 0; column < n; ++column) {
        packed[((column / width) * k + kv) * width + column % width] =
            from[column];
      }
    }
    return addGlobal(global, {count, k, width}, packed, "_panels", symbols);
  }

  /// A new private constant global beside `global` holding `bits` (of its
  /// element type) in `shape`, named after it with `suffix`.
  memref::GlobalOp addGlobal(memref::GlobalOp global, ArrayRef<int64_t> shape,
                             ArrayRef<uint32_t> bits, StringRef suffix,
                             SymbolTable &symbols) {
    Type element = global.getType().getElementType();
    auto tensorType = RankedTensorType::get(shape, element);
    Attribute value = bitsElements(tensorType, bits, suffix.drop_front());
    OpBuilder b(global);
    b.setInsertionPointAfter(global);
    auto result = memref::GlobalOp::create(
        b, global.getLoc(), (global.getSymName() + suffix).str(),
        b.getStringAttr("private"), MemRefType::get(shape, element), value,
        /*constant=*/true, b.getI64IntegerAttr(64));
    symbols.insert(result);
    return result;
  }

  /// `global` (M x K row-major) as [ceil(M / rows)][K][rows], rows past M
  /// zero; null when its data cannot be read.
  memref::GlobalOp pack(memref::GlobalOp global, int64_t m, int64_t k,
                        int64_t rows, SymbolTable &symbols) {
    // Pure data movement: the elements' bits (f32 or i32).
    std::optional<std::vector<uint32_t>> data =
        elementBits(*global.getInitialValue(), m * k);
    if (!data) {
      return {};
    }
    int64_t tiles = llvm::divideCeil(m, rows);
    std::vector<uint32_t> packed(tiles * k * rows, 0);
    for (int64_t row = 0; row < m; ++row) {
      uint32_t *to = packed.data() + (row / rows) * k * rows + row % rows;
      const uint32_t *from = data->data() + row * k;
      for (int64_t kv = 0; kv < k; ++kv) {
        to[kv * rows] = from[kv];
      }
    }
    return addGlobal(global, {tiles, k, rows}, packed, "_packed", symbols);
  }
};

} // namespace
} // namespace infer::cpu
