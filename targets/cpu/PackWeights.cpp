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
      int64_t rows = transposedTiles(*c, vectorBits)
                         ? transposedRowsFor(vectorBits)
                         : tileRowsFor(vectorBits);
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
    SmallVector<int64_t> shape{tiles, k, rows};
    Type element = global.getType().getElementType();
    auto tensorType = RankedTensorType::get(shape, element);
    Attribute value = bitsElements(tensorType, packed, "packed");
    OpBuilder b(global);
    b.setInsertionPointAfter(global);
    auto result = memref::GlobalOp::create(
        b, global.getLoc(), (global.getSymName() + "_packed").str(),
        b.getStringAttr("private"), MemRefType::get(shape, element), value,
        /*constant=*/true, b.getI64IntegerAttr(64));
    symbols.insert(result);
    return result;
  }
};

} // namespace
} // namespace infer::cpu
