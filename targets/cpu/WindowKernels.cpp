//===- WindowKernels.cpp - pooling windows as vector loops ----------------===//
//
// A pooling op reaches the buffers as one generic over (n, c, kh, kw, oh,
// ow) whose body combines each tap into the output element (max, sum).
// Left to the loop lowering and LLVM, each output element took its taps
// in a scalar or 8-lane loop that stored the element after every tap (the
// input and output are views of one workspace: LLVM cannot keep it in a
// register) with a scalar remainder per output row. Here it becomes
// vector code: per output row, vectors of lanes along ow, each
// accumulating every tap in registers (one load of the input per tap, or
// for a stride-2 window one wide load with its even elements taken) and
// stored once. Each element takes its taps in the generic's order, so the
// results are bit-identical.
//
//===----------------------------------------------------------------------===//

#include "targets/cpu/BufferViews.h"
#include "targets/cpu/ContractionMatch.h"
#include "targets/cpu/Epilogue.h"
#include "targets/cpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

namespace infer::cpu {
#define GEN_PASS_DEF_WINDOWKERNELSPASS
#include "targets/cpu/Passes.h.inc"

namespace {

/// A pooling generic the pass takes.
struct Window {
  linalg::GenericOp op;
  /// The input the body reads (the padded image).
  OpOperand *x = nullptr;
  SmallVector<int64_t> ranges;
  /// Loop dims: the output's, in its order (the last one, ow, in vector
  /// lanes), and the window's taps.
  SmallVector<unsigned> parallel, taps;
  /// Elements per unit of each loop dim in x and in the output.
  SmallVector<int64_t> xCoefficients, yCoefficients;
  int64_t stride = 1;
};

/// Whether `body`'s ops can run on vectors lane by lane: arith and math
/// ops on scalars, none that traps (integer division).
bool elementwiseBody(Block &body) {
  for (Operation &inner : body.without_terminator()) {
    Dialect *dialect = inner.getDialect();
    if (!dialect || inner.getNumRegions() != 0 ||
        !isa<arith::ArithDialect, math::MathDialect>(dialect) ||
        isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
            arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp>(
            inner)) {
      return false;
    }
    for (Type type : llvm::concat<const Type>(inner.getOperandTypes(),
                                              inner.getResultTypes())) {
      if (!type.isIntOrFloat()) {
        return false;
      }
    }
  }
  return true;
}

std::optional<Window> matchWindow(linalg::GenericOp op, int64_t maxWindow) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() == 0 || !elementwiseBody(*op.getBlock())) {
    return std::nullopt;
  }
  Window w;
  w.op = op;
  w.ranges = op.getStaticLoopRanges();
  int64_t window = 1;
  for (auto [d, type] : llvm::enumerate(op.getIteratorTypesArray())) {
    if (ShapedType::isDynamic(w.ranges[d])) {
      return std::nullopt;
    }
    if (linalg::isReductionIterator(type)) {
      window *= w.ranges[d];
      w.taps.push_back(d);
    } else {
      w.parallel.push_back(d);
    }
  }
  if (window > maxWindow) {
    return std::nullopt;
  }
  // The output: every parallel dim, in loop order.
  OpOperand *out = op.getDpsInitOperand(0);
  ArrayRef<AffineExpr> results = op.getMatchingIndexingMap(out).getResults();
  if (results.size() != w.parallel.size()) {
    return std::nullopt;
  }
  for (auto [expr, d] : llvm::zip(results, w.parallel)) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim || dim.getPosition() != d) {
      return std::nullopt;
    }
  }
  // The body reads the output's element and one input's; other inputs
  // (a window-shape operand) are unused.
  Block *body = op.getBlock();
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (body->getArgument(input->getOperandNumber()).use_empty()) {
      continue;
    }
    if (w.x) {
      return std::nullopt;
    }
    w.x = input;
  }
  Type element = out->get().getType();
  element = cast<MemRefType>(element).getElementType();
  if (!w.x ||
      cast<MemRefType>(w.x->get().getType()).getElementType() != element ||
      !element.isIntOrFloat() || element.getIntOrFloatBitWidth() > 32 ||
      element.getIntOrFloatBitWidth() % 8 != 0) {
    // (Vectors of i1 are bit-packed; a buffer of i1 has a byte each.)
    return std::nullopt;
  }
  std::optional<SmallVector<int64_t>> xs = linearCoefficients(op, w.x);
  std::optional<SmallVector<int64_t>> ys = linearCoefficients(op, out);
  if (!xs || !ys) {
    return std::nullopt;
  }
  w.xCoefficients = std::move(*xs);
  w.yCoefficients = std::move(*ys);
  unsigned inner = w.parallel.back();
  w.stride = w.xCoefficients[inner];
  if (w.yCoefficients[inner] != 1 || (w.stride != 1 && w.stride != 2)) {
    return std::nullopt;
  }
  return w;
}

