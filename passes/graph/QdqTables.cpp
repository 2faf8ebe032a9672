//===- QdqTables.cpp - quantized elementwise chains as 256-entry tables ---===//
//
// QDQ models write an activation such as HardSwish as a chain of float
// ops, each between a DequantizeLinear and a QuantizeLinear: DQ -> Add ->
// Q -> DQ -> Clip -> Q -> DQ -> Div -> ... -> Q. Each step divides by a
// scale, rounds, clamps and converts, in f32, for every element. When the
// whole chain reads one 8-bit tensor (through DequantizeLinear) and ends
// in a QuantizeLinear, its result is a function of that tensor's element
// alone: 256 possible inputs. The chain becomes a Gather from a table of
// its 256 results, computed here with the lowering's operations in the
// same order (IEEE f32, round half to even), so the results are
// bit-identical to running the chain.
//
//===----------------------------------------------------------------------===//

#include "passes/graph/QdqTables.h"

#include "dialects/graph/IR/Folding.h"
#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace infer::graph;

namespace {

using llvm::APFloat;

constexpr size_t kMaxChainOps = 64;

APFloat f32(double v) {
  APFloat x(v);
  bool lost;
  x.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &lost);
  return x;
}

/// A scalar f32 constant's value.
std::optional<APFloat> scalarF32(Value v) {
  std::optional<SmallVector<float>> values = constantFloats(v);
  if (!values || values->size() != 1) {
    return std::nullopt;
  }
  return APFloat(values->front());
}

/// A per-tensor quantization's scale and zero point (0 when absent).
struct Params {
  APFloat scale = APFloat(0.0f);
  int64_t zeroPoint = 0;
};

std::optional<Params> paramsOf(Value scale, Value zeroPoint) {
  std::optional<APFloat> s = scalarF32(scale);
  if (!s) {
    return std::nullopt;
  }
  Params p{*s, 0};
  if (!isNone(zeroPoint)) {
    auto type = cast<RankedTensorType>(zeroPoint.getType());
    auto zp =
        constantInts(zeroPoint, type.getElementType().isUnsignedInteger());
    if (!zp || zp->size() != 1) {
      return std::nullopt;
    }
    p.zeroPoint = zp->front();
  }
  return p;
}

bool isEightBit(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && type.getElementType().isInteger(8);
}

/// The chain ending at a QuantizeLinear: its ops, and the one 8-bit
/// tensor it reads.
struct Chain {
  llvm::SetVector<Operation *> ops;
  Value source;

  /// Adds the ops computing f32 `v`; false when one is not a table op.
  bool collect(Value v) {
    Operation *op = v.getDefiningOp();
    if (!op) {
      return false;
    }
    if (ops.contains(op)) {
      return true;
    }
    if (ops.size() >= kMaxChainOps) {
      return false;
    }
    if (auto dq = dyn_cast<DequantizeLinearOp>(op)) {
      if (dq.getBlockSize() != 0 ||
          !paramsOf(dq.getXScale(), dq.getXZeroPoint())) {
        return false;
      }
      ops.insert(op);
      return collectInteger(dq.getX());
    }
    if (!isa<AddOp, SubOp, MulOp, DivOp, ClipOp, ReluOp, NegOp, HardSigmoidOp,
             HardSwishOp>(op)) {
      return false;
    }
    ops.insert(op);
    for (Value operand : op->getOperands()) {
      if (isNone(operand) || scalarF32(operand)) {
        continue;
      }
      if (!collect(operand)) {
        return false;
      }
    }
    return true;
  }

  /// Adds what computes the 8-bit `v`: a QuantizeLinear inside the chain,
  /// or the source.
  bool collectInteger(Value v) {
    if (auto q = v.getDefiningOp<QuantizeLinearOp>();
        q && q.getBlockSize() == 0 && isEightBit(q.getY()) &&
        paramsOf(q.getYScale(), q.getYZeroPoint())) {
      if (ops.contains(q)) {
        return true;
      }
      ops.insert(q);
      return collect(q.getX());
    }
    if (!isEightBit(v) || (source && source != v)) {
      return false;
    }
    source = v;
    return true;
  }
};

