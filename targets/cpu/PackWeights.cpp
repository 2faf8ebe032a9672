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

/// Whether `map`'s results are (unit batch dims or constants..., then
/// exactly the loop dims `trailing` in order): the operand is then a
/// row-major matrix over the last of them. With `batch`, the first result
/// may also be a batch dim of the contraction, set there: the operand is
/// then a batch of such matrices.
bool leadingUnitsThen(const Contraction &c, AffineMap map,
                      ArrayRef<unsigned> trailing,
                      std::optional<unsigned> *batch = nullptr) {
  ArrayRef<AffineExpr> results = map.getResults();
  if (results.size() < trailing.size()) {
    return false;
  }
  size_t lead = results.size() - trailing.size();
  for (size_t i = 0; i < lead; ++i) {
    auto dim = dyn_cast<AffineDimExpr>(results[i]);
    auto constant = dyn_cast<AffineConstantExpr>(results[i]);
    bool unitBatch = dim && c.ranges[dim.getPosition()] == 1;
    if (batch && i == 0 && dim && !unitBatch &&
        llvm::is_contained(c.batch, dim.getPosition()) &&
        !ShapedType::isDynamic(c.ranges[dim.getPosition()])) {
      *batch = dim.getPosition();
      continue;
    }
    if (!unitBatch && !(constant && constant.getValue() == 0)) {
      return false;
    }
  }
  for (auto [i, d] : llvm::enumerate(trailing)) {
    auto dim = dyn_cast<AffineDimExpr>(results[lead + i]);
    if (!dim || dim.getPosition() != d) {
      return false;
    }
  }
  return true;
}

/// Whether A's map is (unit batch dims or constants..., m, K dims in
/// order): A is then an M x K row-major matrix, or (`batch` set) a batch
/// of them along that dim.
bool rowsThenReduction(const Contraction &c, AffineMap map,
                       std::optional<unsigned> &batch) {
  if (c.mDims.size() != 1) {
    return false;
  }
  SmallVector<unsigned> dims{c.mDims.front()};
  dims.append(c.kDims.begin(), c.kDims.end());
  return leadingUnitsThen(c, map, dims, &batch);
}

