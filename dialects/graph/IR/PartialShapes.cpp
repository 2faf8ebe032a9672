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
// Exporters also test shape values: PyTorch's `expand` writes
// Where(Equal(shape, -1), ones, shape), tf2onnx compares dims with 0. Each
// unknown entry therefore remembers whether it is known to be non-negative
// (a dim, or sums and products of dims), which decides such comparisons
// without knowing the value: a dim is never -1. Booleans are 0 and 1.
//
//===----------------------------------------------------------------------===//

#include "dialects/graph/IR/Folding.h"
#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace infer::graph {

namespace {

constexpr int kMaxDepth = 16;
constexpr int64_t kMaxElements = 16;

/// An unknown entry known to be >= 0 (a dim). kDynamic is any unknown.
constexpr int64_t kNonNegative = kDynamic + 1;

using Partial = SmallVector<int64_t>;

bool isKnown(int64_t v) { return v != kDynamic && v != kNonNegative; }
/// Known to be >= 0, whether or not its value is known.
bool nonNegative(int64_t v) {
  return v == kNonNegative || (isKnown(v) && v >= 0);
}

std::optional<Partial> partial(Value value, int depth);

/// How a binary op treats two entries: `known` for two known values
/// (std::nullopt: the result is unknown), `unknown` when either is not.
struct BinaryRule {
  function_ref<std::optional<int64_t>(int64_t, int64_t)> known;
  function_ref<int64_t(int64_t, int64_t)> unknown;
};

int64_t anyUnknown(int64_t, int64_t) { return kDynamic; }

/// The broadcast of entries of two partial values (same length, or one of
/// length 1).
std::optional<Partial> binary(Value a, Value b, int depth, BinaryRule rule) {
  auto x = partial(a, depth + 1), y = partial(b, depth + 1);
  if (!x || !y ||
      (x->size() != y->size() && x->size() != 1 && y->size() != 1)) {
    return std::nullopt;
  }
  size_t n = std::max(x->size(), y->size());
  Partial result;
  for (size_t i = 0; i < n; ++i) {
    int64_t u = (*x)[x->size() == 1 ? 0 : i], v = (*y)[y->size() == 1 ? 0 : i];
    if (isKnown(u) && isKnown(v)) {
      std::optional<int64_t> r = rule.known(u, v);
      result.push_back(r ? *r : kDynamic);
    } else {
      result.push_back(rule.unknown(u, v));
    }
  }
  return result;
}

/// Sums and products of non-negative entries stay non-negative.
int64_t keepsSign(int64_t u, int64_t v) {
  return nonNegative(u) && nonNegative(v) ? kNonNegative : kDynamic;
}

/// `u < v` where one side may be unknown but non-negative: decided when the
/// other side is a known value below 0 (or, for <=, at most 0).
int64_t lessUnknown(int64_t u, int64_t v, bool orEqual) {
  if (nonNegative(u) && isKnown(v) && (orEqual ? v < 0 : v <= 0)) {
    return 0;
  }
  if (isKnown(u) && nonNegative(v) && (orEqual ? u <= 0 : u < 0)) {
    return 1;
  }
  return kDynamic;
}

std::optional<Partial> compare(Operation *op, int depth) {
  Value a = op->getOperand(0), b = op->getOperand(1);
  auto x = partial(a, depth + 1), y = partial(b, depth + 1);
  if (!x || !y) {
    return std::nullopt;
  }
  if (isa<EqualOp>(op)) {
    return binary(
        a, b, depth,
        {[](int64_t u, int64_t v) -> std::optional<int64_t> { return u == v; },
         [](int64_t u, int64_t v) -> int64_t {
           // A dim never equals a negative value.
           if ((nonNegative(u) && isKnown(v) && v < 0) ||
               (nonNegative(v) && isKnown(u) && u < 0)) {
             return 0;
           }
           return kDynamic;
         }});
  }
  // Greater and GreaterOrEqual are Less and LessOrEqual with swapped sides.
  bool swap = isa<GreaterOp, GreaterOrEqualOp>(op);
  bool orEqual = isa<LessOrEqualOp, GreaterOrEqualOp>(op);
  if (swap) {
    std::swap(a, b);
  }
  if (orEqual) {
    return binary(
        a, b, depth,
        {[](int64_t u, int64_t v) -> std::optional<int64_t> { return u <= v; },
         [](int64_t u, int64_t v) { return lessUnknown(u, v, true); }});
  }
  return binary(
      a, b, depth,
      {[](int64_t u, int64_t v) -> std::optional<int64_t> { return u < v; },
       [](int64_t u, int64_t v) { return lessUnknown(u, v, false); }});
}

/// Where(condition, x, y) entry by entry, all three broadcast.
std::optional<Partial> where(WhereOp op, int depth) {
  auto c = partial(op.getCondition(), depth + 1);
  auto x = partial(op.getX(), depth + 1);
  auto y = partial(op.getY(), depth + 1);
  if (!c || !x || !y) {
    return std::nullopt;
  }
  size_t n = std::max({c->size(), x->size(), y->size()});
  auto at = [n](const Partial &p, size_t i) -> std::optional<int64_t> {
    if (p.size() == 1) {
      return p[0];
    }
    if (p.size() != n) {
      return std::nullopt;
    }
    return p[i];
  };
  Partial result;
  for (size_t i = 0; i < n; ++i) {
    auto ci = at(*c, i), xi = at(*x, i), yi = at(*y, i);
    if (!ci || !xi || !yi) {
      return std::nullopt;
    }
    if (isKnown(*ci)) {
      result.push_back(*ci ? *xi : *yi);
    } else {
      result.push_back(nonNegative(*xi) && nonNegative(*yi) ? kNonNegative
                                                            : kDynamic);
    }
  }
  return result;
}

std::optional<Partial> constantOfShape(ConstantOfShapeOp op, int depth) {
  auto shape = partial(op.getInput(), depth + 1);
  if (!shape || llvm::any_of(*shape, [](int64_t v) { return !isKnown(v); })) {
    return std::nullopt;
  }
  int64_t value = 0;
  if (auto attr = op.getValueAttr()) {
    auto dense = dyn_cast<DenseElementsAttr>(attr);
    if (!dense || !isa<IntegerType>(dense.getElementType()) ||
        dense.getNumElements() != 1) {
      return std::nullopt;
    }
    APInt v = *dense.getValues<APInt>().begin();
    value = dense.getElementType().isInteger(1) ? v.getZExtValue()
                                                : v.getSExtValue();
  }
  int64_t count = 1;
  for (int64_t d : *shape) {
    count *= d;
  }
  return Partial(count, value);
}

/// A 1-d Slice with constant starts, ends and steps.
std::optional<Partial> sliceValues(SliceOp op, int depth) {
  auto data = partial(op.getData(), depth + 1);
  auto starts = getConstantInts(op.getStarts());
  auto ends = getConstantInts(op.getEnds());
  if (!data || !starts || !ends || starts->size() != 1 || ends->size() != 1) {
    return std::nullopt;
  }
  int64_t step = 1;
  if (!isNone(op.getSteps())) {
    auto steps = getConstantInts(op.getSteps());
    if (!steps || steps->size() != 1 || (*steps)[0] == 0) {
      return std::nullopt;
    }
    step = (*steps)[0];
  }
  if (!isNone(op.getAxes())) {
    auto axes = getConstantInts(op.getAxes());
    if (!axes || axes->size() != 1 || ((*axes)[0] != 0 && (*axes)[0] != -1)) {
      return std::nullopt;
    }
  }
  int64_t n = data->size();
  auto clamp = [&](int64_t v, int64_t lo, int64_t hi) {
    v = v < 0 ? v + n : v;
    return std::clamp(v, lo, hi);
  };
  Partial result;
  if (step > 0) {
    for (int64_t i = clamp((*starts)[0], 0, n), e = clamp((*ends)[0], 0, n);
         i < e; i += step) {
      result.push_back((*data)[i]);
    }
  } else {
    for (int64_t i = clamp((*starts)[0], 0, n - 1),
                 e = clamp((*ends)[0], -1, n - 1);
         i > e; i += step) {
      result.push_back((*data)[i]);
    }
  }
  return result;
}

std::optional<Partial> partial(Value value, int depth) {
  auto type = getRanked(value);
  if (depth > kMaxDepth || !type || type.getRank() > 1 ||
      !type.hasStaticShape() || type.getNumElements() > kMaxElements ||
      !type.getElementType().isInteger()) {
    return std::nullopt;
  }
  auto result = [&]() -> std::optional<Partial> {
    if (auto ints = getConstantInts(value)) {
      if (type.getElementType().isInteger(1)) {
        for (int64_t &v : *ints) {
          v = v != 0; // read sign-extended: true is -1
        }
      }
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
        dims.push_back(data.isDynamicDim(d) ? kNonNegative
                                            : data.getDimSize(d));
      }
      return dims;
    }
    if (isa<SizeOp>(op)) {
      return Partial{kNonNegative};
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
    // integer width; a cast to bool keeps only whether each is zero.
    if (isa<UnsqueezeOp, SqueezeOp, ReshapeOp, IdentityOp, FlattenOp, CastOp>(
            op)) {
      if (!isa<IntegerType>(
              getElementTypeOrSelf(op->getOperand(0).getType()))) {
        return std::nullopt;
      }
      auto input = partial(op->getOperand(0), depth + 1);
      if (!input ||
          static_cast<int64_t>(input->size()) != type.getNumElements()) {
        return std::nullopt;
      }
      if (isa<CastOp>(op) && type.getElementType().isInteger(1)) {
        for (int64_t &v : *input) {
          v = isKnown(v) ? v != 0 : kDynamic;
        }
      }
      return input;
    }
    if (auto slice = dyn_cast<SliceOp>(op)) {
      return sliceValues(slice, depth);
    }
    if (auto fill = dyn_cast<ConstantOfShapeOp>(op)) {
      return constantOfShape(fill, depth);
    }
    if (auto select = dyn_cast<WhereOp>(op)) {
      return where(select, depth);
    }
    if (isa<EqualOp, LessOp, LessOrEqualOp, GreaterOp, GreaterOrEqualOp>(op)) {
      return compare(op, depth);
    }
    if (isa<NotOp>(op)) {
      auto input = partial(op->getOperand(0), depth + 1);
      if (!input) {
        return std::nullopt;
      }
      for (int64_t &v : *input) {
        v = isKnown(v) ? !v : kDynamic;
      }
      return input;
    }
    if (isa<AddOp>(op)) {
      return binary(
          op->getOperand(0), op->getOperand(1), depth,
          {[](int64_t u, int64_t v) -> std::optional<int64_t> { return u + v; },
           keepsSign});
    }
    if (isa<SubOp>(op)) {
      return binary(
          op->getOperand(0), op->getOperand(1), depth,
          {[](int64_t u, int64_t v) -> std::optional<int64_t> { return u - v; },
           anyUnknown});
    }
    if (isa<MulOp>(op)) {
      return binary(
          op->getOperand(0), op->getOperand(1), depth,
          {[](int64_t u, int64_t v) -> std::optional<int64_t> { return u * v; },
           keepsSign});
    }
    if (isa<DivOp>(op)) {
      // Shape arithmetic divides non-negative values: only then is it known.
      return binary(op->getOperand(0), op->getOperand(1), depth,
                    {[](int64_t u, int64_t v) -> std::optional<int64_t> {
                       if (u < 0 || v <= 0) {
                         return std::nullopt;
                       }
                       return u / v;
                     },
                     [](int64_t u, int64_t v) -> int64_t {
                       return nonNegative(u) && isKnown(v) && v > 0
                                  ? kNonNegative
                                  : kDynamic;
                     }});
    }
    if (isa<MaxOp, MinOp>(op) && op->getNumOperands() == 2) {
      bool isMax = isa<MaxOp>(op);
      return binary(op->getOperand(0), op->getOperand(1), depth,
                    {[isMax](int64_t u, int64_t v) -> std::optional<int64_t> {
                       return isMax ? std::max(u, v) : std::min(u, v);
                     },
                     [isMax](int64_t u, int64_t v) -> int64_t {
                       // max(dim, c <= 0) is the dim; min(dim, c) >= 0 for c >=
                       // 0.
                       if (isMax &&
                           ((nonNegative(u) && isKnown(v) && v <= 0) ||
                            (nonNegative(v) && isKnown(u) && u <= 0))) {
                         return isKnown(u) ? v : u;
                       }
                       return (isMax ? nonNegative(u) || nonNegative(v)
                                     : nonNegative(u) && nonNegative(v))
                                  ? kNonNegative
                                  : kDynamic;
                     }});
    }
    return std::nullopt;
  }();
  if (result && static_cast<int64_t>(result->size()) != type.getNumElements()) {
    return std::nullopt;
  }
  return result;
}

} // namespace

std::optional<SmallVector<int64_t>> getPartialInts(Value value) {
  auto result = partial(value, 0);
  if (result) {
    for (int64_t &v : *result) {
      if (v == kNonNegative) {
        v = kDynamic;
      }
    }
  }
  return result;
}

} // namespace infer::graph