/// Evaluates the chain for one source value, with the lowering's f32
/// operations in its order.
struct Evaluator {
  int64_t input;
  DenseMap<Value, APFloat> floats;
  DenseMap<Value, int64_t> integers;
  const Value &source;

  std::optional<int64_t> integer(Value v) {
    if (v == source) {
      return input;
    }
    if (auto it = integers.find(v); it != integers.end()) {
      return it->second;
    }
    auto q = v.getDefiningOp<QuantizeLinearOp>();
    std::optional<APFloat> x = value(q.getX());
    std::optional<Params> p = paramsOf(q.getYScale(), q.getYZeroPoint());
    if (!x || !p) {
      return std::nullopt;
    }
    auto type = cast<IntegerType>(
        cast<RankedTensorType>(q.getY().getType()).getElementType());
    bool isUnsigned = type.isUnsigned();
    APFloat r = *x;
    r.divide(p->scale, APFloat::rmNearestTiesToEven);
    r.roundToIntegral(APFloat::rmNearestTiesToEven);
    r.add(f32(double(p->zeroPoint)), APFloat::rmNearestTiesToEven);
    if (r.isNaN()) {
      return std::nullopt; // (a division by zero inside: no table)
    }
    r = llvm::maximum(r, f32(isUnsigned ? 0 : -128));
    r = llvm::minimum(r, f32(isUnsigned ? 255 : 127));
    int64_t result = int64_t(r.convertToFloat());
    integers[v] = result;
    return result;
  }

  std::optional<APFloat> value(Value v) {
    if (auto it = floats.find(v); it != floats.end()) {
      return it->second;
    }
    if (std::optional<APFloat> c = scalarF32(v)) {
      return c;
    }
    Operation *op = v.getDefiningOp();
    std::optional<APFloat> result;
    auto operand = [&](unsigned i) { return value(op->getOperand(i)); };
    auto binary = [&](auto fn) -> std::optional<APFloat> {
      std::optional<APFloat> a = operand(0), b = operand(1);
      if (!a || !b) {
        return std::nullopt;
      }
      fn(*a, *b);
      return a;
    };
    constexpr auto even = APFloat::rmNearestTiesToEven;
    if (auto dq = dyn_cast<DequantizeLinearOp>(op)) {
      std::optional<int64_t> x = integer(dq.getX());
      std::optional<Params> p = paramsOf(dq.getXScale(), dq.getXZeroPoint());
      if (x && p) {
        APFloat r = f32(double(*x));
        r.subtract(f32(double(p->zeroPoint)), even);
        r.multiply(p->scale, even);
        result = r;
      }
    } else if (isa<AddOp>(op)) {
      result = binary([&](APFloat &a, const APFloat &b) { a.add(b, even); });
    } else if (isa<SubOp>(op)) {
      result =
          binary([&](APFloat &a, const APFloat &b) { a.subtract(b, even); });
    } else if (isa<MulOp>(op)) {
      result =
          binary([&](APFloat &a, const APFloat &b) { a.multiply(b, even); });
    } else if (isa<DivOp>(op)) {
      result = binary([&](APFloat &a, const APFloat &b) { a.divide(b, even); });
    } else if (auto clip = dyn_cast<ClipOp>(op)) {
      result = operand(0);
      if (result && !isNone(clip.getMin())) {
        std::optional<APFloat> lo = scalarF32(clip.getMin());
        result = lo ? std::optional(llvm::maximum(*result, *lo)) : std::nullopt;
      }
      if (result && !isNone(clip.getMax())) {
        std::optional<APFloat> hi = scalarF32(clip.getMax());
        result = hi ? std::optional(llvm::minimum(*result, *hi)) : std::nullopt;
      }
    } else if (isa<ReluOp>(op)) {
      if ((result = operand(0))) {
        result = llvm::maximum(*result, f32(0));
      }
    } else if (isa<NegOp>(op)) {
      if ((result = operand(0))) {
        result->changeSign();
      }
    } else if (auto hs = dyn_cast<HardSigmoidOp>(op)) {
      if (std::optional<APFloat> x = operand(0)) {
        result = hardSigmoid(*x, hs.getAlpha().convertToDouble(),
                             hs.getBeta().convertToDouble());
      }
    } else if (isa<HardSwishOp>(op)) {
      if (std::optional<APFloat> x = operand(0)) {
        APFloat r = *x;
        r.multiply(hardSigmoid(*x, 1.0 / 6, 0.5), even);
        result = r;
      }
    }
    if (result) {
      floats.try_emplace(v, *result);
    }
    return result;
  }

