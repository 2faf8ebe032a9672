//===- ContractionMatch.cpp - contractions the CPU kernels take -----------===//

#include "targets/cpu/ContractionMatch.h"
#include "targets/cpu/BufferViews.h"

#include "passes/lowering/ByteDot.h"
#include "passes/lowering/PairDot.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

namespace infer::cpu {
namespace {

std::optional<SmallVector<int64_t>> strides(Value value) {
  auto type = dyn_cast<MemRefType>(value.getType());
  SmallVector<int64_t> result;
  int64_t offset;
  if (!type || failed(type.getStridesAndOffset(result, offset))) {
    return std::nullopt;
  }
  return result;
}

/// Whether dims `from..to` of `value` are laid out contiguously (each
/// one's stride the size of the next times its stride), the last one
/// unit-stride when `to` is the last dim.
bool contiguous(Value value, size_t from, size_t to) {
  std::optional<SmallVector<int64_t>> s = strides(value);
  if (!s || s->empty() || to > s->size()) {
    return false;
  }
  ArrayRef<int64_t> shape = cast<MemRefType>(value.getType()).getShape();
  int64_t expected = to == s->size() ? 1 : (*s)[to - 1];
  for (size_t d = to; d-- > from;) {
    if ((*s)[d] != expected || ShapedType::isDynamic(shape[d])) {
      return false;
    }
    expected *= shape[d];
  }
  return true;
}

/// Whether the innermost dim of `value` is unit-stride (any size).
bool unitStrideInnermost(Value value) {
  std::optional<SmallVector<int64_t>> s = strides(value);
  return s && !s->empty() && s->back() == 1;
}

bool contiguousFrom(Value value, size_t from) {
  auto type = cast<MemRefType>(value.getType());
  return contiguous(value, from, type.getRank());
}

/// Whether `group` are the results of `dims` just before its last `skip`
/// ones, in order, and `value` is contiguous over them.
bool groupBefore(ArrayRef<int> dims, size_t skip, ArrayRef<unsigned> group,
                 Value value) {
  if (dims.size() < skip + group.size()) {
    return false;
  }
  size_t from = dims.size() - skip - group.size();
  for (auto [i, d] : llvm::enumerate(group)) {
    if (dims[from + i] != int(d)) {
      return false;
    }
  }
  return group.size() == 1 || contiguous(value, from, from + group.size());
}

/// `expr` as sum(coefficients[d] * d) + constant.
bool linearize(AffineExpr expr, int64_t scale, MutableArrayRef<int64_t> coeffs,
               int64_t &constant) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    coeffs[dim.getPosition()] += scale;
    return true;
  }
  if (auto value = dyn_cast<AffineConstantExpr>(expr)) {
    constant += scale * value.getValue();
    return true;
  }
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary) {
    return false;
  }
  if (binary.getKind() == AffineExprKind::Add) {
    return linearize(binary.getLHS(), scale, coeffs, constant) &&
           linearize(binary.getRHS(), scale, coeffs, constant);
  }
  if (binary.getKind() == AffineExprKind::Mul) {
    if (auto factor = dyn_cast<AffineConstantExpr>(binary.getRHS())) {
      return linearize(binary.getLHS(), scale * factor.getValue(), coeffs,
                       constant);
    }
  }
  return false;
}

/// The results of `map` as dims, or nullopt when one is neither a dim nor
/// the constant 0 (a broadcast index, kept as -1).
std::optional<SmallVector<int>> dimsOf(AffineMap map) {
  SmallVector<int> dims;
  for (AffineExpr expr : map.getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
      dims.push_back(dim.getPosition());
    } else if (auto constant = dyn_cast<AffineConstantExpr>(expr);
               constant && constant.getValue() == 0) {
      dims.push_back(-1);
    } else {
      return std::nullopt;
    }
  }
  return dims;
}

