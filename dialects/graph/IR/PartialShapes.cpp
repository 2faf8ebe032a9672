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
// An entry computed from dynamic dims is kept as a product
// `coefficient * root * ...` of the dims' roots (SymbolicShapes.h) while
// the arithmetic allows (products, sums of like terms, exact division by a
// constant): two entries with the same product are equal at run time, and
// a Reshape's -1 can be solved against its input's dims.
//
//===----------------------------------------------------------------------===//

#include "dialects/graph/IR/Folding.h"
#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/IR/SymbolicShapes.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"

#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace infer::graph {

namespace {

constexpr int kMaxDepth = 16;
constexpr int64_t kMaxElements = 16;
/// Roots in one product; longer products are only "non-negative".
constexpr size_t kMaxRoots = 8;

using Roots = SmallVector<DimRoot, 2>;

/// One entry of a shape value.
struct Term {
  enum Kind : uint8_t {
    Known,       // `value`
    Product,     // `value` (the coefficient) times the sorted `roots`
    NonNegative, // unknown, but >= 0 (sums and products of dims)
    Unknown,
  };
  Kind kind = Unknown;
  int64_t value = 0;
  Roots roots;

  static Term known(int64_t v) { return {Known, v, {}}; }
  static Term unknown() { return {Unknown, 0, {}}; }
  static Term nonNegativeUnknown() { return {NonNegative, 0, {}}; }
  static Term product(int64_t coefficient, Roots roots) {
    if (coefficient == 0 || roots.empty()) {
      return known(coefficient);
    }
    if (roots.size() > kMaxRoots) {
      return coefficient > 0 ? nonNegativeUnknown() : unknown();
    }
    llvm::sort(roots);
    return {Product, coefficient, std::move(roots)};
  }