class WindowBuilder {
public:
  WindowBuilder(OpBuilder &b, Window w, unsigned vectorBits, bool parallel,
                Value init)
      : b(b), loc(w.op.getLoc()), w(w), parallel(parallel), init(init),
        ivs(w.ranges.size()) {
    element = cast<MemRefType>(w.x->get().getType()).getElementType();
    lanes = std::max<int64_t>(vectorBits / element.getIntOrFloatBitWidth(), 4);
    x = flatView(b, loc, w.x->get());
    y = flatView(b, loc, w.op.getDpsInitOperand(0)->get());
  }

  bool ready() const { return x && y; }

  void build() { outerLoops(0); }

private:
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }

  /// sum(coefficients[d] * ivs[d]) over the output dims but the last.
  Value offset(ArrayRef<int64_t> coefficients) {
    Value sum = index(0);
    for (unsigned d : ArrayRef(w.parallel).drop_back()) {
      if (coefficients[d] != 0) {
        sum = arith::AddIOp::create(
            b, loc, sum,
            arith::MulIOp::create(b, loc, ivs[d], index(coefficients[d])));
      }
    }
    return sum;
  }

  /// The loops over the output dims but the last: the first of 4 or more
  /// iterations with only unit dims outside it (the channels) in parallel.
  void outerLoops(size_t level) {
    if (level + 1 == w.parallel.size()) {
      return row();
    }
    unsigned d = w.parallel[level];
    bool unitsOutside =
        llvm::all_of(ArrayRef(w.parallel).take_front(level),
                     [&](unsigned outer) { return w.ranges[outer] == 1; });
    if (parallel && !inParallel && unitsOutside && w.ranges[d] >= 4) {
      scf::ParallelOp::create(
          b, loc, ValueRange{index(0)}, ValueRange{index(w.ranges[d])},
          ValueRange{index(1)}, [&](OpBuilder &nb, Location, ValueRange iv) {
            OpBuilder::InsertionGuard guard(b);
            b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
            ivs[d] = iv.front();
            inParallel = true;
            outerLoops(level + 1);
            inParallel = false;
          });
      return;
    }
    scf::ForOp::create(
        b, loc, index(0), index(w.ranges[d]), index(1), ValueRange{},
        [&](OpBuilder &nb, Location, Value iv, ValueRange) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
          ivs[d] = iv;
          outerLoops(level + 1);
          scf::YieldOp::create(b, loc);
        });
  }

  /// One output row: full vectors, then the remaining lanes masked.
  void row() {
    int64_t width = w.ranges[w.parallel.back()];
    int64_t full = width / lanes * lanes;
    Value xRow = offset(w.xCoefficients), yRow = offset(w.yCoefficients);
    if (full > 0) {
      scf::ForOp::create(
          b, loc, index(0), index(full), index(lanes), ValueRange{},
          [&](OpBuilder &nb, Location, Value ow, ValueRange) {
            OpBuilder::InsertionGuard guard(b);
            b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
            vectorAt(xRow, yRow, ow, lanes);
            scf::YieldOp::create(b, loc);
          });
    }
    if (width > full) {
      vectorAt(xRow, yRow, index(full), width - full);
    }
  }

  /// The output elements ow..ow+valid of the row at xRow / yRow.
  void vectorAt(Value xRow, Value yRow, Value ow, int64_t valid) {
    auto type = VectorType::get({lanes}, element);
    Value zero = arith::ConstantOp::create(
        b, loc, type, cast<DenseElementsAttr>(b.getZeroAttr(type)));
    Value mask;
    if (valid < lanes) {
      mask = vector::ConstantMaskOp::create(
          b, loc, VectorType::get({lanes}, b.getI1Type()),
          ArrayRef<int64_t>{valid});
    }
    Value yAt = arith::AddIOp::create(b, loc, yRow, ow);
    Value acc;
    if (init) {
      acc = vector::BroadcastOp::create(b, loc, type, init);
    } else if (mask) {
      acc = vector::MaskedLoadOp::create(b, loc, type, y, ValueRange(yAt), mask,
                                         zero);
    } else {
      acc = vector::LoadOp::create(b, loc, type, y, ValueRange(yAt));
    }
    Value xAt = arith::AddIOp::create(
        b, loc, xRow, arith::MulIOp::create(b, loc, ow, index(w.stride)));
    // Each tap, in the generic's order (the last window dim fastest).
    int64_t count = 1;
    for (unsigned d : w.taps) {
      count *= w.ranges[d];
    }
    // A max or min may take the taps in any order and any grouping, and
    // the same element twice: then kMaxChains chains, each from the
    // output's element, joined at the end (one chain waited on each
    // tap's compare and blend: a 5x5 max pool ran at a tenth of its
    // vector throughput).
    SmallVector<Value> chains(selective() ? std::min(count, kMaxChains) : 1,
                              acc);
    for (int64_t t = 0; t < count; ++t) {
      int64_t rest = t, tapOffset = 0;
      for (size_t i = w.taps.size(); i-- > 0;) {
        unsigned d = w.taps[i];
        tapOffset += w.xCoefficients[d] * (rest % w.ranges[d]);
        rest /= w.ranges[d];
      }
      Value at = arith::AddIOp::create(b, loc, xAt, index(tapOffset));
      Value &chain = chains[t % chains.size()];
      chain = combine(chain, load(at, valid, mask, zero));
    }
    while (chains.size() > 1) {
      SmallVector<Value> joined;
      for (size_t i = 0; i + 1 < chains.size(); i += 2) {
        joined.push_back(combine(chains[i], chains[i + 1]));
      }
      if (chains.size() % 2) {
        joined.push_back(chains.back());
      }
      chains = joined;
    }
    acc = chains.front();
    if (mask) {
      vector::MaskedStoreOp::create(b, loc, y, ValueRange(yAt), mask, acc);
    } else {
      vector::StoreOp::create(b, loc, acc, y, ValueRange(yAt));
    }
  }

  /// The input elements at `at`, at + stride, ... for `valid` lanes (none
  /// read past the last of them: the input may end there).
  Value load(Value at, int64_t valid, Value mask, Value zero) {
    auto type = VectorType::get({lanes}, element);
    if (w.stride == 1) {
      return mask ? vector::MaskedLoadOp::create(b, loc, type, x,
                                                 ValueRange(at), mask, zero)
                        .getResult()
                  : vector::LoadOp::create(b, loc, type, x, ValueRange(at))
                        .getResult();
    }
    auto wide = VectorType::get({2 * lanes}, element);
    Value wideZero = arith::ConstantOp::create(
        b, loc, wide, cast<DenseElementsAttr>(b.getZeroAttr(wide)));
    Value wideMask = vector::ConstantMaskOp::create(
        b, loc, VectorType::get({2 * lanes}, b.getI1Type()),
        ArrayRef<int64_t>{2 * valid - 1});
    Value pairs = vector::MaskedLoadOp::create(b, loc, wide, x, ValueRange(at),
                                               wideMask, wideZero);
    SmallVector<int64_t> even;
    for (int64_t l = 0; l < lanes; ++l) {
      even.push_back(2 * l);
    }
    return vector::ShuffleOp::create(b, loc, pairs, pairs, even);
  }

  /// Whether the body is one max or min of the output's element and the
  /// input's: associative, commutative and idempotent.
  bool selective() {
    Block *body = w.op.getBlock();
    if (body->getOperations().size() != 2) {
      return false;
    }
    Operation &op = body->front();
    if (!isa<arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
             arith::MinNumFOp, arith::MaxSIOp, arith::MinSIOp, arith::MaxUIOp,
             arith::MinUIOp>(op) ||
        body->getTerminator()->getOperand(0) != op.getResult(0)) {
      return false;
    }
    Value in = body->getArgument(w.x->getOperandNumber());
    Value out = body->getArguments().back();
    return (op.getOperand(0) == in && op.getOperand(1) == out) ||
           (op.getOperand(0) == out && op.getOperand(1) == in);
  }

  /// The generic's body on vectors: the output's element `acc`, the
  /// input's `value`; values from outside the body broadcast.
  Value combine(Value acc, Value value) {
    Block *body = w.op.getBlock();
    IRMapping mapping;
    mapping.map(body->getArgument(w.x->getOperandNumber()), value);
    mapping.map(body->getArguments().back(), acc);
    return vectorizeBody(b, loc, *body, mapping, lanes);
  }

  static constexpr int64_t kMaxChains = 4;
  OpBuilder &b;
  Location loc;
  Window w;
  bool parallel, inParallel = false;
  /// The value a fill just before gave the output, or null.
  Value init;
  Type element;
  int64_t lanes;
  Value x, y;
  SmallVector<Value> ivs;
};

struct WindowKernelsPass final
    : impl::WindowKernelsPassBase<WindowKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (vectorBits != 128 && vectorBits != 256 && vectorBits != 512) {
      getOperation().emitError("vector-bits must be 128, 256 or 512");
      return signalPassFailure();
    }
    SmallVector<Window, 4> found;
    getOperation().walk([&](linalg::GenericOp op) {
      if (std::optional<Window> w = matchWindow(op, maxWindow)) {
        found.push_back(*w);
      }
    });
    for (Window &w : found) {
      OpBuilder b(w.op);
      linalg::FillOp fill = initializingFill(w.op);
      WindowBuilder builder(b, w, vectorBits, parallel,
                            fill ? fill.value() : Value());
      if (!builder.ready()) {
        continue;
      }
      builder.build();
      w.op->erase();
      if (fill) {
        fill->erase();
      }
    }
  }
};

} // namespace
} // namespace infer::cpu