/// The element type of a contraction the kernels take: f32 with a
/// multiply-add body, i32 with a byte-dot body (`byteDot` set), or i32 A
/// and B with an f32 C and a pair-dot body (`pairDot` set); null
/// otherwise.
Type kernelElement(linalg::LinalgOp op,
                   std::optional<lowering::ByteDotBody> &byteDot,
                   bool &pairDot) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || op.getNumReductionLoops() == 0) {
    return {};
  }
  // i32 operands of two bf16 lanes into f32 (PairDot.h).
  auto elementOf = [](Value v) {
    auto type = dyn_cast<MemRefType>(v.getType());
    return type ? type.getElementType() : Type();
  };
  if (elementOf(op->getOperand(0)) && elementOf(op->getOperand(1)) &&
      elementOf(op->getOperand(0)).isInteger(32) &&
      elementOf(op->getOperand(1)).isInteger(32) &&
      elementOf(op->getOperand(2)) && elementOf(op->getOperand(2)).isF32() &&
      lowering::matchPairDot(op)) {
    pairDot = true;
    return elementOf(op->getOperand(0));
  }
  Type element;
  for (Value operand : op->getOperands()) {
    auto type = dyn_cast<MemRefType>(operand.getType());
    if (!type || (element && type.getElementType() != element)) {
      return {};
    }
    element = type.getElementType();
  }
  if (element.isF32() &&
      linalg::detail::isContractionBody(
          *op.getBlock(), [](Operation *mul, Operation *add) {
            return isa<arith::MulFOp>(mul) && isa<arith::AddFOp>(add);
          })) {
    return element;
  }
  if (element.isInteger(32) && (byteDot = lowering::matchByteDot(op))) {
    return element;
  }
  return {};
}

} // namespace

std::optional<SmallVector<int64_t>> linearCoefficients(linalg::LinalgOp op,
                                                       OpOperand *operand) {
  std::optional<SmallVector<int64_t>> s = strides(operand->get());
  auto type = cast<MemRefType>(operand->get().getType());
  if (!s || !type.hasStaticShape() || ShapedType::isDynamicShape(*s)) {
    return std::nullopt;
  }
  SmallVector<int64_t> result(op.getNumLoops(), 0);
  for (auto [pos, expr] :
       llvm::enumerate(op.getMatchingIndexingMap(operand).getResults())) {
    SmallVector<int64_t> coeffs(op.getNumLoops(), 0);
    int64_t constant = 0;
    if (!linearize(expr, 1, coeffs, constant) || constant != 0) {
      return std::nullopt;
    }
    for (auto [d, c] : llvm::enumerate(coeffs)) {
      result[d] += c * (*s)[pos];
    }
  }
  return result;
}