  /// scalar::hardSigmoid: min(max(x * alpha + beta, 0), 1), alpha and
  /// beta rounded to f32.
  static APFloat hardSigmoid(APFloat x, double alpha, double beta) {
    x.multiply(f32(alpha), APFloat::rmNearestTiesToEven);
    x.add(f32(beta), APFloat::rmNearestTiesToEven);
    return llvm::minimum(llvm::maximum(x, f32(0)), f32(1));
  }
};

struct QdqChainToTable final : OpRewritePattern<QuantizeLinearOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(QuantizeLinearOp q,
                                PatternRewriter &rewriter) const override {
    auto yType = dyn_cast<RankedTensorType>(q.getY().getType());
    if (!yType || !yType.hasStaticShape() || !isEightBit(q.getY()) ||
        q.getBlockSize() != 0) {
      return failure();
    }
    Chain chain;
    if (!chain.collectInteger(q.getY()) || !chain.source ||
        chain.ops.size() < 3) {
      return failure();
    }
    // Every value inside the chain is used only inside it, and shaped as
    // the source (elementwise, scalars broadcast).
    auto sourceType = cast<RankedTensorType>(chain.source.getType());
    for (Operation *op : chain.ops) {
      for (Value result : op->getResults()) {
        auto type = dyn_cast<RankedTensorType>(result.getType());
        if (!type || type.getShape() != sourceType.getShape()) {
          return failure();
        }
        for (Operation *user : result.getUsers()) {
          if (op != q && !chain.ops.contains(user)) {
            return failure();
          }
        }
      }
    }
    bool sourceUnsigned = sourceType.getElementType().isUnsignedInteger();
    auto tableElement = cast<IntegerType>(yType.getElementType());
    SmallVector<APInt> table;
    for (int64_t i = 0; i < 256; ++i) {
      // Entry i is the source value whose bits are i (Gather takes a
      // signed index from the end).
      Evaluator eval{
          sourceUnsigned ? i : int64_t(int8_t(i)), {}, {}, chain.source};
      std::optional<int64_t> y = eval.integer(q.getY());
      if (!y) {
        return failure();
      }
      table.push_back(APInt(8, uint64_t(*y)));
    }
    Location loc = q.getLoc();
    auto tableType = RankedTensorType::get({256}, tableElement);
    Value data = ConstantOp::create(rewriter, loc,
                                    DenseElementsAttr::get(tableType, table));
    // The index: the source's value as i32 (a signed one counts from the
    // table's end, where its bits put it); always in range, so the Gather
    // needs no run-time check.
    auto indexType = sourceType.clone(rewriter.getI32Type());
    OperationState cast(loc, CastOp::getOperationName());
    cast.addOperands(chain.source);
    cast.addTypes(indexType);
    cast.addAttribute("to", TypeAttr::get(rewriter.getI32Type()));
    Value index = rewriter.create(cast)->getResult(0);
    OperationState gather(loc, GatherOp::getOperationName());
    gather.addOperands({data, index});
    gather.addTypes(yType);
    gather.addAttribute("axis", rewriter.getI64IntegerAttr(0));
    rewriter.replaceOp(q, rewriter.create(gather)->getResults());
    return success();
  }
};

} // namespace

namespace infer::graph {

void populateQdqTablePatterns(RewritePatternSet &patterns) {
  patterns.add<QdqChainToTable>(patterns.getContext());
}

} // namespace infer::graph
