//===- DimRoots.cpp - trace a dynamic dim to the dim it copies ------------===//
//
// dimRoot (SymbolicShapes.h) follows a dim backwards, one op at a time,
// while the op's result dim is provably a copy of one operand dim. It stops
// at function and block arguments and at any op it does not know, so a
// root is never wrong, only sometimes not the earliest.
//
//===----------------------------------------------------------------------===//

#include "dialects/graph/IR/Folding.h"
#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/IR/SymbolicShapes.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"

#include "llvm/ADT/ScopeExit.h"

using namespace mlir;

namespace infer::graph {

namespace {

/// Steps before giving up: a chain longer than this ends at a non-root,
/// which is still a correct (if less useful) answer.
constexpr int kMaxSteps = 4096;
constexpr int kMaxNesting = 8;

int64_t rankOf(Value value) {
  auto type = getRanked(value);
  return type ? type.getRank() : -1;
}

bool isStaticOne(Value value, int64_t dim) {
  auto type = getRanked(value);
  return type && dim >= 0 && dim < type.getRank() && type.getDimSize(dim) == 1;
}

/// Result dim `d` (of rank `rank`) of a numpy broadcast of `operands`
/// (aligned to the right): the one operand dim that is not a static 1, or,
/// when several are, their common root; nullopt when they may differ.
std::optional<DimRoot> broadcastStep(ValueRange operands, int64_t rank,
                                     int64_t d) {
  std::optional<DimRoot> found;
  for (Value operand : operands) {
    int64_t r = rankOf(operand);
    if (r < 0) {
      return std::nullopt;
    }
    int64_t j = d - (rank - r);
    if (j < 0 || isStaticOne(operand, j)) {
      continue;
    }
    if (!found) {
      found = DimRoot{operand, j};
    } else if (!(dimRoot(found->value, found->dim) == dimRoot(operand, j))) {
      return std::nullopt;
    }
  }
  return found;
}

/// Constant axes of an op, normalized against `rank`.
std::optional<SmallVector<int64_t>> constantAxes(Value axes, int64_t rank) {
  auto values = getConstantInts(axes);
  if (!values) {
    return std::nullopt;
  }
  SmallVector<int64_t> result;
  for (int64_t a : *values) {
    auto normalized = normalizeAxis(a, rank);
    if (!normalized) {
      return std::nullopt;
    }
    result.push_back(*normalized);
  }
  return result;
}

/// The work one outermost query may do. A query nests others (a broadcast
/// compares its operands' roots, a Reshape reads its shape value, which
/// reads Shape ops' roots); a hostile model could make that deep or
/// exponential, so all of them share one budget and the nesting is bounded.
/// Running out only stops a trace early.
struct Budget {
  int nesting = 0;
  int steps = 0;
};
thread_local Budget budget;

/// The operand dim that result dim `d` of `value`'s defining op copies.
std::optional<DimRoot> step(Value value, int64_t d) {
  Operation *op = value.getDefiningOp();
  int64_t rank = rankOf(value);
  if (!op || rank < 0 || d < 0 || d >= rank) {
    return std::nullopt;
  }
  // Ops whose first result has the first operand's shape.
  if (op->hasTrait<SameShapeInference>() ||
      (isa<BatchNormalizationOp, InstanceNormalizationOp, LayerNormalizationOp,
           GroupNormalizationOp, RMSNormalizationOp, LRNOp,
           MeanVarianceNormalizationOp, LpNormalizationOp, DropoutOp, SoftmaxOp,
           LogSoftmaxOp, HardmaxOp, IdentityOp>(op) &&
       value == op->getResult(0))) {
    return DimRoot{op->getOperand(0), d};
  }
  if (op->hasTrait<BroadcastShapeInference>()) {
    return broadcastStep(op->getOperands(), rank, d);
  }
  // The batch of convolutions and pooling.
  if (isa<ConvOp, ConvTransposeOp, AveragePoolOp, MaxPoolOp, LpPoolOp,
          GlobalAveragePoolOp, GlobalMaxPoolOp, GlobalLpPoolOp>(op) &&
      d == 0 && value == op->getResult(0)) {
    return DimRoot{op->getOperand(0), 0};
  }
  if (auto transpose = dyn_cast<TransposeOp>(op)) {
    if (auto perm = transpose.getPerm()) {
      if (static_cast<int64_t>(perm->size()) == rank) {
        return DimRoot{transpose.getData(), (*perm)[d]};
      }
      return std::nullopt;
    }
    return DimRoot{transpose.getData(), rank - 1 - d};
  }
  if (auto unsqueeze = dyn_cast<UnsqueezeOp>(op)) {
    auto axes = constantAxes(unsqueeze.getAxes(), rank);
    if (!axes || llvm::is_contained(*axes, d)) {
      return std::nullopt;
    }
    int64_t before = llvm::count_if(*axes, [&](int64_t a) { return a < d; });
    return DimRoot{unsqueeze.getData(), d - before};
  }
  if (auto squeeze = dyn_cast<SqueezeOp>(op)) {
    int64_t inRank = rankOf(squeeze.getData());
    if (isNone(squeeze.getAxes()) || inRank < 0) {
      return std::nullopt;
    }
    auto axes = constantAxes(squeeze.getAxes(), inRank);
    if (!axes) {
      return std::nullopt;
    }
    // Walk the input dims, skipping the squeezed ones, to the d-th kept.
    for (int64_t i = 0, kept = 0; i < inRank; ++i) {
      if (llvm::is_contained(*axes, i)) {
        continue;
      }
      if (kept++ == d) {
        return DimRoot{squeeze.getData(), i};
      }
    }
    return std::nullopt;
  }
  if (auto concat = dyn_cast<ConcatOp>(op)) {
    auto axis = normalizeAxis(concat.getAxis(), rank);
    if (!axis || *axis == d || concat.getInputs().empty()) {
      return std::nullopt;
    }
    return DimRoot{concat.getInputs().front(), d};
  }
  if (auto split = dyn_cast<SplitOp>(op)) {
    auto axis = normalizeAxis(split.getAxis(), rank);
    if (!axis || *axis == d) {
      return std::nullopt;
    }
    return DimRoot{split.getInput(), d};
  }
  if (auto slice = dyn_cast<SliceOp>(op)) {
    SmallVector<int64_t> axes;
    if (isNone(slice.getAxes())) {
      auto starts = getRanked(slice.getStarts());
      if (!starts || starts.getRank() != 1 || starts.isDynamicDim(0)) {
        return std::nullopt;
      }
      axes = llvm::to_vector(llvm::seq<int64_t>(0, starts.getDimSize(0)));
    } else if (auto constant = constantAxes(slice.getAxes(), rank)) {
      axes = *constant;
    } else {
      return std::nullopt;
    }
    if (llvm::is_contained(axes, d)) {
      return std::nullopt;
    }
    return DimRoot{slice.getData(), d};
  }
  if (auto gather = dyn_cast<GatherOp>(op)) {
    int64_t dataRank = rankOf(gather.getData());
    int64_t indexRank = rankOf(gather.getIndices());
    auto axis = normalizeAxis(gather.getAxis(), std::max<int64_t>(dataRank, 1));
    if (dataRank < 0 || indexRank < 0 || !axis) {
      return std::nullopt;
    }
    if (d < *axis) {
      return DimRoot{gather.getData(), d};
    }
    if (d < *axis + indexRank) {
      return DimRoot{gather.getIndices(), d - *axis};
    }
    return DimRoot{gather.getData(), d - indexRank + 1};
  }
  if (auto matmul = dyn_cast<MatMulOp>(op)) {
    int64_t ra = rankOf(matmul.getA()), rb = rankOf(matmul.getB());
    if (ra < 2 || rb < 2) {
      return std::nullopt; // vector operands: leave them alone
    }
    if (d == rank - 1) {
      return DimRoot{matmul.getB(), rb - 1};
    }
    if (d == rank - 2) {
      return DimRoot{matmul.getA(), ra - 2};
    }
    // Batch dims broadcast like an elementwise op over the leading dims.
    std::optional<DimRoot> found;
    for (auto [operand, r] :
         {std::pair{matmul.getA(), ra}, {matmul.getB(), rb}}) {
      int64_t j = d - (rank - 2 - (r - 2));
      if (j < 0 || isStaticOne(operand, j)) {
        continue;
      }
      if (!found) {
        found = DimRoot{operand, j};
      } else if (!(dimRoot(found->value, found->dim) == dimRoot(operand, j))) {
        return std::nullopt;
      }
    }
    return found;
  }
  if (auto gemm = dyn_cast<GemmOp>(op)) {
    if (d == 0) {
      return DimRoot{gemm.getA(), gemm.getTransA() ? 1 : 0};
    }
    return DimRoot{gemm.getB(), gemm.getTransB() ? 0 : 1};
  }
  if (auto reshape = dyn_cast<ReshapeOp>(op)) {
    // An entry that is one whole dim (a Shape entry passed through), or a 0
    // that copies the data's dim.
    auto ints = getConstantInts(reshape.getShape());
    if (ints && d < static_cast<int64_t>(ints->size()) && (*ints)[d] == 0 &&
        !reshape.getAllowzero()) {
      return DimRoot{reshape.getData(), d};
    }
    return shapeEntryRoot(reshape.getShape(), d);
  }
  if (auto expand = dyn_cast<ExpandOp>(op)) {
    // Numpy broadcast of the input's dim and the target's entry: a side
    // that is 1 (or absent) gives way to the other.
    auto target = getRanked(expand.getShape());
    int64_t inRank = rankOf(expand.getInput());
    if (!target || target.getRank() != 1 || target.isDynamicDim(0) ||
        inRank < 0) {
      return std::nullopt;
    }
    int64_t j = d - (rank - inRank), k = d - (rank - target.getDimSize(0));
    auto ints = getPartialInts(expand.getShape());
    bool entryIsOne = k < 0 || (ints && (*ints)[k] == 1);
    if (entryIsOne && j >= 0) {
      return DimRoot{expand.getInput(), j};
    }
    if ((j < 0 || isStaticOne(expand.getInput(), j)) && k >= 0) {
      return shapeEntryRoot(expand.getShape(), k);
    }
    return std::nullopt;
  }
  return std::nullopt;
}

} // namespace

DimRoot dimRoot(Value value, int64_t dim) {
  DimRoot current{value, dim};
  if (budget.nesting == 0) {
    budget.steps = kMaxSteps;
  }
  if (budget.nesting >= kMaxNesting) {
    return current;
  }
  ++budget.nesting;
  auto done = llvm::make_scope_exit([] { --budget.nesting; });
  while (budget.steps-- > 0) {
    auto type = getRanked(current.value);
    if (type && current.dim >= 0 && current.dim < type.getRank() &&
        !type.isDynamicDim(current.dim)) {
      return current; // a static dim: its size says everything
    }
    std::optional<DimRoot> next = step(current.value, current.dim);
    if (!next) {
      return current;
    }
    current = *next;
  }
  return current;
}

} // namespace infer::graph