namespace {

/// B's coefficients per loop dim, in elements, when its indices are linear
/// in the loop dims and every offset fits the gather's 32-bit indices.
std::optional<SmallVector<int64_t>> gatherCoefficients(linalg::LinalgOp op,
                                                       OpOperand *rhs) {
  std::optional<SmallVector<int64_t>> result = linearCoefficients(op, rhs);
  std::optional<SmallVector<int64_t>> s = strides(rhs->get());
  auto type = cast<MemRefType>(rhs->get().getType());
  if (!result || s->back() != 1 ||
      type.getNumElements() >= (int64_t{1} << 31)) {
    return std::nullopt;
  }
  for (int64_t stride : *s) {
    if (stride < 0 || stride >= (int64_t{1} << 31)) {
      return std::nullopt;
    }
  }
  return result;
}

/// The contraction with input `lhsIndex` as A and `rhsIndex` as B.
std::optional<Contraction> matchAs(linalg::LinalgOp op, unsigned lhsIndex,
                                   unsigned rhsIndex) {
  OpOperand *lhs = op.getDpsInputOperand(lhsIndex);
  OpOperand *rhs = op.getDpsInputOperand(rhsIndex);
  OpOperand *out = op.getDpsInitOperand(0);
  std::optional<SmallVector<int>> aDims =
      dimsOf(op.getMatchingIndexingMap(lhs));
  std::optional<SmallVector<int>> cDims =
      dimsOf(op.getMatchingIndexingMap(out));
  if (!aDims || !cDims) {
    return std::nullopt;
  }
  Contraction c;
  c.op = op;
  c.lhs = lhsIndex;
  c.rhs = rhsIndex;
  c.ranges = op.getStaticLoopRanges();
  SmallVector<unsigned> reductions;
  op.getReductionDims(reductions);
  // K: the reduction dims, the trailing dims of A in A's order when there
  // are several.
  if (aDims->size() < reductions.size()) {
    return std::nullopt;
  }
  // (A single reduction dim may sit anywhere in A.)
  if (reductions.size() == 1) {
    if (!llvm::is_contained(*aDims, int(reductions.front()))) {
      return std::nullopt;
    }
    c.kDims.push_back(reductions.front());
  }
  for (size_t i = aDims->size() - reductions.size();
       reductions.size() > 1 && i < aDims->size(); ++i) {
    int d = (*aDims)[i];
    if (d < 0 || !llvm::is_contained(reductions, unsigned(d))) {
      return std::nullopt;
    }
    c.kDims.push_back(d);
  }
  if (c.kDims.size() > 1 &&
      !contiguousFrom(lhs->get(), aDims->size() - c.kDims.size())) {
    return std::nullopt;
  }
  // N: the trailing dims of C that A does not use.
  auto inA = [&](int d) { return llvm::is_contained(*aDims, d); };
  for (size_t i = cDims->size(); i-- > 0;) {
    int d = (*cDims)[i];
    if (d < 0 || inA(d) || llvm::is_contained(c.nDims, unsigned(d))) {
      break;
    }
    c.nDims.insert(c.nDims.begin(), d);
  }
  // A single N dim may have a run-time size (a convolution's output
  // positions over a dynamic image): C's innermost, unit-stride.
  bool dynamicN =
      c.nDims.size() == 1 && ShapedType::isDynamic(c.ranges[c.nDims.front()]);
  if (c.nDims.empty() ||
      (dynamicN
           ? !unitStrideInnermost(out->get())
           : !contiguousFrom(out->get(), cDims->size() - c.nDims.size()))) {
    return std::nullopt;
  }
  // M: the other dims of A that B does not use; the rest are batch loops
  // (which alone may have a size known at run time).
  auto inB = [&](unsigned d) {
    return op.getMatchingIndexingMap(rhs).isFunctionOfDim(d);
  };
  SmallVector<unsigned> ms;
  for (unsigned d = 0; d < op.getNumLoops(); ++d) {
    if (llvm::is_contained(c.kDims, d) || llvm::is_contained(c.nDims, d)) {
      continue;
    }
    if (inA(d) && !inB(d)) {
      ms.push_back(d);
    } else {
      c.batch.push_back(d);
    }
  }
  // Several M dims collapse into one: consecutive (in A's order) just
  // before K in A and just before N in C.
  llvm::sort(ms, [&](unsigned x, unsigned y) {
    return llvm::find(*aDims, int(x)) < llvm::find(*aDims, int(y));
  });
  if (ms.size() > 1 && (aDims->back() != int(c.kDims.back()) ||
                        !groupBefore(*aDims, c.kDims.size(), ms, lhs->get()) ||
                        !groupBefore(*cDims, c.nDims.size(), ms, out->get()))) {
    // Not collapsible: M is the one just before N in C, the others are
    // batch loops (a transposed convolution's kernel taps).
    size_t before = cDims->size() - c.nDims.size();
    int last = before > 0 ? (*cDims)[before - 1] : -1;
    if (last < 0 || !llvm::is_contained(ms, unsigned(last))) {
      return std::nullopt;
    }
    for (unsigned d : ms) {
      if (d != unsigned(last)) {
        c.batch.push_back(d);
      }
    }
    ms = {unsigned(last)};
  }
  c.mDims = ms;
  c.m = c.k = c.n = 1;
  for (unsigned d : c.mDims) {
    c.m *= c.ranges[d];
  }
  for (unsigned d : c.kDims) {
    c.k *= c.ranges[d];
  }
  for (unsigned d : c.nDims) {
    c.n *= c.ranges[d];
  }
  if (dynamicN) {
    c.n = ShapedType::kDynamic;
  }
  for (unsigned d : llvm::concat<unsigned>(c.kDims, ms)) {
    if (ShapedType::isDynamic(c.ranges[d])) {
      return std::nullopt;
    }
  }
  // B as rows: one K and one N dim, N innermost and unit-stride in B.
  std::optional<SmallVector<int>> bDims =
      dimsOf(op.getMatchingIndexingMap(rhs));
  std::optional<SmallVector<int64_t>> bStrides = strides(rhs->get());
  if (c.kDims.size() == 1 && c.nDims.size() == 1 && bDims && bStrides &&
      bDims->back() == int(c.nDims.front()) && bStrides->back() == 1) {
    return c;
  }
  if (dynamicN) {
    return std::nullopt; // gathers need static offsets
  }
  std::optional<SmallVector<int64_t>> coefficients =
      gatherCoefficients(op, rhs);
  if (!coefficients) {
    return std::nullopt;
  }
  c.gather = true;
  c.coefficients = std::move(*coefficients);
  return c;
}

} // namespace