/// Whether B's map is (unit batch dims or constants..., k, n): B is then a
/// K x N row-major matrix read as rows.
bool reductionThenColumns(const Contraction &c, AffineMap map) {
  return c.kDims.size() == 1 && c.nDims.size() == 1 &&
         leadingUnitsThen(c, map, {c.kDims.front(), c.nDims.front()});
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
      std::optional<unsigned> batch;
      if (!rowsThenReduction(*c, op.getMatchingIndexingMap(lhs), batch)) {
        return;
      }
      memref::GlobalOp global = constantGlobal(lhs->get(), symbols);
      int64_t matrices = batch ? c->ranges[*batch] : 1;
      if (!global || (batch && global.getType().getNumElements() !=
                                   matrices * c->m * c->k)) {
        return;
      }
      memref::GlobalOp &packed = packedOf[{global.getSymName().str(), rows}];
      if (!packed) {
        packed = blocked(global, c->m, c->k, /*alongRows=*/true, rows,
                         "_packed", symbols, matrices);
      }
      auto type = packed ? cast<MemRefType>(packed.getType()) : MemRefType();
      if (!packed || type.getDimSize(1) != c->k) {
        return;
      }
      mark(op, kPackedLhsAttr, packed, c->lhs, "rows", rows, batch);
    });
  }

  /// Packs `c`'s B into the usual tiles' panels and marks the contraction,
  /// when the tiles would copy them at run time from a constant.
  void packRhs(
      const Contraction &c, SymbolTable &symbols,
      std::map<std::pair<std::string, int64_t>, memref::GlobalOp> &packedOf) {
    int64_t rows = tileRowsFor(vectorBits);
    int64_t lanes = lanesFor(vectorBits);
    int64_t width =
        panelVectors(c.m, rows, lanes, c.gather, c.n, c.rhsBytes()) * lanes;
    // A product of fewer rows than a tile (a matrix-vector product: a
    // classifier's Gemm) with B beyond L2 streams B from memory: in place,
    // a panel's rows are short runs N apart, which arrive at half the rate
    // of one sequential panel (a C model of the loop on Zen 4).
    bool streamed = streamsRhs(c.m, rows, c.rhsBytes());
    if (c.gather || c.byteDot || c.accElement || !c.element.isF32() ||
        ShapedType::isDynamic(c.n) ||
        !(packsPanels(c.m, rows, true) || streamed)) {
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
      packed = blocked(global, c.k, c.n, /*alongRows=*/false, width, "_panels",
                       symbols);
    }
    if (!packed) {
      return;
    }
    mark(op, kPackedRhsAttr, packed, c.rhs, "width", width);
  }

  /// Marks `op` with attribute `name`: {global = @packed, operand, `key`
  /// = `size`}.
  static void mark(Operation *op, StringRef name, memref::GlobalOp packed,
                   unsigned operand, StringRef key, int64_t size,
                   std::optional<unsigned> batch = std::nullopt) {
    MLIRContext *context = op->getContext();
    auto i64 = IntegerType::get(context, 64);
    SmallVector<NamedAttribute> entries = {
        NamedAttribute(StringAttr::get(context, "global"),
                       FlatSymbolRefAttr::get(packed.getSymNameAttr())),
        NamedAttribute(StringAttr::get(context, "operand"),
                       IntegerAttr::get(i64, operand)),
        NamedAttribute(StringAttr::get(context, key),
                       IntegerAttr::get(i64, size))};
    if (batch) {
      // The loop dim whose index picks the matrix.
      entries.push_back(NamedAttribute(StringAttr::get(context, "batch"),
                                       IntegerAttr::get(i64, *batch)));
    }
    op->setAttr(name, DictionaryAttr::get(context, entries));
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

  /// `global`, a rows x columns row-major matrix, in blocks of `size`
  /// rows (`alongRows`: [ceil(rows / size)][columns][size]) or of `size`
  /// columns ([ceil(columns / size)][rows][size]), the last block's
  /// elements past the matrix zero; null when its data cannot be read.
  /// For a batch of `matrices`, each one's blocks after the last's.
  memref::GlobalOp blocked(memref::GlobalOp global, int64_t rows,
                           int64_t columns, bool alongRows, int64_t size,
                           StringRef suffix, SymbolTable &symbols,
                           int64_t matrices = 1) {
    // Data movement: the elements' bits (f32 or i32), f32 subnormals
    // flushed to zero (flushSubnormals).
    std::optional<std::vector<uint32_t>> data =
        elementBits(*global.getInitialValue(), matrices * rows * columns);
    if (!data) {
      return {};
    }
    if (global.getType().getElementType().isF32()) {
      flushSubnormals(*data);
    }
    int64_t split = alongRows ? rows : columns;
    int64_t other = alongRows ? columns : rows;
    int64_t blocks = llvm::divideCeil(split, size);
    std::vector<uint32_t> packed(matrices * blocks * other * size, 0);
    for (int64_t matrix = 0; matrix < matrices; ++matrix) {
      uint32_t *to = &packed[matrix * blocks * other * size];
      const uint32_t *from = &(*data)[matrix * rows * columns];
      for (int64_t row = 0; row < rows; ++row) {
        for (int64_t column = 0; column < columns; ++column) {
          int64_t at = alongRows ? row : column;
          int64_t across = alongRows ? column : row;
          to[((at / size) * other + across) * size + at % size] =
              from[row * columns + column];
        }
      }
    }
    return addGlobal(global, {matrices * blocks, other, size}, packed, suffix,
                     symbols);
  }
};

} // namespace
} // namespace infer::cpu