  bool isKnown() const { return kind == Known; }
  bool nonNegative() const {
    return kind == NonNegative ||
           ((kind == Known || kind == Product) && value >= 0);
  }
  /// Equal at run time (not only possibly).
  bool sameAs(const Term &other) const {
    return kind == other.kind && (kind == Known || kind == Product) &&
           value == other.value && roots == other.roots;
  }
};

using Partial = SmallVector<Term>;

Term keepsSign(const Term &u, const Term &v) {
  return u.nonNegative() && v.nonNegative() ? Term::nonNegativeUnknown()
                                            : Term::unknown();
}

/// `u * v` for known or product terms; nullopt on overflow.
std::optional<Term> multiply(const Term &u, const Term &v) {
  int64_t c;
  if (llvm::MulOverflow(u.value, v.value, c)) {
    return std::nullopt;
  }
  Roots roots(u.roots);
  roots.append(v.roots.begin(), v.roots.end());
  return Term::product(c, std::move(roots));
}

Term mulTerms(const Term &u, const Term &v) {
  if ((u.isKnown() && u.value == 0) || (v.isKnown() && v.value == 0)) {
    return Term::known(0);
  }
  bool exact = (u.kind == Term::Known || u.kind == Term::Product) &&
               (v.kind == Term::Known || v.kind == Term::Product);
  if (exact) {
    if (auto r = multiply(u, v)) {
      return *r;
    }
  }
  return keepsSign(u, v);
}

/// `u + sign * v`.
Term addTerms(const Term &u, const Term &v, int64_t sign) {
  if (v.isKnown() && v.value == 0) {
    return u;
  }
  if (sign > 0 && u.isKnown() && u.value == 0) {
    return v;
  }
  bool like = (u.kind == Term::Known && v.kind == Term::Known) ||
              (u.kind == Term::Product && v.kind == Term::Product &&
               u.roots == v.roots);
  int64_t c;
  if (like && !(sign > 0 ? llvm::AddOverflow(u.value, v.value, c)
                         : llvm::SubOverflow(u.value, v.value, c))) {
    return Term::product(c, u.roots);
  }
  return sign > 0 ? keepsSign(u, v) : Term::unknown();
}

/// Shape arithmetic divides non-negative values: only then is it exact.
Term divTerms(const Term &u, const Term &v) {
  if (!v.isKnown() || v.value <= 0) {
    return Term::unknown();
  }
  if ((u.kind == Term::Known || u.kind == Term::Product) && u.value >= 0 &&
      (u.kind == Term::Known || u.value % v.value == 0)) {
    return Term::product(u.value / v.value, u.roots);
  }
  return u.nonNegative() ? Term::nonNegativeUnknown() : Term::unknown();
}

/// `u < v` (or <=) as 0, 1 or unknown.
Term lessTerms(const Term &u, const Term &v, bool orEqual) {
  if (u.isKnown() && v.isKnown()) {
    return Term::known(orEqual ? u.value <= v.value : u.value < v.value);
  }
  if (u.sameAs(v)) {
    return Term::known(orEqual);
  }
  // One side unknown but non-negative: decided when the other is a known
  // value below 0 (or, for <=, at most 0).
  if (u.nonNegative() && v.isKnown() &&
      (orEqual ? v.value < 0 : v.value <= 0)) {
    return Term::known(0);
  }
  if (u.isKnown() && v.nonNegative() &&
      (orEqual ? u.value <= 0 : u.value < 0)) {
    return Term::known(1);
  }
  return Term::unknown();
}

Term equalTerms(const Term &u, const Term &v) {
  if (u.isKnown() && v.isKnown()) {
    return Term::known(u.value == v.value);
  }
  if (u.sameAs(v)) {
    return Term::known(1);
  }
  // A dim never equals a negative value.
  if ((u.nonNegative() && v.isKnown() && v.value < 0) ||
      (v.nonNegative() && u.isKnown() && u.value < 0)) {
    return Term::known(0);
  }
  return Term::unknown();
}

Term maxMinTerms(const Term &u, const Term &v, bool isMax) {
  if (u.isKnown() && v.isKnown()) {
    return Term::known(isMax ? std::max(u.value, v.value)
                             : std::min(u.value, v.value));
  }
  if (u.sameAs(v)) {
    return u;
  }
  // max(dim, c <= 0) is the dim; min(dim, c) >= 0 for c >= 0.
  if (isMax && ((u.nonNegative() && v.isKnown() && v.value <= 0) ||
                (v.nonNegative() && u.isKnown() && u.value <= 0))) {
    return u.isKnown() ? v : u;
  }
  return (isMax ? u.nonNegative() || v.nonNegative()
                : u.nonNegative() && v.nonNegative())
             ? Term::nonNegativeUnknown()
             : Term::unknown();
}

std::optional<Partial> partial(Value value, int depth);

/// Broadcast `a` and `b` (same length, or one of length 1), entry by entry.
std::optional<Partial>
binary(Value a, Value b, int depth,
       function_ref<Term(const Term &, const Term &)> rule) {
  auto x = partial(a, depth + 1), y = partial(b, depth + 1);
  if (!x || !y ||
      (x->size() != y->size() && x->size() != 1 && y->size() != 1)) {
    return std::nullopt;
  }
  size_t n = std::max(x->size(), y->size());
  Partial result;
  for (size_t i = 0; i < n; ++i) {
    result.push_back(
        rule((*x)[x->size() == 1 ? 0 : i], (*y)[y->size() == 1 ? 0 : i]));
  }
  return result;
}

std::optional<Partial> compare(Operation *op, int depth) {
  Value a = op->getOperand(0), b = op->getOperand(1);
  if (isa<EqualOp>(op)) {
    return binary(a, b, depth, equalTerms);
  }
  // Greater and GreaterOrEqual are Less and LessOrEqual with swapped sides.
  if (isa<GreaterOp, GreaterOrEqualOp>(op)) {
    std::swap(a, b);
  }
  bool orEqual = isa<LessOrEqualOp, GreaterOrEqualOp>(op);
  return binary(a, b, depth, [orEqual](const Term &u, const Term &v) {
    return lessTerms(u, v, orEqual);
  });
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
  auto at = [n](const Partial &p, size_t i) -> const Term * {
    if (p.size() == 1) {
      return &p[0];
    }
    return p.size() == n ? &p[i] : nullptr;
  };
  Partial result;
  for (size_t i = 0; i < n; ++i) {
    const Term *ci = at(*c, i), *xi = at(*x, i), *yi = at(*y, i);
    if (!ci || !xi || !yi) {
      return std::nullopt;
    }
    if (ci->isKnown()) {
      result.push_back(ci->value ? *xi : *yi);
    } else if (xi->sameAs(*yi)) {
      result.push_back(*xi);
    } else {
      result.push_back(keepsSign(*xi, *yi));
    }
  }
  return result;
}

std::optional<Partial> constantOfShape(ConstantOfShapeOp op, int depth) {
  auto shape = partial(op.getInput(), depth + 1);
  if (!shape ||
      llvm::any_of(*shape, [](const Term &t) { return !t.isKnown(); })) {
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
  for (const Term &d : *shape) {
    count *= d.value;
  }
  return Partial(count, Term::known(value));
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

/// The size of dimension `d` of `data` as a term.
Term dimTerm(Value data, RankedTensorType type, int64_t d) {
  if (!type.isDynamicDim(d)) {
    return Term::known(type.getDimSize(d));
  }
  return Term::product(1, {dimRoot(data, d)});
}

std::optional<Partial> shapeValues(ShapeOp shape) {
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
    dims.push_back(dimTerm(shape.getData(), data, d));
  }
  return dims;
}

std::optional<Partial> sizeValue(SizeOp size) {
  auto data = getRanked(size.getData());
  if (!data) {
    return Partial{Term::nonNegativeUnknown()};
  }
  Term count = Term::known(1);
  for (int64_t d = 0; d < data.getRank(); ++d) {
    count = mulTerms(count, dimTerm(size.getData(), data, d));
  }
  return Partial{count};
}

std::optional<Partial> gatherValues(GatherOp gather, int depth) {
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

/// Ops that keep the values in order and only change the shape or the
/// integer width; a cast to bool keeps only whether each is zero.
std::optional<Partial> passThrough(Operation *op, RankedTensorType type,
                                   int depth) {
  if (!isa<IntegerType>(getElementTypeOrSelf(op->getOperand(0).getType()))) {
    return std::nullopt;
  }
  auto input = partial(op->getOperand(0), depth + 1);
  if (!input || static_cast<int64_t>(input->size()) != type.getNumElements()) {
    return std::nullopt;
  }
  if (isa<CastOp>(op) && type.getElementType().isInteger(1)) {
    for (Term &v : *input) {
      v = v.isKnown() ? Term::known(v.value != 0) : Term::unknown();
    }
  }
  return input;
}

std::optional<Partial> partialOf(Operation *op, RankedTensorType type,
                                 int depth) {
  if (auto shape = dyn_cast<ShapeOp>(op)) {
    return shapeValues(shape);
  }
  if (auto size = dyn_cast<SizeOp>(op)) {
    return sizeValue(size);
  }
  if (auto gather = dyn_cast<GatherOp>(op)) {
    return gatherValues(gather, depth);
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
  if (isa<UnsqueezeOp, SqueezeOp, ReshapeOp, IdentityOp, FlattenOp, CastOp>(
          op)) {
    return passThrough(op, type, depth);
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
    for (Term &v : *input) {
      v = v.isKnown() ? Term::known(!v.value) : Term::unknown();
    }
    return input;
  }
  Value a = op->getNumOperands() == 2 ? op->getOperand(0) : Value();
  Value b = op->getNumOperands() == 2 ? op->getOperand(1) : Value();
  if (isa<AddOp>(op)) {
    return binary(a, b, depth, [](const Term &u, const Term &v) {
      return addTerms(u, v, 1);
    });
  }
  if (isa<SubOp>(op)) {
    return binary(a, b, depth, [](const Term &u, const Term &v) {
      return addTerms(u, v, -1);
    });
  }
  if (isa<MulOp>(op)) {
    return binary(a, b, depth, mulTerms);
  }
  if (isa<DivOp>(op)) {
    return binary(a, b, depth, divTerms);
  }
  if (isa<MaxOp, MinOp>(op) && a) {
    bool isMax = isa<MaxOp>(op);
    return binary(a, b, depth, [isMax](const Term &u, const Term &v) {
      return maxMinTerms(u, v, isMax);
    });
  }
  return std::nullopt;
}

std::optional<Partial> partial(Value value, int depth) {
  auto type = getRanked(value);
  if (depth > kMaxDepth || !type || type.getRank() > 1 ||
      !type.hasStaticShape() || type.getNumElements() > kMaxElements ||
      !type.getElementType().isInteger()) {
    return std::nullopt;
  }
  std::optional<Partial> result;
  if (auto ints = getConstantInts(value)) {
    bool isBool = type.getElementType().isInteger(1);
    result.emplace();
    for (int64_t v : *ints) {
      // Read sign-extended, true is -1.
      result->push_back(Term::known(isBool ? v != 0 : v));
    }
  } else if (Operation *op = value.getDefiningOp()) {
    result = partialOf(op, type, depth);
  }
  if (result && static_cast<int64_t>(result->size()) != type.getNumElements()) {
    return std::nullopt;
  }
  return result;
}

/// The term of entry `entry` of `shape`, if the shape value is known.
std::optional<Term> entryTerm(Value shape, int64_t entry) {
  auto terms = partial(shape, 0);
  if (!terms || entry < 0 || entry >= static_cast<int64_t>(terms->size())) {
    return std::nullopt;
  }
  return (*terms)[entry];
}

} // namespace

std::optional<SmallVector<int64_t>> getPartialInts(Value value) {
  auto terms = partial(value, 0);
  if (!terms) {
    return std::nullopt;
  }
  SmallVector<int64_t> result;
  for (const Term &t : *terms) {
    result.push_back(t.isKnown() ? t.value : kDynamic);
  }
  return result;
}

std::optional<DimRoot> shapeEntryRoot(Value shape, int64_t entry) {
  auto term = entryTerm(shape, entry);
  if (!term || term->kind != Term::Product || term->value != 1 ||
      term->roots.size() != 1) {
    return std::nullopt;
  }
  return term->roots.front();
}

bool shapeEntryIsDim(Value shape, int64_t entry, Value tensor, int64_t dim) {
  auto type = getRanked(tensor);
  auto term = entryTerm(shape, entry);
  if (!type || !term || dim < 0 || dim >= type.getRank()) {
    return false;
  }
  return term->sameAs(dimTerm(tensor, type, dim));
}

std::optional<int64_t> reshapeWildcardSize(Value data, Value shape,
                                           int64_t wildcard, bool allowzero) {
  auto type = getRanked(data);
  auto terms = partial(shape, 0);
  if (!type || !terms || wildcard < 0 ||
      wildcard >= static_cast<int64_t>(terms->size())) {
    return std::nullopt;
  }
  // The input's element count as a product, and the other entries' one.
  Term in = Term::known(1), out = Term::known(1);
  for (int64_t d = 0; d < type.getRank(); ++d) {
    in = mulTerms(in, dimTerm(data, type, d));
  }
  for (auto [i, t] : llvm::enumerate(*terms)) {
    if (static_cast<int64_t>(i) == wildcard) {
      continue;
    }
    Term entry = t;
    if (t.isKnown() && t.value == 0 && !allowzero) {
      if (static_cast<int64_t>(i) >= type.getRank()) {
        return std::nullopt;
      }
      entry = dimTerm(data, type, i);
    }
    if (!(entry.kind == Term::Known || entry.kind == Term::Product) ||
        entry.value <= 0) {
      return std::nullopt;
    }
    out = mulTerms(out, entry);
  }
  if (!(in.kind == Term::Known || in.kind == Term::Product) ||
      !(out.kind == Term::Known || out.kind == Term::Product) ||
      in.roots != out.roots || out.value <= 0 || in.value % out.value != 0) {
    return std::nullopt;
  }
  return in.value / out.value;
}

} // namespace infer::graph