std::optional<Contraction> matchContraction(linalg::LinalgOp op) {
  std::optional<lowering::ByteDotBody> byteDot;
  bool pairDot = false;
  Type element = kernelElement(op, byteDot, pairDot);
  if (!element) {
    return std::nullopt;
  }
  std::optional<Contraction> c = matchAs(op, 0, 1);
  if (!c) {
    c = matchAs(op, 1, 0);
  }
  if (c) {
    c->element = element;
    if (pairDot) {
      c->accElement = Float32Type::get(op.getContext());
    }
    if (byteDot) {
      bool xIsA = byteDot->x == c->lhs;
      c->byteDot = Contraction::ByteLanes{
          xIsA ? byteDot->xUnsigned : byteDot->yUnsigned,
          xIsA ? byteDot->yUnsigned : byteDot->xUnsigned};
    }
  }
  return c;
}

int64_t transposedChunkColumns(const Contraction &c, unsigned vectorBits) {
  int64_t most = kMaxTransposedPanels * transposedColumnsFor(vectorBits);
  if (c.n <= most) {
    return c.n;
  }
  int64_t row = c.n / c.ranges[c.nDims.front()];
  if (c.nDims.size() < 2 || row > most) {
    return 0;
  }
  return most / row * row;
}

bool transposedTiles(const Contraction &c, unsigned vectorBits) {
  // A reduction this long or longer pays for the tile's transposed store
  // (shuffles, then a load per row of C) many times over. One column of
  // C (a squeeze-excite convolution over a pooled 1 x 1 plane) takes any:
  // vectors along N would do one lane's work of 16 at every step (120 ->
  // 480: 14.3 -> 3.4 us, Emerald Rapids, 1 thread).
  constexpr int64_t kMinK = 128;
  if (c.byteDot || c.accElement || !c.element.isF32() || c.mDims.size() != 1 ||
      (c.k < kMinK && c.n > 1) || c.m < transposedRowsFor(vectorBits)) {
    return false;
  }
  for (int64_t range : c.ranges) {
    if (ShapedType::isDynamic(range)) {
      return false;
    }
  }
  linalg::LinalgOp op = c.op;
  if (!initializingFill(op) ||
      !linearCoefficients(op, op.getDpsInputOperand(c.rhs))) {
    return false;
  }
  if (!transposedChunkColumns(c, vectorBits)) {
    return false;
  }
  // The share of lanes that do work: N in vectors of columns (a panel's
  // last vector masked), against M in pairs of vectors of rows (the last
  // tile's rows past M zero). Where both fill their vectors, transposed
  // tiles still win by not packing B (resnet18's 28x28 and 56x56 layers).
  int64_t lanes = lanesFor(vectorBits), rows = transposedRowsFor(vectorBits);
  double alongN = double(c.n) / double(llvm::alignTo(c.n, lanes));
  double alongM = double(c.m) / double(llvm::alignTo(c.m, rows));
  return alongM >= alongN;
}

bool rowsAsBatch(Contraction &c, int64_t maxK, int64_t minRow) {
  if (!c.gather || c.m != 1 || c.k > maxK || c.nDims.size() < 2 || c.byteDot ||
      c.accElement || !c.element.isF32()) {
    return false;
  }
  unsigned innermost = c.nDims.back();
  int64_t stride = c.coefficients[innermost];
  if (c.ranges[innermost] < minRow || (stride != 1 && stride != 2)) {
    return false;
  }
  for (unsigned d : c.nDims) {
    if (ShapedType::isDynamic(c.ranges[d])) {
      return false;
    }
  }
  c.batch.append(c.nDims.begin(), c.nDims.end() - 1);
  c.nDims = {innermost};
  c.n = c.ranges[innermost];
  return true;
}

