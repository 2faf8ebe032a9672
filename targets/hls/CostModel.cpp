//===- CostModel.cpp - latency and resources of one HLS operation ---------===//

#include "targets/hls/CostModel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;

namespace infer::hls {

namespace {

/// Cycles at the 4 ns reference clock, DSPs, LUTs, FFs of an f32 core.
constexpr OpCost kFAdd{4, 2, 220, 330};
constexpr OpCost kFMul{3, 3, 80, 150};
constexpr OpCost kFDiv{10, 0, 760, 700};
constexpr OpCost kFSqrt{10, 0, 470, 520};
constexpr OpCost kFExp{9, 7, 820, 620};
constexpr OpCost kFLog{12, 4, 1000, 900};
constexpr OpCost kFTrans{20, 8, 2100, 1600}; // tanh, sin, pow, erf, ...
constexpr OpCost kFCmp{1, 0, 70, 0};
constexpr OpCost kFConvert{4, 0, 220, 180};
constexpr OpCost kFCheap{0, 0, 40, 0}; // neg, abs, copysign: sign bits

unsigned bitWidth(Type type) {
  if (type.isIndex()) {
    return 32;
  }
  return type.isIntOrFloat() ? type.getIntOrFloatBitWidth() : 32;
}

OpCost floatCost(Operation *op) {
  return llvm::TypeSwitch<Operation *, OpCost>(op)
      .Case<arith::AddFOp, arith::SubFOp>([](auto) { return kFAdd; })
      .Case<arith::MulFOp>([](auto) { return kFMul; })
      .Case<arith::DivFOp, arith::RemFOp>([](auto) { return kFDiv; })
      .Case<math::SqrtOp, math::RsqrtOp>([](auto) { return kFSqrt; })
      .Case<math::ExpOp, math::Exp2Op, math::ExpM1Op>(
          [](auto) { return kFExp; })
      .Case<math::LogOp, math::Log2Op, math::Log10Op, math::Log1pOp>(
          [](auto) { return kFLog; })
      .Case<arith::CmpFOp, arith::MaximumFOp, arith::MinimumFOp,
            arith::MaxNumFOp, arith::MinNumFOp>([](auto) { return kFCmp; })
      .Case<arith::NegFOp, math::AbsFOp, math::CopySignOp>(
          [](auto) { return kFCheap; })
      .Case<arith::SIToFPOp, arith::UIToFPOp, arith::FPToSIOp, arith::FPToUIOp,
            arith::ExtFOp, arith::TruncFOp, math::FloorOp, math::CeilOp,
            math::RoundOp, math::RoundEvenOp, math::TruncOp>(
          [](auto) { return kFConvert; })
      .Case<math::FmaOp>([](auto) {
        return OpCost{kFAdd.latency + kFMul.latency, kFAdd.dsp + kFMul.dsp,
                      kFAdd.lut + kFMul.lut, kFAdd.ff + kFMul.ff};
      })
      .Default([](Operation *op) {
        return op->getDialect() && op->getDialect()->getNamespace() == "math"
                   ? kFTrans
                   : OpCost{};
      });
}

OpCost integerCost(Operation *op, unsigned width) {
  int64_t w = width;
  return llvm::TypeSwitch<Operation *, OpCost>(op)
      .Case<arith::MulIOp>([&](auto) {
        // One DSP48 multiplies 27x18 bits; narrow products fit in LUTs.
        if (w <= 10) {
          return OpCost{1, 0, w * w, w};
        }
        int64_t dsp = w <= 18 ? 1 : w <= 32 ? 3 : 10;
        return OpCost{w <= 18 ? 1 : 3, dsp, 20, 2 * w};
      })
      .Case<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp>(
          [&](auto) { return OpCost{w + 3, 0, w * w / 2, w * w}; })
      .Case<arith::AddIOp, arith::SubIOp, arith::CmpIOp, arith::MaxSIOp,
            arith::MinSIOp, arith::MaxUIOp, arith::MinUIOp>(
          [&](auto) { return OpCost{0, 0, w, 0}; })
      .Case<arith::SelectOp, arith::AndIOp, arith::OrIOp, arith::XOrIOp,
            arith::ShLIOp, arith::ShRSIOp, arith::ShRUIOp>(
          [&](auto) { return OpCost{0, 0, w / 2 + 1, 0}; })
      .Default([](auto) { return OpCost{}; });
}

} // namespace

OpCost opCost(Operation *op, double clockNs) {
  OpCost cost;
  if (isa<memref::LoadOp>(op)) {
    cost = {2, 0, 0, 0}; // address, then the RAM's registered output
  } else if (isa<memref::StoreOp>(op)) {
    cost = {1, 0, 0, 0};
  } else if (op->getNumResults() != 1 || op->getNumRegions() != 0) {
    return {};
  } else {
    Type type = op->getResult(0).getType();
    // Comparisons and conversions cost what their operand type costs.
    Type operandType =
        op->getNumOperands() ? op->getOperand(0).getType() : type;
    Type floatType = isa<FloatType>(type) ? type : operandType;
    if (isa<FloatType>(floatType) && !isa<arith::SelectOp>(op)) {
      cost = floatCost(op);
      if (floatType.isF64()) {
        // Double-precision cores: about 3x the DSPs, 2x the logic.
        cost.latency += cost.latency ? 2 : 0;
        cost.dsp *= 3;
        cost.lut *= 2;
        cost.ff *= 2;
      }
    } else {
      cost = integerCost(op, std::max(bitWidth(type), bitWidth(operandType)));
    }
  }
  // The reference latencies are at 4 ns; a slower clock fits more logic in
  // one cycle, a faster one needs more stages.
  if (cost.latency > 0) {
    cost.latency = std::max<int64_t>(
        1, static_cast<int64_t>(std::ceil(cost.latency * 4.0 / clockNs)));
  }
  return cost;
}

} // namespace infer::hls
