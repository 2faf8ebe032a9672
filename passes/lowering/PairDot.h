//===- PairDot.h - products of two packed bfloat16 lanes --------*- C++ -*-===//
//
// The bf16 matmuls and convolutions (--precision=bf16) contract i32 values
// that each hold two bfloat16 lanes (lane 0 in bits 0..15, lane 1 in bits
// 16..31): two input channels of one pixel, or two weights of one filter,
// rounded to nearest even from f32. A step of the reduction accumulates
// in f32:
//
//   acc + f32(lane_1(a)) * f32(lane_1(b)) + f32(lane_0(a)) * f32(lane_0(b))
//
// in that order, each product exact in f32 and each sum rounded: what
// `vdpbf16ps` computes (AVX512-BF16), apart from its flushing of
// subnormals. A lane widens to f32 by putting its 16 bits on top
// (lane 0: v << 16, lane 1: v & 0xffff0000), so the body is plain scalar
// arith that every target runs as it is; the CPU kernels recognize that
// exact body and compute it with one vdpbf16ps per vector, or two FMAs on
// the widened lanes without AVX512-BF16. Header-only: the lowering builds
// it, targets/cpu matches it.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_PASSES_LOWERING_PAIRDOT_H
#define INFER_PASSES_LOWERING_PAIRDOT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>

namespace infer::lowering {

inline constexpr int kPairLanes = 2;
/// Lane 1's bits of a packed pair (lane 0 is widened by a shift).
inline constexpr int64_t kHighLaneMask = int64_t(int32_t(0xffff0000u));

/// The bfloat16 bits of `v` rounded to nearest even (NaN stays a quiet
/// NaN): the top half of its f32 bits.
inline uint16_t bf16Bits(float v) {
  if (std::isnan(v)) {
    return 0x7fc0;
  }
  uint32_t bits = 0;
  std::memcpy(&bits, &v, sizeof bits);
  bits += 0x7fffu + ((bits >> 16) & 1u);
  return uint16_t(bits >> 16);
}

/// Lane `j` of the packed i32 `v` as the f32 it widens to.
inline mlir::Value pairLane(mlir::OpBuilder &b, mlir::Location l, mlir::Value v,
                            int j) {
  mlir::Type i32 = b.getI32Type();
  mlir::Value bits =
      j == 0 ? mlir::arith::ShLIOp::create(
                   b, l, v, mlir::arith::ConstantIntOp::create(b, l, i32, 16))
                   .getResult()
             : mlir::arith::AndIOp::create(
                   b, l, v,
                   mlir::arith::ConstantIntOp::create(b, l, i32, kHighLaneMask))
                   .getResult();
  return mlir::arith::BitcastOp::create(b, l, b.getF32Type(), bits);
}

/// acc + the dot product of the two lanes of `x` and `y`, lane 1 first.
inline mlir::Value buildPairDot(mlir::OpBuilder &b, mlir::Location l,
                                mlir::Value acc, mlir::Value x, mlir::Value y) {
  mlir::Value sum = acc;
  for (int j = kPairLanes - 1; j >= 0; --j) {
    mlir::Value xLane = pairLane(b, l, x, j);
    mlir::Value yLane = pairLane(b, l, y, j);
    mlir::Value product = mlir::arith::MulFOp::create(b, l, xLane, yLane);
    sum = mlir::arith::AddFOp::create(b, l, sum, product);
  }
  return sum;
}

namespace detail {
/// The block argument `v` widens lane `j` of.
inline std::optional<unsigned> pairLaneSource(mlir::Value v, int j) {
  auto cast = v.getDefiningOp<mlir::arith::BitcastOp>();
  if (!cast || !cast.getType().isF32()) {
    return std::nullopt;
  }
  mlir::Operation *widen = cast.getIn().getDefiningOp();
  llvm::APInt constant;
  if (!widen || widen->getNumOperands() != 2 ||
      !mlir::matchPattern(widen->getOperand(1),
                          mlir::m_ConstantInt(&constant))) {
    return std::nullopt;
  }
  bool matches = j == 0
                     ? llvm::isa<mlir::arith::ShLIOp>(widen) && constant == 16
                     : llvm::isa<mlir::arith::AndIOp>(widen) &&
                           constant.getSExtValue() == kHighLaneMask;
  auto arg = llvm::dyn_cast<mlir::BlockArgument>(widen->getOperand(0));
  if (!matches || !arg || !arg.getType().isInteger(32)) {
    return std::nullopt;
  }
  return arg.getArgNumber();
}
} // namespace detail

/// Whether `op`'s body (inputs x, y of i32; an f32 accumulator last) is
/// exactly buildPairDot's.
inline bool matchPairDot(mlir::linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1) {
    return false;
  }
  mlir::Block *body = op.getBlock();
  auto yield = llvm::cast<mlir::linalg::YieldOp>(body->getTerminator());
  if (yield.getNumOperands() != 1) {
    return false;
  }
  mlir::Value sum = yield.getOperand(0);
  for (int j = 0; j < kPairLanes; ++j) {
    auto add = sum.getDefiningOp<mlir::arith::AddFOp>();
    auto mul = add ? add.getRhs().getDefiningOp<mlir::arith::MulFOp>()
                   : mlir::arith::MulFOp();
    if (!mul) {
      return false;
    }
    auto x = detail::pairLaneSource(mul.getLhs(), j);
    auto y = detail::pairLaneSource(mul.getRhs(), j);
    if (!x || !y || *x > 1 || *y > 1 || *x == *y) {
      return false;
    }
    sum = add.getLhs();
  }
  auto acc = llvm::dyn_cast<mlir::BlockArgument>(sum);
  if (!acc || acc.getArgNumber() != 2 || !acc.getType().isF32()) {
    return false;
  }
  // Nothing else in the body: 2 x (2 lanes of 2 ops, mul, add).
  for (mlir::Operation &inner : body->without_terminator()) {
    if (!llvm::isa<mlir::arith::ShLIOp, mlir::arith::AndIOp,
                   mlir::arith::BitcastOp, mlir::arith::MulFOp,
                   mlir::arith::AddFOp, mlir::arith::ConstantOp>(inner)) {
      return false;
    }
  }
  return true;
}

} // namespace infer::lowering

#endif // INFER_PASSES_LOWERING_PAIRDOT_H