std::optional<size_t> parallelBatchLevelOf(const Contraction &c,
                                           int64_t minIterations) {
  for (auto [level, d] : llvm::enumerate(c.batch)) {
    if (ShapedType::isDynamic(c.ranges[d])) {
      return std::nullopt;
    }
    if (c.ranges[d] >= minIterations) {
      return level;
    }
    if (c.ranges[d] != 1) {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

std::optional<Contraction> kernelContraction(linalg::LinalgOp op,
                                             unsigned vectorBits,
                                             int64_t maxRowTaps) {
  std::optional<Contraction> c = matchContraction(op);
  if (c) {
    rowsAsBatch(*c, maxRowTaps, lanesFor(vectorBits) / 4);
  }
  return c;
}

int64_t lhsRowBytes(const Contraction &c) {
  linalg::LinalgOp op = c.op;
  OpOperand *operand = op.getDpsInputOperand(c.lhs);
  ArrayRef<AffineExpr> results =
      op.getMatchingIndexingMap(operand).getResults();
  std::optional<SmallVector<int64_t>> lhsStrides = strides(operand->get());
  if (!lhsStrides || results.empty() || c.mDims.empty() || c.kDims.empty()) {
    return 0;
  }
  auto last = dyn_cast<AffineDimExpr>(results.back());
  if (!last || last.getPosition() != c.kDims.back() ||
      lhsStrides->back() != 1) {
    return 0;
  }
  for (auto [i, expr] : llvm::enumerate(results)) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (dim && dim.getPosition() == c.mDims.back()) {
      int64_t stride = (*lhsStrides)[i];
      return ShapedType::isDynamic(stride) || stride <= 0
                 ? 0
                 : stride * c.element.getIntOrFloatBitWidth() / 8;
    }
  }
  return 0;
}

/// K blocks keep a k-block of A (M x KC) in L2 for every panel of B that
/// sweeps it, and C's partial sums go out and come back between blocks.
/// When C outgrows L2 (over 1 MiB: Zen 4's L2, and already slower in
/// blocks on the Xeon's 2 MiB, a 2048 x 1000 x 256 matmul 6.7 -> 8.0 ms;
/// a convolution with few filters over a large plane:
/// PP-OCRv4 det's 96 -> 24 3x3 heads at 160 x 160, K = 864, C 2.4 MB),
/// every block after the first re-reads C from L3 and the fused epilogue
/// waits for the last: one block of all of K then, A streamed from L3 by
/// rows, which the hardware prefetchers follow (a 1024 x 1000 x 1024
/// matmul on an Emerald Rapids Xeon, L2 2 MiB: 13.0 ms in one block, 14.4
/// in blocks of 256 that keep A's in L2).
///
/// Where A's rows are copied in blocks instead (rows 4 KiB apart alias in
/// L1: LhsBlocks.cpp), each block of A's rows, 16 of them with all of K =
/// 1024 in the copy's buffer, sweeps all of B's panels: blocks pay when
/// B outgrows L2 and its k-block fits half of it. A 1024 x 1024 matmul:
/// 14.2 -> 13.1 ms in blocks of 256 on that Xeon; on Zen 4 (L2 1 MiB) its
/// B's blocks of 1 MiB do not stay in L2, and one block was faster (20.8
/// -> 19.0 ms). At most kWholeKRows rows (a packed B panel of K x NR
/// floats is on the stack).
///
/// A product of fewer rows than a tile that streams B from memory
/// (`streamsRhs`: a classifier's weights) reads each element of B once
/// whatever the blocks, and packs no panel: its blocks only stored C's
/// partial sums and switched B's stream from panel to panel at every
/// block. All of K then, however long (mobilenet_v2's 1280 x 1000
/// classifier behind the model's other layers: 0.276-0.350 -> 0.200 ms
/// at 1 thread, 0.19 -> 0.16-0.18 at 2, AMD EPYC Zen 4).
constexpr int64_t kWholeKOutBytes = 1024 * 1024;
constexpr int64_t kWholeKRows = 1024;

int64_t reductionBlock(const Contraction &c, int64_t kBlock, int64_t rows,
                       int64_t l2Bytes) {
  if (!c.element.isF32() || c.byteDot || c.accElement ||
      ShapedType::isDynamic(c.k) || ShapedType::isDynamic(c.n) ||
      ShapedType::isDynamic(c.m) || c.k <= kBlock) {
    return kBlock;
  }
  if (streamsRhs(c.m, rows, c.rhsBytes())) {
    return c.k;
  }
  if (c.k > kWholeKRows || c.m * c.n * 4 <= kWholeKOutBytes) {
    return kBlock;
  }
  // (As LhsBlocks.cpp decides, from what both passes that ask see: a
  // constant A is packed instead, and only AVX-512's tiles copy.)
  int64_t rowBytes = lhsRowBytes(c);
  linalg::LinalgOp op = c.op;
  bool constantLhs = viewRoot(op.getDpsInputOperand(c.lhs)->get())
                         .getDefiningOp<memref::GetGlobalOp>() != nullptr;
  bool copiesLhs = rows == tileRowsFor(512) && !constantLhs && rowBytes > 0 &&
                   rowBytes % kAliasingRowBytes == 0 && c.m >= 2 * rows;
  int64_t rhsBlock = c.rhsBytes() / c.k * kBlock;
  return copiesLhs && c.rhsBytes() > l2Bytes && 2 * rhsBlock <= l2Bytes ? kBlock
                                                                        : c.k;
}

} // namespace infer::cpu
