//===- PartialShapes.cpp - shape values known in part ---------------------===//
//
// A model exported with a dynamic batch computes its reshape targets at run
// time: Shape -> Gather -> Mul -> Unsqueeze -> Concat -> Reshape. Most
// entries of such a shape tensor are static dims of the graph and only the
// batch is unknown. getPartialInts evaluates these small integer tensors
// with each unknown entry kDynamic, so shape inference keeps the static dims
// of a Reshape's result and the constant folder replaces entries that are
// fully known (a Gather of a static dim) by constants.
//
//===----------------------------------------------------------------------===//

#include "dialects/graph/IR/Folding.h"
#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"

using namespace mlir;

namespace infer::graph {

namespace {

constexpr int kMaxDepth = 16;
constexpr int64_t kMaxElements = 16;

using Partial = SmallVector<int64_t>;

std::optional<Partial> partial(Value value, int depth);

/// An elementwise integer op of two partial values (same length, or one of
/// length 1); an entry is unknown when either input entry is.
std::optional<Partial> binary(Value a, Value b, int depth,
                              function_ref<std::optional<int64_t>(int64_t, int64_t)> fn) {
  auto x = partial(a, depth + 1), y = partial(b, depth + 1);
  if (!x || !y || (x->size() != y->size() && x->size() != 1 && y->size() != 1)) {
    return std::nullopt;
  }
  size_t n = std::max(x->size(), y->size());
  Partial result;
  for (size_t i = 0; i < n; ++i) {
    int64_t u = (*x)[x->size() == 1 ? 0 : i], v = (*y)[y->size() == 1 ? 0 : i];
    std::optional<int64_t> r;
    if (u != kDynamic && v != kDynamic) {
      r = fn(u, v);
    }
    result.push_back(r ? *r : kDynamic);
  }
  return result;
}

std::optional<Partial> partial(Value value, int depth) {
  auto type = getRanked(value);
  if (depth > kMaxDepth || !type || type.getRank() > 1 || !type.hasStaticShape() ||
      type.getNumElements() > kMaxElements || !type.getElementType().isInteger()) {
    return std::nullopt;
  }
  if (auto ints = getConstantInts(value)) {
    return Partial(*ints);
  }
  Operation *op = value.getDefiningOp();
  if (!op) {
    return std::nullopt;
  }
  if (auto shape = dyn_cast<ShapeOp>(op)) {
    auto data = getRanked(shape.getData());
    if (!data) {
      return std::nullopt;
    }
    int64_t rank = data.getRank();
    auto clampAxis = [&](int64_t a) {
      a = a < 0 ? a + rank : a;
      return std::clamp<int64_t>(a, 0, rank);
    };
    int64_t start = clampAxis(shape.getStart());
    int64_t end = shape.getEnd() ? clampAxis(*shape.getEnd()) : rank;
    Partial dims;
    for (int64_t d = start; d < end; ++d) {
      dims.push_back(data.getDimSize(d));
    }
    return dims;
  }
  if (auto gather = dyn_cast<GatherOp>(op)) {
    auto data = partial(gather.getData(), depth + 1);
    auto indices = getConstantInts(gather.getIndices());
    if (!data || !indices || gather.getAxis() != 0) {
      return std::nullopt;
    }
    Partial result;
    int64_t n = data->size();
    for (int64_t i : *indices) {
      i = i < 0 ? i + n : i;
      if (i < 0 || i >= n) {
        return std::nullopt;
      }
      result.push_back((*data)[i]);
    }
    return result;
  }
  if (auto concat = dyn_cast<ConcatOp>(op)) {
    Partial result;
    for (Value input : concat.getInputs()) {
      auto part = partial(input, depth + 1);
      if (!part) {
        return std::nullopt;
      }
      result.append(*part);
    }
    return result;
  }
  // Ops that keep the values in order and only change the shape or the
  // integer width.
  if (isa<UnsqueezeOp, SqueezeOp, ReshapeOp, IdentityOp, FlattenOp, CastOp>(op)) {
    auto input = partial(op->getOperand(0), depth + 1);
    if (!input || static_cast<int64_t>(input->size()) != type.getNumElements()) {
      return std::nullopt;
    }
    return input;
  }
  if (isa<AddOp>(op)) {
    return binary(op->getOperand(0), op->getOperand(1), depth,
                  [](int64_t u, int64_t v) -> std::optional<int64_t> { return u + v; });
  }
  if (isa<SubOp>(op)) {
    return binary(op->getOperand(0), op->getOperand(1), depth,
                  [](int64_t u, int64_t v) -> std::optional<int64_t> { return u - v; });
  }
  if (isa<MulOp>(op)) {
    return binary(op->getOperand(0), op->getOperand(1), depth,
                  [](int64_t u, int64_t v) -> std::optional<int64_t> { return u * v; });
  }
  if (isa<DivOp>(op)) {
    // Shape arithmetic divides non-negative values: only then is it known.
    return binary(op->getOperand(0), op->getOperand(1), depth,
                  [](int64_t u, int64_t v) -> std::optional<int64_t> {
                    if (u < 0 || v <= 0) {
                      return std::nullopt;
                    }
                    return u / v;
                  });
  }
  return std::nullopt;
}

} // namespace

std::optional<SmallVector<int64_t>> getPartialInts(Value value) {
  return partial(value, 0);
}

} // namespace infer::graph
