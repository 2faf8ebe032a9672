//===- TransposeRhs.cpp - transposed B operands into row-major copies -----===//
//
// A contraction whose B operand is indexed (.., n, k) (X . W^T in a Gemm
// with transB, every recurrent layer's input and hidden projections, Q .
// K^T in attention) reads B along its rows only in k, not in n, so the
// register-tiled kernels would gather it. Here such a B is transposed once
// into a (.., k, n) tensor, right after it is defined: a weight or
// loop-invariant operand is transposed outside any loop (a recurrent
// layer's hidden projection: once per run, not once per time step), and
// the contraction reads the copy's rows contiguously. When B is a constant
// (through reshapes and static slices) the transpose happens here, at
// compile time: the artifact stores the weights already transposed.
//
//===----------------------------------------------------------------------===//

#include "passes/fusion/Passes.h"
#include "targets/cpu/ConstantData.h"
#include "targets/cpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "mlir/Dialect/Utils/IndexingUtils.h"

using namespace mlir;

namespace infer::cpu {
#define GEN_PASS_DEF_TRANSPOSERHSPASS
#include "targets/cpu/Passes.h.inc"

namespace {

/// Whether `op` is a static f32 contraction on tensors whose B map ends in
/// (n, k): n the innermost dim of C, k a reduction dim.
bool hasTransposedRhs(linalg::GenericOp op) {
  if (!fusion::isContraction(op) || !op.hasPureTensorSemantics()) {
    return false;
  }
  for (Type type : op->getOperandTypes()) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.hasStaticShape() ||
        !tensor.getElementType().isF32()) {
      return false;
    }
  }
  AffineMap rhs = op.getMatchingIndexingMap(op.getDpsInputOperand(1));
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (rhs.getNumResults() < 2 || out.getNumResults() < 1) {
    return false;
  }
  auto k = dyn_cast<AffineDimExpr>(rhs.getResults().back());
  auto n = dyn_cast<AffineDimExpr>(rhs.getResults()[rhs.getNumResults() - 2]);
  auto outN = dyn_cast<AffineDimExpr>(out.getResults().back());
  return k && n && outN && n == outN &&
         op.getIteratorTypesArray()[k.getPosition()] ==
             utils::IteratorType::reduction;
}

/// The row-major f32 elements of `value` when it is a constant, or a
/// reshape or static unit-stride slice of one.
std::optional<std::vector<float>> constantData(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def) {
    return std::nullopt;
  }
  auto type = cast<RankedTensorType>(value.getType());
  if (auto constant = dyn_cast<arith::ConstantOp>(def)) {
    return elementsData(constant.getValue(), type.getNumElements());
  }
  if (isa<tensor::ReshapeOp, tensor::CollapseShapeOp, tensor::ExpandShapeOp>(
          def)) {
    return constantData(def->getOperand(0));
  }
  auto slice = dyn_cast<tensor::ExtractSliceOp>(def);
  if (!slice || !slice.hasUnitStride() ||
      ShapedType::isDynamicShape(slice.getStaticOffsets()) ||
      ShapedType::isDynamicShape(slice.getStaticSizes())) {
    return std::nullopt;
  }
  std::optional<std::vector<float>> source = constantData(slice.getSource());
  if (!source) {
    return std::nullopt;
  }
  ArrayRef<int64_t> shape = slice.getSourceType().getShape();
  ArrayRef<int64_t> offsets = slice.getStaticOffsets();
  ArrayRef<int64_t> sizes = slice.getStaticSizes();
  SmallVector<int64_t> strides = computeStrides(shape);
  int64_t count = ShapedType::getNumElements(sizes);
  std::vector<float> data(count);
  SmallVector<int64_t> sliceStrides = computeStrides(sizes);
  for (int64_t i = 0; i < count; ++i) {
    SmallVector<int64_t> at = delinearize(i, sliceStrides);
    int64_t from = 0;
    for (size_t d = 0; d < at.size(); ++d) {
      from += (at[d] + offsets[d]) * strides[d];
    }
    data[i] = (*source)[from];
  }
  return data;
}

/// `value` (rows x columns of its last two dims) transposed, as a new
/// constant when it is one.
Value foldedTranspose(OpBuilder &b, Location loc, Value value,
                      RankedTensorType transposedType) {
  std::optional<std::vector<float>> data = constantData(value);
  if (!data) {
    return {};
  }
  ArrayRef<int64_t> shape = cast<RankedTensorType>(value.getType()).getShape();
  int64_t rows = shape[shape.size() - 2], columns = shape.back();
  int64_t batches = data->size() / (rows * columns);
  std::vector<float> result(data->size());
  for (int64_t n = 0; n < batches; ++n) {
    const float *from = data->data() + n * rows * columns;
    float *to = result.data() + n * rows * columns;
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < columns; ++c) {
        to[c * rows + r] = from[r * columns + c];
      }
    }
  }
  return arith::ConstantOp::create(
      b, loc,
      cast<TypedAttr>(f32Elements(transposedType, result, "transposed")));
}

struct TransposeRhsPass final : impl::TransposeRhsPassBase<TransposeRhsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> found;
    getOperation().walk([&](linalg::GenericOp op) {
      if (hasTransposedRhs(op)) {
        found.push_back(op);
      }
    });
    for (linalg::GenericOp op : found) {
      OpOperand *rhs = op.getDpsInputOperand(1);
      Value value = rhs->get();
      auto type = cast<RankedTensorType>(value.getType());
      int64_t rank = type.getRank();
      SmallVector<int64_t> permutation =
          llvm::to_vector(llvm::seq<int64_t>(0, rank));
      std::swap(permutation[rank - 1], permutation[rank - 2]);
      SmallVector<int64_t> shape =
          applyPermutation(type.getShape(), permutation);
      // Right after B is defined: outside the loops B does not vary in.
      OpBuilder b(op);
      if (Operation *def = value.getDefiningOp()) {
        b.setInsertionPointAfter(def);
      } else {
        b.setInsertionPointToStart(cast<BlockArgument>(value).getOwner());
      }
      Location loc = op.getLoc();
      auto transposedType = RankedTensorType::get(shape, type.getElementType());
      Value transposed = foldedTranspose(b, loc, value, transposedType);
      if (!transposed) {
        Value empty =
            tensor::EmptyOp::create(b, loc, shape, type.getElementType());
        transposed =
            linalg::TransposeOp::create(b, loc, value, empty, permutation)
                .getResult()
                .front();
      }
      SmallVector<AffineMap> maps = op.getIndexingMapsArray();
      AffineMap map = maps[rhs->getOperandNumber()];
      SmallVector<AffineExpr> results(map.getResults());
      std::swap(results[rank - 1], results[rank - 2]);
      maps[rhs->getOperandNumber()] =
          AffineMap::get(map.getNumDims(), 0, results, op.getContext());
      op.setIndexingMapsAttr(b.getAffineMapArrayAttr(maps));
      rhs->set(transposed);
    }
  }
};

} // namespace
} // namespace infer::cpu
