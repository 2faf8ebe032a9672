//===- ByteDot.h - products of four packed 8-bit lanes ----------*- C++ -*-===//
//
// The int8 convolutions contract i32 values that each hold four 8-bit
// lanes (lane j in bits 8j..8j+7): four input channels of one pixel, or
// four weights of one filter. A step of the reduction is
//
//   acc + sum_j ext(lane_j(a)) * ext(lane_j(b))
//
// with each operand's lanes zero- or sign-extended. The lowering writes it
// as scalar arith ops (what every target runs as it is); the CPU kernels
// recognize that exact body and compute it with one `vpdpbusd` per vector
// (AVX-512 VNNI / AVX-VNNI), which computes the same sum in 32 bits without
// saturation. Header-only: the lowering builds it, targets/cpu matches it.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_PASSES_LOWERING_BYTEDOT_H
#define INFER_PASSES_LOWERING_BYTEDOT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

#include <optional>

namespace infer::lowering {

inline constexpr int kByteLanes = 4;

/// Lane `j` of the packed i32 `v`, extended to i32.
inline mlir::Value byteLane(mlir::OpBuilder &b, mlir::Location l, mlir::Value v,
                            int j, bool isUnsigned) {
  mlir::Type i32 = b.getI32Type();
  if (j > 0) {
    v = mlir::arith::ShRUIOp::create(
        b, l, v, mlir::arith::ConstantIntOp::create(b, l, i32, 8 * j));
  }
  mlir::Value lane = mlir::arith::TruncIOp::create(b, l, b.getI8Type(), v);
  return isUnsigned ? mlir::arith::ExtUIOp::create(b, l, i32, lane).getResult()
                    : mlir::arith::ExtSIOp::create(b, l, i32, lane).getResult();
}

/// acc + the dot product of the four lanes of `x` and `y`.
inline mlir::Value buildByteDot(mlir::OpBuilder &b, mlir::Location l,
                                mlir::Value acc, mlir::Value x, bool xUnsigned,
                                mlir::Value y, bool yUnsigned) {
  mlir::Value sum = acc;
  for (int j = 0; j < kByteLanes; ++j) {
    mlir::Value product = mlir::arith::MulIOp::create(
        b, l, byteLane(b, l, x, j, xUnsigned), byteLane(b, l, y, j, yUnsigned));
    sum = mlir::arith::AddIOp::create(b, l, sum, product);
  }
  return sum;
}

/// A contraction body that is buildByteDot's: which block arguments are
/// the lanes' operands, and whether each is zero-extended.
struct ByteDotBody {
  unsigned x = 0, y = 1;
  bool xUnsigned = false, yUnsigned = false;
};

namespace detail {
/// The block argument `v` extends lane `j` of, and whether unsigned.
inline std::optional<std::pair<unsigned, bool>> laneSource(mlir::Value v,
                                                           int j) {
  bool isUnsigned = false;
  mlir::Value lane;
  if (auto ext = v.getDefiningOp<mlir::arith::ExtUIOp>()) {
    isUnsigned = true;
    lane = ext.getIn();
  } else if (auto ext = v.getDefiningOp<mlir::arith::ExtSIOp>()) {
    lane = ext.getIn();
  } else {
    return std::nullopt;
  }
  auto trunc = lane.getDefiningOp<mlir::arith::TruncIOp>();
  if (!trunc || !trunc.getType().isInteger(8)) {
    return std::nullopt;
  }
  mlir::Value packed = trunc.getIn();
  if (j > 0) {
    auto shift = packed.getDefiningOp<mlir::arith::ShRUIOp>();
    llvm::APInt amount;
    if (!shift ||
        !mlir::matchPattern(shift.getRhs(), mlir::m_ConstantInt(&amount)) ||
        amount != 8 * j) {
      return std::nullopt;
    }
    packed = shift.getLhs();
  }
  auto arg = llvm::dyn_cast<mlir::BlockArgument>(packed);
  if (!arg || !arg.getType().isInteger(32)) {
    return std::nullopt;
  }
  return std::pair(arg.getArgNumber(), isUnsigned);
}
} // namespace detail

/// Whether `op`'s body (inputs x, y; the accumulator last) is exactly
/// buildByteDot's over i32 operands.
inline std::optional<ByteDotBody> matchByteDot(mlir::linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1) {
    return std::nullopt;
  }
  mlir::Block *body = op.getBlock();
  auto yield = llvm::cast<mlir::linalg::YieldOp>(body->getTerminator());
  if (yield.getNumOperands() != 1) {
    return std::nullopt;
  }
  mlir::Value sum = yield.getOperand(0);
  std::optional<ByteDotBody> match;
  for (int j = kByteLanes - 1; j >= 0; --j) {
    auto add = sum.getDefiningOp<mlir::arith::AddIOp>();
    auto mul = add ? add.getRhs().getDefiningOp<mlir::arith::MulIOp>()
                   : mlir::arith::MulIOp();
    if (!mul) {
      return std::nullopt;
    }
    auto x = detail::laneSource(mul.getLhs(), j);
    auto y = detail::laneSource(mul.getRhs(), j);
    if (!x || !y || x->first == y->first) {
      return std::nullopt;
    }
    ByteDotBody step{x->first, y->first, x->second, y->second};
    if (match && (match->x != step.x || match->y != step.y ||
                  match->xUnsigned != step.xUnsigned ||
                  match->yUnsigned != step.yUnsigned)) {
      return std::nullopt;
    }
    match = step;
    sum = add.getLhs();
  }
  auto acc = llvm::dyn_cast<mlir::BlockArgument>(sum);
  if (!acc || acc.getArgNumber() != 2 || match->x > 1 || match->y > 1 ||
      !acc.getType().isInteger(32)) {
    return std::nullopt;
  }
  // Nothing else in the body: 4 x (2 lanes of up to 3 ops, mul, add).
  for (mlir::Operation &inner : body->without_terminator()) {
    if (!llvm::isa<mlir::arith::ShRUIOp, mlir::arith::TruncIOp,
                   mlir::arith::ExtUIOp, mlir::arith::ExtSIOp,
                   mlir::arith::MulIOp, mlir::arith::AddIOp,
                   mlir::arith::ConstantOp>(inner)) {
      return std::nullopt;
    }
  }
  return match;
}

} // namespace infer::lowering

#endif // INFER_PASSES_LOWERING_BYTEDOT_H
