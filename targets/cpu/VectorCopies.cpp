//===- VectorCopies.cpp - row copies as vector loads and stores -----------===//
//
// A linalg.copy on buffers whose rows (innermost dim) have unit stride on
// both sides: loops over the outer dims, and per row whole vectors loaded
// and stored, then the row's last elements with a masked load and store.
// ConvertLinalgToLoops left such copies to LLVM's loop vectorizer, which
// over views with run-time offsets (a model input copied into a padded
// buffer's interior, a chunk of rows per thread) emitted gathers and
// scatters of 8 lanes.
//
//===----------------------------------------------------------------------===//

#include "targets/cpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

namespace infer::cpu {
#define GEN_PASS_DEF_VECTORCOPIESPASS
#include "targets/cpu/Passes.h.inc"

namespace {

/// Whether `type`'s innermost dim has unit stride.
bool unitRows(MemRefType type) {
  if (type.getRank() == 0) {
    return false;
  }
  SmallVector<int64_t> strides;
  int64_t offset;
  return succeeded(type.getStridesAndOffset(strides, offset)) &&
         strides.back() == 1;
}

void vectorCopy(linalg::CopyOp copy, unsigned vectorBits) {
  OpBuilder b(copy);
  Location loc = copy.getLoc();
  Value source = copy.getDpsInputOperand(0)->get();
  Value target = copy.getDpsInitOperand(0)->get();
  auto type = cast<MemRefType>(source.getType());
  int64_t rank = type.getRank();
  int64_t lanes = vectorBits / type.getElementTypeBitWidth();
  auto vectorType = VectorType::get({lanes}, type.getElementType());
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  SmallVector<Value> ivs;
  for (int64_t d = 0; d + 1 < rank; ++d) {
    Value size = b.createOrFold<memref::DimOp>(loc, source, d);
    auto loop = scf::ForOp::create(b, loc, index(0), size, index(1));
    b.setInsertionPointToStart(loop.getBody());
    ivs.push_back(loop.getInductionVar());
  }
  Value length = b.createOrFold<memref::DimOp>(loc, source, rank - 1);
  // Whole vectors, then the remainder under a mask.
  Value whole = b.createOrFold<arith::MulIOp>(
      loc, b.createOrFold<arith::DivUIOp>(loc, length, index(lanes)),
      index(lanes));
  auto at = [&](Value j) {
    SmallVector<Value> indices(ivs);
    indices.push_back(j);
    return indices;
  };
  auto loop = scf::ForOp::create(b, loc, index(0), whole, index(lanes));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value v = vector::LoadOp::create(b, loc, vectorType, source,
                                     at(loop.getInductionVar()));
    vector::StoreOp::create(b, loc, v, target, at(loop.getInductionVar()));
  }
  Value rest = b.createOrFold<arith::SubIOp>(loc, length, whole);
  Value any = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ugt,
                                            rest, index(0));
  auto tail = scf::IfOp::create(b, loc, any, /*withElseRegion=*/false);
  b.setInsertionPointToStart(tail.thenBlock());
  Value mask = vector::CreateMaskOp::create(
      b, loc, VectorType::get({lanes}, b.getI1Type()), ValueRange{rest});
  Value zero = arith::ConstantOp::create(
      b, loc, vectorType, cast<TypedAttr>(b.getZeroAttr(vectorType)));
  Value v = vector::MaskedLoadOp::create(b, loc, vectorType, source, at(whole),
                                         mask, zero);
  vector::MaskedStoreOp::create(b, loc, target, at(whole), mask, v);
  copy->erase();
}

struct VectorCopiesPass final : impl::VectorCopiesPassBase<VectorCopiesPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<linalg::CopyOp> copies;
    getOperation().walk([&](linalg::CopyOp copy) {
      auto source =
          dyn_cast<MemRefType>(copy.getDpsInputOperand(0)->get().getType());
      auto target =
          dyn_cast<MemRefType>(copy.getDpsInitOperand(0)->get().getType());
      if (!source || !target || !unitRows(source) || !unitRows(target)) {
        return;
      }
      Type element = source.getElementType();
      if (element != target.getElementType() || !element.isIntOrFloat()) {
        return;
      }
      unsigned bits = element.getIntOrFloatBitWidth();
      if (bits < 8 || bits > 64 || vectorBits % bits) {
        return;
      }
      copies.push_back(copy);
    });
    for (linalg::CopyOp copy : copies) {
      vectorCopy(copy, vectorBits);
    }
  }
};

} // namespace
} // namespace infer::cpu
